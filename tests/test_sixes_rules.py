"""The Sixes rules core (generator/systems/sixes/rules.py) checked against the
source, ../shared/sources/sixes-larp.txt, one rule at a time.

Each docstring names the rule and quotes at most six consecutive words of the
source; the rest is our own paraphrase. Expected values are written by hand
here, never computed by the code under test; tables are also checked against
a slow brute-force oracle (`bf_hits_to_rattle`).
"""
from __future__ import annotations

import dataclasses
from itertools import product

import pytest
from pydantic import ValidationError

from generator.systems.sixes.models import Character, Special
from generator.systems.sixes.rules import (ACTION_POINTS, MIN_POINTS, PHASES, RATTLED_MAX_SPEED,
                                           RECOVER_HIT_POINTS, SPEEDS, STATUSES, SlotRow,
                                           damage_taken, effect_bonuses, effect_for_speed,
                                           hits_to_rattle, hits_to_rattle_table, slot_table)


# --- helpers -----------------------------------------------------------------

def make_character(*, damage: int = 0, armour: int = 0, hit_points: int = 5,
                   specials: tuple[str, ...] = ()) -> Character:
    return Character(name="Test Subject", description="Someone to try the rules on.",
                     hit_points=hit_points, armour=armour, damage=damage, specials=list(specials))


def make_special(name: str, **adds_effect: int) -> Special:
    return Special.model_validate({"name": name, "rule": "A made-up ability for the tests.",
                                   "adds_effect": adds_effect})


def bf_hits_to_rattle(effect: int, armour: int, hp: int) -> int | None:
    """Slow oracle: land one attack at a time until the defender is at 0 or less."""
    hits = 0
    while hp > 0:
        dealt = max(0, effect - armour)
        if dealt <= 0:
            return None
        hp -= dealt
        hits += 1
    return hits


def _never_is_infinite(hits: int | None) -> float:
    """Order "never" (None) above every finite number of hits."""
    return float("inf") if hits is None else hits


# --- the action-point budget -------------------------------------------------

def test_six_action_points_per_round():
    """Rule: every combatant gets "6 action points they can use" each round."""
    assert ACTION_POINTS == 6


def test_speed_and_effect_each_get_at_least_one_point():
    """Rule: neither half may be zero, "at least 1 point on each"."""
    assert MIN_POINTS == 1
    assert min(SPEEDS) == 1
    assert min(effect_for_speed(speed) for speed in SPEEDS) == 1


@pytest.mark.parametrize("speed, effect", [(5, 1), (4, 2), (3, 3), (2, 4), (1, 5)])
def test_effect_is_six_minus_speed(speed, effect):
    """Rule: Effect is what is left once the GM "deducts your Speed points from 6"."""
    assert effect_for_speed(speed) == effect
    assert speed + effect_for_speed(speed) == 6


def test_source_examples_of_splitting_points():
    """Rule, worked examples: "5 points into Speed" leaves Effect 1; an even split is 3 and 3."""
    assert effect_for_speed(5) == 1
    assert effect_for_speed(3) == 3


@pytest.mark.parametrize("speed", [0, 6, -1, 7, 10, -5, 2.5, 2.0, True, None, "3"])
def test_effect_for_speed_rejects_speeds_outside_1_to_5(speed):
    """Rule: neither half "can ever be 0"; Speed 6 would zero Effect, so only 1-5 are legal."""
    with pytest.raises(ValueError, match="Speed must be a whole number from 1 to 5"):
        effect_for_speed(speed)


# --- speed slots and phases --------------------------------------------------

def test_slots_are_called_from_five_down_to_one():
    """Rule: players are called by Speed, "from 5 to 1"."""
    assert SPEEDS == (5, 4, 3, 2, 1)


def test_there_are_five_speed_slots():
    """Rule: there are five slots a round ("split into five Speed Slots")."""
    assert len(SPEEDS) == 5
    assert len(set(SPEEDS)) == 5


def test_phases_run_activation_action_status_escape():
    """Rule: each slot runs "Activation Phase", then Action, then Status, then Escape."""
    assert PHASES == ("activation", "action", "status", "escape")


def test_rattled_characters_act_at_speed_one_at_most():
    """Rule: while Rattled you can "not act faster than Speed 1"."""
    assert RATTLED_MAX_SPEED == 1
    assert RATTLED_MAX_SPEED in SPEEDS
    assert RATTLED_MAX_SPEED == min(SPEEDS)


