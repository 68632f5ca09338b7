"""The hand and strikes as an absorbing Markov chain: how long an Operator's
luck lasts against challenges of one Critical Number.

Core layer, pure and exact. The six positions are interchangeable (the die
picks one uniformly), so a state only counts positions in each condition:
face-down, face-up, a face-up joker (never discarded), discarded, plus strikes.
Every move either stays put or advances a progress order (strikes, discarded,
jokers, face-up), so expectations solve by recursion instead of a matrix.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable

from ...core.dice import SIDES
from .rules import HAND_SIZE, STRIKES_TO_REMOVE, effective_critical, roll_odds

DECK = 52
JOKERS = 2
REMOVED = "removed"


@dataclass(frozen=True, order=True)
class HandState:
    down: int
    up: int
    jokers: int = 0       # face-up jokers: they stay whatever the die says
    gone: int = 0
    strikes: int = 0

    def __post_init__(self) -> None:
        if min(self.down, self.up, self.jokers, self.gone) < 0 or \
                self.down + self.up + self.jokers + self.gone != HAND_SIZE:
            raise ValueError(f"a hand has {HAND_SIZE} positions: {self}")
        if not 0 <= self.strikes < STRIKES_TO_REMOVE or self.jokers > JOKERS:
            raise ValueError(f"not a state of play: {self}")


@dataclass(frozen=True)
class Luck:
    """Options that change the numbers: how many Lucky Numbers the Operator
    holds, and whether the deck has its two jokers."""

    lucky_numbers: int = 0
    jokers: bool = False

    def joker_chance(self, held: int) -> Fraction:
        """A newly revealed card is a joker: jokers still out of the hand over the whole deck."""
        return Fraction(JOKERS - held, DECK + JOKERS) if self.jokers else Fraction(0)

    @property
    def lucky_chance(self) -> Fraction:
        """A discarded ordinary card matches a Lucky Number (four of each value)."""
        return Fraction(4 * self.lucky_numbers, DECK)


def start(luck: Luck = Luck()) -> dict[HandState, Fraction]:
    """The dealt hand: five face-down and the one the player turned up."""
    pj = luck.joker_chance(0)
    out = {HandState(5, 1): 1 - pj}
    if pj:
        out[HandState(5, 0, 1)] = pj
    return out


def hand_roll(state: HandState, luck: Luck) -> dict[HandState | str, Fraction]:
    """Where one roll of the hand leads, by the position the die picks."""
    out: dict[HandState | str, Fraction] = {}

    def add(make: Callable[[], HandState | str], p: Fraction) -> None:
        """`make` builds the target lazily: only reachable states are built."""
        if p:
            target = make()
            out[target] = out.get(target, Fraction(0)) + p

    s = state
    pj = luck.joker_chance(s.jokers)
    pick = Fraction(1, SIDES)
    # A face-down card turns up; it may be a joker.
    add(lambda: HandState(s.down - 1, s.up + 1, s.jokers, s.gone, s.strikes), s.down * pick * (1 - pj))
    add(lambda: HandState(s.down - 1, s.up, s.jokers + 1, s.gone, s.strikes), s.down * pick * pj)
    # A face-up card is discarded, unless it is lucky: then a new card takes its place face-up.
    if s.up:
        lucky = luck.lucky_chance
        add(lambda: HandState(s.down, s.up - 1, s.jokers, s.gone + 1, s.strikes), s.up * pick * (1 - lucky))
        add(lambda: s, s.up * pick * lucky * (1 - pj))
        add(lambda: HandState(s.down, s.up - 1, s.jokers + 1, s.gone, s.strikes), s.up * pick * lucky * pj)
    add(lambda: s, s.jokers * pick)
    # An empty position is a strike.
    add(lambda: REMOVED if s.strikes + 1 >= STRIKES_TO_REMOVE
        else HandState(s.down, s.up, s.jokers, s.gone, s.strikes + 1), s.gone * pick)
    return out


def challenge(state: HandState, base: int, luck: Luck) -> dict[HandState | str, Fraction]:
    """One challenge at `base`: roll the die; at or below the number, roll the hand.
    (A fresh dict each call: callers may change it.)"""
    return dict(_challenge(state, base, luck))


@lru_cache(maxsize=None)
def _challenge(state: HandState, base: int, luck: Luck) -> tuple[tuple[HandState | str, Fraction], ...]:
    """The moves of one challenge, worked out once per state: the luck curves
    ask for the same states at every step."""
    q = roll_odds(effective_critical(base, state.strikes)).hand_roll
    out: dict[HandState | str, Fraction] = {state: 1 - q}
    for target, p in hand_roll(state, luck).items():
        out[target] = out.get(target, Fraction(0)) + q * p
    return tuple(out.items())


def expected_challenges(base: int, luck: Luck = Luck(), state: HandState | None = None) -> Fraction:
    """Expected number of challenges faced until the third strike, counting
    the challenge that brings it."""
    @lru_cache(maxsize=None)
    def e(s: HandState) -> Fraction:
        moves = challenge(s, base, luck)
        stay = moves.pop(s, Fraction(0))
        if stay == 1:
            raise ValueError(f"luck never runs out from {s}")
        rest = sum((p * (0 if t == REMOVED else e(t)) for t, p in moves.items()), Fraction(0))
        return (1 + rest) / (1 - stay)

    starts = {state: Fraction(1)} if state else start(luck)
    return sum((p * e(s) for s, p in starts.items()), Fraction(0))


def removal_within(base: int, challenges: int, luck: Luck = Luck(),
                   state: HandState | None = None) -> list[Fraction]:
    """Chance of having been removed after 0, 1, ..., `challenges` challenges."""
    dist: dict = {state: Fraction(1)} if state else start(luck)
    curve = [dist.get(REMOVED, Fraction(0))]
    for _ in range(challenges):
        nxt: dict = {}
        for s, p in dist.items():
            moves = {REMOVED: Fraction(1)} if s == REMOVED else challenge(s, base, luck)
            for t, q in moves.items():
                nxt[t] = nxt.get(t, Fraction(0)) + p * q
        dist = nxt
        curve.append(dist.get(REMOVED, Fraction(0)))
    return curve
