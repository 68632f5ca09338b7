"""One roll of Six Shooter, which cards may lower it, and multi-stage challenges.

Core layer: pure functions over exact Fractions (shared dice arithmetic from
generator.core.dice); no I/O, no rendering. Formatting happens in templates.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core.dice import SIDES, at_least, binomial

MAX_CRITICAL = 7          # strikes never push a Critical Number past this
STRIKES_TO_REMOVE = 3     # the third strike takes the Operator out
HAND_SIZE = 6             # positions 1-6, one per face of the die
MAX_WAGER_TOTAL = 3       # strikes held plus strikes wagered


def effective_critical(base: int, strikes: int = 0, reduction: int = 0, wager: int = 0) -> int:
    """The number the die is read against: strikes first (capped at 7), then
    one card's reduction or an All Or Nothing wager, never both."""
    if not 0 <= strikes < STRIKES_TO_REMOVE:
        raise ValueError(f"an Operator still in play has 0 to 2 strikes, not {strikes}")
    if reduction < 0 or wager < 0:
        raise ValueError("a reduction or a wager cannot be negative")
    if reduction and wager:
        raise ValueError("a card cannot be used on an All Or Nothing roll")
    if strikes + wager > MAX_WAGER_TOTAL:
        raise ValueError(f"with {strikes} strikes at most {MAX_WAGER_TOTAL - strikes} may be wagered")
    return min(base + strikes, MAX_CRITICAL) - reduction - wager


@dataclass(frozen=True)
class RollOdds:
    """The three ways a roll can end. `clean` includes succeeding without a roll."""

    clean: Fraction       # overcome, no hand roll
    with_hand: Fraction   # overcome, but roll the hand (die equals the number)
    failure: Fraction     # not overcome, and roll the hand

    @property
    def success(self) -> Fraction:
        return self.clean + self.with_hand

    @property
    def hand_roll(self) -> Fraction:
        return self.with_hand + self.failure


def roll_odds(effective: int) -> RollOdds:
    """Odds of one roll against an effective Critical Number. At 0 or lower
    the Operator succeeds without rolling at all."""
    if effective <= 0:
        return RollOdds(Fraction(1), Fraction(0), Fraction(0))
    if effective > MAX_CRITICAL:
        raise ValueError(f"a Critical Number never exceeds {MAX_CRITICAL}")
    above = max(SIDES - effective, 0)
    equal = 1 if effective <= SIDES else 0
    return RollOdds(Fraction(above, SIDES), Fraction(equal, SIDES), Fraction(SIDES - above - equal, SIDES))


def odds(base: int, strikes: int = 0, reduction: int = 0, wager: int = 0) -> RollOdds:
    return roll_odds(effective_critical(base, strikes, reduction, wager))


def wager_removal(base: int, strikes: int, wager: int) -> Fraction:
    """Chance that losing the wager alone brings the third strike."""
    if wager == 0 or strikes + wager < STRIKES_TO_REMOVE:
        return Fraction(0)
    return odds(base, strikes, wager=wager).failure


# --- cards -----------------------------------------------------------------

def card_allowed(card_suit: str, method: str, method_suit: str, own_method: str) -> bool:
    """A card on your own roll: its suit matches the method, or the method is
    your own descriptor's, when any suit will do."""
    return card_suit == method_suit or own_method == method


def help_allowed(card_suit: str, method: str, helper_suit: str, helper_method: str) -> bool:
    """A card on another Operator's roll: card suit, the helper's descriptor
    and the method in use must all agree."""
    return card_suit == helper_suit and helper_method == method


# --- multi-stage challenges ------------------------------------------------

@dataclass(frozen=True)
class StageOdds:
    stages: int
    per_roll: Fraction                 # chance one roll succeeds
    clean_sweep: Fraction              # every one of the first `stages` rolls succeeds
    expected_rolls: Fraction | None    # None when no roll can succeed
    expected_hand_rolls: Fraction | None


def stage_odds(effective: int, stages: int) -> StageOdds:
    """A challenge needing `stages` successful rolls, every roll against the
    same effective number (strikes gained on the way are ignored)."""
    one = roll_odds(effective)
    p = one.success
    if p == 0:
        return StageOdds(stages, p, Fraction(0), None, None)
    rolls = stages / p
    return StageOdds(stages, p, p**stages, rolls, rolls * one.hand_roll)


def stages_within(effective: int, stages: int, rolls: int) -> Fraction:
    """Chance of at least `stages` successes among `rolls` rolls."""
    return at_least(binomial(rolls, roll_odds(effective).success), stages)
