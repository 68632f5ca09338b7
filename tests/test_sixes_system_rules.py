"""The Sixes System's attack rules against the source's worked examples,
hand-written tables and brute-force oracles (functions prefixed bf_)."""
from __future__ import annotations

import functools
import itertools
from fractions import Fraction as F

import pytest

from generator.systems.sixes_system.odds import (DamagePlan, attack_outcome, chance_at_least, chance_of_sixes,
                                                 colour_total, excess_sixes, expected_colour, expected_per_die)
from generator.systems.sixes_system.rules import (Adjustments, DamageDice, Reduction, attack_pool, cover_adjustment,
                                                  damage_pool, defence_total, die_damage, exact, mode_extra_dice,
                                                  per_die_reduction, raw_attack_dice, roll_needed, split_colours,
                                                  target_number, virtual_sixes)


# --- target numbers and virtual sixes -----------------------------------------

def test_target_is_defence_times_a_plus_sixes_times_six_minus_a():
    assert target_number(10, F(3), 0) == 30
    assert target_number(10, F(3), 2) == 36
    assert target_number(9, F(11, 4), 1) == F(99, 4) + F(13, 4)   # 24.75 + 3.25 = 28
    assert target_number(7, F(13, 4)) == F(91, 4)
    assert roll_needed(F(91, 4)) == 23 and roll_needed(F(28)) == 28


def test_a_skill_check_target_matches_the_paramedic_example():
    # 16 dice, 4 sixes required, A 3.5: the source writes 12 x 3.5 + 4 x 6 = 66.
    assert target_number(16, F(7, 2), 4) == 66 == 12 * F(7, 2) + 4 * 6
    # Later: 13 dice, A 3, 3 sixes: 10 x 3 + 18 = 48.
    assert target_number(13, F(3), 3) == 48


def test_virtual_sixes_worked_examples():
    # A = 3 2/3, 16 over: 16 / (7/3) = 48/7 = 6 6/7, so 6.
    assert virtual_sixes(16, F(11, 3)) == 6
    assert F(16) / (6 - F(11, 3)) == F(48, 7)
    # A = 3 1/4, 7 over: 7 / (11/4) = 28/11, so 2.
    assert virtual_sixes(7, F(13, 4)) == 2
    assert F(7) / (6 - F(13, 4)) == F(28, 11)
    # The paramedic: A 3.5, 9 over gives 3 3/5, so 3; 13 over gives 5 1/5, so 5.
    assert virtual_sixes(9, F(7, 2)) == 3 and virtual_sixes(13, F(7, 2)) == 5
    # The healing check: 55 against 48 at A 3 is 7 over, 2 1/3, so 2.
    assert virtual_sixes(55 - 48, F(3)) == 2


def test_virtual_sixes_reject_failures_and_impossible_a():
    with pytest.raises(ValueError):
        virtual_sixes(-1, F(3))
    with pytest.raises(ValueError):
        target_number(5, F(6))


def test_pools_and_defence_totals():
    assert attack_pool(8, 3, 3, 2) == 16                 # the paramedic's pool
    assert attack_pool(10, 3, 3, enhancement=1) == 17
    assert defence_total(10, 3, 2) == 15
    assert defence_total(10, 3, 2, penalty=4) == 11      # after a kill-shot
    assert defence_total(1, 0, 0, penalty=4) == 0


def test_every_a_adjustment_adds_up():
    adj = Adjustments(base=F(3), mode=F(3, 4), cover=F(1, 2), pulling_punches=F(1, 2), kill_shot=F(1))
    assert adj.a == F(23, 4)
    assert cover_adjustment(F(-1, 2)) == F(-1, 2)
    assert cover_adjustment(F(1, 2), active=True) == F(3, 4)
    assert cover_adjustment(F(3, 4), active=True) == 1
    assert cover_adjustment(F(3, 4), active=True, active_cap=F(1)) == 1   # capped at +1
    assert exact(2.75) == F(11, 4) and exact(0.25) == F(1, 4)


# --- damage dice ----------------------------------------------------------------

def test_raw_attack_dice_are_stat_plus_purpose_over_five_rounded_down():
    assert [raw_attack_dice(s, 3) for s in (1, 2, 6, 7, 11, 12)] == [0, 1, 1, 2, 2, 3]


