"""The simulator's per-round view answers every question exactly as a slow
pass over the whole roster would, in the same order, on states from real
fights; and the skipping sequence behaves like the list it stands for."""
from __future__ import annotations

import random

import pytest

from generator.game.load import load_all
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes.resolver import resolve_round
from generator.systems.sixes.round_view import RoundView, Without, round_view
from generator.systems.sixes.simulate import POLICIES, roster, sides_by_faction, standing_sides


@pytest.mark.parametrize("seed", range(30))
def test_without_is_the_list_with_those_positions_left_out(seed):
    rng = random.Random(seed)
    items = [rng.randint(0, 99) for _ in range(rng.randint(0, 12))]
    left_out = sorted(rng.sample(range(len(items)), rng.randint(0, len(items))))
    expected = [x for p, x in enumerate(items) if p not in left_out]
    seq = Without(items, left_out)
    assert len(seq) == len(expected) and bool(seq) == bool(expected)
    assert [seq[j] for j in range(len(seq))] == expected
    assert [seq[-j] for j in range(1, len(seq) + 1)] == [expected[-j] for j in range(1, len(expected) + 1)]
    assert list(seq) == expected
    for bad in (len(expected), -len(expected) - 1):
        with pytest.raises(IndexError):
            seq[bad]


def states():
    """Fight states from seeded fights of the example cast, every policy,
    with everyone for themself and by faction."""
    game = load_all(DEFAULT_DATA_DIR)[0][0].game
    characters = [m.character for m in game.cast]
    rng = random.Random(3)
    everyone_for_themself = sides_by_faction([c.model_copy(update={"faction": "All"}) for c in characters[:7]])
    assert len(everyone_for_themself) == 7
    for grouping in (sides_by_faction(characters), everyone_for_themself):
        fighters, side = roster(grouping, game.library)
        for policy in POLICIES.values():
            for _ in range(3):
                fight = fighters
                for _ in range(12):
                    yield fight, side
                    declarations = [d for i, c in enumerate(fight) if c.can_act
                                    for d in [policy(rng, fight, side, i)] if d]
                    fight = resolve_round(fight, declarations, log=False).combatants


def test_every_answer_matches_a_pass_over_the_roster():
    checked = 0
    for fight, side in states():
        view = RoundView(fight, side)
        assert view.acting_index == [j for j, c in enumerate(fight) if c.can_act]
        assert view.standing_sides == standing_sides(fight, side)
        for i, me in enumerate(fight):
            k = side[i]
            foes = [c for j, c in enumerate(fight) if side[j] != k and c.can_act]
            allies = [c for j, c in enumerate(fight) if side[j] == k and c.in_fight]
            assert list(view.foes(k)) == foes
            assert view.weakest_foes(k, 3) == sorted(foes, key=lambda c: c.hp)[:3]
            weakest = min(foes, key=lambda c: (c.hp, c.profile.armour), default=None)
            assert view.weakest_foe(k) is weakest
            down = [c for c in foes if c.rattled and c.hp == 0]
            assert view.weakest_downed_foe(k) is min(down, key=lambda c: (c.hp, c.profile.armour), default=None)
            assert view.allies_acting(i) == [c for c in allies if c is not me and c.can_act]
            assert view.ally_count(i) == len(view.allies_acting(i))
            assert view.foe_count(k) == len(foes)
            down_allies = [c for c in allies if c is not me and c.can_act and c.rattled and c.hp == 0]
            assert view.downed_ally(i) is (down_allies[0] if down_allies else None)
            assert view.foe_standing(k) == any(c.can_act and not c.rattled for c in foes)
            assert view.rattled_allies(k) == [j for j, c in enumerate(fight) if side[j] == k and c.can_act
                                              and c.rattled]
            hurt = [c for c in allies if 2 * c.hp < c.profile.hit_points and not (c.rattled and c.can_act)]
            assert view.weakest_hurt_ally(k) is min(hurt, key=lambda c: (c.hp, c.profile.armour), default=None)
            checked += 1
    assert checked > 1000


def test_the_view_is_shared_within_a_round_and_never_stale():
    fight, side = next(states())
    first = round_view(fight, side)
    assert round_view(fight, side) is first
    later = tuple(c._replace(hp=0, rattled=True) for c in fight)
    assert round_view(later, side) is not first
    assert all(c.rattled for c in round_view(later, side).acting)
    # A list could change under a cache, so it always gets a view of its own.
    as_list = list(fight)
    assert round_view(as_list, side) is not round_view(as_list, side)
