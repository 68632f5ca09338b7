"""Who fights whom in a simulation: named fighters or a sides file.

Core layer: reads the sides file through `loading`, validates it, and
checks every name against the cast, reporting all problems at once with
file:line:column and a did-you-mean.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Sequence

from pydantic import Field, StringConstraints

from ...core.errors import Problem, did_you_mean
from ...core.loading import load_yaml
from ...core.validation import DataModel, validate
from .dataset import SixesGame
from .models import Character
from .simulate import Side, sides_by_faction

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class SidesFile(DataModel):
    """A sides file: each side's name and the characters on it."""

    sides: dict[Name, Annotated[list[Name], Field(min_length=1)]] = Field(
        min_length=2, description="Side name -> character names, e.g. {Carrows: [Ned Tregarth]}.")


def pick_fighters(game: SixesGame, names: Sequence[str] | None) -> tuple[list[Side], list[Problem]]:
    """The named characters (all of the cast when None), sided by faction."""
    cast = {m.character.name: m.character for m in game.cast}
    if names is None:
        return sides_by_faction(list(cast.values())), []
    problems: list[Problem] = []
    chosen: list[Character] = []
    for name in names:
        if name in cast and any(c.name == name for c in chosen):
            # One fighter on two sides would attack themself (an illegal declaration).
            problems.append(Problem("--fighters", None, None, f"'{name}' is named twice",
                                    hint="each character fights once"))
        elif name in cast:
            chosen.append(cast[name])
        else:
            problems.append(Problem("--fighters", None, None, f"unknown character '{name}'",
                                    hint=did_you_mean(name, cast) or "names are as in the character files"))
    if not problems and len(chosen) < 2:
        problems.append(Problem("--fighters", None, None, "a fight needs at least two fighters"))
    return sides_by_faction(chosen), problems


def load_sides(path: Path, game: SixesGame) -> tuple[list[Side], list[Problem]]:
    doc, problems = load_yaml(path, str(path))
    if doc is None:
        return [], problems
    model, found = validate(SidesFile, doc)
    problems += found
    if model is None:
        return [], problems
    cast: dict[str, Character] = {m.character.name: m.character for m in game.cast}
    seen: dict[str, str] = {}
    sides = []
    for side, names in model.sides.items():
        members = []
        for i, name in enumerate(names):
            if name not in cast:
                problems.append(doc.problem(("sides", side, i), f"unknown character '{name}'",
                                            hint=did_you_mean(name, cast) or "names are as in the character files"))
            elif name in seen:
                problems.append(doc.problem(("sides", side, i), f"'{name}' is already on side '{seen[name]}'"))
            else:
                seen[name] = side
                members.append(cast[name])
        sides.append(Side(side, tuple(members)))
    return sides, problems
