"""Exact odds of an I6 Trait roll. Core layer: Fractions only.

A die hits when it shows more than the TN (1-5); a six always hits and adds
another die, without limit. One die's hits are therefore (sixes in a row) +
(whether the last, non-six die hits), a distribution with no largest value.
Every "at least the Scale" figure is still exact: it is 1 minus the chance of
each smaller count, and counts below the Scale never need a long chain.
Only sums over *all* counts (contests) are cut, where what is left is below
TAIL_BOUND, and they return that bound with the figure.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...core.dice import at_least, binomial, combine

SIXTH = Fraction(1, 6)
TNS = (1, 2, 3, 4, 5)
# Contest sums stop where the hits left out have less chance than this.
TAIL_BOUND = Fraction(1, 10**12)


def check_roll(dice: int, tn: int) -> None:
    if dice < 0:
        raise ValueError(f"a roll cannot have {dice} dice")
    if tn not in TNS:
        raise ValueError(f"the TN is 1 to 5, not {tn}")


def die_hits(tn: int, hits: int) -> Fraction:
    """Chance that one die (with its explosions) scores exactly `hits`."""
    check_roll(1, tn)
    miss, plain_hit = Fraction(tn, 6), Fraction(5 - tn, 6)
    if hits == 0:
        return miss
    return SIXTH ** hits * miss + SIXTH ** (hits - 1) * plain_hit


@lru_cache(maxsize=None)
def _pool(dice: int, tn: int, cap: int) -> tuple[Fraction, ...]:
    if dice == 0:
        return (Fraction(1),) + (Fraction(0),) * cap
    one = {h: die_hits(tn, h) for h in range(cap + 1)}
    rest = dict(enumerate(_pool(dice - 1, tn, cap)))
    both = combine(rest, one, lambda a, b: a + b)
    return tuple(both.get(h, Fraction(0)) for h in range(cap + 1))


def hits_exactly(dice: int, tn: int, hits: int) -> Fraction:
    """Chance that `dice` dice against `tn` score exactly `hits` hits."""
    check_roll(dice, tn)
    return _pool(dice, tn, hits)[hits] if hits >= 0 else Fraction(0)


def hits_below(dice: int, tn: int, hits: int) -> Fraction:
    """Chance of fewer than `hits` hits (exact: a finite sum)."""
    check_roll(dice, tn)
    if hits <= 0:
        return Fraction(0)
    return sum(_pool(dice, tn, hits - 1), Fraction(0))


def success(dice: int, tn: int, scale: int = 1) -> Fraction:
    """Chance of meeting the Scale: at least `scale` hits."""
    return 1 - hits_below(dice, tn, scale)


def extra_hits(dice: int, tn: int, scale: int, shown: int) -> list[Fraction]:
    """Chance of exactly 0, 1, ... shown-1 hits beyond the Scale, then of `shown`
    or more: the last entry is the exact rest, so the list sums to P(success)."""
    exact = [hits_exactly(dice, tn, scale + e) for e in range(shown)]
    return exact + [success(dice, tn, scale + shown)]


def expected_hits(dice: int, tn: int) -> Fraction:
    """Average hits: each die gives 1/5 from its run of sixes plus (5-TN)/5."""
    check_roll(dice, tn)
    return dice * Fraction(6 - tn, 5)


def curse_of_ones(dice: int) -> Fraction:
    """Chance that more than half of the starting dice show a one (see the
    ruling `curse-majority`); the dice added by sixes are not counted."""
    if dice < 1:
        raise ValueError("the Curse needs at least one die")
    return at_least(binomial(dice, SIXTH), dice // 2 + 1)


@dataclass(frozen=True)
class Contest:
    """Both sides roll against the other's trait; most hits wins."""

    first: Fraction      # chance the first side wins the first roll
    second: Fraction
    tie: Fraction
    bound: Fraction      # the figures may be low (tie: high) by at most this

    def with_one_reroll(self) -> tuple[Fraction, Fraction, Fraction]:
        """Ties roll again once; a second tie stands: (first, second, both)."""
        return (self.first * (1 + self.tie), self.second * (1 + self.tie), self.tie ** 2)

    def until_decided(self) -> tuple[Fraction, Fraction]:
        """Where only one side can succeed, ties roll again until they break."""
        decided = self.first + self.second
        return (self.first / decided, self.second / decided)


def contest(first_dice: int, first_tn: int, second_dice: int, second_tn: int) -> Contest:
    """One roll of a contest: `first_tn` is the TN the first side rolls against."""
    cap = 1
    while True:
        first_tail = success(first_dice, first_tn, cap + 1)
        second_tail = success(second_dice, second_tn, cap + 1)
        if first_tail + second_tail < TAIL_BOUND:
            break
        cap += 1
    first = sum((hits_exactly(second_dice, second_tn, h) * success(first_dice, first_tn, h + 1)
                 for h in range(cap + 1)), Fraction(0))
    second = sum((hits_exactly(first_dice, first_tn, h) * success(second_dice, second_tn, h + 1)
                  for h in range(cap + 1)), Fraction(0))
    return Contest(first, second, 1 - first - second, first_tail + second_tail)
