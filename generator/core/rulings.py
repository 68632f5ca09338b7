"""Rulings: decisions taken where a rules source is silent or ambiguous.

Core layer. Rulings are data: each system ships a rulings.yaml beside the code
that follows it, and the site publishes them. Each one records what the
source says, the options considered, the decision and the reason.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import Field

from .errors import Problem
from .loading import load_yaml, reading_game
from .validation import DataModel, validate


class Ruling(DataModel):
    id: str = Field(pattern=r"^[a-z0-9-]+$", description="Stable anchor for links, e.g. 'heal-usage'.")
    topic: str
    source_says: str
    options: list[str] = Field(min_length=2)
    decision: str
    why: str


class RulingsFile(DataModel):
    rulings: list[Ruling]


def load_rulings(path: Path) -> tuple[tuple[Ruling, ...], list[Problem]]:
    """A system's rulings: the tool's own file, read (while a game is read
    too) inside its own folder, never the game's."""
    with reading_game(path.parent):
        doc, problems = load_yaml(path, display=path.name)
    if doc is None:
        return (), problems
    model, more = validate(RulingsFile, doc)
    return (tuple(model.rulings) if model else ()), problems + more
