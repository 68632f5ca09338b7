"""Balance figures for the GM: each character's threat and survivability
against the cast's typical fighter, and how the factions fare in a brawl.

Core layer: standard library and this package only. Everything is played
through the simulator with fixed seeds and a fixed number of fights, so a
build always prints the same numbers. Each character's duels depend only on
that character (and the specials they hold) and on the typical fighter, so
they are remembered per character (generator/core/memo.py): editing one character
simulates that character's duels again, and a cast of 300 costs 300 sets of
duels rather than 45,000 pairings. Rates are exact fractions of the fights
played; formatting happens in the templates.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from fractions import Fraction
from statistics import median, median_low, quantiles   # exact on Fractions
from typing import Mapping, Sequence

from ...core.i18n import N_
from ...core.memo import Work, key_of, remember
from .models import Character, Special
from .simulate import POLICIES, POLICY_NOTES, Side, Summary, play, roster, sides_by_faction, simulate

DUELS = 60                  # duels per character against the typical fighter, half each way round
BRAWL_FIGHTS = 40           # faction brawls per policy in the GM report...
BRAWL_FIGHTERS = 2400       # ...fewer for a big cast: at most about this many fighters over the fights
MIN_BRAWL_FIGHTS = 8
EXAMPLE_FIGHTS = 100        # fights per policy on the public example page
EARLY_ROUNDS = 1            # survivability looks at hit points left after this many rounds
OUTLIER_GAP = Fraction(1, 5)   # never flagged closer than this (20 points) to the cast's median...
FENCE_IQRS = Fraction(3, 2)    # ...nor inside 1.5 interquartile ranges beyond the quartiles (Tukey's fences)...
ALWAYS_GAP = Fraction(2, 5)    # ...but always from this far (40 points), however spread the cast is
SEED = 1


@dataclass(frozen=True)
class Band:
    """What the cast explains: a figure at or below `low` or at or above
    `high` stands out and is flagged."""

    low: Fraction
    high: Fraction


@dataclass(frozen=True)
class FighterBalance:
    name: str
    faction: str
    hit_points: int
    armour: int
    damage: int
    threat: Fraction          # share of duels won against the typical fighter
    survivability: Fraction   # share of own hit points left after EARLY_ROUNDS of a duel (0 if down)
    # outliers: "dangerous", "harmless", "tough", "fragile" (messages, translated where printed)
    flags: tuple[str, ...]


@dataclass(frozen=True)
class CastBalance:
    fighters: tuple[FighterBalance, ...]     # in cast order
    opponent: Character                      # the typical fighter everyone duels
    median_threat: Fraction
    median_survivability: Fraction
    duels: int
    early_rounds: int
    outlier_gap: Fraction
    always_gap: Fraction
    threat_band: Band
    survivability_band: Band
    brawls: tuple[Summary, ...]       # the cast by faction, one summary per policy

    @property
    def outliers(self) -> tuple[FighterBalance, ...]:
        """Flagged fighters, furthest from the median threat first."""
        flagged = [f for f in self.fighters if f.flags]
        return tuple(sorted(flagged, key=lambda f: (-abs(f.threat - self.median_threat), f.name)))


@dataclass(frozen=True)
class DuelRecord:
    """One character's duels against one opponent, as counts."""

    wins: int
    duels: int
    kept: int        # own hit points still standing after EARLY_ROUNDS, summed over the duels
    started: int     # own starting hit points, summed over the duels


def band(values: Sequence[Fraction], gap: Fraction = OUTLIER_GAP, always: Fraction = ALWAYS_GAP) -> Band:
    """Tukey's fences (1.5 interquartile ranges outside the quartiles) mark
    the few the rest of the cast does not explain; never nearer the median
    than `gap`, so an even cast, whose spread is the duels' own noise (about
    6 points either way at 60 duels), flags nobody; and never further than
    `always`: in a cast spread evenly from 5 % to 100 % the fences fall past
    0 % and 100 %, where no figure can be, and its weakest and strongest, 47
    points from the median, went unflagged."""
    mid = median(values)
    if len(values) < 2:
        return Band(mid - gap, mid + gap)
    first, _, third = quantiles(values, n=4, method="inclusive")
    spread = FENCE_IQRS * (third - first)
    low = max(min(first - spread, mid - gap), mid - always)
    return Band(low, min(max(third + spread, mid + gap), mid + always))


def _flags(threat: Fraction, surv: Fraction, threat_band: Band, surv_band: Band) -> tuple[str, ...]:
    flags = []
    if threat >= threat_band.high:
        flags.append(N_("dangerous"))
    elif threat <= threat_band.low:
        flags.append(N_("harmless"))
    if surv >= surv_band.high:
        flags.append(N_("tough"))
    elif surv <= surv_band.low:
        flags.append(N_("fragile"))
    return tuple(flags)


def typical_fighter(characters: Sequence[Character]) -> Character:
    """The cast's middle: the median hit points, armour and damage (the lower
    middle value of an even cast, so it stays a whole number), no specials.
    One character's edit rarely moves a median, so the others' duels stay valid."""
    taken = {c.name for c in characters}
    name = "Typical fighter"
    while name in taken:        # the resolver tells fighters apart by name
        name += " (reference)"
    return Character(name=name, faction="", description="The cast's median fighter.",
                     hit_points=median_low([c.hit_points for c in characters]),
                     armour=median_low([c.armour for c in characters]),
                     damage=median_low([c.damage for c in characters]))


# What a character's file says that no fight reads: left out of the keys the
# simulations are remembered by (and seeded from), so rewording a description
# or a background, or making a character private, plays nothing again.
FLAVOUR = frozenset({"description", "background", "portrait", "handouts", "visibility", "gm_notes"})


