"""Exact six-sided-dice arithmetic shared by every system.

Core layer: pure functions over `Fraction`s, no floats, so a printed odds
figure is the rounding of an exact value. A distribution maps each outcome to
its probability and always sums to exactly 1.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Callable, Mapping

Distribution = Mapping[int, Fraction]

SIDES = 6
D6: Distribution = {face: Fraction(1, SIDES) for face in range(1, SIDES + 1)}


def combine(a: Distribution, b: Distribution, op: Callable[[int, int], int]) -> dict[int, Fraction]:
    """The distribution of op(x, y) for independent x ~ a and y ~ b."""
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            key = op(x, y)
            out[key] = out.get(key, Fraction(0)) + px * py
    return dict(sorted(out.items()))


@lru_cache(maxsize=None)
def _sum_of_d6(n: int) -> tuple[tuple[int, Fraction], ...]:
    if n == 0:
        return ((0, Fraction(1)),)
    previous = dict(_sum_of_d6(n - 1))
    return tuple(combine(previous, D6, lambda x, y: x + y).items())


def sum_of_d6(n: int) -> dict[int, Fraction]:
    """Total of `n` six-sided dice (n >= 0). Cached: pools up to 40 dice are cheap."""
    if n < 0:
        raise ValueError(f"a pool cannot have {n} dice")
    return dict(_sum_of_d6(n))


def at_least(dist: Distribution, target: int) -> Fraction:
    return sum((p for outcome, p in dist.items() if outcome >= target), Fraction(0))


def at_most(dist: Distribution, target: int) -> Fraction:
    return sum((p for outcome, p in dist.items() if outcome <= target), Fraction(0))


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Number of successes among `n` independent trials of chance `p`."""
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def expected(dist: Distribution) -> Fraction:
    return sum((outcome * p for outcome, p in dist.items()), Fraction(0))