def test_plus_two_thirds_worked_example():
    # Resistance against Resistance, +2 per 3: base 2 dice, then 0-4 excess sixes.
    assert mode_extra_dice(2, 2, 3) == 0
    assert [damage_pool(2, excess, (2, 3)) for excess in range(5)] == [2, 5, 6, 7, 10]


def test_pulling_punches_needs_two_excess_sixes_per_die():
    assert [damage_pool(2, excess, sixes_per_die=2) for excess in range(6)] == [2, 2, 3, 3, 4, 4]


def test_negative_adjustments_remove_dice_but_never_below_zero():
    assert damage_pool(6, 0, (-1, 2)) == 3
    assert damage_pool(4, 0, (-2, 3)) == 2
    assert damage_pool(5, 0, (-1, 1)) == 0
    assert damage_pool(4, 0, (1, 1)) == 8


def test_colour_split_extras_and_kill_shot():
    assert split_colours(10) == DamageDice(5, 5)
    assert split_colours(7) == DamageDice(4, 3)
    assert split_colours(0, extra_colour_a=1) == DamageDice(1, 0)          # an improvised weapon's die
    assert split_colours(5, colour_b_multiplier=3) == DamageDice(3, 6)     # kill-shot


def test_armour_shield_and_enhancement_examples():
    # Armour 4 with shield 1: only sixes hurt, for 1 point.
    plate = per_die_reduction(4, 1)
    assert [die_damage(f, plate.colour_b) for f in range(1, 7)] == [0, 0, 0, 0, 0, 1]
    # +1 enhancement: 5s do 1, 6s do 2.
    plus_one = per_die_reduction(4, 1, 1)
    assert [die_damage(f, plus_one.colour_b) for f in range(1, 7)] == [0, 0, 0, 0, 1, 2]
    # +3 enhancement: down to 2, so 3s do 1 up to 6s doing 4.
    plus_three = per_die_reduction(4, 1, 3)
    assert [die_damage(f, plus_three.colour_b) for f in range(1, 7)] == [0, 0, 1, 2, 3, 4]
    assert per_die_reduction(2, 1) == Reduction(2, 3)
    assert per_die_reduction(1, 0, 3) == Reduction(0, 0)


def test_ten_dice_example_averages_ten_sixths_per_die():
    assert expected_per_die(2) == F(10, 6)
    assert expected_colour(5, 2) == F(50, 6) == 8 + F(1, 3)
    assert expected_per_die(0) == F(7, 2)


# --- exact odds against brute force ----------------------------------------------

def bf_at_least(dice: int, target: int) -> F:
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return F(sum(1 for r in rolls if sum(r) >= target), len(rolls))


@pytest.mark.parametrize("dice", range(0, 6))
def test_pool_odds_match_brute_force(dice):
    for target in range(0, 6 * dice + 2):
        assert chance_at_least(dice, target) == bf_at_least(dice, target)
    assert chance_at_least(dice, F(7, 2)) == bf_at_least(dice, 4)    # a fractional target rounds up


def test_pool_odds_for_large_pools_are_sane():
    assert chance_at_least(40, 40) == 1
    assert chance_at_least(40, 241) == 0
    assert chance_at_least(40, 140) == F(1, 2) + sum_of_middle(40)
    previous = F(1)
    for target in range(40, 242):
        now = chance_at_least(40, target)
        assert now <= previous
        previous = now
    with pytest.raises(ValueError):
        chance_at_least(41, 10)


