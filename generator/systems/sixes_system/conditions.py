"""What damage does to a character over time: unconsciousness, coma,
critical condition, and dying with its survival checks and resuscitation.

Core layer: standard library only. Each rule is a small pure function over
plain numbers, so a long worked example can be replayed step by step.
Purposes are always in the order attack, explain, defend, analyze.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

Condition = Literal["standing", "unconscious", "critical"]
Purposes = tuple[int, ...]

# Critical condition: treatment slows the loss of purpose one step at a time,
# from one point a minute through one every 2, 3 ... 24 hours to none at all.
CRITICAL_STEPS = 24
SURVIVAL_CHECK_SECONDS = 10
RESUSCITATION_SECONDS = 30


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
    point the stat is below zero (at least one round)."""
    return max(1, -current)


def recovery_pool(highest_other_stat: int, reduced_stat: int, purpose: int) -> int:
    """Dice for a recovery attempt: half the highest remaining stat (rounded
    down) + the reduced stat + the purpose that fits. Zero or less is a coma."""
    return highest_other_stat // 2 + reduced_stat + purpose


def in_coma(pool: int) -> bool:
    return pool <= 0


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


# Dying -------------------------------------------------------------------

def is_dying(purposes: Purposes) -> bool:
    """Dying while any purpose is below zero (it began when one reached 0 or less)."""
    return any(p < 0 for p in purposes)


def decline(purposes: Purposes) -> Purposes:
    """Every ten seconds all four purposes fall by one."""
    return tuple(p - 1 for p in purposes)


def sixes_required(purposes: Purposes) -> int:
    """A survival check needs one natural six per point of purpose below zero."""
    return sum(-p for p in purposes if p < 0)


def apply_sixes(purposes: Purposes, allocation: Sequence[int]) -> Purposes:
    """Raise purposes by the sixes given to each (allocation in purpose order);
    sixes only lift a purpose that is below zero, and never above zero."""
    if len(allocation) != len(purposes) or any(n < 0 for n in allocation):
        raise ValueError("give a non-negative number of sixes for each purpose")
    raised = []
    for value, given in zip(purposes, allocation):
        if given and value + given > 0:
            raise ValueError(f"{given} sixes would lift a purpose of {value} above zero")
        raised.append(value + given)
    return tuple(raised)


def beyond_saving(purposes: Purposes, dice: int) -> bool:
    """Dead for good when the next decline would need more sixes than the
    survival pool has dice."""
    return sixes_required(decline(purposes)) > dice


@dataclass(frozen=True)
class Tick:
    """One ten-second step of dying: after the decline, the check and its sixes."""

    seconds: int
    declined: Purposes
    required: int
    rolled: int
    after: Purposes
    dead: bool


def survival_tick(seconds: int, purposes: Purposes, dice: int, allocation: Sequence[int]) -> Tick:
    """Decline, check, spend the sixes rolled (`allocation`), then see whether
    the character can still survive the next decline."""
    declined = decline(purposes)
    after = apply_sixes(declined, allocation)
    return Tick(seconds, declined, sixes_required(declined), sum(allocation), after,
                is_dying(after) and beyond_saving(after, dice))