def test_statuses_are_rattled_unconscious_dead_in_that_order():
    """Rule: the three statuses, "Rattled, Unconscious or Dead"."""
    assert tuple(status.name for status in STATUSES) == ("Rattled", "Unconscious", "Dead")
    for status in STATUSES:
        assert status.meaning.strip() and status.limits.strip()


# --- slot_table: what each action is worth at each Speed ---------------------

def test_slot_table_plain_character_by_hand():
    """Rules: Attack deals damage "equal to Effect" plus the sheet's extra damage;
    both Defends equal Effect; Recover heals one point; Special is plain Effect."""
    table = slot_table(make_character(damage=2), {})
    assert table == [
        SlotRow(speed=5, effect=1, attack=3, defend_other=1, defend_self=1, recover_hit_points=1, special=1),
        SlotRow(speed=4, effect=2, attack=4, defend_other=2, defend_self=2, recover_hit_points=1, special=2),
        SlotRow(speed=3, effect=3, attack=5, defend_other=3, defend_self=3, recover_hit_points=1, special=3),
        SlotRow(speed=2, effect=4, attack=6, defend_other=4, defend_self=4, recover_hit_points=1, special=4),
        SlotRow(speed=1, effect=5, attack=7, defend_other=5, defend_self=5, recover_hit_points=1, special=5),
    ]


def test_slot_table_rows_run_fastest_first():
    """Rule: slots are resolved "from 5 to 1", so the quick reference lists them that way."""
    assert [row.speed for row in slot_table(make_character(), {})] == [5, 4, 3, 2, 1]


@pytest.mark.parametrize("damage", [0, 1, 3, 10])
def test_attack_adds_the_sheet_damage_to_effect(damage):
    """Rule: the sheet's Damage is "amount of extra Effect" for Attack only."""
    for row, effect in zip(slot_table(make_character(damage=damage), {}), (1, 2, 3, 4, 5), strict=True):
        assert row.effect == effect
        assert row.attack == effect + damage
        assert row.defend_other == effect
        assert row.defend_self == effect
        assert row.special == effect


def test_defend_other_and_defend_self_equal_effect():
    """Rules: a guard will "take damage equal to Effect"; Defend Self will
    "reduce damage taken by Effect"; both are the slot's Effect."""
    rows = slot_table(make_character(damage=4, armour=2), {})
    assert [row.defend_other for row in rows] == [1, 2, 3, 4, 5]
    assert [row.defend_self for row in rows] == [1, 2, 3, 4, 5]


def test_recover_heals_one_point_at_every_speed_whatever_the_bonuses():
    """Rule: Recover restores one point "regardless of your Effect strength"."""
    library = {"Everything": make_special("Everything", attack=5, defend_other=5, defend_self=5, special=5)}
    rows = slot_table(make_character(damage=10, specials=("Everything",)), library)
    assert RECOVER_HIT_POINTS == 1
    assert [row.recover_hit_points for row in rows] == [1, 1, 1, 1, 1]


@pytest.mark.parametrize("action", ["recover", "escape", "declare", "Attack"])
def test_no_special_can_raise_recover_escape_or_unknown_actions(action):
    """Rule: Recover heals "regardless of your Effect strength" and Escape has
    no Effect, so a bonus to either (or to a made-up action) is refused."""
    with pytest.raises(ValidationError):
        make_special("Bad Bonus", **{action: 1})


def test_defend_other_bonus_applies_only_to_defend_other():
    """Rule, example special: a defender who will "gain +1 Effect" when guarding others."""
    library = {"Perceptive Defender": make_special("Perceptive Defender", defend_other=1)}
    rows = slot_table(make_character(damage=1, specials=("Perceptive Defender",)), library)
    assert [row.defend_other for row in rows] == [2, 3, 4, 5, 6]
    assert [row.defend_self for row in rows] == [1, 2, 3, 4, 5]
    assert [row.attack for row in rows] == [2, 3, 4, 5, 6]
    assert [row.special for row in rows] == [1, 2, 3, 4, 5]
    assert [row.effect for row in rows] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("action, column", [
    ("attack", "attack"), ("defend_other", "defend_other"),
    ("defend_self", "defend_self"), ("special", "special"),
])
def test_each_bonus_lands_on_its_own_column_only(action, column):
    """Rule: a special's Effect bonus is "when using the" named action, no other."""
    library = {"Knack": make_special("Knack", **{action: 2})}
    plain = slot_table(make_character(damage=1), library)
    boosted = slot_table(make_character(damage=1, specials=("Knack",)), library)
    columns = ("effect", "attack", "defend_other", "defend_self", "recover_hit_points", "special")
    for before, after in zip(plain, boosted, strict=True):
        for name in columns:
            expected = getattr(before, name) + (2 if name == column else 0)
            assert getattr(after, name) == expected, (name, before.speed)


