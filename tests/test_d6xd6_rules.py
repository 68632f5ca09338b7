"""D6xD6 rules against tables written by hand here, the chapter's own worked
examples, and brute-force oracles (bf_). The whole ladder is enumerated:
every condition x every attack level x every defence."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from generator.systems.d6xd6.rules import (GRAZE, HIT, KILL, KNOCKOUT, OVERKILL, STUN, UNHURT, WOUND, Defence,
                                           apply_damage, at_least_table, attack_level, chance_first, defended, hit,
                                           ladder_grid, missed_action, second_wind, split_damage, splits,
                                           turn_order, turn_roll)

# The ladder by hand: row = condition before (unhurt .. overkill), column =
# level that gets through (graze .. overkill). Abbreviations as on the card.
NAMES = ["-", "Gr", "St", "Hi", "Wo", "KO", "Ki", "OK"]
HAND_GRID = """
 -  : Gr St Hi Wo KO Ki OK
 Gr : St St Hi Wo KO Ki OK
 St : Hi Hi Hi Wo KO Ki OK
 Hi : Wo Wo Wo Wo KO Ki OK
 Wo : KO KO KO KO KO Ki OK
 KO : Ki Ki Ki Ki Ki Ki OK
 Ki : OK OK OK OK OK OK OK
 OK : OK OK OK OK OK OK OK
