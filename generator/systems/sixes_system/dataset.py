"""Load a Sixes System data folder into one validated, cross-checked campaign.

Core layer: reads YAML through `loading`, validates with the models, and
checks what one file alone cannot: the matrix holds each of the sixteen
pairings once, each cover level once, and every weapon and defence names a
stat and skill its combatant has. Every problem is reported, not the first.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...datafiles import duplicate_name, entity_slug, read_entities, read_validated, unused_files
from ...errors import Problem, did_you_mean, errors_in
from ...loading import YamlDocument
from ...rulings import Ruling, load_rulings
from .models import ATTACK_MODES, COVER_LEVELS, DEFENCE_MODES, Combatant, Game, ModesFile

RULINGS_FILE = Path(__file__).with_name("rulings.yaml")
KNOWN_FILES = {"game.yaml", "modes.yaml"}


@dataclass(frozen=True)
class CastMember:
    slug: str
    source: str
    combatant: Combatant


@dataclass(frozen=True)
class Campaign:
    folder: Path
    game: Game
    modes: ModesFile
    cast: tuple[CastMember, ...]
    rulings: tuple[Ruling, ...]


def load_campaign(folder: Path, display_root: Path, icon_names: frozenset[str] | None = None
                  ) -> tuple[Campaign | None, list[Problem]]:
    """Load data/sixes-system/ (icons are not used by this system)."""
    problems: list[Problem] = []

    game, _ = read_validated(folder / "game.yaml", display_root, Game, problems)
    modes, doc = read_validated(folder / "modes.yaml", display_root, ModesFile, problems)
    if modes:
        problems.extend(_check_matrix(doc, modes))
        problems.extend(_check_cover(doc, modes))
    cast, found = _load_cast(folder, display_root, modes)
    problems.extend(found)
    rulings, found = load_rulings(RULINGS_FILE)
    problems.extend(found)
    problems.extend(unused_files(folder, display_root, KNOWN_FILES, "combatants go in combatants/"))
    if errors_in(problems) or not (game and modes):
        return None, problems
    return Campaign(folder, game, modes, tuple(cast), rulings), problems




def _check_matrix(doc: YamlDocument, modes: ModesFile) -> list[Problem]:
    problems, seen = [], {}
    for i, entry in enumerate(modes.matrix):
        pair = (entry.attack, entry.defence)
        if pair in seen:
            line = doc.position(("matrix", seen[pair]))[0]
            problems.append(doc.problem(("matrix", i), f"{entry.attack} against {entry.defence} is listed twice",
                                        hint=f"it is already on line {line}"))
        else:
            seen[pair] = i
    missing = [f"{a} vs {d}" for a in ATTACK_MODES for d in DEFENCE_MODES if (a, d) not in seen]
    if missing:
        problems.append(doc.problem(("matrix",), "the matrix needs all sixteen pairings; missing: "
                                    + ", ".join(missing)))
    return problems


def _check_cover(doc: YamlDocument, modes: ModesFile) -> list[Problem]:
    problems, seen = [], {}
    for i, cover in enumerate(modes.cover):
        if cover.level in seen:
            problems.append(doc.problem(("cover", i, "level"), f"cover level '{cover.level}' is listed twice",
                                        hint=f"it is already on line {doc.position(('cover', seen[cover.level]))[0]}"))
        seen.setdefault(cover.level, i)
    missing = [level for level in COVER_LEVELS if level not in seen]
    if missing:
        problems.append(doc.problem(("cover",), "every cover level needs an entry; missing: " + ", ".join(missing)))
    return problems


def _load_cast(folder: Path, display_root: Path, modes: ModesFile | None
               ) -> tuple[list[CastMember], list[Problem]]:
    problems: list[Problem] = []
    cast: list[CastMember] = []
    first_by_name: dict[str, str] = {}
    first_by_slug: dict[str, str] = {}
    for path, doc, combatant in read_entities(folder / "combatants", display_root, Combatant, "combatant",
                                              problems):
        if combatant is None:
            continue
        problems.extend(duplicate_name(doc, combatant.name, "combatant", first_by_name))
        problems.extend(_check_references(doc, combatant, modes))
        slug, found = entity_slug(path, doc, "combatant", first_by_slug)
        problems.extend(found)
        cast.append(CastMember(slug, doc.display, combatant))
    return cast, problems


def _check_references(doc: YamlDocument, combatant: Combatant, modes: ModesFile | None) -> list[Problem]:
    """Weapons and defences must name a stat and skill the combatant has."""
    problems = []
    uses = [("weapons", i, w) for i, w in enumerate(combatant.weapons)]
    uses += [("defences", i, d) for i, d in enumerate(combatant.defences)]
    for group, i, use in uses:
        if use.stat not in combatant.stats:
            problems.append(doc.problem((group, i, "stat"), f"unknown stat '{use.stat}'",
                                        hint=did_you_mean(use.stat, combatant.stats)
                                        or "stats: " + ", ".join(combatant.stats)))
        if use.skill is not None and use.skill not in combatant.skills:
            problems.append(doc.problem((group, i, "skill"), f"unknown skill '{use.skill}'",
                                        hint=did_you_mean(use.skill, combatant.skills)
                                        or "add it under skills, or leave the skill out"))
    for i, weapon in enumerate(combatant.weapons):
        if modes and weapon.improvised and weapon.mode != modes.improvised.mode:
            problems.append(doc.problem(("weapons", i, "mode"),
                                        f"an improvised weapon used as a {weapon.mode} attack",
                                        hint=f"improvised weapons are nearly always {modes.improvised.mode}; "
                                        "fine if intended", severity="warning"))
    return problems
