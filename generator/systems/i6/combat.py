"""I6 combat arithmetic: ticks, damage, wounds and healing. Core layer.

Each function follows one sentence of the rules (or a ruling in
rulings.yaml, named where it applies).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from ...core.i18n import N_
from .odds import hits_below, hits_exactly, success

MAX_TN = 5
FREE_MOVE_YARDS = 5
DEFEND_SPD = 5
FINISH_OFF_SPD = 4
STABILISE_SPD = 5
STABILISE_SCALE = 1
GRITTY_TICKS_PER_BRAWN = 5
NATURAL_HEALING = (      # messages (core/i18n.py): the templates translate them where they print, with
                         # %(brawn)s the game's word for the trait
    N_("All wounds come back whenever the GM says so."),
    N_("Every eight hours of rest brings back as many wound boxes as your %(brawn)s."),
    N_("Every week brings back as many wound boxes as your %(brawn)s."),
)


def first_ticks(rolls: Mapping[str, int]) -> dict[str, int]:
    """Initiative: each total is d6 + Awareness. The best total acts on tick 0;
    everyone else waits the difference (ruling `first-tick`)."""
    best = max(rolls.values())
    return {name: best - total for name, total in rolls.items()}


def action_ticks(start: int, speeds: Sequence[int]) -> list[int]:
    """The ticks a combatant acts on: `start`, then after each action's SPD."""
    ticks, tick = [], start
    for spd in speeds:
        ticks.append(tick)
        tick += spd
    ticks.append(tick)
    return ticks


def unarmed_spd(brawl: int) -> int:
    """An unarmed attack waits six ticks minus the Brawl rating."""
    return 6 - brawl


def move_scale(yards: int) -> int:
    """Scale added by moving: none up to five yards, then one per further five
    (ruling `move-scale`: 6-10 yards add one, 11-15 add two)."""
    if yards <= FREE_MOVE_YARDS:
        return 0
    return (yards - 1) // FREE_MOVE_YARDS


def defended(value: int) -> int:
    """Defend doubles a defence; a TN above 5 could never be hit, so it stops
    at 5 (ruling `defend-cap`)."""
    return min(2 * value, MAX_TN)


def damage_rating(weapon_damage: int, target_brawn: int) -> int:
    """Weapon damage less the target's Brawn (ruling `whose-brawn`), at least 1."""
    return max(weapon_damage - target_brawn, 1)


def counted_hits(hits: int, scale: int) -> int:
    """The hits that met the Scale count as one; each hit beyond counts fully.
    Zero when the roll missed."""
    return 0 if hits < scale else 1 + hits - scale


def damage(hits: int, scale: int, rating: int) -> int:
    return counted_hits(hits, scale) * rating


def wound_scale(boxes: int, marked: int) -> int:
    """Scale raised by one once fewer than half the boxes are left unmarked,
    against the exact half: with 7 boxes, from 3 left (rulings
    `wound-penalty-raises` and `wound-penalty-half`)."""
    return 1 if 2 * (boxes - marked) < boxes else 0


def incapacitated(boxes: int, marked: int) -> bool:
    return marked >= boxes


def healing_tn(brawn: int) -> int:
    """The medical roll's TN: six minus the patient's Brawn (1 to 5)."""
    return 6 - brawn


def gritty_death_ticks(brawn: int) -> int:
    """Optional rule: an incapacitated hero dies after Brawn x 5 ticks."""
    return brawn * GRITTY_TICKS_PER_BRAWN


def stabilise_tn(patient_brawn: int) -> int:
    """The gritty rule's medical roll has the healing roll's TN, six minus the
    patient's Brawn (ruling `stabilise-roll`)."""
    return healing_tn(patient_brawn)


def stabilised(hits: int, scale: int = STABILISE_SCALE) -> bool:
    """The fallen hero is saved from dying when the roll meets its Scale (1,
    plus the healer's own penalties); the hits heal no boxes (ruling
    `stabilise-roll`)."""
    return hits >= scale


@dataclass(frozen=True)
class AttackOdds:
    miss: Fraction
    boxes: tuple[tuple[int, Fraction], ...]   # (boxes marked, chance), smallest first
    more: Fraction                            # chance of more boxes than the last listed


def attack_odds(dice: int, tn: int, scale: int, rating: int, listed: int = 4) -> AttackOdds:
    """Wound boxes one attack marks: a miss, then 1..listed counted hits, then the rest."""
    rows = tuple((k * rating, hits_exactly(dice, tn, scale + k - 1)) for k in range(1, listed + 1))
    return AttackOdds(hits_below(dice, tn, scale), rows, success(dice, tn, scale + listed))
