"""Exact odds for the Sixes System: a pool's total against a target, the
extra sixes a success brings, and the damage that follows.

Core layer: builds on generator/core/dice.py (exact sums of d6) and rules.py.
Everything is a Fraction; formatting happens in templates.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...core.dice import D6, at_least, binomial, combine, expected, sum_of_d6
from ...core.memo import remembered
from .rules import (DamageDice, Reduction, SIDES, die_damage, exact, roll_needed, split_colours, damage_pool,
                    virtual_sixes)

MAX_POOL = 40


def chance_at_least(dice: int, target: Fraction | int) -> Fraction:
    """P(the total of `dice` d6 reaches `target`), exact, for pools up to 40."""
    if dice > MAX_POOL:
        raise ValueError(f"pools above {MAX_POOL} dice are not tabulated, found {dice}")
    return at_least(sum_of_d6(dice), roll_needed(Fraction(target)))


@remembered("sixes-system-excess-sixes")
def excess_sixes(dice: int, target: Fraction, a: Fraction) -> dict[int, Fraction]:
    """For each number of extra (virtual) sixes, the chance of succeeding with
    exactly that many; failures are left out, so the values sum to the chance of success."""
    a = exact(a)
    need = roll_needed(target)
    out: dict[int, Fraction] = {}
    for total, p in sum_of_d6(dice).items():
        if total >= need:
            extra = virtual_sixes(total - target, a)
            out[extra] = out.get(extra, Fraction(0)) + p
    return dict(sorted(out.items()))


@lru_cache(maxsize=None)
def _colour_total(dice: int, reduction: int) -> tuple[tuple[int, Fraction], ...]:
    per_die: dict[int, Fraction] = {}
    for face, p in D6.items():
        hit = die_damage(face, reduction)
        per_die[hit] = per_die.get(hit, Fraction(0)) + p
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(dice):
        dist = combine(dist, per_die, lambda x, y: x + y)
    return tuple(dist.items())


def colour_total(dice: int, reduction: int) -> dict[int, Fraction]:
    """Damage from `dice` dice of one colour, each losing `reduction` points."""
    return dict(_colour_total(dice, reduction))


def expected_per_die(reduction: int) -> Fraction:
    return expected(colour_total(1, reduction))


def expected_colour(dice: int, reduction: int, divisor: int = 1) -> Fraction:
    """Expected damage of one colour; with a divisor (pulling punches) each
    colour's total is divided and rounded down."""
    if divisor == 1:
        return dice * expected_per_die(reduction)
    return expected(combine(colour_total(dice, reduction), {0: Fraction(1)}, lambda total, _: total // divisor))


@dataclass(frozen=True)
class DamagePlan:
    """How a success turns into damage dice, all the attack's options applied."""

    base_dice: int
    adjustment: tuple[int, int] = (0, 1)     # (dice, per) from the matrix
    sixes_per_die: int = 1                   # 2 when pulling punches
    extra_colour_a: int = 0                  # improvised weapon, pulling punches
    colour_b_multiplier: int = 1             # 3 on a kill-shot
    divisor: int = 1                         # 2 when pulling punches

    def dice(self, excess: int) -> DamageDice:
        pool = damage_pool(self.base_dice, excess, self.adjustment, sixes_per_die=self.sixes_per_die)
        return split_colours(pool, extra_colour_a=self.extra_colour_a,
                             colour_b_multiplier=self.colour_b_multiplier)


@dataclass(frozen=True)
class Outcome:
    success: Fraction            # chance the attack lands
    colour_a: Fraction           # expected temporary damage per attack (failures count as 0)
    colour_b: Fraction           # expected enduring damage per attack

    @property
    def damage(self) -> Fraction:
        return self.colour_a + self.colour_b


@remembered("sixes-system-attack-outcome")
def attack_outcome(dice: int, target: Fraction, a: Fraction, plan: DamagePlan, reduction: Reduction) -> Outcome:
    """Chance of success and expected damage of one attack, exact."""
    success = Fraction(0)
    colour_a = colour_b = Fraction(0)
    for extra, p in excess_sixes(dice, target, a).items():
        rolled = plan.dice(extra)
        success += p
        colour_a += p * expected_colour(rolled.colour_a, reduction.colour_a, plan.divisor)
        colour_b += p * expected_colour(rolled.colour_b, reduction.colour_b, plan.divisor)
    return Outcome(success, colour_a, colour_b)


def chance_of_sixes(dice: int, needed: int) -> Fraction:
    """P(at least `needed` natural sixes among `dice` dice): survival checks."""
    return at_least(binomial(dice, Fraction(1, SIDES)), needed)
