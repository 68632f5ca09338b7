"""The shared dice arithmetic against brute-force enumeration."""
from fractions import Fraction
from itertools import product

import pytest

from generator.core.dice import D6, at_least, at_most, binomial, combine, expected, sum_of_d6


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_sum_of_d6_matches_enumeration(n):
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=n):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    assert sum_of_d6(n) == {total: Fraction(c, 6**n) for total, c in counts.items()}


def test_large_pool_is_a_distribution():
    dist = sum_of_d6(40)
    assert sum(dist.values()) == 1
    assert min(dist) == 40 and max(dist) == 240
    assert expected(dist) == 140


def test_known_values():
    assert at_least(sum_of_d6(2), 7) == Fraction(21, 36)
    assert at_most(sum_of_d6(3), 4) == Fraction(4, 216)
    assert at_least(sum_of_d6(2), 13) == 0


def test_product_of_two_dice():
    dist = combine(D6, D6, lambda x, y: x * y)
    assert dist[36] == Fraction(1, 36) and dist[6] == Fraction(4, 36) and dist[12] == Fraction(4, 36)
    assert 7 not in dist and sum(dist.values()) == 1


def test_binomial():
    dist = binomial(3, Fraction(1, 2))
    assert dist == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}


def test_negative_pool_rejected():
    with pytest.raises(ValueError):
        sum_of_d6(-1)
