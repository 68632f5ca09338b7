"""I6 odds against independent computations: hand-worked golden values, a
roll-by-roll exact recursion, full enumeration of faces with a deep
explosion limit, and seeded simulations with a stated tolerance."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import lru_cache

import pytest

from generator.systems.i6.odds import (TAIL_BOUND, contest, curse_of_ones, expected_hits, extra_hits,
                                       hits_below, hits_exactly, success)

F = Fraction
TNS = range(1, 6)


# --- oracles ----------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def bf_success(dice_left: int, tn: int, needed: int) -> Fraction:
    """Roll the pool one die at a time: a six hits and puts a die back. Exact,
    with no cut-off, because every six brings the roll one hit nearer."""
    if needed <= 0:
        return F(1)
    if dice_left == 0:
        return F(0)
    miss = F(tn, 6) * bf_success(dice_left - 1, tn, needed)
    plain = F(5 - tn, 6) * bf_success(dice_left - 1, tn, needed - 1)
    six = F(1, 6) * bf_success(dice_left, tn, needed - 1)
    return miss + plain + six


def bf_die_faces(tn: int, depth: int) -> dict[int, Fraction]:
    """Hits of one die by listing its faces, and the faces of each extra die,
    down to `depth` explosions (the last six still hits but rolls no more)."""
    out: dict[int, Fraction] = {}
    for face in range(1, 7):
        hit = int(face > tn)
        if face == 6 and depth > 0:
            for more, p in bf_die_faces(tn, depth - 1).items():
                out[hit + more] = out.get(hit + more, F(0)) + p / 6
        else:
            out[hit] = out.get(hit, F(0)) + F(1, 6)
    return out


def bf_pool_faces(dice: int, tn: int, depth: int) -> dict[int, Fraction]:
    one = bf_die_faces(tn, depth)
    out: dict[int, Fraction] = {}
    for combo in itertools.product(one.items(), repeat=dice):
        total = sum(h for h, _ in combo)
        p = F(1)
        for _, q in combo:
            p *= q
        out[total] = out.get(total, F(0)) + p
    return out


def bf_roll(rng: random.Random, dice: int, tn: int) -> tuple[int, int]:
    """One simulated Trait roll: (hits, ones among the starting dice)."""
    hits = ones = 0
    pending, starting = dice, True
    while pending:
        faces = [rng.randint(1, 6) for _ in range(pending)]
        if starting:
            ones = faces.count(1)
            starting = False
        hits += sum(f > tn for f in faces)
        pending = faces.count(6)
    return hits, ones


# --- golden values, worked by hand ---------------------------------------------------------------

@pytest.mark.parametrize("tn", TNS)
def test_one_die_hits_on_more_than_the_tn(tn):
    assert success(1, tn) == F(6 - tn, 6)
    # Two hits from one die need a six, then a hit on the extra die.
    assert success(1, tn, 2) == F(1, 6) * F(6 - tn, 6)
    assert hits_exactly(1, tn, 0) == F(tn, 6)


def test_golden_pools():
    assert success(2, 5) == 1 - F(5, 6) ** 2                  # only sixes hit at TN 5
    # Two dice at TN 3, Scale 2. One die: no hit 1/2; one hit 5/12 (a 4 or 5, or a six
    # then a miss: 2/6 + 1/6 * 1/2). Fewer than two hits: 1/4 + 2 * 1/2 * 5/12 = 2/3.
    assert success(2, 3, 2) == F(1, 3)
    assert expected_hits(4, 3) == F(12, 5)


def test_success_at_tn_5_scale_3_with_three_dice_by_cases():
    # Hits come only from sixes. Three hits: the run of sixes across the pool is at least 3.
    # P(fewer than 3) = P(0) + P(1) + P(2), with one die's hits geometric: P(h) = (1/6)^h (5/6).
    g = [F(1, 6) ** h * F(5, 6) for h in range(3)]
    below = sum(g[a] * g[b] * g[c] for a in range(3) for b in range(3) for c in range(3) if a + b + c < 3)
    assert success(3, 5, 3) == 1 - below


# --- against the oracles ------------------------------------------------------------------------

@pytest.mark.parametrize("dice", range(1, 11))
def test_every_table_figure_matches_the_roll_by_roll_recursion(dice):
    for tn in TNS:
        for scale in range(1, 6):
            assert success(dice, tn, scale) == bf_success(dice, tn, scale), (dice, tn, scale)


@pytest.mark.parametrize("dice", range(1, 5))
def test_distribution_matches_enumerating_faces_to_a_deep_limit(dice):
    depth = 7
    # Cutting each die after `depth` sixes moves at most dice * 6**-depth of chance.
    bound = dice * F(1, 6) ** depth
    for tn in TNS:
        listed = bf_pool_faces(dice, tn, depth)
        for hits in range(0, 6):
            assert abs(hits_exactly(dice, tn, hits) - listed.get(hits, F(0))) <= bound, (dice, tn, hits)


@pytest.mark.parametrize("dice", range(1, 11))
def test_extra_hits_split_the_success_chance_exactly(dice):
    for tn in TNS:
        for scale in range(1, 6):
            rows = extra_hits(dice, tn, scale, 4)
            assert sum(rows) == success(dice, tn, scale)
            for extra, p in enumerate(rows[:-1]):
                exact = bf_success(dice, tn, scale + extra) - bf_success(dice, tn, scale + extra + 1)
                assert p == exact


def test_invariants():
    for dice in range(1, 11):
        for tn in TNS:
            chances = [success(dice, tn, s) for s in range(1, 7)]
            assert all(a > b for a, b in itertools.pairwise(chances))   # a higher Scale is harder
            assert hits_below(dice, tn, 1) == F(tn, 6) ** dice
            if dice > 1:
                assert success(dice, tn) > success(dice - 1, tn)
            if tn > 1:
                assert success(dice, tn) < success(dice, tn - 1)


def test_a_seeded_simulation_agrees():
    """40,000 rolls per case; a figure may differ by at most 5 standard errors."""
    rng = random.Random(6)
    rolls = 40_000
    for dice, tn, scale in [(1, 5, 2), (3, 3, 2), (5, 4, 3), (10, 5, 4)]:
        wins = sum(bf_roll(rng, dice, tn)[0] >= scale for _ in range(rolls))
        p = float(success(dice, tn, scale))
        assert abs(wins / rolls - p) <= 5 * (p * (1 - p) / rolls) ** 0.5 + 1e-9, (dice, tn, scale)


def test_expected_hits_match_the_series():
    for tn in TNS:
        series = sum(h * p for h, p in bf_die_faces(tn, 30).items())
        assert abs(expected_hits(1, tn) - series) < F(1, 10**20)


# --- Curse of Ones ------------------------------------------------------------------------------

def bf_curse(dice: int) -> Fraction:
    cursed = sum(1 for faces in itertools.product(range(1, 7), repeat=dice) if 2 * faces.count(1) > dice)
    return F(cursed, 6 ** dice)


@pytest.mark.parametrize("dice", range(1, 7))
def test_curse_of_ones_by_listing_every_roll(dice):
    assert curse_of_ones(dice) == bf_curse(dice)


def test_curse_of_ones_golden():
    assert curse_of_ones(1) == F(1, 6)
    assert curse_of_ones(2) == F(1, 36)          # both dice: one of two is no majority
    assert curse_of_ones(3) == F(16, 216)        # two or three ones: 3*5 + 1 of 216
    rng = random.Random(1)
    rolls = 30_000
    for dice in (4, 8):
        hits = sum(2 * bf_roll(rng, dice, 3)[1] > dice for _ in range(rolls))
        p = float(curse_of_ones(dice))
        assert abs(hits / rolls - p) <= 5 * (p * (1 - p) / rolls) ** 0.5


# --- contests -------------------------------------------------------------------------------------

def bf_contest(a: int, a_tn: int, b: int, b_tn: int) -> tuple[Fraction, Fraction]:
    """Sums over hit counts from the roll-by-roll recursion, to 25 hits each."""
    def dist(dice, tn):
        return [bf_success(dice, tn, h) - bf_success(dice, tn, h + 1) for h in range(26)]
    da, db = dist(a, a_tn), dist(b, b_tn)
    first = sum(da[i] * db[j] for i in range(26) for j in range(26) if i > j)
    second = sum(da[i] * db[j] for i in range(26) for j in range(26) if j > i)
    return first, second


@pytest.mark.parametrize("a, a_tn, b, b_tn", [(3, 3, 3, 3), (1, 5, 4, 1), (5, 2, 2, 4)])
def test_contests_match_the_oracle_within_the_stated_bound(a, a_tn, b, b_tn):
    result = contest(a, a_tn, b, b_tn)
    assert result.bound < TAIL_BOUND
    first, second = bf_contest(a, a_tn, b, b_tn)
    assert abs(result.first - first) <= TAIL_BOUND
    assert abs(result.second - second) <= TAIL_BOUND
    assert result.first + result.second + result.tie == 1
    one, two, both = result.with_one_reroll()
    assert one + two + both == 1 and both == result.tie ** 2
    assert sum(result.until_decided()) == 1


def test_a_mirror_contest_is_even():
    result = contest(4, 3, 4, 3)
    assert result.first == result.second
    assert result.until_decided() == (F(1, 2), F(1, 2))


def test_bad_rolls_are_refused():
    for args in [(1, 0), (1, 6), (-1, 3)]:
        with pytest.raises(ValueError):
            success(*args)
