"""Load a Sixes System data folder into one validated, cross-checked campaign.

Core layer: reads YAML through `loading`, validates with the models, and
checks what one file alone cannot: the matrix holds each of the sixteen
pairings once, each cover level once, every weapon and defence names a
stat and skill its combatant has, the wound grades run 1-4 once each, and
every healer's medical ranks keep to the ladder of healing.yaml (Paramedic
below First Aid, Surgery below Paramedic). Every problem is reported, not
the first.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, Callable

from ...core.datafiles import load_cast, read_validated, repeated_entries, unused_files
from ...core.errors import Problem, did_you_mean, errors_in
from ...core.loading import YamlDocument
from ...core.rulings import Ruling, load_rulings
from ...core.validation import missing_note
from .healing import SKILL_NAMES, RankLimits, over_limits, prerequisite
from .models import (ATTACK_MODES, COVER_LEVELS, DEFENCE_MODES, Combatant, Defence, GameInfo, HealingFile, ModesFile,
                     Weapon)

RULINGS_FILE = Path(__file__).with_name("rulings.yaml")
KNOWN_FILES = {"game.yaml", "modes.yaml", "healing.yaml"}


@dataclass(frozen=True)
class CastMember:
    slug: str
    source: str
    combatant: Combatant


@dataclass(frozen=True)
class Campaign:
    folder: Path
    info: GameInfo
    modes: ModesFile
    healing: HealingFile
    cast: tuple[CastMember, ...]
    rulings: tuple[Ruling, ...]

    @property
    def rank_limits(self) -> RankLimits:
        return limits_of(self.healing)


def limits_of(healing: HealingFile) -> RankLimits:
    return RankLimits(healing.rank_limits.paramedic_below_first_aid, healing.rank_limits.surgery_below_paramedic)


def load_game(folder: Path, display_root: Path) -> tuple[Campaign | None, list[Problem]]:
    """Load data/sixes-system/ (icons are not used by this system)."""
    problems: list[Problem] = []

    info, _ = read_validated(folder / "game.yaml", display_root, GameInfo, problems)
    modes, doc = read_validated(folder / "modes.yaml", display_root, ModesFile, problems)
    if modes and doc:
        problems.extend(_check_matrix(doc, modes))
        problems.extend(_check_cover(doc, modes))
    healing, doc = read_validated(folder / "healing.yaml", display_root, HealingFile, problems)
    if healing and doc:
        problems.extend(_check_grades(doc, healing))
    cast, found = _load_cast(folder, display_root, modes, healing)
    problems.extend(found)
    rulings, found = load_rulings(RULINGS_FILE)
    problems.extend(found)
    problems.extend(unused_files(folder, display_root, KNOWN_FILES, "combatants go in combatants/"))
    if errors_in(problems) or not (info and modes and healing):
        return None, problems
    return Campaign(folder, info, modes, healing, tuple(cast), rulings), problems


def _check_matrix(doc: YamlDocument, modes: ModesFile) -> list[Problem]:
    listed = [(entry.attack, entry.defence) for entry in modes.matrix]
    problems = _once_each(doc, "matrix", (), listed, lambda pair: " against ".join(pair))
    pairs = [(a, d) for a in ATTACK_MODES for d in DEFENCE_MODES]
    if note := missing_note("the matrix needs all sixteen pairings", pairs, listed, lambda pair: " vs ".join(pair)):
        problems.append(doc.problem(("matrix",), note))
    return problems


def _check_cover(doc: YamlDocument, modes: ModesFile) -> list[Problem]:
    levels = [cover.level for cover in modes.cover]
    problems = _once_each(doc, "cover", ("level",), levels, lambda level: f"cover level '{level}'")
    if note := missing_note("every cover level needs an entry", COVER_LEVELS, levels):
        problems.append(doc.problem(("cover",), note))
    return problems


def _once_each(doc: YamlDocument, key: str, field: tuple, values: list, name: Callable[[Any], str]
               ) -> list[Problem]:
    """A value listed twice under `key` is reported at its own entry (at
    `field` inside it), pointing back at the line of the first."""
    return [doc.problem((key, i, *field), f"{name(values[i])} is listed twice", hint=f"it is already on line {line}")
            for i, line in repeated_entries(doc, values, lambda i: (key, i))]


def _check_grades(doc: YamlDocument, healing: HealingFile) -> list[Problem]:
    """Grades 1-4 once each; a graver wound should not need fewer stable hours."""
    problems = _once_each(doc, "wound_grades", ("grade",), [grade.grade for grade in healing.wound_grades],
                          lambda grade: f"wound grade {grade}")
    ordered = sorted(healing.wound_grades, key=lambda g: g.grade)
    for lighter, graver in pairwise(ordered):
        if graver.stable_hours < lighter.stable_hours:
            i = healing.wound_grades.index(graver)
            problems.append(doc.problem(("wound_grades", i, "stable_hours"),
                                        f"grade {graver.grade} asks for {graver.stable_hours} stable hours, fewer than "
                                        f"grade {lighter.grade}'s {lighter.stable_hours}",
                                        hint="graver wounds take longer to make ready for surgery; fine if intended",
                                        severity="warning"))
    return problems


def _load_cast(folder: Path, display_root: Path, modes: ModesFile | None, healing: HealingFile | None
               ) -> tuple[list[CastMember], list[Problem]]:
    problems: list[Problem] = []

    def member(key: str, doc: YamlDocument, combatant: Combatant) -> tuple[CastMember, list[Problem]]:
        found = _check_references(doc, combatant, modes) + _check_healers(doc, combatant, healing)
        return CastMember(key, doc.display, combatant), found

    cast = load_cast(folder / "combatants", display_root, Combatant, "combatant", problems,
                     lambda doc, combatant: [], member)
    return cast, problems


def _check_references(doc: YamlDocument, combatant: Combatant, modes: ModesFile | None) -> list[Problem]:
    """Weapons and defences must name a stat and skill the combatant has."""
    problems = []
    uses: list[tuple[str, int, Weapon | Defence]] = [("weapons", i, w) for i, w in enumerate(combatant.weapons)]
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


def _check_healers(doc: YamlDocument, combatant: Combatant, healing: HealingFile | None) -> list[Problem]:
    """Each healing tool rolls a stat the combatant has, and its ranks keep
    to the ladder: checked against the best tool of the skill below it."""
    problems = []
    for i, tool in enumerate(combatant.healing):
        if tool.stat not in combatant.stats:
            problems.append(doc.problem(("healing", i, "stat"), f"unknown stat '{tool.stat}'",
                                        hint=did_you_mean(tool.stat, combatant.stats)
                                        or "stats: " + ", ".join(combatant.stats)))
    if healing is None:
        return problems
    limits = limits_of(healing)
    tools = combatant.healing
    for over in over_limits([(t.skill, t.ranks) for t in tools], limits):
        tool = tools[over.index]
        below = prerequisite(tool.skill)
        assert below is not None    # over_limits reports only a skill with one below it (not First Aid)
        name, below_name = SKILL_NAMES[tool.skill], SKILL_NAMES[below]
        gap = limits.gap(tool.skill)
        if over.below is None:
            message = f"'{tool.name}' counts as {name}, which needs {below_name} first"
            hint = f"add a {below_name} skill of at least {tool.ranks + gap} ranks, or leave this one out"
        else:
            best = tools[over.below]
            message = (f"'{tool.name}' has {tool.ranks} ranks of {name}; {name} may have at most {below_name} - "
                       f"{gap}, which is {over.ceiling} here ('{best.name}', {best.ranks})")
            hint = (f"lower it to {over.ceiling}" if over.ceiling >= 0 else f"no {name} yet") + \
                f", or raise {below_name} to {tool.ranks + gap}"
        problems.append(doc.problem(("healing", over.index, "ranks"), message, hint=hint))
    return problems
