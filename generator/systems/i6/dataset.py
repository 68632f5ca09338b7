"""Load an I6 data folder into one validated, cross-checked setting.

Core layer: reads YAML through `loading`, validates with the models, then
checks what no single file can: names that exist, the traits the rules need,
and each hero's spending against the budget. Every problem is reported.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ...core.cast_order import casting_first
from ...core.datafiles import duplicate_list_names, entry_key, load_cast, read_validated, unused_files
from ...core.errors import Problem, did_you_mean, errors_in
from ...core.loading import YamlDocument
from ...core.rulings import Ruling, load_rulings
from .models import (RULE_TRAITS, Action, ActionsFile, Feature, FeaturesFile, GameInfo, Gear, GearFile, Hero,
                     Trait, TraitsFile)
from .points import Spend, spend

RULINGS_FILE = Path(__file__).with_name("rulings.yaml")
KNOWN_FILES = ("game.yaml", "traits.yaml", "features.yaml", "gear.yaml", "actions.yaml")


@dataclass(frozen=True)
class HeroEntry:
    """A hero with everything the printers need, worked out once."""

    slug: str
    source: str
    hero: Hero
    ratings: Mapping[str, int]          # every trait of the setting by its key (Trait.key), in list order
    features: tuple[Feature, ...]
    gear: tuple[Gear, ...]
    spend: Spend
    wound_boxes: int


@dataclass(frozen=True)
class I6Game:
    folder: Path
    info: GameInfo
    traits: tuple[Trait, ...]
    features: tuple[Feature, ...]
    gear: tuple[Gear, ...]
    actions: tuple[Action, ...]
    heroes: tuple[HeroEntry, ...]
    rulings: tuple[Ruling, ...]

    def trait(self, reference: str) -> Trait:
        """The trait a name, an id or (data written before ids) an English word stands for."""
        return trait_references(self.traits)[reference]

    def word(self, reference: str) -> str:
        """The trait's name as printed, in the game's language (`brawn` -> Kraft)."""
        return self.trait(reference).word()


def load_game(folder: Path, display_root: Path) -> tuple[I6Game | None, list[Problem]]:
    """Load data/i6/."""
    problems: list[Problem] = []
    files: dict[str, Any] = {}
    docs: dict[str, YamlDocument] = {}
    models = {"game.yaml": GameInfo, "traits.yaml": TraitsFile, "features.yaml": FeaturesFile,
              "gear.yaml": GearFile, "actions.yaml": ActionsFile}
    for name, model in models.items():
        files[name], doc = read_validated(folder / name, display_root, model, problems)
        if doc is not None:
            docs[name] = doc

    info: GameInfo | None = files.get("game.yaml")
    traits = files["traits.yaml"].traits if files.get("traits.yaml") else None
    features = files["features.yaml"].features if files.get("features.yaml") else None
    gear = files["gear.yaml"].gear if files.get("gear.yaml") else None
    for name, items, what in (("traits.yaml", traits, "trait"), ("features.yaml", features, "feature"),
                              ("gear.yaml", gear, "gear")):
        if items is not None:
            key = name.removesuffix(".yaml")
            names = [i.name or f"unnamed {n}" for n, i in enumerate(items)]     # a trait may have an id only
            problems.extend(duplicate_list_names(docs[name], names, entry_key((key,)), what))
    trait_names = TraitNames(traits) if traits is not None else None
    if traits is not None and trait_names is not None:
        problems.extend(_rule_traits(docs["traits.yaml"], traits))
        if info:
            problems.extend(_known(docs["game.yaml"], ("medical_trait",), info.medical_trait, trait_names, "trait"))
        for i, item in enumerate(gear or ()):
            if item.weapon:
                problems.extend(_known(docs["gear.yaml"], ("gear", i, "weapon", "trait"), item.weapon.trait,
                                       trait_names, "trait"))

    heroes, found = _load_heroes(folder, display_root, info, traits, features, gear)
    problems.extend(found)
    rulings, found = load_rulings(RULINGS_FILE)
    problems.extend(found)
    problems.extend(unused_files(folder, display_root, KNOWN_FILES, "heroes go in heroes/"))
    if errors_in(problems) or info is None or traits is None or features is None or gear is None \
            or not files.get("actions.yaml"):
        return None, problems
    return I6Game(folder, info, tuple(traits), tuple(features), tuple(gear),
                  tuple(files["actions.yaml"].actions), tuple(heroes), rulings), problems


WHERE_DEFINED = {"trait": "traits are listed in traits.yaml", "feature": "features are defined in features.yaml",
                 "gear": "gear is defined in gear.yaml"}


def _known(doc: YamlDocument, loc: tuple, name: str, allowed: Sequence[str], what: str,
           key: bool = False) -> list[Problem]:
    """An unknown name, located, with the nearest known one when there is one
    (a trait by its name, else by its id)."""
    if name in allowed:
        return []
    shown = [n for n in allowed if not isinstance(allowed, TraitNames) or n in allowed.shown]
    return [doc.problem(loc, f"unknown {what} '{name}'", key=key,
                        hint=did_you_mean(name, shown) or WHERE_DEFINED[what])]


class TraitNames(list[str]):
    """Every reference to a trait the data may use (trait_references), and
    the ones a hint suggests: each trait's name, else its id."""

    def __init__(self, traits: Sequence[Trait]):
        super().__init__(trait_references(traits))
        self.shown = {t.name or t.id or "" for t in traits}