def test_two_specials_bonuses_add_up():
    """Rule: a sheet may list several "Special Abilities"; their Effect bonuses stack."""
    library = {
        "Brawler": make_special("Brawler", attack=1, defend_self=2),
        "Bruiser": make_special("Bruiser", attack=2, special=1),
        "Unowned": make_special("Unowned", attack=5, defend_other=5),
    }
    character = make_character(damage=1, specials=("Brawler", "Bruiser"))
    assert effect_bonuses(character, library) == {"attack": 3, "defend_self": 2, "special": 1}
    assert slot_table(character, library) == [
        SlotRow(speed=5, effect=1, attack=5, defend_other=1, defend_self=3, recover_hit_points=1, special=2),
        SlotRow(speed=4, effect=2, attack=6, defend_other=2, defend_self=4, recover_hit_points=1, special=3),
        SlotRow(speed=3, effect=3, attack=7, defend_other=3, defend_self=5, recover_hit_points=1, special=4),
        SlotRow(speed=2, effect=4, attack=8, defend_other=4, defend_self=6, recover_hit_points=1, special=5),
        SlotRow(speed=1, effect=5, attack=9, defend_other=5, defend_self=7, recover_hit_points=1, special=6),
    ]


def test_specials_without_bonuses_change_nothing():
    """Rule: most specials "follow their own rules" and add no flat Effect."""
    library = {"Heal": make_special("Heal")}
    assert slot_table(make_character(damage=2, specials=("Heal",)), library) == \
        slot_table(make_character(damage=2), {})
    assert effect_bonuses(make_character(specials=("Heal",)), library) == {}


