"""The registry of game systems. Core layer."""
from __future__ import annotations

from .base import System
from .i6 import SYSTEM as I6
from .sixes import SYSTEM as SIXES

SYSTEMS: tuple[System, ...] = (SIXES, I6)


def by_slug() -> dict[str, System]:
    return {system.slug: system for system in SYSTEMS}
