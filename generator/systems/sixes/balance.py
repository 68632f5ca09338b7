"""Balance figures for the GM: each character's threat and survivability
against the rest of the cast, and a cast-free example of how fights settle.

Core layer: standard library and this package only. Everything is played
through the simulator with fixed seeds and a small, fixed number of fights,
so a build always prints the same numbers and stays fast. Rates are exact
fractions of the fights played; formatting happens in the templates.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from fractions import Fraction
from statistics import median   # exact on Fractions
from itertools import combinations
from typing import Mapping, Sequence

from .models import Character, Special
from .simulate import POLICIES, POLICY_NOTES, Side, Summary, play, roster, sides_by_faction, simulate

DUELS_PER_PAIR = 6          # each pair of characters fights this many duels (half each way round)
BRAWL_FIGHTS = 40           # faction brawls per policy in the GM report
EXAMPLE_FIGHTS = 100        # fights per policy on the public example page
EARLY_ROUNDS = 1            # survivability looks at hit points left after this many rounds
OUTLIER_GAP = Fraction(1, 5)   # flagged when this far (20 points) from the cast's median
SEED = 1


@dataclass(frozen=True)
class FighterBalance:
    name: str
    faction: str
    hit_points: int
    armour: int
    damage: int
    threat: Fraction          # share of duels won against the rest of the cast
    survivability: Fraction   # share of own hit points left after EARLY_ROUNDS of a duel (0 if down)
    flags: tuple[str, ...]    # outliers: "dangerous", "harmless", "tough", "fragile"


@dataclass(frozen=True)
class CastBalance:
    fighters: tuple[FighterBalance, ...]
    median_threat: Fraction
    median_survivability: Fraction
    duels_per_pair: int
    early_rounds: int
    outlier_gap: Fraction
    brawls: tuple[Summary, ...]       # the cast by faction, one summary per policy


def _flags(threat, surv, mid_threat, mid_surv, gap) -> tuple[str, ...]:
    flags = []
    if threat >= mid_threat + gap:
        flags.append("dangerous")
    elif threat <= mid_threat - gap:
        flags.append("harmless")
    if surv >= mid_surv + gap:
        flags.append("tough")
    elif surv <= mid_surv - gap:
        flags.append("fragile")
    return tuple(flags)


def duel_figures(characters: Sequence[Character], library: Mapping[str, Special], *,
                 duels_per_pair: int = DUELS_PER_PAIR, seed: int = SEED):
    """Wins and early hit points per character over every pairing (aggressive
    policy on both sides): (wins, duels, hit points kept, hit points at start)."""
    rng = random.Random(f"sixes-balance:{seed}")
    policy = POLICIES["aggressive"]
    wins = {c.name: 0 for c in characters}
    duels = dict.fromkeys(wins, 0)
    kept = dict.fromkeys(wins, 0)
    started = dict.fromkeys(wins, 0)
    for a, b in combinations(characters, 2):
        for k in range(duels_per_pair):
            first, second = (a, b) if k % 2 == 0 else (b, a)
            fighters, side = roster([Side(first.name, (first,)), Side(second.name, (second,))], library)
            history: list = []
            outcome = play(fighters, side, policy, rng, history=history)
            early = history[min(EARLY_ROUNDS, len(history)) - 1]
            for c in early:
                duels[c.name] += 1
                started[c.name] += c.profile.hit_points
                kept[c.name] += c.hp if c.can_act and not c.rattled else 0
            if outcome.winner is not None:
                wins[(first, second)[outcome.winner].name] += 1
    return wins, duels, kept, started


_BALANCE_CACHE: dict[tuple, "CastBalance"] = {}


def cast_balance(characters: Sequence[Character], library: Mapping[str, Special], *,
                 duels_per_pair: int = DUELS_PER_PAIR, brawl_fights: int = BRAWL_FIGHTS,
                 seed: int = SEED) -> CastBalance:
    """Threat and survivability of every character. Cached on the data, so
    building documents twice (tests, the build) simulates once."""
    key = (tuple(c.model_dump_json() for c in characters), tuple(s.model_dump_json() for s in library.values()),
           duels_per_pair, brawl_fights, seed)
    if key not in _BALANCE_CACHE:
        _BALANCE_CACHE[key] = _cast_balance(characters, library, duels_per_pair, brawl_fights, seed)
    return _BALANCE_CACHE[key]


def _cast_balance(characters, library, duels_per_pair, brawl_fights, seed) -> CastBalance:
    wins, duels, kept, started = duel_figures(characters, library, duels_per_pair=duels_per_pair, seed=seed)
    threat = {n: Fraction(wins[n], duels[n]) for n in wins}
    surv = {n: Fraction(kept[n], started[n]) for n in wins}
    mid_t, mid_s = median(list(threat.values())), median(list(surv.values()))
    fighters = tuple(FighterBalance(c.name, c.faction, c.hit_points, c.armour, c.damage, threat[c.name],
                                    surv[c.name], _flags(threat[c.name], surv[c.name], mid_t, mid_s, OUTLIER_GAP))
                     for c in characters)
    sides = sides_by_faction(characters)
    brawls = tuple(simulate(sides, library, policy, fights=brawl_fights, seed=seed) for policy in POLICIES)
    return CastBalance(fighters, mid_t, mid_s, duels_per_pair, EARLY_ROUNDS, OUTLIER_GAP, brawls)


def _generic(name: str, side: str, hp: int, armour: int = 0, damage: int = 0) -> Character:
    return Character(name=name, faction=side, description="A generic fighter for the example.",
                     hit_points=hp, armour=armour, damage=damage)


# Fifteen generic fighters in three sides of five: no character of any game.
EXAMPLE_SIDES: tuple[Side, ...] = tuple(
    Side(side, (_generic(f"{side} bruiser", side, 6, 0, 1), _generic(f"{side} guard", side, 5, 1, 0),
                _generic(f"{side} duellist", side, 4, 0, 1), _generic(f"{side} brawler", side, 5),
                _generic(f"{side} bystander", side, 4)))
    for side in ("North", "South", "Harbour"))


@dataclass(frozen=True)
class ExampleFights:
    sides: tuple[Side, ...]
    summaries: tuple[Summary, ...]      # one per policy
    longest: int                        # the most rounds any summarised fight took
    policy_notes: Mapping[str, str]


@cache
def example_fights(fights: int = EXAMPLE_FIGHTS, seed: int = SEED) -> ExampleFights:
    """The public page's brawl of generic fighters; it depends on no data, so it is computed once."""
    summaries = tuple(simulate(EXAMPLE_SIDES, {}, policy, fights=fights, seed=seed) for policy in POLICIES)
    return ExampleFights(EXAMPLE_SIDES, summaries, max(s.rounds[-1] for s in summaries), POLICY_NOTES)
