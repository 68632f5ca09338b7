"""Player-versus-player contests: both roll, the lower rolls the hand, and the
first to gain a strike loses.

Core layer, exact. Each side treats the other's die as its Critical Number,
adjusted by its own strikes and, on the first exchange only, its card or
All Or Nothing wager (rulings: contest-modifiers, contest-both-struck).
Strikes held do not change during a contest: the first new one ends it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable

from ...core.dice import SIDES
from .markov import REMOVED, HandState, Luck, hand_roll
from .rules import effective_critical

FACES = range(1, SIDES + 1)
NO_LUCK = Luck()


@dataclass(frozen=True)
class Side:
    strikes: int = 0
    reduction: int = 0        # a card used on the first exchange
    wager: int = 0            # All Or Nothing on the first exchange
    down: int = 5             # the hand at the start of the contest
    up: int = 1
    gone: int = 0

    @property
    def hand(self) -> HandState:
        return HandState(self.down, self.up, 0, self.gone, self.strikes)


@dataclass(frozen=True)
class ContestOdds:
    first_wins: Fraction
    second_wins: Fraction
    both_struck: Fraction     # both gain a strike in the same exchange


@dataclass(frozen=True)
class Exchange:
    """One side's result of one exchange: roll the hand? lose a wager?"""

    hand: bool
    failed: bool


def exchange_result(mine: int, theirs: int, strikes: int, reduction: int = 0, wager: int = 0) -> Exchange:
    number = effective_critical(theirs, strikes, reduction, wager)
    return Exchange(hand=mine <= number, failed=mine < number)


def _struck(hand: HandState, result: Exchange, wager: int) -> dict[HandState | str, Fraction]:
    """Where one side's hand goes after an exchange; REMOVED stands for 'gained a strike'."""
    if result.failed and wager:
        return {REMOVED: Fraction(1)}
    if not result.hand:
        return {hand: Fraction(1)}
    return {(REMOVED if isinstance(t, str) or t.strikes > hand.strikes else t): p
            for t, p in hand_roll(hand, NO_LUCK).items()}


def _step(a: HandState, b: HandState, mods: tuple[int, int, int, int]) -> dict[tuple, Fraction]:
    """Joint distribution of both hands after one exchange."""
    ra, wa, rb, wb = mods
    out: dict[tuple, Fraction] = {}
    for x in FACES:
        for y in FACES:
            ea = exchange_result(x, y, a.strikes, ra, wa)
            eb = exchange_result(y, x, b.strikes, rb, wb)
            for ta, pa in _struck(a, ea, wa).items():
                for tb, pb in _struck(b, eb, wb).items():
                    key = (ta, tb)
                    out[key] = out.get(key, Fraction(0)) + pa * pb / (SIDES * SIDES)
    return out


def contest_odds(first: Side, second: Side) -> ContestOdds:
    """Exact chances for each side, playing on until someone gains a strike."""
    moves = _step(first.hand, second.hand, (first.reduction, first.wager, second.reduction, second.wager))
    return ContestOdds(*_combine(moves, _value, Fraction(0)))


@lru_cache(maxsize=None)
def _value(a: HandState, b: HandState) -> tuple[Fraction, Fraction, Fraction]:
    """Chances from a pair of hands with no card or wager left to play (cached:
    states recur across contests)."""
    moves = _step(a, b, (0, 0, 0, 0))
    stay = moves.pop((a, b), Fraction(0))
    if stay == 1:
        raise ValueError("this contest can never end")
    return _combine(moves, _value, stay)


def _combine(moves: dict, value: Callable[[HandState, HandState], tuple[Fraction, Fraction, Fraction]],
             stay: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    totals = [Fraction(0)] * 3
    parts: tuple[int | Fraction, ...]
    for (ta, tb), p in moves.items():
        if ta == REMOVED and tb == REMOVED:
            parts = (0, 0, 1)
        elif ta == REMOVED:
            parts = (0, 1, 0)
        elif tb == REMOVED:
            parts = (1, 0, 0)
        else:
            parts = value(ta, tb)
        for i in range(3):
            totals[i] += p * parts[i]
    first, second, third = (t / (1 - stay) for t in totals)
    return first, second, third
