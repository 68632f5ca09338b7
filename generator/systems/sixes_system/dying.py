"""Dying: the survival checks every ten seconds, and the paramedic's
resuscitation rolls that interrupt them.

Core layer: standard library and the attack rules only. Each rule is a small
pure function over plain numbers, so the source's long worked example can be
replayed step by step. Purposes are always in the order attack, explain,
defend, analyze.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from .rules import virtual_sixes

Purposes = tuple[int, ...]

SURVIVAL_CHECK_SECONDS = 10
RESUSCITATION_SECONDS = 30


def is_dying(purposes: Purposes) -> bool:
    """A purpose reduced to zero or less starts the dying (ruling dying-threshold)."""
    return any(p <= 0 for p in purposes)


def out_of_danger(purposes: Purposes) -> bool:
    """Once dying, the character stops dying when no purpose is below zero:
    the worked example ends, saved, at 0, 0, 0, 0 (ruling dying-threshold)."""
    return all(p >= 0 for p in purposes)


def survival_pool(strength: int, self_defined: int | None = None, traits: int = 0,
                  disadvantages: int = 0) -> int:
    """Dice of a survival check: Strength, or a self-defined stat the GM
    accepts for it if the player prefers it, plus trait dice and less
    disadvantage dice. Skills and purposes never count. Never below zero."""
    stat = strength if self_defined is None else max(strength, self_defined)
    return max(0, stat + traits - disadvantages)


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
    for value, given in zip(purposes, allocation, strict=True):
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
    """One ten-second step of dying: after the decline, the check and its
    sixes; `skipped` when a paramedic's success stopped both."""

    seconds: int
    declined: Purposes
    required: int
    rolled: int
    after: Purposes
    dead: bool
    skipped: bool = False


def survival_tick(seconds: int, purposes: Purposes, dice: int, allocation: Sequence[int],
                  stopped: bool = False) -> Tick:
    """Decline, check, spend the sixes rolled (`allocation`), then see whether
    the character can still survive the next decline. When a paramedic's
    successful roll has `stopped` this check, nothing declines and nothing is
    rolled (ruling paramedic-stops-a-check)."""
    if stopped:
        if any(allocation):
            raise ValueError("a check the paramedic stopped is not rolled, so it gives no sixes")
        return Tick(seconds, purposes, 0, 0, purposes, False, skipped=True)
    declined = decline(purposes)
    after = apply_sixes(declined, allocation)
    return Tick(seconds, declined, sixes_required(declined), sum(allocation), after,
                not out_of_danger(after) and beyond_saving(after, dice))


def resuscitation_sixes(total: int, target: Fraction, a: Fraction) -> int | None:
    """Extra sixes of a paramedic's (or surgeon's) resuscitation roll, virtual
    ones included, or None when the roll misses its target."""
    return virtual_sixes(total - target, a) if total >= target else None


def stops_next_check(extra_sixes: int | None) -> bool:
    """A resuscitation roll that reaches its target stops the next survival
    check, even with no six over the minimum; a miss does not (ruling
    paramedic-stops-a-check)."""
    return extra_sixes is not None
