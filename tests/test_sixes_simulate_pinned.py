"""Seeded simulator results pinned to the values the straightforward
simulator gave (computed before it was optimised, and pinned again for
issue 18: 0 hit points always Rattled, knock-outs, conditional bonuses,
fights that end when nobody wants to go on): a faster simulator must
draw the same random numbers in the same order and reach the same results,
fight by fight. Small cases are spelled out; large ones are pinned by a
hash of every figure of the summary or of every round of a fight."""
from __future__ import annotations

import hashlib
import random
from functools import cache

import pytest

from generator.game.load import load_all
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes.balance import EXAMPLE_SIDES
from generator.systems.sixes.models import Character
from generator.systems.sixes.simulate import (POLICIES, STATUS_WORDS, Side, play, roster, sides_by_faction,
                                              simulate)


@cache
def example_game():
    return load_all(DEFAULT_DATA_DIR)[0][0].game


def cast(size: int | None = None) -> list[Character]:
    """The example cast, or `size` characters made by repeating it with
    numbered names (as benchmarks/bench_print.py"s synthetic game does)."""
    characters = [m.character for m in example_game().cast]
    if size is None:
        return characters
    repeated = (characters[i % len(characters)] for i in range(size))
    return [c.model_copy(update={"name": f"{c.name} {i + 1}"}) for i, c in enumerate(repeated)]


def digest(value) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def summary_digest(s) -> str:
    """Every figure of a Summary, in a fixed order."""
    return digest((s.policy, s.sides, s.names, s.rounds, s.wins, s.no_winner, s.standoffs, s.cut_off,
                   tuple((n, tuple(s.statuses[n][w] for w in STATUS_WORDS)) for n in s.names)))


def state(fighters) -> tuple:
    return tuple((c.name, c.hp, c.status, tuple(sorted(c.uses.items()))) for c in fighters)


def brawler(name, faction, hp=5, armour=0, damage=0):
    return Character(name=name, faction=faction, description="A generic fighter.", hit_points=hp,
                     armour=armour, damage=damage)


FOUR = [Side("Reds", (brawler("Red One", "Reds", damage=1), brawler("Red Two", "Reds", armour=1))),
        Side("Blues", (brawler("Blue One", "Blues", hp=6), brawler("Blue Two", "Blues")))]

# policy -> (rounds, wins, no_winner, digest) of the example cast by faction, 40 fights, seed 1.
CAST = {"aggressive": ((10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
                        12, 12, 13, 13, 13, 13, 13, 13, 13, 13, 13, 14, 14, 14, 15, 15),
                       (0, 2, 12, 26), 0, "c065e39f7865c64a"),
        "cautious": ((7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9,
                      9, 9, 9, 9, 9, 9, 10, 10),
                     (0, 3, 15, 18), 4, "236daac4a610edc6"),
        "random": ((10, 10, 10, 10, 10, 11, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14, 14, 15,
                    15, 15, 16, 16, 16, 17, 17, 18, 18, 20, 20, 20, 20, 20, 20),
                   (9, 6, 12, 8), 5, "9d60a4a40d4fbc64")}
# policy -> digest of the 60-character brawl by faction, 40 fights, seed 1 (as the GM report runs it).
SIXTY = {"aggressive": "e7ccdb510bbee9a4", "cautious": "6dad57f35c8d78dd", "random": "6b41c5114e0bac53"}
# policy -> (rounds, wins, no_winner, statuses) of FOUR, 30 fights, seed 4.
SMALL = {"aggressive": ((3, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 7, 7, 7, 7, 7, 9, 9, 11, 11),
                        (19, 11), 0,
                        {"Red One": {"Rattled": 0, "Unconscious": 0, "Dead": 19, "Escaped": 0},
                         "Red Two": {"Rattled": 0, "Unconscious": 0, "Dead": 18, "Escaped": 0},
                         "Blue One": {"Rattled": 0, "Unconscious": 0, "Dead": 22, "Escaped": 0},
                         "Blue Two": {"Rattled": 0, "Unconscious": 0, "Dead": 27, "Escaped": 0}}),
         "cautious": ((2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4),
                      (27, 0), 3,
                      {"Red One": {"Rattled": 0, "Unconscious": 0, "Dead": 0, "Escaped": 10},
                       "Red Two": {"Rattled": 0, "Unconscious": 0, "Dead": 0, "Escaped": 8},
                       "Blue One": {"Rattled": 3, "Unconscious": 3, "Dead": 0, "Escaped": 22},
                       "Blue Two": {"Rattled": 6, "Unconscious": 1, "Dead": 0, "Escaped": 22}}),
         "random": ((1, 2, 2, 3, 4, 4, 4, 4, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 9, 12, 14, 14),
                    (17, 12), 1,
                    {"Red One": {"Rattled": 1, "Unconscious": 1, "Dead": 1, "Escaped": 15},
                     "Red Two": {"Rattled": 0, "Unconscious": 1, "Dead": 1, "Escaped": 14},
                     "Blue One": {"Rattled": 1, "Unconscious": 3, "Dead": 3, "Escaped": 16},
                     "Blue Two": {"Rattled": 0, "Unconscious": 3, "Dead": 7, "Escaped": 12}})}
