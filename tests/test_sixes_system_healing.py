"""Healing in the Sixes System (part 7, 13.8 and 13.10-13.11) and the goals of
complex attacks (14): the rules against the source's own examples, sentence
by sentence, and every odds figure against a brute-force oracle (bf_)."""
from __future__ import annotations

import itertools
import json
from fractions import Fraction as F
from math import comb
from pathlib import Path

import pytest

from generator.systems.sixes_system.conditions import CRITICAL_STEPS, critical_loss_interval
from generator.systems.sixes_system.healing import (Allocation, CriticalCare, RankLimits, Support, Wounds, awake,
                                                    botched, botched_treatment, can_treat, ceilings, combined,
                                                    daily_recovery, defibrillated, goal_reached_by, goal_sixes, heal,
                                                    heal_minute, healing_dice, intervention_pool, is_critical_failure,
                                                    minutes_to_wake, next_attempt, over_limits, rank_ceiling,
                                                    ready_for_surgery, rest_die, rest_fraction, skill_needed,
                                                    steps_for, treat)
from generator.systems.sixes_system.healing import Skill
from generator.systems.sixes_system.healing_odds import (check_odds, coma_expected_hours, coma_point_within, die,
                                                         expected_days, expected_healing, goal_in_one,
                                                         paramedic_reaches, pool_total, recovered_within)
from generator.systems.sixes_system.rules import roll_needed, target_number, virtual_sixes

# --- the medical skills (13.10, 13.11) ------------------------------------------


def test_each_kind_of_damage_has_its_skill_and_each_skill_reaches_milder_kinds():
    """Temporary: First Aid; Enduring: Paramedic; Persistent: Surgery. A
    skill also mends the milder kinds (ruling medical-skill-reach)."""
    assert can_treat("first-aid", "temporary") and not can_treat("first-aid", "enduring")
    assert can_treat("paramedic", "temporary") and can_treat("paramedic", "enduring")
    assert not can_treat("paramedic", "persistent")
    assert all(can_treat("surgery", kind) for kind in ("temporary", "enduring", "persistent"))


def test_rank_limits_paramedic_below_first_aid_surgery_below_paramedic():
    """'Paramedic Ranks cannot be higher than First Aid -1'; Surgery no
    higher than Paramedic -2."""
    assert rank_ceiling("first-aid", None) is None
    assert rank_ceiling("paramedic", 4) == 3
    assert rank_ceiling("surgery", 3) == 1
    assert rank_ceiling("paramedic", 0) == -1          # rank 0 First Aid allows no Paramedic at all
    assert rank_ceiling("surgery", None) == -1         # nor Surgery without Paramedic
    assert rank_ceiling("surgery", 3, RankLimits(1, 1)) == 2


# The healer of 13.11: each tool counts as one skill and keeps to the ladder.
TOOLS_13_11: dict[str, tuple[Skill, int]] = {
    "Cure Light Wounds": ("first-aid", 4),
    "Cell Regenerator": ("paramedic", 3),
    "Cure Serious Wounds": ("paramedic", 1),
    "Programmable Cyberdoc": ("surgery", 0),
}


def test_the_healing_magic_example_keeps_to_the_ladder():
    """The Regenerator is 'as high as' Cure Light Wounds permits, and the
    Cyberdoc can be improved by one rank (= Paramedic -2)."""
    assert over_limits(list(TOOLS_13_11.values())) == []
    limits = ceilings(TOOLS_13_11)
    assert limits["Cell Regenerator"] == 3 == TOOLS_13_11["Cell Regenerator"][1]
    assert limits["Programmable Cyberdoc"] == 1 == TOOLS_13_11["Programmable Cyberdoc"][1] + 1
    assert limits["Cure Light Wounds"] is None


def test_tools_above_their_ceiling_are_named_against_the_best_tool_below():
    tools: list[tuple[Skill, int]] = [("first-aid", 2), ("first-aid", 4), ("paramedic", 4), ("surgery", 3)]
    found = over_limits(tools)
    assert [(o.index, o.ceiling, o.below) for o in found] == [(2, 3, 1), (3, 2, 2)]
    assert [(o.index, o.ceiling, o.below) for o in over_limits([("surgery", 0)])] == [(0, -1, None)]


