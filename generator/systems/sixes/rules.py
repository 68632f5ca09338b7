"""Sixes rules as pure functions: the numbers every printable and page shows.

Core layer: imports only the standard library, this package's models and core/i18n (its words).
Nothing here reads files or knows about HTML; values are plain, immutable
and exact (whole numbers, or None for "never").
"""
from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Iterable, Mapping

from ...core.i18n import N_, _
from .models import CONDITION_WORDS, Character, Special

# Each combatant has six action points a round, split between Speed and Effect.
ACTION_POINTS = 6
# Neither Speed nor Effect may be 0, so each gets at least one point.
MIN_POINTS = 1
# Speed slots are called from the fastest (5) down to the slowest (1).
SPEEDS: tuple[int, ...] = tuple(range(ACTION_POINTS - MIN_POINTS, MIN_POINTS - 1, -1))
# Within each slot, these phases run in this order.
PHASES: tuple[str, ...] = ("activation", "action", "status", "escape")
# A Rattled character may act no faster than this.
RATTLED_MAX_SPEED = 1
# Recover always restores this many hit points, whatever its Effect.
RECOVER_HIT_POINTS = 1


def effect_for_speed(speed: int) -> int:
    """Effect is whatever the six points leave after Speed."""
    if type(speed) is not int or speed not in SPEEDS:
        raise ValueError(f"Speed must be a whole number from 1 to 5, got {speed!r}")
    return ACTION_POINTS - speed


@dataclass(frozen=True)
class Status:
    """A status, what it means, and what it stops the character doing."""

    name: str
    meaning: str
    limits: str


# Our summary of the source's Statuses section; cards and pages print these
# (messages: the templates translate them).
STATUSES: tuple[Status, ...] = (
    Status(N_("Rattled"), N_("Shaken but conscious. Comes at 0 hit points, or from some specials."),
           N_("Ongoing actions stop. Only Escape or Recover, at Speed 1. "
              "Ends on regaining a hit point or on Recover.")),
    Status(N_("Unconscious"), N_("Out cold, after a knock-out blow."),
           N_("No actions for the rest of the fight. Ends when healed.")),
    Status(N_("Dead"), N_("Killed by a killing blow."),
           N_("Out of the game.")),
)


@dataclass(frozen=True)
class ConditionalBonus:
    """Extra Effect on one action that counts only while a condition holds
    (a special with `adds_effect` and `when`): `when` is a key of
    models.CONDITIONS, `words` how a sheet prints it ("beside an ally")."""

    action: str
    amount: int
    when: str

    @property
    def words(self) -> str:
        return _(CONDITION_WORDS[self.when])

    def __str__(self) -> str:
        return f"+{self.amount} {self.words}"


@dataclass(frozen=True)
class SlotRow:
    """What one character's actions are worth when declared at one Speed.
    The numbers count only the bonuses that are always on; `conditional`
    holds those that apply only sometimes, for printing beside them."""

    speed: int
    effect: int
    attack: int
    defend_other: int
    defend_self: int
    recover_hit_points: int
    special: int
    conditional: tuple[ConditionalBonus, ...] = ()

    def extras(self, action: str) -> tuple[ConditionalBonus, ...]:
        """The conditional bonuses on one action, e.g. for "4 (+1 beside an ally)"."""
        return tuple(b for b in self.conditional if b.action == action)


def effect_bonuses(character: Character, library: Mapping[str, Special]) -> dict[str, int]:
    """Always-on Effect bonuses from the character's specials, per action
    (bonuses with a `when` are in conditional_bonuses instead)."""
    bonus: dict[str, int] = {}
    for name in character.specials:
        special = library[name]
        if special.when is None:
            for action, amount in special.adds_effect.items():
                bonus[action] = bonus.get(action, 0) + amount
    return bonus


def conditional_bonuses(character: Character, library: Mapping[str, Special]) -> tuple[ConditionalBonus, ...]:
    """Effect bonuses that count only while their condition holds, added up
    per action and condition, in the order the specials are held."""
    found: dict[tuple[str, str], int] = {}
    for name in character.specials:
        special = library[name]
        if special.when is not None:
            for action, amount in special.adds_effect.items():
                found[action, special.when] = found.get((action, special.when), 0) + amount
    return tuple(ConditionalBonus(action, amount, when) for (action, when), amount in found.items())


def slot_table(character: Character, library: Mapping[str, Special]) -> list[SlotRow]:
    """The character's speed-slot quick reference, fastest slot first.

    Attack adds the character's damage to Effect; Recover restores one hit
    point at any Speed, so no bonus applies to it; specials with `adds_effect`
    raise their action, always, or (with `when`) only while their condition
    holds: those are kept apart so a sheet never prints them as always on.
    """
    bonus = effect_bonuses(character, library)
    conditional = conditional_bonuses(character, library)
    rows = []
    for speed in SPEEDS:
        effect = effect_for_speed(speed)
        rows.append(SlotRow(
            speed=speed,
            effect=effect,
            attack=effect + character.damage + bonus.get("attack", 0),
            defend_other=effect + bonus.get("defend_other", 0),
            defend_self=effect + bonus.get("defend_self", 0),
            recover_hit_points=RECOVER_HIT_POINTS,
            special=effect + bonus.get("special", 0),
            conditional=conditional,
        ))
    return rows


def damage_taken(effect: int, armour: int) -> int:
    """Armour is a flat reduction; damage never goes below zero."""
    return max(0, effect - armour)


def hits_to_rattle(effect: int, armour: int, hit_points: int) -> int | None:
    """Unanswered attacks of this Effect needed to bring a defender to 0 hit
    points (and so Rattle them); None when armour absorbs every point."""
    if hit_points <= 0:
        return 0
    per_hit = damage_taken(effect, armour)
    if per_hit == 0:
        return None
    return ceil(hit_points / per_hit)


@dataclass(frozen=True)
class HitsToRattleTable:
    """hits[armour][hit_points][effect] -> attacks needed, or None for never."""

    effects: tuple[int, ...]
    armours: tuple[int, ...]
    hit_points: tuple[int, ...]
    hits: Mapping[int, Mapping[int, Mapping[int, int | None]]]


def hits_to_rattle_table(effects: Iterable[int] = range(1, 8),
                         armours: Iterable[int] = range(0, 4),
                         hit_points: Iterable[int] = range(1, 11)) -> HitsToRattleTable:
    """The GM's table: attacker Effect (Speed's Effect plus damage) against
    defender armour and hit points; by default Effect 1-7, armour 0-3, 1-10 HP."""
    effects, armours, hit_points = tuple(effects), tuple(armours), tuple(hit_points)
    hits = {a: {hp: {e: hits_to_rattle(e, a, hp) for e in effects} for hp in hit_points}
            for a in armours}
    return HitsToRattleTable(effects, armours, hit_points, hits)
