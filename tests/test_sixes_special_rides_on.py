"""Which action a special may be called with (issue 32, the fight tracker):
`rides_on` in specials.yaml, ruling special-rides-on. A special the GM
adjudicates is the Special action, and rides on another action only where
its data says so; one with an effect goes with that effect's action.
"""
from __future__ import annotations

import re

import pytest

from generator.systems.sixes.effects import may_ride, rides_on
from generator.systems.sixes.models import Character, Special
from generator.systems.sixes.resolver import Declaration, IllegalDeclaration, fresh, resolve_round
from generator.systems.sixes.tracker import tracker_data

from test_sixes_conditional_specials import example_game, line_of, problems_with

SHOT = Special(name="Shot", rule="Declare an Attack at Speed 1; it fires at Speed 5.", rides_on="attack")
SHOVE = Special(name="Shove", rule="Declare a Special at someone: they are pushed back.")
ANYWAY = Special(name="Knack", rule="Call it with any action.", rides_on="any")
LIBRARY = {s.name: s for s in (SHOT, SHOVE, ANYWAY)}


def fight():
    ash = Character(name="Ash", description="A test fighter.", hit_points=5, specials=list(LIBRARY))
    bo = Character(name="Bo", description="A test fighter.", hit_points=5)
    return fresh(ash, LIBRARY), fresh(bo, LIBRARY)


def test_a_gm_special_is_the_special_action_unless_its_data_says_otherwise():
    assert rides_on(SHOVE) == "none" and rides_on(SHOT) == "attack" and rides_on(ANYWAY) == "any"
    assert may_ride(SHOVE, "special") and not may_ride(SHOVE, "attack")
    assert may_ride(SHOT, "attack") and may_ride(SHOT, "special") and not may_ride(SHOT, "defend_self")
    assert all(may_ride(ANYWAY, a) for a in ("attack", "defend_other", "defend_self", "escape", "recover"))


def test_an_effect_decides_what_its_special_rides_on():
    assert rides_on(Special(name="B", rule="r", effect="rattle_on_damage")) == "attack"
    assert rides_on(Special(name="A", rule="r", effect="double_defend_self")) == "defend_self"
    assert rides_on(Special(name="H", rule="r", effect="heal")) == "none"
    assert rides_on(Special(name="V", rule="r", effect="redirect_when_unhurt")) == "none"


def test_the_resolver_refuses_a_special_where_it_may_not_ride():
    with pytest.raises(IllegalDeclaration) as refused:
        resolve_round(fight(), [Declaration("Ash", "attack", 3, "Bo", "Shove")])
    assert refused.value.reasons == ("Ash: Shove is used as the Special action, not with Attack",)
    with pytest.raises(IllegalDeclaration) as refused:
        resolve_round(fight(), [Declaration("Ash", "defend_self", 3, None, "Shot")])
    assert refused.value.reasons == ("Ash: Shot is used as the Special action or called with Attack, "
                                     "not with Defend Self",)


def test_the_resolver_leaves_a_special_that_may_ride_to_the_gm():
    for d, asked in ((Declaration("Ash", "attack", 1, "Bo", "Shot"), "Ash calls Shot with Attack"),
                     (Declaration("Ash", "special", 3, "Bo", "Shove"), "Ash uses Shove on Bo"),
                     (Declaration("Ash", "escape", 2, None, "Knack"), "Ash calls Knack with Escape")):
        result = resolve_round(fight(), [d])
        assert len(result.adjudications) == 1 and result.adjudications[0].startswith(asked)


def test_the_shipped_data_says_what_rides_where():
    game = example_game()
    rides = {s.name: rides_on(s) for s in game.specials}
    assert rides["Pistol Ball"] == "attack"
    assert {rides[n] for n in ("Laudanum", "Tide Path", "Jory's Face", "Boathook")} == {"none"}
    assert rides["Bone Rattler"] == "attack" and rides["Heal"] == "none"


def test_the_tracker_is_told_what_each_special_rides_on():
    data = tracker_data(example_game())
    specials = dict(data["specials"])
    assert specials["Pistol Ball"]["rides_on"] == "attack" and specials["Boathook"]["rides_on"] == "none"
    for fighter in data["cast"]:
        for name, info in fighter["profile"]["specials"]:
            assert info["rides_on"] == specials[name]["rides_on"]


def test_rides_on_against_its_effect_is_refused_at_its_line(tmp_path):
    found = problems_with(tmp_path, "  - name: Odd\n    rule: A test.\n    effect: heal\n    rides_on: attack\n")
    line = line_of(tmp_path, "rides_on: attack")
    assert len(found) == 1
    assert re.search(rf"specials\.yaml:{line}:\d+: error: .*'rides_on: attack' disagrees with 'effect: heal'",
                     found[0])
    assert "remove rides_on" in found[0]


def test_an_unknown_rides_on_is_named_with_a_suggestion(tmp_path):
    found = problems_with(tmp_path, "  - name: Odd\n    rule: A test.\n    rides_on: defend\n")
    line = line_of(tmp_path, "rides_on: defend")
    assert len(found) == 1 and f"specials.yaml:{line}:" in found[0]
    assert "found 'defend'; did you mean 'defend_self'" in found[0]
