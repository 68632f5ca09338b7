"""The registry of game systems. Imports core/ only (and each system its own package).

Each system's package is imported when first asked for, so a build of one
game's data does not pay for importing the other four (about 0.15 s of every
command). `SYSTEMS`, every system in listing order, imports them all.
"""
from __future__ import annotations

from importlib import import_module

from .base import System

# Data sub-folder name -> package, in the order the site and help list them.
PACKAGES = {"sixes": "sixes", "six-shooter": "six_shooter", "d6xd6": "d6xd6", "i6": "i6",
            "sixes-system": "sixes_system"}
SLUGS: tuple[str, ...] = tuple(PACKAGES)


def system(slug: str) -> System:
    return import_module(f"{__name__}.{PACKAGES[slug]}").SYSTEM


def __getattr__(name: str) -> tuple[System, ...]:
    if name == "SYSTEMS":
        return tuple(system(slug) for slug in SLUGS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def by_slug() -> dict[str, System]:
    return {slug: system(slug) for slug in SLUGS}
