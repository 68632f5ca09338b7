"""When a simulated fight ends, who has won it, and what each policy does
(issue 18, point 4).

The source, Fight Structure step 4: after each round the GMs ask whether
anyone wants to continue; "If nobody wishes to proceed" the fight is over,
and "if even one person still wishes to attack" it goes on. The only way
out during a fight is an Escape. See ruling fight-ends.
"""
from __future__ import annotations

import random
from typing import Any

from generator.systems.sixes.balance import EXAMPLE_SIDES
from generator.systems.sixes.models import Character
from generator.systems.sixes.resolver import Declaration, fresh
from generator.systems.sixes.round_view import round_view
from generator.systems.sixes.simulate import (ENDINGS_NOTE, POLICIES, POLICY_NOTES, Policy, Side, cautious, play,
                                              roster, simulate)


def brawler(name, side, hp=5, armour=0, damage=0):
    return Character(name=name, faction=side, description="A generic fighter.", hit_points=hp, armour=armour,
                     damage=damage)


def test_cautious_brawls_of_a_large_cast_are_fought_out():
    """Fifteen cautious fighters in three sides: the fight goes on while
    someone "still wishes to attack", so it lasts more than one round, ends
    with a winner more often than not, and the Rattled get away by Escape.
    (Before issue 18: median 1 round, 97% no winner.)"""
    s = simulate(EXAMPLE_SIDES, {}, "cautious", fights=100, seed=1)
    assert s.median_rounds > 1
    assert s.no_winner_rate < 0.5
    assert s.overall_status_rate("Escaped") > 0.2
    assert sum(s.wins) + s.standoffs + s.nobody_standing == s.fights


def test_a_round_nobody_attacks_in_is_still_played_and_its_escapes_resolve():
    """Someone who wants to go on keeps the fight going for a round even
    without an Attack, and the Rattled foe's Escape in it resolves (the text:
    leaving takes "an Escape action during the round")."""
    guard = Policy("guard", lambda rng, fight, side, i: Declaration(fight[i].name, "defend_self", 3),
                   lambda fight, side, i: round_view(fight, side).foe_count(side[i]) > 0)
    runner = Policy("runner", lambda rng, fight, side, i: Declaration(fight[i].name, "escape", 1),
                    lambda fight, side, i: False)
    fighters = (fresh(brawler("Guard", "A"), {}), fresh(brawler("Runner", "B"), {})._replace(hp=0, rattled=True))
    outcome = play(fighters, (0, 1), [guard, runner], random.Random(1))
    assert outcome.rounds == 1
    assert outcome.fighters[1].status == "Escaped"
    assert outcome.winner == 0 and not outcome.cut_off


def test_winner_stand_off_and_nobody_standing():
    """The winner is the one side still on its feet when the fight ends;
    two sides standing when nobody wants to go on is a stand-off; nobody
    standing is no winner either."""
    never = Policy("never", lambda rng, fight, side, i: None, lambda fight, side, i: False)
    two = (fresh(brawler("Ash", "A"), {}), fresh(brawler("Bo", "B"), {}))
    standoff = play(two, (0, 1), never, random.Random(1))
    assert (standoff.rounds, standoff.winner) == (0, None)
    down = tuple(c._replace(hp=0, rattled=True) for c in two)
    assert play(down, (0, 1), never, random.Random(1)).winner is None
    one_up = (two[0], down[1])
    assert play(one_up, (0, 1), never, random.Random(1)).winner == 0


def test_aggressive_fighters_fight_to_the_last():
    """Aggressive fighters want another round while any foe can act, so a
    beaten side ends Dead (they never knock out, escape or leave a foe merely
    Rattled), unless the round limit cuts the fight off."""
    sides = [Side("Reds", (brawler("Red One", "Reds", damage=1), brawler("Red Two", "Reds", armour=1))),
             Side("Blues", (brawler("Blue One", "Blues", hp=6), brawler("Blue Two", "Blues")))]
    s = simulate(sides, {}, "aggressive", fights=200, max_rounds=60, seed=2)
    assert s.cut_off == 0 and s.no_winner == 0
    for k, side in enumerate(sides):
        for member in side.members:
            ended = s.statuses[member.name]
            assert ended["Rattled"] == ended["Unconscious"] == ended["Escaped"] == 0
            assert ended["Dead"] >= s.wins[1 - k]


def declared_by(*args: Any) -> Declaration:
    """What the cautious policy declares (these tests' fighters always declare something)."""
    declaration = cautious(*args)
    assert declaration is not None
    return declaration


def test_cautious_sends_one_guard_to_each_rattled_ally():
    """The policy's own words: one guard for each Rattled ally, the first
    free fighters of the side; the rest attack. (Before issue 18 every
    unhurt fighter guarded, and nobody attacked.)"""
    reds = [brawler(f"Red {n}", "Reds") for n in ("One", "Two", "Three", "Four")]
    blues = [brawler(f"Blue {n}", "Blues") for n in ("One", "Two")]
    fighters, side = roster([Side("Reds", tuple(reds)), Side("Blues", tuple(blues))], {})
    fighters = (fighters[0]._replace(hp=0, rattled=True),) + fighters[1:]
    rng = random.Random(3)
    declared = [declared_by(rng, fighters, side, i) for i in range(len(fighters))]
    assert declared[0].action == "escape" and declared[0].speed == 1
    assert (declared[1].action, declared[1].target) == ("defend_other", "Red One")
    assert [d.action for d in declared[2:4]] == ["attack", "attack"]


def test_cautious_runs_when_hurt_and_never_kills():
    """At half hit points or less a cautious fighter Escapes; a Rattled foe
    is knocked out, whatever their hit points, never killed."""
    fighters, side = roster([Side("A", (brawler("Ash", "A"),)), Side("B", (brawler("Bo", "B", hp=1),))], {})
    hurt = (fighters[0]._replace(hp=2),) + fighters[1:]
    assert declared_by(random.Random(1), hurt, side, 0).action == "escape"
    foe_rattled = (fighters[0], fighters[1]._replace(rattled=True))
    d = declared_by(random.Random(1), foe_rattled, side, 0)
    assert (d.action, d.target, d.finish) == ("attack", "Bo", "knock_out")


def test_every_policy_note_says_when_it_wants_to_go_on():
    """The report prints what each policy does, including its answer to the
    GM's question between rounds, and what ending a fight means."""
    assert set(POLICY_NOTES) == set(POLICIES)
    for note in POLICY_NOTES.values():
        assert "Wants another round" in note
    assert "stand-off" in ENDINGS_NOTE and "on their feet" in ENDINGS_NOTE