def sum_of_middle(n: int) -> F:
    """P(total == 7n/2) / 2: the distribution is symmetric about 3.5 n."""
    from generator.core.dice import sum_of_d6
    return sum_of_d6(n)[7 * n // 2] / 2


@functools.lru_cache(maxsize=None)
def bf_mean_damage(count: int, reduction: int, divisor: int) -> F:
    faces = list(itertools.product(range(1, 7), repeat=count))
    return F(sum(sum(max(0, f - reduction) for f in fs) // divisor for fs in faces), len(faces))


def bf_outcome(dice: int, target: F, a: F, plan: DamagePlan, reduction: Reduction):
    """Every attack roll and every damage roll, enumerated."""
    success = F(0)
    damage_a = damage_b = F(0)
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    for roll in rolls:
        if sum(roll) < target:
            continue
        p = F(1, len(rolls))
        success += p
        extra = int((sum(roll) - target) // (6 - a))
        d = plan.dice(extra)
        for colour, count, red in (("a", d.colour_a, reduction.colour_a), ("b", d.colour_b, reduction.colour_b)):
            mean = bf_mean_damage(count, red, plan.divisor)
            if colour == "a":
                damage_a += p * mean
            else:
                damage_b += p * mean
    return success, damage_a, damage_b


@pytest.mark.parametrize("plan, reduction", [
    (DamagePlan(2, (2, 3)), Reduction(0, 1)),
    (DamagePlan(1, (1, 2), extra_colour_a=1), Reduction(1, 2)),
    (DamagePlan(1, (0, 1), sixes_per_die=2, extra_colour_a=1, divisor=2), Reduction(0, 0)),
    (DamagePlan(1, (-1, 2), colour_b_multiplier=3), Reduction(2, 2)),
])
def test_attack_outcome_matches_enumeration(plan, reduction):
    a = F(11, 4)
    target = target_number(1, a, 1)     # 2.75 + 3.25 = 6
    got = attack_outcome(4, target, a, plan, reduction)
    assert (got.success, got.colour_a, got.colour_b) == bf_outcome(4, target, a, plan, reduction)


def test_excess_sixes_sum_to_the_chance_of_success():
    a = F(3)
    target = target_number(5, a, 1)
    dist = excess_sixes(7, target, a)
    assert sum(dist.values()) == chance_at_least(7, target)
    assert min(dist) == 0 and max(dist) == (42 - 18) // 3


def test_colour_totals_sum_to_one_and_match_enumeration():
    dist = colour_total(3, 2)
    assert sum(dist.values()) == 1
    faces = list(itertools.product(range(1, 7), repeat=3))
    assert dist[0] == F(sum(1 for f in faces if all(x <= 2 for x in f)), len(faces))


def test_chance_of_natural_sixes():
    assert chance_of_sixes(10, 0) == 1
    assert chance_of_sixes(1, 1) == F(1, 6)
    assert chance_of_sixes(2, 1) == F(11, 36)
    assert chance_of_sixes(10, 10) == F(1, 6**10)


# --- one attack with everything applied, from the example campaign ---------------

def test_a_matchup_from_the_example_cast():
    from generator.core.paths import DEFAULT_DATA_DIR
    from generator.systems.sixes_system.combat import Options, matchup
    from generator.systems.sixes_system.dataset import load_game
    campaign, _ = load_game(DEFAULT_DATA_DIR / "sixes-system", DEFAULT_DATA_DIR)
    assert campaign is not None
    cast = {m.combatant.name: m.combatant for m in campaign.cast}
    dora, brick = cast["Dora Quill"], cast["Brick Halloran"]
    sabre, block = dora.weapons[0], brick.defences[0]
    m = matchup(campaign.modes, F(3), dora, sabre, brick, block)
    assert m.pool == 10 + 3 + 3 + 1
    assert m.defence_total == 11 + 4 + 3
    assert m.adjustments.a == F(13, 4)                   # finesse vs resistance +0.25, partial cover +0
    assert m.target == 18 * F(13, 4) == F(117, 2)
    assert m.outcome.success == chance_at_least(17, 59)
    assert m.plan == DamagePlan(3, (0, 1))
    # In the open, pulling the punch, with two sixes required.
    opts = Options(cover="none", pulling_punches=True, sixes=2)
    held = matchup(campaign.modes, F(3), dora, sabre, brick, block, opts)
    assert held.adjustments.a == 3 + F(1, 4) - F(1, 2) + F(1, 2)
    assert held.target == 18 * F(13, 4) + 2 * (6 - F(13, 4))
    assert held.plan == DamagePlan(3, (0, 1), sixes_per_die=2, extra_colour_a=1, divisor=2)
    assert held.outcome.damage < m.outcome.damage * 2
    # A kill-shot: +1 A and three times the colour B dice.
    kill = matchup(campaign.modes, F(3), dora, sabre, brick, block, Options(kill_shot=True))
    assert kill.adjustments.a == F(17, 4) and kill.plan.colour_b_multiplier == 3
    # Brick's fists are a raw attack: (11 + 4) / 5 = 3 dice, doubled against resistance.
    fists = matchup(campaign.modes, F(3), brick, brick.weapons[0], brick, block)
    assert fists.plan.base_dice == 3 and fists.plan.adjustment == (1, 1)