# What a special says that no simulation reads: which action a GM-adjudicated
# special is called with (the policies never call one), so adding it kept
# every seed, and every figure, as it was.
UNPLAYED = frozenset({"rides_on"})


def _special_data(special: Special) -> dict:
    return special.model_dump(mode="json", exclude=set(UNPLAYED))


def _fighter_json(character: Character) -> str:
    return character.model_dump_json(exclude=set(FLAVOUR))


def _specials_json(character: Character, library: Mapping[str, Special]) -> str:
    return json.dumps([_special_data(library[n]) for n in character.specials if n in library])


def duel_record(character: Character, opponent: Character, library: Mapping[str, Special], *,
                duels: int = DUELS, seed: int = SEED) -> DuelRecord:
    """`character`'s duels against `opponent`, both on the aggressive policy,
    taking turns to be listed first. Seeded by the two fighters, so the figures
    never depend on who else is in the cast, and remembered by the same inputs."""
    fingerprint = (_fighter_json(character), _specials_json(character, library), _fighter_json(opponent),
                   str(duels), str(seed))
    return remember(key_of("sixes-duels", *fingerprint),
                    lambda: _play_duels(character, opponent, library, duels, key_of(*fingerprint)))


def _play_duels(character: Character, opponent: Character, library: Mapping[str, Special], duels: int,
                seed_text: str) -> DuelRecord:
    rng = random.Random(f"sixes-balance:{seed_text}")
    policy = POLICIES["aggressive"]
    # Fighters are immutable, so each duel may start from the same two.
    (me, them), _ = roster([Side(character.name, (character,)), Side(opponent.name, (opponent,))], library)
    wins = kept = started = 0
    for k in range(duels):
        mine = k % 2                # where `character` stands in the fight: first, then second
        history: list = []
        outcome = play((me, them) if mine == 0 else (them, me), (0, 1), policy, rng, history=history)
        early = history[min(EARLY_ROUNDS, len(history)) - 1][mine]
        started += early.profile.hit_points
        kept += early.hp if early.can_act and not early.rattled else 0
        wins += outcome.winner == mine
    return DuelRecord(wins, duels, kept, started)


def brawl_work(characters: Sequence[Character], library: Mapping[str, Special], policy: str, *,
               fights: int = BRAWL_FIGHTS, seed: int = SEED) -> Work:
    """The whole cast by faction, `fights` times with one policy, as Work
    remembered by the cast's fighting figures and the specials they hold."""
    used = {n: library[n] for c in characters for n in c.specials if n in library}
    key = key_of("sixes-brawl", policy, str(fights), str(seed), *(_fighter_json(c) for c in characters),
                 json.dumps({n: _special_data(s) for n, s in sorted(used.items())}))
    return Work(key, simulate, (sides_by_faction(characters), used, policy), {"fights": fights, "seed": seed})


def brawl_works(characters: Sequence[Character], library: Mapping[str, Special], *,
                fights: int | None = None, seed: int = SEED) -> tuple[Work, ...]:
    """The report's brawls, one per policy (`fights` each, by default as many
    as the cast's size allows). The slowest simulations of a build, and each
    depends on the whole cast, so the build starts them in its worker pool
    before anything reads them."""
    fights = fights or brawl_fights_for(len(characters))
    return tuple(brawl_work(characters, library, policy, fights=fights, seed=seed) for policy in POLICIES)


def brawl_fights_for(cast_size: int) -> int:
    """Fights per policy in the report's brawl: 40 up to 60 characters, then
    fewer. A brawl's cost grows with the cast, and every edit to any character
    plays it again; a brawl of hundreds runs to the round limit anyway."""
    return max(MIN_BRAWL_FIGHTS, min(BRAWL_FIGHTS, BRAWL_FIGHTERS // max(cast_size, 1)))


def cast_balance(characters: Sequence[Character], library: Mapping[str, Special], *,
                 duels: int = DUELS, brawl_fights: int | None = None, seed: int = SEED) -> CastBalance:
    """Threat and survivability of every character against the typical
    fighter, and the faction brawls (`brawl_fights` per policy, by default as
    many as the cast's size allows)."""
    opponent = typical_fighter(characters)
    records = [duel_record(c, opponent, library, duels=duels, seed=seed) for c in characters]
    threat = [Fraction(r.wins, r.duels) for r in records]
    surv = [Fraction(r.kept, r.started) for r in records]
    threat_band, surv_band = band(threat), band(surv)
    fighters = tuple(FighterBalance(c.name, c.faction, c.hit_points, c.armour, c.damage, t, s,
                                    _flags(t, s, threat_band, surv_band))
                     for c, t, s in zip(characters, threat, surv, strict=True))
    brawls = tuple(work.result() for work in brawl_works(characters, library, fights=brawl_fights, seed=seed))
    return CastBalance(fighters, opponent, median(threat), median(surv), duels, EARLY_ROUNDS, OUTLIER_GAP,
                       ALWAYS_GAP, threat_band, surv_band, brawls)


def _generic(role: str, side: str, hp: int, armour: int = 0, damage: int = 0) -> Character:
    """One example fighter, named by side and role ("North guard"); the role
    is a message, which the site page prints in the run's language."""
    return Character(name=f"{side} {role}", faction=side, description="A generic fighter for the example.",
                     hit_points=hp, armour=armour, damage=damage)


# Fifteen generic fighters in three sides of five: no character of any game.
EXAMPLE_SIDES: tuple[Side, ...] = tuple(
    Side(side, (_generic(N_("bruiser"), side, 6, 0, 1), _generic(N_("guard"), side, 5, 1, 0),
                _generic(N_("duellist"), side, 4, 0, 1), _generic(N_("brawler"), side, 5),
                _generic(N_("bystander"), side, 4)))
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
