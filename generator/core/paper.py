"""The papers the PDFs are printed on.

Core layer: the standard library only. A paper is named on the command line,
in sixes.yaml and in the output's folder names (`a4`, `letter`); WeasyPrint
sets a page by its CSS keyword; card imposition and the check of a
handout's pages need its size in millimetres; a reader sees its label. All
of that is said here once, so no other module keeps a table of papers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal, get_args


@dataclass(frozen=True)
class Paper:
    """One paper, portrait. Frozen and compared by value, so it can key a
    dict and travel to a rendering process."""

    name: str           # on the command line, in sixes.yaml, in folder and file names
    label: str          # what a reader sees: on the site, in messages, on a pack's manifest
    width_mm: float
    height_mm: float
    css_size: str       # the @page size keyword WeasyPrint knows this size by (tests hold it to the mm)

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.width_mm, self.height_mm)

    @classmethod
    def parse(cls, value: str | Paper) -> Paper:
        """The paper a name stands for, in any case; a Paper stands for itself."""
        if isinstance(value, Paper):
            return value
        found = next((p for p in PAPERS if isinstance(value, str) and p.name == value.lower()), None)
        if found is None:
            raise ValueError(f"unknown paper {value!r}: use {_either(p.name for p in PAPERS)}")
        return found


A4 = Paper("a4", "A4", 210.0, 297.0, "A4")
LETTER = Paper("letter", "US Letter", 215.9, 279.4, "letter")
PAPERS = (A4, LETTER)

# On the command line and in sixes.yaml the choice is one paper or both.
BOTH = "both"
CHOICES = (*(p.name for p in PAPERS), BOTH)

# How much of a sheet an envelope's cover takes (`pack --covers`): a full
# page at the front of its envelope's file, or half a sheet in a file of
# covers two a sheet, cut apart (A5 on A4, half-letter on Letter).
CoverLayout = Literal["full", "half"]
COVER_LAYOUTS: tuple[CoverLayout, ...] = get_args(CoverLayout)


def papers_for(choice: str) -> tuple[Paper, ...]:
    """The papers a choice names: one paper's name, or `both` for every paper."""
    if isinstance(choice, str) and choice.lower() == BOTH:
        return PAPERS
    try:
        return (Paper.parse(choice),)
    except ValueError:
        raise ValueError(f"unknown paper {choice!r}: use {_either(CHOICES)}") from None


def _either(names: Iterable[str]) -> str:
    """'a, b or c'."""
    names = list(names)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
