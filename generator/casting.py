"""The casting file: which player gets which character, in envelope order.

Core layer: reads YAML through `loading` and validates with a model, so a
mistake is reported at file:line:column with a did-you-mean, like any data.

    # casting.yaml
    envelopes:
      - player: Alex Morgan
        character: Ned Tregarth          # the character's name or its file name
        handouts: [handouts/map.pdf]     # optional PDFs, relative to this file
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from pydantic import Field

from . import naming
from .assets import asset_fault
from .errors import Problem, did_you_mean
from .loading import load_yaml
from .validation import DataModel, validate


class Role(DataModel):
    player: str = Field(min_length=1, description="The player's name, as written on the envelope.")
    character: str = Field(min_length=1, description="A character's name, or its file name without .yaml.")
    handouts: list[str] = Field(default_factory=list, description="PDF files for this envelope, relative to the casting file.")


class CastingFile(DataModel):
    envelopes: list[Role] = Field(min_length=1, description="One entry per envelope, in the order to stuff them.")


@dataclass(frozen=True)
class Casting:
    player: str
    slug: str                      # the character's document slug
    handouts: tuple[Path, ...]


def load_casting(path: Path, characters: Mapping[str, str], roots: tuple[Path, ...]
                 ) -> tuple[list[Casting], list[Problem]]:
    """`characters` maps each character's name to its document slug. A role
    names its character by name (any case or punctuation: naming.slug);
    a character's file name is accepted only where no character has that
    name, with a warning, since a file name can look like another's name.
    Handouts must be PDF files inside one of `roots`."""
    doc, problems = load_yaml(path, str(path))
    if doc is None:
        return [], problems
    model, found = validate(CastingFile, doc)
    problems.extend(found)
    if model is None:
        return [], problems
    result, seen = [], {}
    by_name = {naming.slug(name): (name, slug) for name, slug in characters.items()}
    by_file = {slug: name for name, slug in characters.items()}
    for i, role in enumerate(model.envelopes):
        where = ("envelopes", i, "character")
        key = naming.slug(role.character)
        if key in by_name:
            name, slug = by_name[key]
        elif key in by_file:
            name, slug = by_file[key], key
            problems.append(doc.problem(where, f"'{role.character}' is a file name, not a character's name; "
                                        f"taken as {name}", hint=f"write `character: {name}`",
                                        severity="warning"))
        else:
            problems.append(doc.problem(where, f"no character called '{role.character}'",
                                        hint=did_you_mean(role.character, list(characters)) or
                                        "use a character's name as written in its file"))
            continue
        if slug in seen:
            problems.append(doc.problem(where, f"'{role.character}' is already cast (to {seen[slug]})",
                                        hint="each character goes in one envelope"))
            continue
        seen[slug] = role.player
        handouts = []
        for j, name in enumerate(role.handouts):
            target = (path.parent / name).resolve()
            if target.suffix.lower() != ".pdf" or not target.is_file():
                problems.append(doc.problem(("envelopes", i, "handouts", j), f"found '{name}', which is not a PDF file",
                                            hint=f"handouts are PDF files next to {path.name} or inside the data folder"))
            elif not any(target.is_relative_to(root.resolve()) for root in roots):
                problems.append(doc.problem(("envelopes", i, "handouts", j), f"'{name}' is outside the game's folders",
                                            hint="copy the handout into the data folder"))
            elif (fault := asset_fault(target, name)) is not None:
                problems.append(doc.problem(("envelopes", i, "handouts", j), fault.message, hint=fault.hint))
            else:
                handouts.append(target)
        result.append(Casting(role.player, slug, tuple(handouts)))
    return result, problems
