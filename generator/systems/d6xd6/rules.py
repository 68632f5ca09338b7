"""The D6xD6 combat rules as pure functions over whole numbers.

Core layer: standard library, the shared dice module and the level keys of
the models only. Damage levels are numbers: 0 is unhurt, 1 graze, 2 stun,
3 hit, 4 wound, 5 knockout, 6 kill and 7 overkill. An attack may climb past overkill (bonus levels and
aiming keep counting) so that each step of defence takes exactly one off;
a character's condition stops at overkill. The rulings cited are in
rulings.yaml beside this file.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core.dice import D6, at_least, combine
from .models import LEVEL_KEYS, Weapon, reach  # noqa: F401  (reach: a rule, re-exported here)

UNHURT, GRAZE, STUN, HIT, WOUND, KNOCKOUT, KILL, OVERKILL = range(8)
CONDITIONS = tuple(range(UNHURT, OVERKILL + 1))
INCOMING = tuple(range(GRAZE, OVERKILL + 1))   # the levels an attack can arrive at, once capped
# The last level a character can still act at (ruling: second-wind).
LAST_ACTIVE = WOUND
REACTIVE_STEPS = 1
TOP_OF_ROUND = 36


def apply_damage(current: int, incoming: int) -> int:
    """The new condition after a hit of `incoming` levels (0 = it did nothing).

    At or below the current level adds one step (equal counts as at or below:
    ruling equal-damage); above it replaces the current level. Nothing goes
    past overkill (ruling overkill).
    """
    _check_condition(current)
    if incoming < 0:
        raise ValueError(f"an attack cannot do {incoming} levels")
    if incoming == 0:
        return current
    new = current + 1 if incoming <= current else incoming
    return min(new, OVERKILL)


def _check_condition(level: int) -> None:
    if level not in CONDITIONS:
        raise ValueError(f"a condition runs from {UNHURT} to {OVERKILL}, not {level}")


@dataclass(frozen=True)
class Defence:
    """What stands between an attack and its target.

    `armour` is the worn armour's steps (0 for none); `focused` says whether
    the target has Focused an ability the attack's category lists for
    defence; `drama` is Drama Points spent on this attack.
    """

    armour: int = 0
    focused: bool = False
    drama: int = 0

    def __post_init__(self) -> None:
        if self.armour < 0 or self.drama < 0:
            raise ValueError("armour and drama points cannot be negative")

    @property
    def passive(self) -> bool:
        """Armour is used instead of a reactive defence, never with it (ruling armour-or-reactive)."""
        return self.armour > 0

    @property
    def steps(self) -> int:
        base = self.armour if self.passive else (REACTIVE_STEPS if self.focused else 0)
        return base + self.drama


def attack_level(base: int, success_levels: int, aimed_turns: int = 0) -> int:
    """The damage of a successful attack on one target: the weapon's level,
    one more for each success level past the first, one more per turn aimed."""
    if success_levels < 1:
        raise ValueError("only a successful attack (one level or more) does damage")
    if base < GRAZE or aimed_turns < 0:
        raise ValueError("a weapon does at least a graze, and aiming cannot be negative")
    return base + success_levels - 1 + aimed_turns


def defended(level: int, defence: Defence) -> int:
    """The level that gets through: each step of defence takes one off."""
    return max(0, level - defence.steps)


def hit(current: int, attack: int, defence: Defence = Defence()) -> int:
    """One attack from start to finish: defences, then add or supersede."""
    return apply_damage(current, defended(attack, defence))


def ladder_grid() -> dict[int, dict[int, int]]:
    """current -> incoming (after defence) -> new condition, for the cards."""
    return {c: {i: apply_damage(c, i) for i in INCOMING} for c in CONDITIONS}


def splits(levels: int) -> list[tuple[int, ...]]:
    """Every legal way to share `levels` success levels among targets, the
    most levels first: each target needs one level, each extra level adds a
    step of damage to that target (exceptional attacks; aiming levels join
    the pool, ruling aimed-splits)."""
    if levels < 1:
        raise ValueError("an attack with no success level hits nobody")

    def parts(total: int, largest: int) -> list[tuple[int, ...]]:
        if total == 0:
            return [()]
        return [(first,) + rest for first in range(min(total, largest), 0, -1)
                for rest in parts(total - first, first)]
    return parts(levels, levels)


def split_damage(base: int, shares: tuple[int, ...]) -> tuple[int, ...]:
    """The damage each target of a split takes."""
    return tuple(attack_level(base, share) for share in shares)


def missed_action(success_levels: int) -> int | None:
    """Turning an action countered by a faster one on a new target costs one
    success level; with none left the action is lost (None)."""
    if success_levels < 1:
        raise ValueError("only a successful action can be redirected")
    left = success_levels - 1
    return left if left >= 1 else None


def second_wind(current: int, success_levels: int) -> int:
    """A successful Will or Brawn roll recovers one level and one more per bonus
    level. Only a character still able to act can try (ruling second-wind)."""
    _check_condition(current)
    if current > LAST_ACTIVE:
        raise ValueError("a knocked-out or dying character cannot spend an action")
    if success_levels < 1:
        return current
    return max(UNHURT, current - success_levels)


def turn_roll() -> dict[int, Fraction]:
    """A die times a die: 18 different results from 1 to 36."""
    return turn_order(0)


def turn_order(penalty: int = 0) -> dict[int, Fraction]:
    """When in the count from 36 down to 0 a character acts, after penalty
    points come off the roll; results below 0 act at 0 (ruling turn-penalty)."""
    if penalty < 0:
        raise ValueError("a penalty cannot be negative")
    return combine(D6, D6, lambda x, y: max(0, x * y - penalty))


def at_least_table(penalty: int = 0) -> list[tuple[int, Fraction]]:
    """(N, chance to act at N or earlier) for every N a roll can reach, highest first."""
    dist = turn_order(penalty)
    return [(n, at_least(dist, n)) for n in sorted(dist, reverse=True)]


def chance_first(penalty_a: int, penalty_b: int) -> Fraction:
    """Chance that A's count is strictly higher than B's (both rolling a die times a die)."""
    return combine(turn_order(penalty_a), turn_order(penalty_b), lambda a, b: a > b).get(True, Fraction(0))


def level_of(key: str) -> int:
    """A damage level's number from its key in the data ('graze' is 1, 'kill' 6)."""
    return LEVEL_KEYS.index(key) + 1