"""


def hand_grid() -> dict[int, dict[int, int]]:
    table = {}
    for line in HAND_GRID.strip().splitlines():
        row, cells = line.split(":")
        table[NAMES.index(row.strip())] = {i + 1: NAMES.index(c) for i, c in enumerate(cells.split())}
    return table


# Steps of defence by hand: (armour steps, a listed defence Focused) -> steps.
# Armour replaces reactive defence; it never adds to it.
HAND_STEPS = {(0, False): 0, (0, True): 1, (1, False): 1, (1, True): 1,
              (2, False): 2, (2, True): 2, (3, False): 3, (3, True): 3}
ATTACKS = range(0, 11)          # nothing .. overkill + 3
DRAMA = range(0, 4)


def test_grid_is_the_hand_table():
    assert ladder_grid() == hand_grid()


@pytest.mark.parametrize("armour, focused", sorted(HAND_STEPS))
def test_whole_ladder_every_condition_attack_and_defence(armour, focused):
    grid = hand_grid()
    for current, attack, drama in itertools.product(range(8), ATTACKS, DRAMA):
        through = attack - HAND_STEPS[armour, focused] - drama
        expected = current if through <= 0 else grid[current][min(through, 7)]
        got = hit(current, attack, Defence(armour=armour, focused=focused, drama=drama))
        assert got == expected, (current, attack, armour, focused, drama)


def test_source_examples_for_add_and_supersede():
    assert apply_damage(HIT, GRAZE) == WOUND        # a Hit character grazed is Wounded
    assert apply_damage(GRAZE, STUN) == STUN        # a Grazed character stunned is Stunned
    assert apply_damage(HIT, HIT) == WOUND          # equal adds (ruling equal-damage)
    assert apply_damage(KILL, GRAZE) == OVERKILL    # past Kill (ruling overkill)
    assert apply_damage(OVERKILL, OVERKILL) == OVERKILL
    assert apply_damage(WOUND, 0) == WOUND


def test_authors_stone_example():
    """Stone (Graze) with three success levels is a Hit; a Focused dodge makes it
    a Stun; Medium armour makes it a Graze."""
    level = attack_level(GRAZE, 3)
    assert level == HIT
    assert defended(level, Defence(focused=True)) == STUN
    assert defended(level, Defence(armour=2)) == GRAZE
    assert defended(level, Defence(armour=2, focused=True)) == GRAZE   # never both


def test_dramatic_defence_example():
    assert [defended(HIT, Defence(drama=n)) for n in range(4)] == [HIT, STUN, GRAZE, 0]
    assert defended(HIT, Defence(armour=1, drama=1)) == GRAZE          # with armour too


def test_overkill_is_harder_to_defend():
    kill_plus_one = attack_level(WOUND, 3)          # a Wound weapon, two bonus levels
    assert kill_plus_one == KILL
    assert defended(attack_level(WOUND, 4), Defence(focused=True)) == KILL
    assert hit(UNHURT, attack_level(KILL, 3), Defence(armour=1)) == OVERKILL


def test_aiming_adds_a_level_per_turn():
    assert attack_level(STUN, 1, aimed_turns=2) == WOUND
    with pytest.raises(ValueError):
        attack_level(STUN, 0, aimed_turns=2)       # a failed roll wastes the aiming


def test_exceptional_attack_example():
    """Small pistol (Stun), three levels: one Wound, three Stuns, or a Hit and a Stun."""
    assert splits(3) == [(3,), (2, 1), (1, 1, 1)]
    assert [split_damage(STUN, s) for s in splits(3)] == [(WOUND,), (HIT, STUN), (STUN, STUN, STUN)]


def bf_splits(levels: int) -> set[tuple[int, ...]]:
    """Every ordered way to hand out the levels, one or more each, as sorted multisets."""
    found = set()
    for targets in range(1, levels + 1):
        for shares in itertools.product(range(1, levels + 1), repeat=targets):
            if sum(shares) == levels:
                found.add(tuple(sorted(shares, reverse=True)))
    return found


@pytest.mark.parametrize("levels, count", [(1, 1), (2, 2), (3, 3), (4, 5), (5, 7), (6, 11), (7, 15)])
def test_splits_are_every_legal_share_exactly_once(levels, count):
    got = splits(levels)
    assert len(got) == len(set(got)) == count
    assert set(got) == bf_splits(levels)
    assert got == sorted(got, reverse=True)


def test_missed_action_loses_one_level():
    assert [missed_action(n) for n in (1, 2, 3)] == [None, 1, 2]


@pytest.mark.parametrize("current, levels, expected", [
    (GRAZE, 1, UNHURT), (WOUND, 1, HIT), (WOUND, 2, STUN), (WOUND, 6, UNHURT), (HIT, 0, HIT)])
def test_second_wind(current, levels, expected):
    assert second_wind(current, levels) == expected


@pytest.mark.parametrize("current", [KNOCKOUT, KILL, OVERKILL])
def test_no_second_wind_when_unconscious(current):
    with pytest.raises(ValueError):
        second_wind(current, 3)


def test_bad_values_are_refused():
    for bad in (lambda: apply_damage(8, 1), lambda: apply_damage(-1, 1), lambda: apply_damage(1, -1),
                lambda: Defence(armour=-1), lambda: turn_order(-1), lambda: splits(0), lambda: missed_action(0)):
        with pytest.raises(ValueError):
            bad()


# --- turn order ---------------------------------------------------------------

def bf_turn(penalty: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            slot = max(0, a * b - penalty)
            out[slot] = out.get(slot, Fraction(0)) + Fraction(1, 36)
    return out


def test_die_times_die_by_hand():
    dist = turn_roll()
    assert len(dist) == 18 and sum(dist.values()) == 1
    # Ways out of 36, counted by hand.
    ways = {1: 1, 2: 2, 3: 2, 4: 3, 5: 2, 6: 4, 8: 2, 9: 1, 10: 2, 12: 4, 15: 2, 16: 1, 18: 2, 20: 2,
            24: 2, 25: 1, 30: 2, 36: 1}
    assert dist == {k: Fraction(v, 36) for k, v in ways.items()}


@pytest.mark.parametrize("penalty", range(0, 8))
def test_turn_order_with_penalties_matches_brute_force(penalty):
    assert turn_order(penalty) == bf_turn(penalty)
    table = at_least_table(penalty)
    chances = [p for _, p in table]
    assert chances == sorted(chances)          # "at least N" never falls as N falls
    assert table[-1][1] == 1


def test_at_least_by_hand_and_the_kevlar_example():
    assert dict(at_least_table())[20] == Fraction(8, 36)
    assert dict(at_least_table())[36] == Fraction(1, 36)
    # Kevlar (2 steps): a roll of 5 x 6 acts at 28, and 1 or 2 act at 0.
    assert max(turn_order(2)) == 34
    assert turn_order(2)[0] == Fraction(3, 36)
    assert turn_order(2)[28] == Fraction(2, 36)


def test_armour_slows_you_down():
    same_tie = sum(p * p for p in turn_roll().values())
    assert chance_first(0, 0) == (1 - same_tie) / 2     # equal dice: no edge either way
    unarmoured_vs_heavy = chance_first(0, 3)
    heavy_vs_unarmoured = chance_first(3, 0)
    ties = 1 - unarmoured_vs_heavy - heavy_vs_unarmoured
    assert unarmoured_vs_heavy > heavy_vs_unarmoured
    bf = sum(Fraction(1, 36 ** 2) for a, b, c, d in itertools.product(range(1, 7), repeat=4)
             if a * b > max(0, c * d - 3))
    assert unarmoured_vs_heavy == bf
    assert ties == sum(Fraction(1, 36 ** 2) for a, b, c, d in itertools.product(range(1, 7), repeat=4)
                       if a * b == max(0, c * d - 3))


# --- weapons from the data through the rules ------------------------------------

@pytest.fixture(scope="module")
def core():
    from generator.core.paths import DEFAULT_DATA_DIR
    from generator.systems.d6xd6 import SYSTEM
    game, problems = SYSTEM.load(DEFAULT_DATA_DIR / "d6xd6", DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    return {w.name: w for c in game.tables[0].categories for w in c.weapons}


def test_weapons_from_the_table(core):
    from generator.systems.d6xd6.rules import weapon_attack
    assert weapon_attack(core["Small pistol"], "shooting", 3) == WOUND       # the chapter's example
    assert weapon_attack(core["Shotgun"], "brawling", 1) == WOUND
    assert weapon_attack(core["Shotgun"], "throwing", 2) == WOUND
    assert weapon_attack(core["Shotgun"], "shooting", 1) == STUN
    assert weapon_attack(core["Small bow or sling"], "brawling", 3) is None  # unusable there
    assert weapon_attack(core["Fist or foot"], "brawling", 1, aimed_turns=1) == STUN


def test_taser_kill_can_be_resisted():
    from generator.systems.d6xd6.rules import taser_hit
    kill = attack_level(KNOCKOUT, 2)
    assert taser_hit(UNHURT, kill, Defence(), resisted=True) == KNOCKOUT
    assert taser_hit(UNHURT, kill, Defence(), resisted=False) == KILL
    # Defences first: a Focused dodge already brings it to Knockout, no roll needed.
    assert taser_hit(UNHURT, kill, Defence(focused=True), resisted=False) == KNOCKOUT
    # Resisting only changes a Kill or worse; a target already Knocked out still slides to Kill.
    assert taser_hit(KNOCKOUT, KNOCKOUT, Defence(), resisted=True) == KILL