def test_slot_rows_are_immutable():
    """Design rule (not the source): derived values cannot be edited after the fact."""
    row = slot_table(make_character(), {})[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.attack = 99  # type: ignore[misc]


# --- damage and armour -------------------------------------------------------

@pytest.mark.parametrize("effect, armour, taken", [
    (5, 0, 5), (5, 1, 4), (5, 4, 1), (5, 5, 0), (5, 6, 0), (1, 3, 0), (7, 3, 4), (3, 0, 3), (0, 0, 0),
])
def test_armour_is_a_flat_reduction_never_below_zero(effect, armour, taken):
    """Rule: armour is one "flat reduction to any incoming damage"; it cannot heal."""
    assert damage_taken(effect, armour) == taken


# --- hits to rattle ----------------------------------------------------------

# Worked out by hand: against armour 1 each hit deals Effect - 1, so a defender
# with H hit points needs ceil(H / (Effect - 1)) hits; Effect 1 never gets through.
# Rows are hit points 1-10; columns are Effect 1-7.
GOLDEN_ARMOUR_1 = {
    1:  (None, 1, 1, 1, 1, 1, 1),
    2:  (None, 2, 1, 1, 1, 1, 1),
    3:  (None, 3, 2, 1, 1, 1, 1),
    4:  (None, 4, 2, 2, 1, 1, 1),
    5:  (None, 5, 3, 2, 2, 1, 1),
    6:  (None, 6, 3, 2, 2, 2, 1),
    7:  (None, 7, 4, 3, 2, 2, 2),
    8:  (None, 8, 4, 3, 2, 2, 2),
    9:  (None, 9, 5, 3, 3, 2, 2),
    10: (None, 10, 5, 4, 3, 2, 2),
}


def test_hits_to_rattle_golden_table_armour_1():
    """Rule: Rattled "When you reach 0 hit points"; a hand-worked grid for armour 1."""
    for hp, row in GOLDEN_ARMOUR_1.items():
        got = tuple(hits_to_rattle(effect, 1, hp) for effect in range(1, 8))
        assert got == row, f"hit points {hp}"


def test_hits_to_rattle_table_carries_the_golden_grid():
    """Rule: the GM's table is hits needed to "reach 0 hit points"; its armour-1 layer by hand."""
    table = hits_to_rattle_table()
    for hp, row in GOLDEN_ARMOUR_1.items():
        assert tuple(table.hits[1][hp][effect] for effect in range(1, 8)) == row


@pytest.mark.parametrize("effect, armour, hp, hits", [
    (5, 0, 5, 1),      # one full-strength blow drops an average character
    (1, 0, 6, 6),      # the fastest attack chips one point at a time
    (3, 0, 4, 2),
    (7, 3, 10, 3),     # 4 per hit: 4, 8, 12
    (4, 3, 4, 4),
    (3, 3, 5, None),   # armour soaks it all
    (2, 3, 1, None),
])
def test_hits_to_rattle_named_cases(effect, armour, hp, hits):
    """Rule: Rattled on reaching "0 hit points", after the armour's flat reduction."""
    assert hits_to_rattle(effect, armour, hp) == hits


def test_default_table_dimensions():
    """Rule: the source's hit points are "usually between 4 and 6"; the GM table spans
    Effect 1-7 (5 plus damage), armour 0-3 and 1-10 hit points."""
    table = hits_to_rattle_table()
    assert table.effects == (1, 2, 3, 4, 5, 6, 7)
    assert table.armours == (0, 1, 2, 3)
    assert table.hit_points == tuple(range(1, 11))
    assert sorted(table.hits) == [0, 1, 2, 3]
    for armour in table.armours:
        assert sorted(table.hits[armour]) == list(range(1, 11))
        for hp in table.hit_points:
            assert sorted(table.hits[armour][hp]) == [1, 2, 3, 4, 5, 6, 7]


def test_default_table_matches_brute_force_oracle():
    """Rule: attacks land one by one until "you reach 0 hit points"; oracle vs table."""
    table = hits_to_rattle_table()
    for armour, hp, effect in product(range(0, 4), range(1, 11), range(1, 8)):
        assert table.hits[armour][hp][effect] == bf_hits_to_rattle(effect, armour, hp), (effect, armour, hp)


def test_hits_to_rattle_matches_brute_force_over_a_wide_range():
    """Rule: Rattled on reaching "0 hit points"; oracle vs formula well beyond the table."""
    for effect, armour, hp in product(range(0, 21), range(0, 13), range(1, 41)):
        assert hits_to_rattle(effect, armour, hp) == bf_hits_to_rattle(effect, armour, hp), (effect, armour, hp)


def test_custom_table_ranges_match_brute_force():
    """Rule: the table is just the "0 hit points" count per cell, whatever the ranges."""
    table = hits_to_rattle_table(effects=range(2, 12, 3), armours=(0, 5, 9), hit_points=(1, 7, 20))
    assert table.effects == (2, 5, 8, 11)
    assert table.armours == (0, 5, 9)
    assert table.hit_points == (1, 7, 20)
    for armour, hp, effect in product(table.armours, table.hit_points, table.effects):
        assert table.hits[armour][hp][effect] == bf_hits_to_rattle(effect, armour, hp)


WIDE = list(product(range(0, 16), range(0, 11), range(1, 31)))


def test_more_effect_never_needs_more_hits():
    """Invariant: a harder blow, "equal to Effect", never takes longer."""
    for effect, armour, hp in WIDE:
        assert _never_is_infinite(hits_to_rattle(effect + 1, armour, hp)) <= \
            _never_is_infinite(hits_to_rattle(effect, armour, hp)), (effect, armour, hp)


def test_more_armour_never_needs_fewer_hits():
    """Invariant: armour's "flat reduction to any incoming damage" only ever slows an attacker."""
    for effect, armour, hp in WIDE:
        assert _never_is_infinite(hits_to_rattle(effect, armour + 1, hp)) >= \
            _never_is_infinite(hits_to_rattle(effect, armour, hp)), (effect, armour, hp)


def test_more_hit_points_never_need_fewer_hits():
    """Invariant: a tougher sheet ("Hit Points" to begin with) is never quicker to Rattle."""
    for effect, armour, hp in WIDE:
        assert _never_is_infinite(hits_to_rattle(effect, armour, hp + 1)) >= \
            _never_is_infinite(hits_to_rattle(effect, armour, hp)), (effect, armour, hp)


def test_never_exactly_when_armour_absorbs_the_effect():
    """Invariant: with a "flat reduction" at least the Effect, no hit ever lands; otherwise one does."""
    for effect, armour, hp in WIDE:
        result = hits_to_rattle(effect, armour, hp)
        if effect <= armour:
            assert result is None, (effect, armour, hp)
        else:
            assert isinstance(result, int) and result >= 1, (effect, armour, hp)