# --- medical intervention (13.10 and the paramedic's healing check) ----------


def test_ranks_set_aside_for_healing_do_not_join_the_roll():
    """Ranks allocated to healing 'cannot be used to improve' the roll.
    The paramedic sets all three aside: 8 + 3 + 2 (bag) = 13 dice, and heals 3d6."""
    split = Allocation(ranks=3, to_healing=3)
    assert intervention_pool(8 + 3 + 2, split) == 13
    assert healing_dice(split) == 3
    assert intervention_pool(8 + 3 + 2, Allocation(3, 0)) == 16 and healing_dice(Allocation(3, 0)) == 0
    assert intervention_pool(13, Allocation(3, 1)) == 15
    with pytest.raises(ValueError):
        Allocation(3, 4)


def test_the_follow_up_check_succeeds_and_heals_one_d6_per_rank():
    """Target 3 x 10 + 18 = 48 for 13 dice at A 3 with 3 sixes; a 55 succeeds,
    and 'the degree of success is no longer important': 3d6 heal."""
    target = target_number(13, F(3), 3)
    assert target == 48 and 55 >= roll_needed(target)
    odds = check_odds(13, F(3), 3)
    assert odds.target == 48 and odds.needed == 48
    assert expected_healing(odds, 3) == odds.success * F(21, 2)


def test_healing_goes_to_temporary_then_enduring_then_persistent():
    """Damage heals 'in order temporary - enduring - persistent', and purpose
    damage only once all stat damage is healed: the paramedic's 13 points
    must go to stat damage first."""
    wounds = Wounds(temporary=5, enduring=6, persistent=7)
    after, unused = heal(wounds, 13, "surgery")
    assert (after.temporary, after.enduring, after.persistent, unused) == (0, 0, 5, 0)
    after, unused = heal(wounds, 8, "surgery")
    assert (after.temporary, after.enduring, after.persistent, unused) == (0, 3, 7, 0)
    # A paramedic cannot reach the purposes: what is left over is lost.
    after, unused = heal(wounds, 13, "paramedic")
    assert (after.temporary, after.enduring, after.persistent, unused) == (0, 0, 7, 2)
    # First Aid stops at the first enduring point, even with points to spare.
    after, unused = heal(Wounds(temporary=2, enduring=4), 9, "first-aid")
    assert (after.temporary, after.enduring, unused) == (0, 4, 7)
    # With no temporary damage there is nothing First Aid can do.
    assert heal(Wounds(enduring=4, persistent=2), 6, "first-aid") == (Wounds(enduring=4, persistent=2), 6)
    assert heal(Wounds(persistent=3), 2, "surgery") == (Wounds(persistent=1), 0)
    with pytest.raises(ValueError):
        heal(wounds, -1, "surgery")


def test_the_next_attempt_follows_the_damage_being_healed():
    """The wait is the current timetable: per round while temporary damage
    is left, per hour once it is gone, per day for purposes."""
    assert next_attempt(Wounds(temporary=1, enduring=5, persistent=3)) == "round"
    assert next_attempt(Wounds(enduring=5, persistent=3)) == "hour"
    assert next_attempt(Wounds(persistent=3)) == "day"
    assert next_attempt(Wounds()) is None
    assert skill_needed(Wounds(temporary=2)) == "first-aid"
    assert skill_needed(Wounds(temporary=2, enduring=1)) == "paramedic"
    assert skill_needed(Wounds(persistent=1)) == "surgery"
    assert skill_needed(Wounds()) is None


def test_a_comatose_patients_temporary_damage_is_treated_as_persistent():
    """13.8.2: comatose patients are healed 'as though' temporary damage were
    persistent (ruling coma-intervention): Surgery, a day, after enduring."""
    coma = Wounds(temporary=4, enduring=3, persistent=2, comatose=True)
    assert skill_needed(coma) == "surgery"
    assert next_attempt(coma) == "hour"                       # the enduring damage comes first
    assert next_attempt(Wounds(temporary=4, comatose=True)) == "day"
    after, unused = heal(coma, 10, "paramedic")               # mends the enduring damage, then stops
    assert (after.temporary, after.enduring, after.persistent, unused) == (4, 0, 2, 7)
    after, unused = heal(coma, 8, "surgery")
    assert (after.temporary, after.enduring, after.persistent, unused) == (0, 0, 1, 0)
    assert heal(Wounds(temporary=4, comatose=True), 3, "first-aid")[1] == 3


