"""The attack rules of the Sixes System as pure functions over exact fractions.

Core layer: standard library only. A is the average each die must reach; a
target is built from the defender's total, A and the sixes the GM requires;
a margin over the target counts as extra ("virtual") sixes; damage dice come
from the weapon (or the stat and purpose for a raw attack), grow with excess
sixes and the mode's adjustment, and split into two colours.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from decimal import Decimal
from math import ceil, floor

from ...core.dice import SIDES

# A number as the data or the rules give it: exact() makes it a Fraction.
Number = int | float | str | Decimal | Fraction


def exact(value: Number) -> Fraction:
    """A YAML decimal such as 2.75 as the exact fraction it was written as."""
    return value if isinstance(value, Fraction) else Fraction(str(value))


def attack_pool(stat: int, purpose: int, skill: int = 0, weapon: int = 0, enhancement: int = 0) -> int:
    """Dice the attacker rolls: stat + purpose + skill + weapon ranks, and one
    more per point of weapon enhancement. A pool never goes below zero."""
    return max(0, stat + purpose + skill + weapon + enhancement)


def defence_total(stat: int, purpose: int, skill: int = 0, penalty: int = 0) -> int:
    """The defender's stat + purpose + skill, less any penalty (for example
    2 per earlier attack on them this round, or 4 after their own kill-shot)."""
    return max(0, stat + purpose + skill - penalty)


def target_number(defence: int, a: Fraction, sixes: int = 0) -> Fraction:
    """(defence total) x A + (sixes required) x (6 - A)."""
    a = exact(a)
    _check_a(a)
    return defence * a + sixes * (SIDES - a)


def roll_needed(target: Fraction) -> int:
    """The smallest whole total that reaches a (possibly fractional) target."""
    return ceil(target)


def virtual_sixes(margin: Fraction | int, a: Fraction) -> int:
    """Whole extra sixes in a margin over the target: margin / (6 - A), rounded down."""
    a = exact(a)
    _check_a(a)
    if margin < 0:
        raise ValueError(f"a margin of {margin} is a failure, not extra sixes")
    return floor(Fraction(margin) / (SIDES - a))


def _check_a(a: Fraction) -> None:
    if not 0 < a < SIDES:
        raise ValueError(f"A must lie between 0 and 6, found {a}")


@dataclass(frozen=True)
class Adjustments:
    """Every change to A for one attack, each as an exact fraction."""

    base: Fraction
    mode: Fraction = Fraction(0)
    cover: Fraction = Fraction(0)
    pulling_punches: Fraction = Fraction(0)
    kill_shot: Fraction = Fraction(0)

    @property
    def a(self) -> Fraction:
        return self.base + self.mode + self.cover + self.pulling_punches + self.kill_shot


def cover_adjustment(level_a: Number, active: bool = False, active_step: Number = Fraction(1, 4),
                     active_cap: Number = Fraction(1)) -> Fraction:
    """Cover's A adjustment; active cover adds a further step, capped."""
    level = exact(level_a)
    return min(level + exact(active_step), exact(active_cap)) if active else level


def raw_attack_dice(stat: int, purpose: int) -> int:
    """Damage dice of an attack with no weapon: (stat + purpose) / 5, rounded down."""
    return max(0, stat + purpose) // 5


def mode_extra_dice(pool: int, dice: int, per: int) -> int:
    """The mode's damage adjustment: `dice` for every whole group of `per`
    dice already in the pool (2 dice at +2 per 3 get nothing; 3 get +2)."""
    return (pool // per) * dice


@dataclass(frozen=True)
class DamageDice:
    colour_a: int   # temporary damage to the defence stat, gone after a round
    colour_b: int   # enduring damage to the defence stat, healed 1 an hour

    @property
    def total(self) -> int:
        return self.colour_a + self.colour_b


def damage_pool(base: int, excess_sixes: int, adjustment: tuple[int, int] = (0, 1), *,
                sixes_per_die: int = 1) -> int:
    """Damage dice before the colour split: base dice, one per excess six (or
    per `sixes_per_die` sixes when pulling punches), then the mode's groups."""
    if excess_sixes < 0:
        raise ValueError("excess sixes cannot be negative")
    pool = base + excess_sixes // sixes_per_die
    return max(0, pool + mode_extra_dice(pool, *adjustment))


def split_colours(pool: int, *, extra_colour_a: int = 0, colour_b_multiplier: int = 1) -> DamageDice:
    """Half the pool (rounded up) is colour A, the rest colour B; then any
    extra colour A dice (improvised weapons, pulling punches) are added and a
    kill-shot multiplies the colour B dice."""
    colour_a = (pool + 1) // 2
    return DamageDice(colour_a + extra_colour_a, (pool - colour_a) * colour_b_multiplier)


@dataclass(frozen=True)
class Reduction:
    """Points taken off each damage die of each colour."""

    colour_a: int
    colour_b: int


def per_die_reduction(armour: int, shield: int = 0, enhancement: int = 0) -> Reduction:
    """Armour counts against every die, a shield against colour B only, and
    each point of weapon enhancement takes one off what is left."""
    return Reduction(max(0, armour - enhancement), max(0, armour + shield - enhancement))


def die_damage(face: int, reduction: int) -> int:
    return max(0, face - reduction)