# policy -> digest of the public example"s brawl, 40 fights, seed 3.
EXAMPLE = {"aggressive": "0def8cf089f0430a", "cautious": "833dab1c8c43f0aa", "random": "11bcda365eebf547"}
# fight -> (rounds, winner, digest or list of every round"s fighters).
PLAYED = {"aggressive": (11, 1, "585995dc61fb2eee"),
          "cautious": (8, 3, "5e37280dc427c7b0"),
          "random": (16, 2, "57a36d9cdbdb8839"),
          "mixed": (12, 3, "9e04fbec988d9cab"),
          "duel": (4, 1,
                   [(("Samuel Penhale", 3, "Fighting", (("Armoured Shell", 1),)),
                     ("Matthew Lusk", 3, "Fighting", (("Pistol Ball", 1),))),
                    (("Samuel Penhale", 1, "Fighting", (("Armoured Shell", 1),)),
                     ("Matthew Lusk", 1, "Fighting", (("Pistol Ball", 1),))),
                    (("Samuel Penhale", 0, "Rattled", (("Armoured Shell", 1),)),
                     ("Matthew Lusk", 1, "Fighting", (("Pistol Ball", 1),))),
                    (("Samuel Penhale", 0, "Dead", (("Armoured Shell", 1),)),
                     ("Matthew Lusk", 1, "Fighting", (("Pistol Ball", 1),)))])}


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_example_cast_brawl_is_unchanged(policy):
    g = example_game()
    s = simulate(sides_by_faction(cast()), g.library, policy, fights=40, seed=1)
    rounds, wins, no_winner, fingerprint = CAST[policy]
    assert (s.rounds, s.wins, s.no_winner) == (rounds, wins, no_winner)
    assert summary_digest(s) == fingerprint


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_sixty_character_brawl_is_unchanged(policy):
    s = simulate(sides_by_faction(cast(60)), example_game().library, policy, fights=40, seed=1)
    assert summary_digest(s) == SIXTY[policy]


def test_small_brawl_statuses_are_unchanged():
    """Four generic fighters, every figure spelled out."""
    got = {p: simulate(FOUR, {}, p, fights=30, seed=4) for p in sorted(POLICIES)}
    assert {p: (s.rounds, s.wins, s.no_winner, {n: dict(v) for n, v in s.statuses.items()})
            for p, s in got.items()} == SMALL



def test_example_sides_brawl_is_unchanged():
    """The public example page"s fifteen generic fighters."""
    got = {p: summary_digest(simulate(EXAMPLE_SIDES, {}, p, fights=40, seed=3)) for p in sorted(POLICIES)}
    assert got == EXAMPLE



def test_played_fights_round_by_round_are_unchanged():
    """Every round of a few fights: the cast by faction with each policy,
    mixed policies per fighter, and a duel (as the balance report plays them)."""
    g = example_game()
    fighters, side = roster(sides_by_faction(cast()), g.library)
    got: dict[str, tuple[object, ...]] = {}
    for name in sorted(POLICIES):
        history: list = []
        outcome = play(fighters, side, POLICIES[name], random.Random(name), history=history)
        got[name] = (outcome.rounds, outcome.winner, digest([state(f) for f in history]))
    mixed = [POLICIES[sorted(POLICIES)[i % 3]] for i in range(len(fighters))]
    history = []
    outcome = play(fighters, side, mixed, random.Random(7), max_rounds=12, history=history)
    got["mixed"] = (outcome.rounds, outcome.winner, digest([state(f) for f in history]))
    a, b = (next(c for c in cast() if c.name == n) for n in ("Samuel Penhale", "Matthew Lusk"))
    fighters, side = roster([Side(a.name, (a,)), Side(b.name, (b,))], g.library)
    history = []
    outcome = play(fighters, side, POLICIES["aggressive"], random.Random(3), history=history)
    got["duel"] = (outcome.rounds, outcome.winner, [state(f) for f in history])
    assert got == PLAYED
