"""The registry of game systems. Core layer."""
from __future__ import annotations

from .base import System
from .sixes import SYSTEM as SIXES
from .sixes_system import SYSTEM as SIXES_SYSTEM

SYSTEMS: tuple[System, ...] = (SIXES, SIXES_SYSTEM)


def by_slug() -> dict[str, System]:
    return {system.slug: system for system in SYSTEMS}
