"""What damage does to a character over time: unconsciousness with its
recovery checks, coma and critical condition (dying is in dying.py).

Core layer: standard library only. Each rule is a small pure function over
plain numbers, so a long worked example can be replayed step by step.
"""
from __future__ import annotations

from typing import Literal, Sequence

Condition = Literal["standing", "unconscious", "critical"]

# Critical condition: treatment slows the loss of purpose one step at a time,
# from one point a minute through one every 2, 3 ... 24 hours to none at all.
CRITICAL_STEPS = 24


def condition(stat: int, temporary: int = 0, enduring: int = 0) -> Condition:
    """Enduring damage alone taking a stat to 0 or below is critical; with the
    temporary damage added it knocks the character out."""
    if stat - enduring <= 0:
        return "critical"
    if stat - enduring - temporary <= 0:
        return "unconscious"
    return "standing"


def rounds_until_recovery(current: int) -> int:
    """An unconscious character first tries to recover one round later per
    point the stat is below zero; a stat at exactly 0 waits one round (ruling
    recovery-at-zero: the round of the blow is already spent)."""
    return max(1, -current)


def recovery_pool(highest_other_stat: int, reduced_stat: int, purpose: int) -> int:
    """Dice for a recovery attempt: half the highest remaining stat (rounded
    down, nothing if it is 0 or below) + the reduced stat + the purpose that
    fits. Zero or less is a coma (ruling recovery-half-stat)."""
    return max(0, highest_other_stat) // 2 + reduced_stat + purpose


def recovery_dice(stats: Sequence[int], reduced: int, purpose: int) -> int:
    """The recovery pool from a character's current stats: the half-stat is
    the highest of the *other* stats, never the one knocked out (ruling
    recovery-half-stat)."""
    others = [value for i, value in enumerate(stats) if i != reduced]
    if not others:
        raise ValueError("a recovery pool needs a stat besides the one knocked out")
    return recovery_pool(max(others), stats[reduced], purpose)


def in_coma(pool: int) -> bool:
    return pool <= 0


def recovery_sixes(pool: int, kept: int, new_sixes: int) -> int:
    """Sixes that count at a recovery check: those kept from the last check
    count as rolled sixes without a roll, and the rest of the pool is rolled.
    Each of them heals a point of temporary damage, and all of them are kept
    for the next check (ruling recovery-sixes)."""
    rolled = dice_to_roll(pool, kept)
    if not 0 <= new_sixes <= rolled:
        raise ValueError(f"{rolled} dice rolled cannot show {new_sixes} sixes")
    return min(pool, kept) + new_sixes


def dice_to_roll(pool: int, kept: int) -> int:
    """Dice actually thrown at a recovery check: the pool less the sixes kept."""
    if kept < 0:
        raise ValueError(f"kept sixes cannot be negative, found {kept}")
    return max(0, pool - kept)


def sixes_after_coma(stats: Sequence[int]) -> int:
    """Sixes an unconscious character keeps on leaving a coma: none. The coma
    ends only once every stat is positive; before that this is an error."""
    if not all(value > 0 for value in stats):
        raise ValueError(f"still in a coma: every stat must be above zero, found {list(stats)}")
    return 0


def groggy_rounds(d6: int) -> tuple[int, int]:
    """(rounds reorienting, rounds groggy in all) after waking: the first of
    the d6 groggy rounds is the round spent reorienting, and the rest of the
    temporary damage heals when they end (ruling waking)."""
    if not 1 <= d6 <= 6:
        raise ValueError(f"a d6 shows 1 to 6, found {d6}")
    return 1, d6


def coma_pool(stats: Sequence[int]) -> int:
    """In a coma, one die per stat still above zero; every die must be a six to heal a point."""
    return sum(1 for value in stats if value > 0)


def critical_loss_interval(step: int) -> tuple[int, str] | None:
    """How often a critical character loses a purpose point after `step`
    successful treatment steps: (1, 'minute'), (k + 1, 'hours'), or None (stable)."""
    if not 0 <= step <= CRITICAL_STEPS:
        raise ValueError(f"treatment steps run from 0 to {CRITICAL_STEPS}, found {step}")
    if step == 0:
        return (1, "minute")
    if step == CRITICAL_STEPS:
        return None
    return (step + 1, "hours")


def treat_critical(step: int, success: bool, extra_sixes: int = 0, natural_ones: int = 0,
                   critical_failure: bool = False) -> int:
    """One treatment roll: a success moves one step on, plus one per extra six;
    a failure moves one back (a critical failure one back per natural 1)."""
    if success:
        step += 1 + extra_sixes
    else:
        step -= natural_ones if critical_failure else 1
    return max(0, min(CRITICAL_STEPS, step))
