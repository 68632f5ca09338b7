"""The bookkeeping of a fight can never contradict the rules, checked after
every Speed Slot of every round of many seeded simulated fights (the
resolver's `on_slot` hook), not only in hand-made cases.

The source, Damage section: reaching 0 hit points gives "the Rattled
status". So "on 0 hit points" and "not Rattled" can never be true of
one fighter at once, whatever else happened in the slot (issue 18, point 1).
"""
from __future__ import annotations

import random
from functools import cache

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes.dataset import load_game
from generator.systems.sixes.balance import EXAMPLE_SIDES
from generator.systems.sixes.models import Character
from generator.systems.sixes.resolver import (Declaration, fresh, invariant_faults, resolve_round)
from generator.systems.sixes.simulate import POLICIES, play, roster, sides_by_faction, simulate

# The suite checks at least this many simulated rounds, slot by slot.
ROUNDS_CHECKED = 10_000


@cache
def example_game():
    """The shipped Sixes game alone (the other systems' data plays no part)."""
    game, problems = load_game(DEFAULT_DATA_DIR / "sixes", DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    return game


class Watcher:
    """An on_slot hook: counts slots and keeps the first few faults it sees."""

    def __init__(self):
        self.slots = 0
        self.faults: list[str] = []

    def __call__(self, slot, fighters):
        self.slots += 1
        if len(self.faults) < 5:
            for c in fighters:
                self.faults.extend(f"Speed {slot}: {fault}" for fault in invariant_faults(c))


def plain(name, hp):
    return Character(name=name, description="A test fighter.", hit_points=hp)


def test_zero_hit_points_and_an_own_recover_in_one_slot_leave_the_fighter_rattled():
    """Reaching 0 hit points gives "the Rattled status" (Damage).
    Recover's +1 nets against the blow (ruling healing-and-damage-net); if the
    net is 0 hit points, the fighter is on 0 and so Rattled, and can be
    killed in a later slot."""
    fight = (fresh(plain("Ash", 2), {}), fresh(plain("Bo", 5), {}), fresh(plain("Cy", 5), {}))
    watch = Watcher()
    after = resolve_round(fight, [Declaration("Ash", "recover", 3), Declaration("Bo", "attack", 3, "Ash"),
                                  Declaration("Cy", "attack", 2, "Ash", finish="kill")], on_slot=watch)
    assert watch.slots == 5 and watch.faults == []
    # Bo's 3 and Ash's Recover net to 0 in slot 3: Ash is Rattled, and Cy's kill in slot 2 lands.
    assert after["Ash"].hp == 0 and after["Ash"].status == "Dead"


def test_the_hook_sees_every_slot_and_changes_nothing():
    fight = (fresh(plain("Ash", 4), {}), fresh(plain("Bo", 4), {}))
    declarations = [Declaration("Ash", "attack", 5, "Bo"), Declaration("Bo", "attack", 1, "Ash")]
    seen = []
    watched = resolve_round(fight, declarations, on_slot=lambda s, f: seen.append((s, [c.hp for c in f])))
    assert seen == [(5, [4, 3]), (4, [4, 3]), (3, [4, 3]), (2, [4, 3]), (1, [0, 3])]
    assert watched == resolve_round(fight, declarations)


@cache
def checked_rounds() -> tuple[int, int, list[str]]:
    """Seeded fights of every policy, three casts (the example game by
    faction, the public example's generic sides, everyone for themself) and
    mixed policies: (rounds, slots, faults) over all of them."""
    watch = Watcher()
    rounds = 0
    game = example_game()
    cast = [m.character for m in game.cast]
    solo = sides_by_faction([c.model_copy(update={"faction": "All"}) for c in cast[:6]])
    for name in sorted(POLICIES):
        for sides, library, fights in ((sides_by_faction(cast), game.library, 150), (EXAMPLE_SIDES, {}, 150),
                                       (solo, game.library, 150)):
            summary = simulate(sides, library, name, fights=fights, seed=18, on_slot=watch)
            rounds += sum(summary.rounds)
    fighters, side = roster(sides_by_faction(cast), game.library)
    mixed = [POLICIES[sorted(POLICIES)[i % 3]] for i in range(len(fighters))]
    rng = random.Random(18)
    for _ in range(100):
        rounds += play(fighters, side, mixed, rng, on_slot=watch).rounds
    return rounds, watch.slots, watch.faults


def test_no_fighter_is_ever_on_zero_hit_points_without_being_rattled():
    """Reaching 0 hit points gives "the Rattled status": checked
    after every slot of at least ten thousand simulated rounds."""
    rounds, slots, faults = checked_rounds()
    assert rounds >= ROUNDS_CHECKED
    assert slots == 5 * rounds          # every slot of every round, empty ones too
    assert faults == []


@pytest.mark.parametrize("hp, rattled, speed, expected", [
    (2, False, 3, (0, True)),   # 2 - 3 + 1 = 0: on 0, so Rattled
    (1, False, 5, (1, False)),  # 1 - 1 + 1 = 1: Recover ends Rattled
    (1, True, 1, (0, True)),    # Rattled on 1 (a special), hit for 5 while Recovering: on 0, still Rattled
    (5, True, 1, (1, False)),   # Rattled on 5 (a special): 5 - 5 + 1 = 1, and Recover ends it
])
def test_recover_on_yourself_ends_rattled_only_above_zero(hp, rattled, speed, expected):
    """Regaining hit points, or taking Recover, means you "lose the Rattled
    status" (Statuses), yet reaching 0 gives it: when
    both happen in one slot, the hit points decide."""
    me = fresh(plain("Ash", 5), {})._replace(hp=hp, rattled=rattled)
    after = resolve_round((me, fresh(plain("Bo", 5), {})),
                          [Declaration("Ash", "recover", speed), Declaration("Bo", "attack", speed, "Ash")])
    assert (after["Ash"].hp, after["Ash"].rattled) == expected
