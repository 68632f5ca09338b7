"""Exact odds of the healing rolls: a medical check (success, extra sixes,
critical failure), the same with a defibrillator, a day's natural recovery
added up over days, a coma's all-sixes roll, a paramedic stabilising a
critical patient, and a complex attack's goal.

Core layer: builds on generator/core/dice.py, rules.py and healing.py. Every
value is a Fraction; templates format them.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from ...core.dice import D6, SIDES, Distribution, combine
from ...core.memo import remembered
from .healing import CRITICAL_STEPS
from .rules import exact, roll_needed, target_number, virtual_sixes

MAX_POOL = 40


def die(defibrillator: bool = False) -> dict[int, Fraction]:
    """One die of a medical roll. With a defibrillator a 1 is rolled again
    once (ruling defibrillator): a 1 stays a 1 only 1 time in 36, and each
    other face comes up 7 times in 36."""
    if not defibrillator:
        return dict(D6)
    rerolled = {face: Fraction(1, SIDES) * Fraction(1, SIDES) for face in range(1, SIDES + 1)}
    return {face: rerolled[face] + (Fraction(1, SIDES) if face != 1 else 0) for face in range(1, SIDES + 1)}


@lru_cache(maxsize=None)
def _sum(dice: int, defibrillator: bool, faces: frozenset[int] | None) -> tuple[tuple[int, Fraction], ...]:
    """The total of `dice` dice, counting only rolls whose faces all lie in
    `faces` (None: any face), so the values may sum to less than 1."""
    one = {f: p for f, p in die(defibrillator).items() if faces is None or f in faces}
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(dice):
        dist = combine(dist, one, lambda x, y: x + y)
    return tuple(dist.items())


def pool_total(dice: int, defibrillator: bool = False) -> dict[int, Fraction]:
    """The total of a medical roll of `dice` dice."""
    if not 0 <= dice <= MAX_POOL:
        raise ValueError(f"pools run from 0 to {MAX_POOL} dice, found {dice}")
    return dict(_sum(dice, defibrillator, None))


@dataclass(frozen=True)
class CheckOdds:
    """One medical roll against its target."""

    dice: int
    target: Fraction
    success: Fraction
    critical_failure: Fraction                 # a failure with no six and at least one 1
    extra: tuple[tuple[int, Fraction], ...]    # (extra sixes, chance of succeeding with exactly that many)

    @property
    def needed(self) -> int:
        """The smallest total that succeeds."""
        return roll_needed(self.target)

    @property
    def failure(self) -> Fraction:
        return 1 - self.success

    def at_least(self, sixes: int) -> Fraction:
        """Chance of succeeding with at least `sixes` extra sixes."""
        return sum((p for k, p in self.extra if k >= sixes), Fraction(0))

    @property
    def expected_extra(self) -> Fraction:
        """Average extra sixes per roll (a failure counts as none)."""
        return sum((k * p for k, p in self.extra), Fraction(0))


@remembered("sixes-system-check-odds")
def check_odds(dice: int, a: Fraction, sixes: int = 0, defibrillator: bool = False) -> CheckOdds:
    """A healer's roll: the target is built on the dice actually rolled,
    (dice) x A + (sixes required) x (6 - A), as in the source's examples."""
    a = exact(a)
    target = target_number(dice, a, sixes)
    need = roll_needed(target)
    success = Fraction(0)
    extra: dict[int, Fraction] = {}
    for total, p in pool_total(dice, defibrillator).items():
        if total >= need:
            success += p
            k = virtual_sixes(total - target, a)
            extra[k] = extra.get(k, Fraction(0)) + p

    def failing(faces: frozenset[int]) -> Fraction:
        return sum((p for total, p in _sum(dice, defibrillator, faces) if total < need), Fraction(0))

    # No six among the dice, less the rolls that also show no 1.
    critical = failing(frozenset(range(1, SIDES))) - failing(frozenset(range(2, SIDES)))
    return CheckOdds(dice, target, success, critical, tuple(sorted(extra.items())))


def expected_healing(odds: CheckOdds, healing_dice: int) -> Fraction:
    """Average points healed by one attempt: the chance of success times
    3.5 a die (a failure heals nothing)."""
    return odds.success * healing_dice * Fraction(SIDES + 1, 2)


# --- natural recovery over days -----------------------------------------------

def recovered_within(points: int, days: int, daily: Distribution) -> Fraction:
    """Chance that `days` days of recovery at `daily` regain `points` or more."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(days):
        dist = combine(dist, daily, lambda x, y: min(points, x + y))
    return dist.get(points, Fraction(0)) if points > 0 else Fraction(1)


def expected_days(points: int, daily: Distribution) -> Fraction | None:
    """Average days to regain `points` (None if a day can regain nothing)."""
    stay = daily.get(0, Fraction(0))
    if stay == 1:
        return None
    days: list[Fraction] = [Fraction(0)]
    for n in range(1, points + 1):
        rest = sum((p * days[max(0, n - k)] for k, p in daily.items() if k > 0), Fraction(0))
        days.append((1 + rest) / (1 - stay))
    return days[points]


# --- coma ---------------------------------------------------------------------

def coma_point_within(dice: int, hours: int) -> Fraction:
    """Chance a coma roll of `dice` dice heals its point within `hours`
    hourly rolls. Sixes stay from roll to roll, so each die needs to come
    up six once; with no dice the patient cannot heal alone."""
    if dice <= 0:
        return Fraction(0)
    return (1 - Fraction(SIDES - 1, SIDES) ** hours) ** dice


def coma_expected_hours(dice: int) -> Fraction | None:
    """Average hourly rolls until every die has shown a six (the longest of
    `dice` waits for a six), by inclusion and exclusion."""
    if dice <= 0:
        return None
    q = Fraction(SIDES - 1, SIDES)
    return sum(((-1) ** (j + 1) * comb(dice, j) / (1 - q ** j) for j in range(1, dice + 1)), Fraction(0))


# --- critical condition ---------------------------------------------------------

@remembered("sixes-system-paramedic-reaches")
def paramedic_reaches(steps: int, odds: CheckOdds) -> Fraction:
    """Chance that paramedic rolls slow the loss by `steps` steps before the
    first failure ends their turn (after which only surgery may treat). Each
    success moves one step and one more per extra six."""
    if not 0 <= steps <= CRITICAL_STEPS:
        raise ValueError(f"treatment steps run from 0 to {CRITICAL_STEPS}, found {steps}")
    reach: list[Fraction] = [Fraction(1)]
    for n in range(1, steps + 1):
        reach.append(sum((p * reach[max(0, n - 1 - k)] for k, p in odds.extra), Fraction(0)))
    return reach[steps]


# --- complex attacks ------------------------------------------------------------

def goal_in_one(odds: CheckOdds, needed: int) -> Fraction:
    """Chance that a single attack both lands and brings `needed` extra sixes."""
    return odds.at_least(needed)
