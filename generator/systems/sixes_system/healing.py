"""Healing in the Sixes System (part 7: 13.8 and 13.10-13.11), and the
goals of complex attacks (14), as pure functions over plain numbers.

Core layer: standard library and the system's own `conditions` only; no
rendering, no files. Every rule is one small function so the source's
examples can be replayed a sentence at a time. Where the text is silent the
code follows a ruling (rulings.yaml); the ruling's id is named beside it.

Three kinds of damage, mildest first: temporary stat damage (colour A),
enduring stat damage (colour B) and persistent damage to a purpose.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal, Mapping, Sequence

from ...core.i18n import N_
from .conditions import CRITICAL_STEPS, treat_critical

Kind = Literal["temporary", "enduring", "persistent"]
Skill = Literal["first-aid", "paramedic", "surgery"]
Interval = Literal["round", "hour", "day"]

KINDS: tuple[Kind, ...] = ("temporary", "enduring", "persistent")
# The skill that treats each kind of damage, in the same order.
SKILLS: tuple[Skill, ...] = ("first-aid", "paramedic", "surgery")
SKILL_FOR: dict[Kind, Skill] = dict(zip(KINDS, SKILLS, strict=True))
KIND_FOR: dict[Skill, Kind] = dict(zip(SKILLS, KINDS, strict=True))
# English message ids (core/i18n.py): the templates and healing_tables translate them where printed.
SKILL_NAMES: dict[Skill, str] = {"first-aid": N_("First Aid"), "paramedic": N_("Paramedic"), "surgery": N_("Surgery")}
# How soon another intervention may be tried, by the kind being healed.
TIMETABLE: dict[Kind, Interval] = {"temporary": "round", "enduring": "hour", "persistent": "day"}


# --- the medical skills and their rank limits (13.10, 13.11) -----------------

@dataclass(frozen=True)
class RankLimits:
    """Paramedic ranks stay at least one below First Aid, Surgery at least
    two below Paramedic."""

    paramedic_below_first_aid: int = 1
    surgery_below_paramedic: int = 2

    def gap(self, skill: Skill) -> int:
        return {"paramedic": self.paramedic_below_first_aid, "surgery": self.surgery_below_paramedic}[skill]


def prerequisite(skill: Skill) -> Skill | None:
    """The skill whose ranks cap this one: First Aid caps Paramedic, Paramedic caps Surgery."""
    index = SKILLS.index(skill)
    return SKILLS[index - 1] if index else None


def rank_ceiling(skill: Skill, best_below: int | None, limits: RankLimits = RankLimits()) -> int | None:
    """The most ranks `skill` may have when the best skill below it has
    `best_below` ranks (None: not known at all). First Aid has no ceiling
    (None); a ceiling below zero means the skill cannot be had yet."""
    if prerequisite(skill) is None:
        return None
    if best_below is None:
        return -1
    return best_below - limits.gap(skill)


@dataclass(frozen=True)
class OverLimit:
    index: int          # which tool, in the order given
    ceiling: int        # the most ranks it may have (negative: none at all)
    below: int | None   # index of the best tool of the capping skill, if any


def over_limits(tools: Sequence[tuple[Skill, int]], limits: RankLimits = RankLimits()) -> list[OverLimit]:
    """Tools (a skill, or a spell or device that counts as one, with its
    ranks) whose ranks break the ladder. Each tool is checked against the
    best tool of the skill below it, as the source's Cell Regenerator is
    against its Cure Light Wounds."""
    best: dict[Skill, int] = {}
    for i, (skill, ranks) in enumerate(tools):
        if skill not in best or ranks > tools[best[skill]][1]:
            best[skill] = i
    found = []
    for i, (skill, ranks) in enumerate(tools):
        below = prerequisite(skill)
        if below is None:
            continue
        j = best.get(below)
        ceiling = rank_ceiling(skill, tools[j][1] if j is not None else None, limits)
        if ceiling is not None and ranks > ceiling:
            found.append(OverLimit(i, ceiling, j))
    return found


def ceilings(tools: Mapping[str, tuple[Skill, int]], limits: RankLimits = RankLimits()) -> dict[str, int | None]:
    """Each tool's rank ceiling against the best tool of the skill below it
    (None for First Aid, which has none)."""
    best: dict[Skill, int] = {}
    for skill, ranks in tools.values():
        best[skill] = max(best.get(skill, ranks), ranks)
    return {name: rank_ceiling(skill, best.get(below) if (below := prerequisite(skill)) else None, limits)
            for name, (skill, _) in tools.items()}


def can_treat(skill: Skill, kind: Kind) -> bool:
    """A skill treats its own kind of damage and every milder kind (ruling
    medical-skill-reach): a paramedic mends temporary damage too."""
    return SKILLS.index(skill) >= KINDS.index(kind)


# --- medical intervention (13.10) ---------------------------------------------

@dataclass(frozen=True)
class Allocation:
    """How a healer splits the ranks of the skill used: ranks kept for the
    healing do not help the roll."""

    ranks: int
    to_healing: int

    def __post_init__(self) -> None:
        if not 0 <= self.to_healing <= self.ranks:
            raise ValueError(f"{self.to_healing} of {self.ranks} ranks cannot go to healing")

    @property
    def to_roll(self) -> int:
        return self.ranks - self.to_healing


def intervention_pool(base: int, allocation: Allocation) -> int:
    """Dice rolled: stat + purpose + equipment (the `base`) and the ranks
    kept for the roll. The source's paramedic rolls 8 + 3 + 2 = 13 with all
    three ranks set aside for healing."""
    return max(0, base + allocation.to_roll)


def healing_dice(allocation: Allocation, per_rank: int = 1) -> int:
    """A success heals one d6 for each rank put into the healing."""
    return allocation.to_healing * per_rank


@dataclass(frozen=True)
class Wounds:
    """Damage still to heal, in points. A comatose patient's temporary
    damage is treated as persistent by medical intervention (13.8.2)."""

    temporary: int = 0
    enduring: int = 0
    persistent: int = 0
    comatose: bool = False

    def __post_init__(self) -> None:
        if min(self.temporary, self.enduring, self.persistent) < 0:
            raise ValueError("damage cannot be negative")

    def counts_as(self, kind: Kind) -> Kind:
        return "persistent" if self.comatose and kind == "temporary" else kind

    def order(self) -> tuple[Kind, ...]:
        """The order healing is applied: temporary, enduring, persistent. In a
        coma the temporary damage takes persistent's place but, being stat
        damage, still comes before the purposes (ruling coma-intervention)."""
        return ("enduring", "temporary", "persistent") if self.comatose else KINDS

    @property
    def total(self) -> int:
        return self.temporary + self.enduring + self.persistent


def heal(wounds: Wounds, points: int, skill: Skill) -> tuple[Wounds, int]:
    """Apply `points` of healing in order; returns the wounds left and the
    points unused. Healing never skips ahead: purpose damage is reached only
    once all stat damage is gone, and a healer stops at the first damage
    their skill cannot treat."""
    if points < 0:
        raise ValueError("healing cannot be negative")
    left = {kind: getattr(wounds, kind) for kind in KINDS}
    for kind in wounds.order():
        if not left[kind]:
            continue
        if not can_treat(skill, wounds.counts_as(kind)):
            break
        used = min(points, left[kind])
        left[kind] -= used
        points -= used
        if left[kind]:
            break
    return replace(wounds, **left), points


def skill_needed(wounds: Wounds) -> Skill | None:
    """The least skill that can heal everything left (None when unhurt)."""
    kinds = [wounds.counts_as(k) for k in KINDS if getattr(wounds, k)]
    return SKILL_FOR[max(kinds, key=KINDS.index)] if kinds else None


def next_attempt(wounds: Wounds) -> Interval | None:
    """The wait before another intervention roll: the timetable of the damage
    being healed now. A round while there is temporary damage, an hour once
    only enduring and purpose damage are left, a day for purpose damage
    alone (and for a comatose patient's temporary damage)."""
    for kind in wounds.order():
        if getattr(wounds, kind):
            return TIMETABLE[wounds.counts_as(kind)]
    return None


def is_critical_failure(faces: Sequence[int], succeeded: bool) -> bool:
    """A failed roll with no natural six and at least one natural 1 (ruling
    critical-failure: part 7 uses the term without defining it)."""
    return not succeeded and 6 not in faces and 1 in faces


def botched(wounds: Wounds, skill: Skill, damage: int) -> Wounds:
    """A critical failure does 2d6 damage, of the kind the skill treats
    (ruling critical-failure): a botched operation is persistent damage."""
    kind = KIND_FOR[skill]
    return replace(wounds, **{kind: getattr(wounds, kind) + damage})


# --- natural healing (13.8.4, the note on rest and supports) ------------------

FULL_REST_HOURS = 24
PURPOSE_DIE = 6            # purpose damage heals d6 a day in full bed rest
ENDURING_PER_HOUR = 1      # enduring damage heals a point an hour


def rest_fraction(hours: int) -> Fraction:
    """The share of the day spent resting: 8 hours is a third."""
    if not 0 <= hours <= FULL_REST_HOURS:
        raise ValueError(f"a day has 0 to 24 hours of rest, found {hours}")
    return Fraction(hours, FULL_REST_HOURS)


def rest_die(hours: int) -> int:
    """The die of a day's purpose recovery: that share of a d6, so 8 hours
    of rest is a d2, 12 a d3, 16 a d4 and full bed rest a d6. Other hours
    round down to a whole die, and under 4 hours heals nothing (ruling
    rest-rounding)."""
    return int(rest_fraction(hours) * PURPOSE_DIE)


@dataclass(frozen=True)
class Support:
    """Medical help with natural recovery: it multiplies the day's roll
    (nursing x2, a regeneration tank x3, a rank-4 spell x4) or adds to it
    (medication +1 to +3)."""

    name: str
    multiplier: int = 1
    bonus: int = 0


def combined(supports: Sequence[Support]) -> tuple[int, int]:
    """(multiplier, bonus) of several supports at once: the best multiplier
    and the best bonus; neither stacks with its own kind (ruling
    medical-support)."""
    return (max((s.multiplier for s in supports), default=1), max((s.bonus for s in supports), default=0))


def daily_recovery(hours: int, multiplier: int = 1, bonus: int = 0) -> dict[int, Fraction]:
    """Purpose points regained in a day: the rest die, times the multiplier,
    plus the bonus. Supports help only a character who is healing naturally
    in the first place, so with no rest die they add nothing."""
    sides = rest_die(hours)
    if sides == 0:
        return {0: Fraction(1)}
    return {face * multiplier + bonus: Fraction(1, sides) for face in range(1, sides + 1)}


# --- unconsciousness with several stats below zero (13.8.1) -------------------

def awake(stats: Sequence[int]) -> bool:
    """The character wakes only when every stat is positive again."""
    return all(value > 0 for value in stats)


def heal_minute(stats: Sequence[int], which: int, points: int = 1) -> tuple[int, ...]:
    """One minute of recovery: all of it (the point a minute and any sixes)
    goes to one stat that is out, the one the player picks (ruling
    several-stats)."""
    if stats[which] > 0:
        raise ValueError(f"stat {which} is not out ({stats[which]}); heal one that is 0 or below")
    return tuple(value + points if i == which else value for i, value in enumerate(stats))


def minutes_to_wake(stats: Sequence[int]) -> int:
    """Minutes until every stat is positive at a point a minute, one stat at
    a time, with no sixes from recovery checks: the deficits add up."""
    return sum(1 - value for value in stats if value <= 0)


# --- critical condition (13.8.3) ----------------------------------------------

@dataclass(frozen=True)
class CriticalCare:
    """Treatment of a critical patient so far: the steps the loss of purpose
    has been slowed, and whether a failure has ended paramedic attempts."""

    step: int = 0
    paramedic_barred: bool = False

    @property
    def stable(self) -> bool:
        return self.step >= CRITICAL_STEPS


def treat(care: CriticalCare, skill: Skill, success: bool, extra_sixes: int = 0, natural_ones: int = 0,
          critical_failure: bool = False) -> CriticalCare:
    """One treatment roll by a paramedic or a surgeon. A failure takes a step
    back and leaves the patient to surgery: no paramedic may try again
    (ruling paramedic-barred)."""
    if skill == "first-aid":
        raise ValueError("critical condition needs a paramedic or a surgeon")
    if skill == "paramedic" and care.paramedic_barred:
        raise ValueError("a treatment roll has failed: only surgery may treat this patient now")
    step = treat_critical(care.step, success, extra_sixes, natural_ones, critical_failure)
    return CriticalCare(step, care.paramedic_barred or not success)


def botched_treatment(care: CriticalCare, wounds: Wounds, skill: Skill, natural_ones: int,
                      damage: int) -> tuple[CriticalCare, Wounds]:
    """A critical failure while treating critical condition costs both: a
    step per natural 1, and the 2d6 damage any botched intervention does
    (ruling critical-condition-botch)."""
    return (treat(care, skill, False, natural_ones=natural_ones, critical_failure=True),
            botched(wounds, skill, damage))


def steps_for(hours: int) -> int:
    """Steps that give at least `hours` without a loss (ruling surgery-grades):
    three hours, ample for a grade-1 wound, take 2 steps."""
    if not 1 <= hours < CRITICAL_STEPS + 1:
        raise ValueError(f"hours without a loss run from 1 to {CRITICAL_STEPS}, found {hours}")
    return max(1, hours - 1)


def ready_for_surgery(care: CriticalCare, hours: int) -> bool:
    """Stabilised enough for surgery on a wound that needs `hours` without a loss."""
    return care.step >= steps_for(hours)


# --- resuscitation (13.8.4) ---------------------------------------------------

def defibrillated(faces: Sequence[int], rerolls: Sequence[int]) -> tuple[int, ...]:
    """With a defibrillator, every natural 1 is rolled again once and the new
    face stands (ruling defibrillator). `rerolls` are the new faces, in order."""
    ones = sum(1 for face in faces if face == 1)
    if len(rerolls) != ones:
        raise ValueError(f"{ones} dice show 1, so {ones} re-rolls are needed, found {len(rerolls)}")
    new = iter(rerolls)
    return tuple(next(new) if face == 1 else face for face in faces)


# --- complex attacks (14) -----------------------------------------------------

GOAL_GRADES = range(1, 5)


def goal_sixes(grade: int, adjustment: int = 0) -> int:
    """A goal beyond the hit, graded 1 (easy) to 4 (extremely difficult),
    needs that many extra sixes; the GM may add some if the target resists,
    or take some away if things turn in the attacker's favour (ruling
    complex-goals)."""
    if grade not in GOAL_GRADES:
        raise ValueError(f"goals are graded 1 to 4, found {grade}")
    return max(0, grade + adjustment)


def goal_reached_by(extra_sixes: Sequence[int], needed: int) -> int | None:
    """Which successful attack (counting from 1) completes the goal, the
    extra sixes adding up from attack to attack; None if they fall short."""
    total = 0
    if needed <= 0:
        return 0
    for i, sixes in enumerate(extra_sixes, 1):
        total += sixes
        if total >= needed:
            return i
    return None