def test_a_critical_failure_is_a_failure_without_a_six_but_with_a_one():
    """A critical failure when intervening 'does 2d6 damage' (ruling
    critical-failure: which rolls, and which kind of damage)."""
    assert is_critical_failure([1, 2, 3, 5], succeeded=False)
    assert not is_critical_failure([1, 2, 6, 5], succeeded=False)
    assert not is_critical_failure([2, 2, 3, 5], succeeded=False)
    assert not is_critical_failure([1, 5, 5, 5], succeeded=True)
    wounds = Wounds(temporary=1, enduring=2, persistent=3)
    assert botched(wounds, "first-aid", 7) == Wounds(temporary=8, enduring=2, persistent=3)
    assert botched(wounds, "paramedic", 7) == Wounds(temporary=1, enduring=9, persistent=3)
    assert botched(wounds, "surgery", 7) == Wounds(temporary=1, enduring=2, persistent=10)


def test_a_botch_treating_critical_condition_costs_steps_and_damage():
    """A step back per natural 1 (13.8.3) and the 2d6 of any intervention
    (13.10) both apply (ruling critical-condition-botch)."""
    care = CriticalCare(step=5)
    wounds = Wounds(enduring=4)
    after, hurt = botched_treatment(care, wounds, "paramedic", natural_ones=3, damage=8)
    assert after == CriticalCare(step=2, paramedic_barred=True)
    assert hurt == Wounds(enduring=12)
    after, hurt = botched_treatment(care, wounds, "surgery", natural_ones=9, damage=2)
    assert after.step == 0 and hurt == Wounds(enduring=4, persistent=2)


# --- natural healing (the note on bed rest and medical support) ---------------


def test_rest_fractions_and_dice():
    """Resting 8 hours is 1/3 of the day, 'a d2'; 12 hours half, a d3; 16
    hours 2/3, a d4; full bed rest the whole d6 (ruling rest-rounding)."""
    assert [rest_fraction(h) for h in (8, 12, 16, 24)] == [F(1, 3), F(1, 2), F(2, 3), 1]
    assert [rest_die(h) for h in (8, 12, 16, 24)] == [2, 3, 4, 6]
    assert [rest_die(h) for h in (0, 3, 4, 10, 20, 23)] == [0, 0, 1, 2, 5, 5]
    with pytest.raises(ValueError):
        rest_die(25)


def test_medical_support_doubles_triples_quadruples_or_adds():
    """Medication +1 to +3; constant nursing doubles; a regeneration tank
    triples; a rank-4 regeneration spell quadruples (ruling medical-support)."""
    assert daily_recovery(24) == {f: F(1, 6) for f in range(1, 7)}
    assert daily_recovery(24, multiplier=2) == {2 * f: F(1, 6) for f in range(1, 7)}
    assert daily_recovery(16, multiplier=3) == {3 * f: F(1, 4) for f in range(1, 5)}
    assert daily_recovery(8, bonus=3) == {4: F(1, 2), 5: F(1, 2)}
    assert daily_recovery(12, multiplier=4, bonus=1) == {5: F(1, 3), 9: F(1, 3), 13: F(1, 3)}
    supports = [Support("nursing", multiplier=2), Support("tank", multiplier=3), Support("drug", bonus=1),
                Support("better drug", bonus=3)]
    assert combined(supports) == (3, 3)
    assert combined([]) == (1, 0)


def test_supports_need_natural_healing_first():
    """Supports help only a character 'healing naturally in the first place'."""
    assert daily_recovery(2, multiplier=4, bonus=3) == {0: 1}
    assert expected_days(5, daily_recovery(0)) is None


# --- unconsciousness with several stats (13.8.1) --------------------------------