def trait_references(traits: Sequence[Trait]) -> dict[str, Trait]:
    """Every way the data may name a trait: its name, its id, and a rule
    trait's English word (the names of data written before ids)."""
    found: dict[str, Trait] = {}
    for trait in traits:
        if trait.id is not None:
            found.setdefault(RULE_TRAITS[trait.id].word, trait)
            found.setdefault(trait.id, trait)
    for trait in traits:
        if trait.name is not None:
            found[trait.name] = trait
    return found


def _rule_traits(doc: YamlDocument, traits: Sequence[Trait]) -> list[Problem]:
    """Each trait the rules use once, found by its id."""
    problems = []
    seen: set[str] = set()
    for i, trait in enumerate(traits):
        if trait.id in seen:
            problems.append(doc.problem(("traits", i, "id"), f"a second trait with id '{trait.id}'",
                                        hint="each trait the rules use is listed once"))
        seen.add(trait.id or "")
    missing = [t for t in RULE_TRAITS if t not in seen]
    if missing:
        problems.append(doc.problem(
            ("traits",), "missing traits the rules use: " + ", ".join(missing)
            + " (" + "; ".join(f"{t}: {RULE_TRAITS[t].use}" for t in missing) + ")",
            hint=f"add each with its id and a name in the setting's language, e.g. '- id: {missing[0]}' "
                 "with 'name:' and 'description:' (the name may be left out: the tool's word is printed)"))
    return problems


def _load_heroes(folder: Path, display_root: Path, info: GameInfo | None, traits: list[Trait] | None,
                 features: list[Feature] | None, gear: list[Gear] | None
                 ) -> tuple[list[HeroEntry], list[Problem]]:
    problems: list[Problem] = []
    references = trait_references(traits or ())
    trait_names = TraitNames(traits) if traits is not None else None
    feature_by = {f.name: f for f in features or ()}
    gear_by = {g.name: g for g in gear or ()}

    def known_references(doc: YamlDocument, hero: Hero | None) -> list[Problem]:
        # Checked even when the file has other errors, so one run shows them all.
        raw = doc.data if isinstance(doc.data, dict) else {}
        bad_refs: list[Problem] = []
        for key, library, what in (("features", features, "feature"), ("gear", gear, "gear")):
            names = raw.get(key)
            if library is not None and isinstance(names, list):
                for i, name in enumerate(names):
                    if isinstance(name, str):
                        bad_refs += _known(doc, (key, i), name.strip(), [x.name for x in library], what)
        ratings = raw.get("traits")
        if trait_names is not None and isinstance(ratings, dict):
            rated: dict[str, str] = {}
            for name in ratings:
                bad_refs += _known(doc, ("traits", name), str(name), trait_names, "trait", key=True)
                if (trait := references.get(str(name))) is not None and trait.key in rated:
                    bad_refs.append(doc.problem(("traits", name), f"'{name}' rates the same trait as "
                                                f"'{rated[trait.key]}'", key=True, hint="rate each trait once"))
                elif trait is not None:
                    rated[trait.key] = str(name)
        return bad_refs

    def member(key: str, doc: YamlDocument, hero: Hero) -> tuple[HeroEntry | None, list[Problem]]:
        if info is None or traits is None or features is None or gear is None:
            return None, []
        by_key = {references[name].key: rating for name, rating in hero.traits.items()}
        full = {trait.key: by_key.get(trait.key, 1) for trait in traits or ()}
        owned_features = tuple(feature_by[n] for n in hero.features)
        owned_gear = tuple(gear_by[n] for n in hero.gear)
        points = spend(full, (f.cost for f in owned_features), (g.cost for g in owned_gear), info.budget)
        boxes = info.wound_boxes + sum(f.extra_wound_boxes for f in owned_features)
        return (HeroEntry(key, doc.display, hero, MappingProxyType(full), owned_features, owned_gear, points, boxes),
                _budget(doc, points))

    entries = load_cast(folder / "heroes", display_root, Hero, "hero", problems, known_references, member)
    return entries, problems


def _budget(doc: YamlDocument, points: Spend) -> list[Problem]:
    detail = f"traits {points.traits}, features {points.features}, gear {points.gear}"
    if points.left < 0:
        return [doc.problem(("name",), f"spends {points.total} points, {-points.left} over the budget of "
                            f"{points.budget} ({detail})",
                            hint="lower a trait (a 5 costs 6 points), or drop a feature or some gear")]
    if points.left > 0:
        return [doc.problem(("name",), f"spends {points.total} of {points.budget} points, "
                            f"{points.left} left unspent ({detail})", hint="fine if intended",
                            severity="warning")]
    return []


def recast(game: I6Game, slugs: Sequence[str]) -> I6Game:
    """The game with its heroes in a casting file's order (core/cast_order.py)."""
    return replace(game, heroes=tuple(casting_first(game.heroes, lambda entry: entry.slug, slugs)))
