"""The registry of game systems. Core layer."""
from __future__ import annotations

from .base import System
from .d6xd6 import SYSTEM as D6XD6
from .i6 import SYSTEM as I6
from .six_shooter import SYSTEM as SIX_SHOOTER
from .sixes import SYSTEM as SIXES
from .sixes_system import SYSTEM as SIXES_SYSTEM

SYSTEMS: tuple[System, ...] = (SIXES, SIX_SHOOTER, D6XD6, I6, SIXES_SYSTEM)


def by_slug() -> dict[str, System]:
    return {system.slug: system for system in SYSTEMS}