def test_only_one_negative_stat_heals_each_minute_and_all_must_be_positive():
    """With several stats negative only one heals each minute, and all of
    them must be positive before waking (ruling several-stats)."""
    stats: tuple[int, ...] = (-2, 0, 5)
    assert not awake(stats)
    assert minutes_to_wake(stats) == 3 + 1
    stats = heal_minute(stats, 0)
    assert stats == (-1, 0, 5)
    stats = heal_minute(stats, 1, points=3)          # a point and two recovery sixes, all to one stat
    assert stats == (-1, 3, 5) and not awake(stats)
    with pytest.raises(ValueError):
        heal_minute(stats, 2)                         # a stat that is not out
    stats = heal_minute(heal_minute(stats, 0), 0)
    assert stats == (1, 3, 5) and awake(stats)
    assert minutes_to_wake((4, 5)) == 0 and awake((4, 5))


# --- critical condition (13.8.3) --------------------------------------------------


def test_a_failed_paramedic_roll_leaves_the_patient_to_surgery():
    """Failure costs a step and stops 'further attempts by a Paramedic';
    surgery must follow (ruling paramedic-barred)."""
    care = treat(CriticalCare(), "paramedic", success=True, extra_sixes=2)
    assert care == CriticalCare(3, False)
    care = treat(care, "paramedic", success=False)
    assert care == CriticalCare(2, True)
    with pytest.raises(ValueError):
        treat(care, "paramedic", success=True)
    care = treat(care, "surgery", success=True, extra_sixes=1)
    assert care == CriticalCare(4, True)
    care = treat(care, "surgery", success=False, natural_ones=3, critical_failure=True)
    assert care == CriticalCare(1, True)
    with pytest.raises(ValueError):
        treat(CriticalCare(), "first-aid", success=True)
    assert treat(CriticalCare(22), "surgery", success=True, extra_sixes=4).stable


def test_rule_of_thumb_hours_per_wound_grade_as_steps():
    """Three hours without a loss is ample for grade 1, six for 2, twelve for
    3 and eighteen for 4 (ruling surgery-grades: step n gives n + 1 hours)."""
    assert [steps_for(h) for h in (3, 6, 12, 18)] == [2, 5, 11, 17]
    for hours in (3, 6, 12, 18):
        assert critical_loss_interval(steps_for(hours)) == (hours, "hours")
        assert ready_for_surgery(CriticalCare(steps_for(hours)), hours)
        assert not ready_for_surgery(CriticalCare(steps_for(hours) - 1), hours)
    assert steps_for(1) == 1 and steps_for(24) == CRITICAL_STEPS - 1
    with pytest.raises(ValueError):
        steps_for(25)


# --- resuscitation (13.8.4) ------------------------------------------------------


def test_a_defibrillator_rerolls_the_ones():
    """A defibrillator 'permits any one results to be re-rolled' (ruling
    defibrillator: every 1, once; the new face stands)."""
    faces = [1, 1, 2, 3, 3, 3, 5, 6]
    assert defibrillated(faces, [4, 1]) == (4, 1, 2, 3, 3, 3, 5, 6)
    assert defibrillated([2, 6], []) == (2, 6)
    with pytest.raises(ValueError):
        defibrillated(faces, [4])
    assert die(True) == {1: F(1, 36), **{f: F(7, 36) for f in range(2, 7)}}


def test_the_first_resuscitation_roll_with_a_defibrillator():
    """The paramedic's 59 (two 1s among 16 dice) missed 66 with no
    defibrillator; re-rolling the two 1s as a 6 and a 3 reaches 66 exactly."""
    first = [1] * 2 + [2] * 3 + [3] * 4 + [5] * 3 + [6] * 4
    assert sum(first) == 59
    assert sum(defibrillated(first, [6, 3])) == 66                      # 59 - 2 + 9
    assert virtual_sixes(sum(defibrillated(first, [6, 3])) - 66, F(7, 2)) == 0


# --- complex attacks (14) -----------------------------------------------------------


def test_goals_graded_one_to_four_need_that_many_extra_sixes_over_attacks():
    """Goals are assessed 'on a 1-4 scale' and met with the degree of
    success as extra sixes; one attack or several (ruling complex-goals)."""
    assert [goal_sixes(g) for g in range(1, 5)] == [1, 2, 3, 4]
    assert goal_sixes(2, +1) == 3 and goal_sixes(1, -2) == 0
    with pytest.raises(ValueError):
        goal_sixes(5)
    assert goal_reached_by([2], goal_sixes(2)) == 1
    assert goal_reached_by([1, 0, 2], goal_sixes(3)) == 3
    assert goal_reached_by([1, 1], goal_sixes(4)) is None
    assert goal_reached_by([], goal_sixes(1, -1)) == 0
    # The section's own virtual-six examples: 16 over at A 3 2/3 is 6; 7 over at A 3 1/4 is 2.
    assert virtual_sixes(16, F(11, 3)) == 6 and virtual_sixes(7, F(13, 4)) == 2


