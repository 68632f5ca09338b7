"""I6 combat, sentence by sentence: initiative and ticks, damage rating and
counted hits, wound penalties, incapacitation, healing; and the wound boxes
one attack marks, against a seeded simulation."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from generator.systems.i6.combat import (action_ticks, attack_odds, counted_hits, damage, damage_rating, defended,
                                         first_ticks, gritty_death_ticks, healing_tn, incapacitated, move_scale,
                                         stabilise_tn, stabilised, unarmed_spd, wound_scale)
from generator.systems.i6.odds import success

from test_i6_odds import bf_roll


def test_initiative_waits_are_the_shortfall_from_the_best_roll():
    # d6 + Awareness: Ilsa 5 + 4 = 9, Mott 3 + 2 = 5, a guard 6 + 3 = 9.
    assert first_ticks({"Ilsa": 9, "Mott": 5, "guard": 9}) == {"Ilsa": 0, "Mott": 4, "guard": 0}


def test_each_action_waits_its_spd():
    # Mott starts on tick 4, swings an axe (SPD 6), Defends (SPD 5), Aims for 2.
    assert action_ticks(4, [6, 5, 2]) == [4, 10, 15, 17]
    assert action_ticks(0, []) == [0]


@pytest.mark.parametrize("brawl, spd", [(1, 5), (2, 4), (5, 1)])
def test_unarmed_spd_is_six_minus_brawl(brawl, spd):
    assert unarmed_spd(brawl) == spd


@pytest.mark.parametrize("yards, scale", [(0, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3)])
def test_moving_beyond_five_yards_adds_scale(yards, scale):
    assert move_scale(yards) == scale


@pytest.mark.parametrize("value, doubled", [(1, 2), (2, 4), (3, 5), (5, 5)])
def test_defend_doubles_up_to_five(value, doubled):
    assert defended(value) == doubled


@pytest.mark.parametrize("weapon, brawn, rating", [(7, 2, 5), (5, 5, 1), (3, 5, 1), (6, 1, 5)])
def test_damage_rating_is_weapon_less_brawn_at_least_one(weapon, brawn, rating):
    assert damage_rating(weapon, brawn) == rating


@pytest.mark.parametrize("hits, scale, counted", [(0, 1, 0), (1, 1, 1), (3, 1, 3), (1, 2, 0), (2, 2, 1),
                                                  (4, 2, 3), (5, 3, 3)])
def test_hits_that_meet_the_scale_count_as_one(hits, scale, counted):
    assert counted_hits(hits, scale) == counted


def test_damage_is_rating_times_counted_hits():
    # Sabre (5) against Brawn 2: rating 3. Three hits at Scale 2 count as two: 6 boxes.
    assert damage(3, 2, damage_rating(5, 2)) == 6
    assert damage(1, 2, 3) == 0


@pytest.mark.parametrize("boxes, marked, penalty", [(6, 0, 0), (6, 3, 0), (6, 4, 1), (9, 4, 0), (9, 5, 1),
                                                    (8, 4, 0), (8, 5, 1)])
def test_wound_penalty_starts_below_half_the_boxes(boxes, marked, penalty):
    assert wound_scale(boxes, marked) == penalty


@pytest.mark.parametrize("boxes, marked, penalty", [(7, 3, 0), (7, 4, 1), (5, 2, 0), (5, 3, 1), (1, 0, 0),
                                                    (1, 1, 1)])
def test_less_than_half_of_an_odd_track_is_measured_against_the_exact_half(boxes, marked, penalty):
    # Ruling wound-penalty-half: half of 7 is 3.5, so 4 left is fine and 3 left is below it.
    assert wound_scale(boxes, marked) == penalty


def test_the_wound_penalty_raises_the_scale():
    # Ruling wound-penalty-raises: the missing verb is "increased"; a wounded hit needs one more hit.
    hurt = 1 + wound_scale(6, 4)
    assert hurt == 2
    assert counted_hits(1, hurt) == 0 and counted_hits(2, hurt) == 1


def test_the_gritty_medical_roll():
    # Ruling stabilise-roll: the healing roll's TN, Scale 1; meeting the Scale saves, whatever the hits.
    assert [stabilise_tn(b) for b in range(1, 6)] == [healing_tn(b) for b in range(1, 6)] == [5, 4, 3, 2, 1]
    assert not stabilised(0) and stabilised(1) and stabilised(3)
    assert not stabilised(1, scale=2) and stabilised(2, scale=2)


def test_incapacitation_and_healing():
    assert not incapacitated(6, 5) and incapacitated(6, 6) and incapacitated(6, 8)
    assert [healing_tn(b) for b in range(1, 6)] == [5, 4, 3, 2, 1]
    assert gritty_death_ticks(3) == 15


def test_attack_odds_by_hand():
    # One die at TN 3, Scale 1, rating 2: a miss is 1/2; one counted hit (2 boxes) is a 4 or 5
    # or a six then a miss; two (4 boxes) a six, a hit, then a miss...
    odds = attack_odds(1, 3, 1, 2, listed=2)
    assert odds.miss == Fraction(1, 2)
    assert odds.boxes == ((2, Fraction(5, 12)), (4, Fraction(5, 72)))
    assert odds.miss + sum(p for _, p in odds.boxes) + odds.more == 1
    assert odds.more == success(1, 3, 3)


def test_attack_odds_against_a_simulation():
    """30,000 simulated attacks: Reya's pistol (Shooting 4, damage 6) against Dodge 3, Brawn 2, Scale 2."""
    rng = random.Random(16)
    attacks, scale, rating = 30_000, 2, damage_rating(6, 2)
    odds = attack_odds(4, 3, scale, rating, listed=3)
    counts: dict[int, int] = {}
    for _ in range(attacks):
        hits, _ = bf_roll(rng, 4, 3)
        boxes = damage(hits, scale, rating)
        counts[boxes] = counts.get(boxes, 0) + 1
    expected = [(0, odds.miss)] + list(odds.boxes)
    for boxes, exact in expected:
        p = float(exact)
        assert abs(counts.get(boxes, 0) / attacks - p) <= 5 * (p * (1 - p) / attacks) ** 0.5, boxes


@pytest.mark.parametrize("boxes, first", [(1, 1), (6, 4), (8, 5), (9, 5), (11, 6)])
def test_the_sheet_dashes_boxes_from_the_first_penalty(boxes, first):
    from generator.systems.i6.outputs import first_penalty_box
    # Marking box `first` leaves fewer than half: 6 boxes -> 2 left after the 4th, 3 left after the 3rd.
    assert first_penalty_box(boxes) == first
