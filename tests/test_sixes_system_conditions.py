"""Unconsciousness, coma, critical condition and dying, with the source's
long worked example (the survival checks and the paramedic) replayed."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from generator.systems.sixes_system.conditions import (CRITICAL_STEPS, coma_pool, condition, critical_loss_interval,
                                                       dice_to_roll, groggy_rounds, in_coma, recovery_dice,
                                                       recovery_pool, recovery_sixes, rounds_until_recovery,
                                                       sixes_after_coma, treat_critical)
from generator.systems.sixes_system.dying import (apply_sixes, beyond_saving, decline, is_dying, out_of_danger,
                                                  resuscitation_sixes, sixes_required, stops_next_check,
                                                  survival_pool, survival_tick)
from generator.systems.sixes_system.rules import target_number, virtual_sixes

# Purposes in the order attack, explain, defend, analyze.
SURVIVAL_DICE = 10


def test_conditions_from_temporary_and_enduring_damage():
    assert condition(10, temporary=4, enduring=3) == "standing"
    assert condition(10, temporary=7, enduring=3) == "unconscious"
    assert condition(10, temporary=12) == "unconscious"
    assert condition(8, temporary=0, enduring=8) == "critical"
    assert condition(8, temporary=5, enduring=9) == "critical"


def test_unconsciousness_recovery_and_coma():
    # One round later per point below zero; at exactly 0 the next round (ruling recovery-at-zero).
    assert rounds_until_recovery(-3) == 3
    assert rounds_until_recovery(0) == 1
    assert recovery_pool(9, -2, 3) == 4 + -2 + 3
    assert in_coma(recovery_pool(3, -5, 2))
    assert not in_coma(1)
    assert coma_pool([5, 0, -2, 3]) == 2


def test_the_half_stat_is_the_highest_other_stat_rounded_down():
    # Ruling recovery-half-stat: half of 7 is 3; the stat knocked out never counts as the highest.
    assert recovery_dice((7, -1, 4), reduced=1, purpose=2) == 3 - 1 + 2
    assert recovery_dice((0, 5, 9), reduced=2, purpose=1) == 5 // 2 + 9 + 1
    # A highest remaining stat at 0 or below adds nothing rather than taking dice away.
    assert recovery_dice((-3, -1), reduced=1, purpose=2) == 0 - 1 + 2
    with pytest.raises(ValueError):
        recovery_dice((-2,), reduced=0, purpose=3)


def test_recovery_sixes_persist_to_the_next_check():
    # Only sixes count; they stay, counted as rolled sixes, and the rest of the pool is rolled.
    pool = 5
    first = recovery_sixes(pool, kept=0, new_sixes=2)
    assert first == 2                                   # heals 2 points of temporary damage
    assert dice_to_roll(pool, first) == 3
    second = recovery_sixes(pool, kept=first, new_sixes=1)
    assert second == 3                                  # the two kept and one new: heals 3 more
    assert dice_to_roll(pool, second) == 2
    with pytest.raises(ValueError):
        recovery_sixes(pool, kept=first, new_sixes=4)   # only 3 dice were thrown


def test_a_coma_ends_with_no_sixes_kept():
    # Back to plain unconsciousness only once every stat is positive, with a pool total of no sixes.
    assert sixes_after_coma((1, 3, 2)) == 0
    assert dice_to_roll(4, sixes_after_coma((1, 3, 2))) == 4
    with pytest.raises(ValueError):
        sixes_after_coma((1, 0, 2))


def test_waking_reorients_for_the_first_of_the_groggy_rounds():
    # Ruling waking: a round reorienting is the first of d6 groggy rounds.
    assert groggy_rounds(1) == (1, 1)
    assert groggy_rounds(6) == (1, 6)
    with pytest.raises(ValueError):
        groggy_rounds(0)


def test_critical_treatment_steps():
    assert critical_loss_interval(0) == (1, "minute")
    assert critical_loss_interval(1) == (2, "hours")
    assert critical_loss_interval(23) == (24, "hours")
    assert critical_loss_interval(CRITICAL_STEPS) is None
    assert treat_critical(0, True) == 1
    assert treat_critical(3, True, extra_sixes=2) == 6
    assert treat_critical(3, False) == 2
    assert treat_critical(3, False, natural_ones=2, critical_failure=True) == 1
    assert treat_critical(23, True, extra_sixes=5) == CRITICAL_STEPS
    with pytest.raises(ValueError):
        critical_loss_interval(25)


# The survival checks of the worked example: (seconds, purposes after the
# decline, sixes needed, sixes given to each purpose, purposes afterwards).
DYING = [
    (10, (3, 2, -4, 1), 4, (0, 0, 3, 0), (3, 2, -1, 1)),
    (20, (2, 1, -2, 0), 2, (0, 0, 1, 0), (2, 1, -1, 0)),
    (30, (1, 0, -2, -1), 3, (0, 0, 1, 0), (1, 0, -1, -1)),
    (40, (0, -1, -2, -2), 5, (0, 0, 2, 0), (0, -1, 0, -2)),
    (50, (-1, -2, -1, -3), 7, (0, 1, 0, 2), (-1, -1, -1, -1)),
    (60, (-2, -2, -2, -2), 8, (2, 0, 0, 0), (0, -2, -2, -2)),
    (70, (-1, -3, -3, -3), 10, (0, 0, 2, 0), (-1, -3, -1, -3)),
]


def test_dying_starts_at_zero_and_ends_when_none_is_below_zero():
    # "Reduced to zero or less" starts it; the example's patient is saved at 0, 0, 0, 0.
    assert is_dying((4, 3, 0, 2))
    assert is_dying((4, 3, -3, 2))
    assert not is_dying((4, 3, 1, 2))
    assert out_of_danger((0, 0, 0, 0)) and not out_of_danger((0, 0, 0, -1))


def test_the_survival_pool():
    # Strength 7 or the self-defined Pulp Hero 9: the player takes the 9. No skill, no purpose.
    assert survival_pool(7, 9) == 9
    assert survival_pool(7) == 7
    assert survival_pool(9, 7) == 9
    # Traits add dice and disadvantages remove them: the example rolls 10 (ruling survival-pool).
    assert survival_pool(7, 9, traits=1) == SURVIVAL_DICE
    assert survival_pool(2, disadvantages=3) == 0


def test_the_dying_example_without_help():
    # Defend was 4 and took 7 damage; the others are 4, 3 and 2.
    purposes: tuple[int, ...] = (4, 3, 4 - 7, 2)
    assert is_dying(purposes)
    for seconds, declined, needed, given, after in DYING:
        tick = survival_tick(seconds, purposes, SURVIVAL_DICE, given)
        assert (tick.declined, tick.required, tick.after) == (declined, needed, after)
        purposes = tick.after
        assert tick.dead == (seconds == 70), seconds
    # At 50 s, one six was enough to buy another roll; none would not have been.
    assert not beyond_saving((-1, -2, -1, -2), SURVIVAL_DICE)
    assert beyond_saving((-1, -2, -1, -3), SURVIVAL_DICE)
    assert sixes_required(decline((-1, -2, -1, -3))) == 11   # the text's "15" is a slip (ruling beyond-saving)
    # At 60 s two sixes buy ten seconds; at 70 s four would have.
    assert not beyond_saving(apply_sixes((-2, -2, -2, -2), (2, 0, 0, 0)), SURVIVAL_DICE)
    assert not beyond_saving(apply_sixes((-1, -3, -3, -3), (1, 3, 0, 0)), SURVIVAL_DICE)


def test_sixes_never_lift_a_purpose_above_zero():
    with pytest.raises(ValueError):
        apply_sixes((1, -1, 0, 0), (0, 2, 0, 0))


PARAMEDIC_A = F(7, 2)
PARAMEDIC_TARGET = target_number(8 + 3 + 3 + 2, PARAMEDIC_A, 2 + 2)


def paramedic_extra(total: int) -> int | None:
    return resuscitation_sixes(total, PARAMEDIC_TARGET, PARAMEDIC_A)


def test_only_a_roll_that_reaches_its_target_stops_the_next_check():
    # "No sixes over the minimum" still stops the next check; a miss does not.
    assert paramedic_extra(66) == 0 and stops_next_check(paramedic_extra(66))
    assert paramedic_extra(65) is None and not stops_next_check(paramedic_extra(65))
    assert stops_next_check(paramedic_extra(75))
    tick = survival_tick(60, (0, 0, 0, -1), SURVIVAL_DICE, (0, 0, 0, 0), stopped=True)
    assert tick.skipped and tick.after == (0, 0, 0, -1) and tick.required == 0 and not tick.dead
    with pytest.raises(ValueError):
        survival_tick(60, (0, 0, 0, -1), SURVIVAL_DICE, (0, 0, 0, 1), stopped=True)


def test_the_paramedic_at_once():
    assert PARAMEDIC_TARGET == 66
    first = [1] * 2 + [2] * 3 + [3] * 4 + [5] * 3 + [6] * 4
    assert len(first) == 16 and sum(first) == 59
    assert paramedic_extra(59) is None
    # The story runs unchanged to 30 s; then the decline to (0, -1, -2, -2).
    purposes: tuple[int, ...] = (1, 0, -1, -1)
    purposes = decline(purposes)
    assert purposes == (0, -1, -2, -2)
    assert paramedic_extra(75) == 3
    purposes = apply_sixes(purposes, (0, 0, 1, 2))
    assert purposes == (0, -1, -1, 0) and sixes_required(purposes) == 2
    purposes = apply_sixes(purposes, (0, 1, 1, 0))   # the two sixes he rolled
    assert out_of_danger(purposes)


def test_the_paramedic_at_once_under_our_ruling():
    # The text lets the 40 s check happen after the success; under ruling paramedic-stops-a-check the
    # success comes before the decline and stops it, and the patient is saved all the same.
    purposes: tuple[int, ...] = (1, 0, -1, -1)         # after the 30 s check
    extra = paramedic_extra(75)
    assert stops_next_check(extra) and extra == 3
    purposes = apply_sixes(purposes, (0, 0, 1, 1))     # two of the three sixes are enough
    assert out_of_danger(purposes)


def test_the_paramedic_twenty_seconds_late():
    purposes: tuple[int, ...] = (-1, -1, -1, -1)      # at 50 s, as without help
    assert paramedic_extra(59) is None                # the first attempt, at 20-odd seconds, missed
    assert paramedic_extra(75) == 3
    purposes = apply_sixes(purposes, (1, 1, 1, 0))
    assert purposes == (0, 0, 0, -1)
    # 60 s: the successful roll means no check and no decline.
    assert stops_next_check(paramedic_extra(75))
    tick = survival_tick(60, purposes, SURVIVAL_DICE, (0, 0, 0, 0), stopped=True)
    assert tick.skipped and tick.after == purposes
    tick = survival_tick(70, tick.after, SURVIVAL_DICE, (0, 0, 0, 2))
    assert (tick.declined, tick.required, tick.after, tick.dead) == ((-1, -1, -1, -2), 5, (-1, -1, -1, 0), False)
    tick = survival_tick(80, tick.after, SURVIVAL_DICE, (2, 0, 0, 0))
    assert (tick.declined, tick.after, tick.dead) == ((-2, -2, -2, -1), (0, -2, -2, -1), False)
    lucky = [3] + [4] * 4 + [5] * 6 + [6] * 4
    assert sum(lucky) == 73                           # the text says 79 (ruling paramedic-lucky-roll)
    assert paramedic_extra(79) == 5
    purposes = apply_sixes(tick.after, (0, 2, 2, 1))
    assert purposes == (0, 0, 0, 0) and out_of_danger(purposes)


def test_the_follow_up_healing_check():
    target = target_number(8 + 3 + 2, F(3), 2 + 1)
    assert target == 48
    assert virtual_sixes(55 - target, F(3)) == 2