# --- odds against brute force ---------------------------------------------------------


def bf_rolls(dice: int, defibrillator: bool = False):
    """Every way `dice` dice can fall (with a defibrillator, every re-roll of
    every 1 as well), with its probability."""
    for faces in itertools.product(range(1, 7), repeat=dice):
        p = F(1, 6 ** dice)
        ones = [i for i, f in enumerate(faces) if f == 1]
        if not defibrillator or not ones:
            yield faces, p
            continue
        for rerolls in itertools.product(range(1, 7), repeat=len(ones)):
            yield defibrillated(faces, rerolls), p / 6 ** len(ones)


def bf_check(dice: int, a: F, sixes: int, defibrillator: bool = False):
    target = target_number(dice, a, sixes)
    success, critical, extra = F(0), F(0), dict[int, F]()
    for faces, p in bf_rolls(dice, defibrillator):
        ok = sum(faces) >= target
        if ok:
            success += p
            k = virtual_sixes(sum(faces) - target, a)
            extra[k] = extra.get(k, F(0)) + p
        if is_critical_failure(faces, ok):
            critical += p
    return success, critical, tuple(sorted(extra.items()))


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("a, sixes", [(F(3), 0), (F(3), 1), (F(7, 2), 2), (F(11, 4), 1), (F(13, 4), 0)])
def test_check_odds_against_every_roll(dice, a, sixes):
    odds = check_odds(dice, a, sixes)
    assert (odds.success, odds.critical_failure, odds.extra) == bf_check(dice, a, sixes)
    assert odds.critical_failure <= odds.failure
    assert sum(p for _, p in odds.extra) == odds.success


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("a, sixes", [(F(7, 2), 0), (F(7, 2), 1), (F(3), 2)])
def test_defibrillator_odds_against_every_roll_and_reroll(dice, a, sixes):
    odds = check_odds(dice, a, sixes, defibrillator=True)
    assert (odds.success, odds.critical_failure, odds.extra) == bf_check(dice, a, sixes, defibrillator=True)
    assert odds.success >= check_odds(dice, a, sixes).success
    assert sum(pool_total(dice, True).values()) == 1


def test_check_odds_invariants_on_real_pools():
    for dice in (8, 13, 16, 20):
        odds = check_odds(dice, F(3), 3)
        chances = [odds.at_least(k) for k in range(0, 8)]
        assert chances[0] == odds.success and chances == sorted(chances, reverse=True)
        assert check_odds(dice, F(7, 2), 4, defibrillator=True).success > check_odds(dice, F(7, 2), 4).success
    # More dice on the roll (fewer ranks kept for healing) never lowers the chance at A 3.
    chances = [check_odds(13 + k, F(3), 3).success for k in range(4)]
    assert chances == sorted(chances)


def bf_first_day(points: int, daily: dict[int, F], days: int) -> dict[int | None, F]:
    """Every sequence of `days` daily rolls: on which day the total first
    reaches `points` (None: not within those days)."""
    out: dict[int | None, F] = {}
    for seq in itertools.product(daily.items(), repeat=days):
        p, total, first = F(1), 0, None
        for day, (gain, q) in enumerate(seq, 1):
            p *= q
            total += gain
            if first is None and total >= points:
                first = day
        out[first] = out.get(first, F(0)) + p
    return out


@pytest.mark.parametrize("hours, multiplier, bonus", [(24, 1, 0), (8, 1, 0), (12, 2, 0), (16, 1, 2), (20, 3, 0)])
@pytest.mark.parametrize("points", [1, 3, 5])
def test_days_to_recover_against_every_sequence_of_rolls(hours, multiplier, bonus, points):
    daily = daily_recovery(hours, multiplier, bonus)
    first = bf_first_day(points, daily, points)          # every roll heals at least 1: done within `points` days
    assert None not in first
    assert expected_days(points, daily) == sum(day * p for day, p in first.items() if day is not None)
    for days in range(points + 1):
        assert recovered_within(points, days, daily) == sum(p for day, p in first.items()
                                                            if day is not None and day <= days)