def weapon_attack(weapon: Weapon, band: str, success_levels: int, aimed_turns: int = 0) -> int | None:
    """A weapon's damage on one target at a range band, or None where it cannot
    attack (unusable there, or beyond its category's reach: a stone thrown at
    Shoot range, a fist at View; ruling weapon-ranges)."""
    key = weapon.damage_at(band)
    return None if key is None else attack_level(level_of(key), success_levels, aimed_turns)


def taser_hit(current: int, attack: int, defence: Defence, resisted: bool) -> int:
    """The taser: defences first; if a Kill or worse still gets through and the
    target passes a Brawn or Will roll, it lands as a Knockout (ruling taser)."""
    through = defended(attack, defence)
    if resisted and through >= KILL:
        through = KNOCKOUT
    return apply_damage(current, through)


def remote_fire_focus(observer_focus: int, attacker_focus: int) -> int:
    """Fire called in on a target at the Lost band (mortars, bombing): a
    trained forward observer who can see the target guides it, and the attack
    is rolled with whichever Focus is lower, the observer's or the attacker's
    (ruling remote-fire). Neither can carry the other: a fine gunner is
    wasted on a poor spotter, and a fine spotter on a poor gunner."""
    for who, focus in (("observer", observer_focus), ("attacker", attacker_focus)):
        if isinstance(focus, bool) or not isinstance(focus, int) or focus < 1:
            raise ValueError(f"the {who}'s Focus must be a whole number of at least 1, not {focus!r}")
    return min(observer_focus, attacker_focus)
