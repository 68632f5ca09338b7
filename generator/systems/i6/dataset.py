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
    ratings: Mapping[str, int]          # every trait of the setting, in list order
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
            problems.extend(duplicate_list_names(docs[name], [i.name for i in items], entry_key((key,)), what))
    trait_names = [t.name for t in traits] if traits is not None else None
    if trait_names is not None:
        problems.extend(_rule_traits(docs["traits.yaml"], trait_names))
        if info:
            problems.extend(_known(docs["game.yaml"], ("medical_trait",), info.medical_trait, trait_names, "trait"))
        for i, item in enumerate(gear or ()):
            if item.weapon:
                problems.extend(_known(docs["gear.yaml"], ("gear", i, "weapon", "trait"), item.weapon.trait,
                                       trait_names, "trait"))

    heroes, found = _load_heroes(folder, display_root, info, trait_names, features, gear)
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


def _known(doc: YamlDocument, loc: tuple, name: str, allowed: list[str], what: str,
           key: bool = False) -> list[Problem]:
    """An unknown name, located, with the nearest known one when there is one."""
    if name in allowed:
        return []
    return [doc.problem(loc, f"unknown {what} '{name}'", key=key,
                        hint=did_you_mean(name, allowed) or WHERE_DEFINED[what])]


def _rule_traits(doc: YamlDocument, names: list[str]) -> list[Problem]:
    missing = [t for t in RULE_TRAITS if t not in names]
    if not missing:
        return []
    return [doc.problem(("traits",), "missing traits the rules use: " + ", ".join(missing)
                        + " (" + "; ".join(f"{t}: {RULE_TRAITS[t]}" for t in missing) + ")",
                        hint="add them to the list, with a description in the setting's words")]


def _load_heroes(folder: Path, display_root: Path, info: GameInfo | None, trait_names: list[str] | None,
                 features: list[Feature] | None, gear: list[Gear] | None
                 ) -> tuple[list[HeroEntry], list[Problem]]:
    problems: list[Problem] = []
    feature_by = {f.name: f for f in features or ()}
    gear_by = {g.name: g for g in gear or ()}

    def references(doc: YamlDocument, hero: Hero | None) -> list[Problem]:
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
            for name in ratings:
                bad_refs += _known(doc, ("traits", name), str(name), trait_names, "trait", key=True)
        return bad_refs

    def member(key: str, doc: YamlDocument, hero: Hero) -> tuple[HeroEntry | None, list[Problem]]:
        if info is None or trait_names is None or features is None or gear is None:
            return None, []
        full = {name: hero.traits.get(name, 1) for name in trait_names}
        owned_features = tuple(feature_by[n] for n in hero.features)
        owned_gear = tuple(gear_by[n] for n in hero.gear)
        points = spend(full, (f.cost for f in owned_features), (g.cost for g in owned_gear), info.budget)
        boxes = info.wound_boxes + sum(f.extra_wound_boxes for f in owned_features)
        return (HeroEntry(key, doc.display, hero, MappingProxyType(full), owned_features, owned_gear, points, boxes),
                _budget(doc, points))

    entries = load_cast(folder / "heroes", display_root, Hero, "hero", problems, references, member)
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