def bf_coma_hours(dice: int) -> F:
    """Expected hours by the Markov chain of dice still waiting for a six:
    from k waiting, each hour j of them come up six (binomial)."""
    expect = [F(0)]
    for k in range(1, dice + 1):
        moves = {j: comb(k, j) * F(1, 6) ** j * F(5, 6) ** (k - j) for j in range(k + 1)}
        rest = sum(p * expect[k - j] for j, p in moves.items() if j > 0)
        expect.append((1 + rest) / (1 - moves[0]))
    return expect[dice]


def bf_coma_within(dice: int, hours: int) -> F:
    """Every way the dice still waiting can fall, hour by hour."""
    states = {dice: F(1)}
    for _ in range(hours):
        nxt: dict[int, F] = {}
        for waiting, p in states.items():
            for faces in itertools.product(range(1, 7), repeat=waiting):
                left = sum(1 for f in faces if f != 6)
                nxt[left] = nxt.get(left, F(0)) + p / 6 ** waiting
        states = nxt
    return states.get(0, F(0))


def test_coma_rolls_against_the_markov_chain():
    """'All dice on the roll must come up sixes', and sixes carry over."""
    for dice in (1, 2, 3, 4):
        assert coma_expected_hours(dice) == bf_coma_hours(dice)
        for hours in (1, 2, 3):
            assert coma_point_within(dice, hours) == bf_coma_within(dice, hours)
    assert coma_expected_hours(1) == 6 and coma_point_within(2, 1) == F(1, 36)
    assert coma_point_within(0, 10) == 0 and coma_expected_hours(0) is None


def bf_paramedic(steps: int, extra: tuple[tuple[int, F], ...]) -> F:
    """Forward over rolls: the chance of having reached `steps` while every
    roll so far succeeded (a success always moves at least one step)."""
    reached, alive = F(0), {0: F(1)}
    for _ in range(steps):
        nxt: dict[int, F] = {}
        for at, p in alive.items():
            for k, q in extra:
                new = at + 1 + k
                if new >= steps:
                    reached += p * q
                else:
                    nxt[new] = nxt.get(new, F(0)) + p * q
        alive = nxt
    return reached


def test_stabilising_before_a_failure_against_the_forward_chain():
    for dice, a, sixes in ((3, F(3), 0), (16, F(3), 3), (12, F(7, 2), 1)):
        odds = check_odds(dice, a, sixes)
        for steps in (1, 2, 5, 11):
            assert paramedic_reaches(steps, odds) == bf_paramedic(steps, odds.extra)
        assert paramedic_reaches(0, odds) == 1
        assert paramedic_reaches(1, odds) == odds.success
        reach = [paramedic_reaches(s, odds) for s in range(0, 18)]
        assert reach == sorted(reach, reverse=True)


def test_goal_in_one_attack_against_every_roll():
    for dice in (1, 2, 3, 4):
        odds = check_odds(dice, F(3), 0)
        target = target_number(dice, F(3), 0)
        for needed in range(1, 5):
            bf = sum((p for faces, p in bf_rolls(dice)
                      if sum(faces) >= target and virtual_sixes(sum(faces) - target, F(3)) >= needed), F(0))
            assert goal_in_one(odds, needed) == bf
    # Four dice at A 3 reach a grade-4 goal only with four sixes.
    assert goal_in_one(check_odds(4, F(3), 0), 4) == F(1, 6 ** 4)


# --- the core stays pure -----------------------------------------------------------------


def test_the_healing_core_imports_no_rendering_code():
    import subprocess
    import sys
    code = ("import json, sys\n"
            "import generator.systems.sixes_system.healing, generator.systems.sixes_system.healing_odds\n"
            "import generator.systems.sixes_system.healing_tables, generator.systems.sixes_system.outputs\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    top = {name.split(".")[0] for name in json.loads(result.stdout.strip().splitlines()[-1])}
    assert not top & {"weasyprint", "jinja2", "mkdocs", "material", "click", "rich"}
