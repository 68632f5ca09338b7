"""Every name the data gives, measured where names print, so that a name
no page or card can hold is refused by `check` at its line, with its limit
in letters, before anything renders.

Edge layer, beside render/fit/bounded.py (which calls `unfit_names` from
fit_problems). The cards and sheets that measure their own text (a
challenge's heading, a D6xD6 level column, the Sixes actions card, labels,
stamps and covers: bounded.py, stacked.py, lookup_fit.py, labels.py,
cover_fit.py) blame a name first; this is the floor under all of them,
for the places no layout measures. A name heads a card (cards.css
`.card h2`, the size stacked.py measures) and titles a sheet (base.css
`h1`, as cover_fit.py reads it); it may take at most half of a card's room
there, or a quarter of the shorter page's. Which fields are names comes
from the models (core/text.kind_of: what check reads as a name), so a name
field added tomorrow is measured too. A one-word name of 2,000 letters
used to build a sheet of four pages with only a warning.
"""
from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from pydantic import BaseModel

from ...core.datafiles import display_path
from ...core.errors import Problem
from ...core.loading import Key, YamlDocument, load_yaml
from ...core.measure import PT_PER_MM, line_count
from ...core.paper import A4, LETTER
from ...core.text import kind_of
from .cover_fit import HEADING_LINE, PAGE_MARGINS
from .fit import card_room, card_width
from ..options import PrintOptions
from .stacked import H2_LINE, H2_PT

TITLE_PT = 20.0                 # base.css h1: a sheet's title
PAGE_BODY_MM = min(A4.height_mm, LETTER.height_mm) - PAGE_MARGINS[0] - PAGE_MARGINS[1]


@dataclass(frozen=True)
class NamePlace:
    """Where a name prints: how wide, at what size, and how many lines of it may be a name."""

    what: str
    width_mm: float
    pt: float
    lines: int


def name_places(options: PrintOptions) -> tuple[NamePlace, ...]:
    """The places every name may print, on the run's cards and the narrower paper."""
    heading = H2_PT * H2_LINE / PT_PER_MM
    title = TITLE_PT * HEADING_LINE / PT_PER_MM
    page_width = min(A4.width_mm, LETTER.width_mm) - 2 * PAGE_MARGINS[2]
    return (NamePlace(f"the heading of a {options.card_size} card", card_width(options), H2_PT,
                      int(card_room(options) / 2 // heading)),
            NamePlace("the title of a sheet", page_width, TITLE_PT, int(PAGE_BODY_MM / 4 // title)))


def name_fields(models: Iterable[type[BaseModel]]) -> frozenset[str]:
    """The keys the models (and the models inside them) read as a name."""
    found: set[str] = set()
    seen: set[type] = set()
    stack = list(models)
    while stack:
        model = stack.pop()
        if model in seen:
            continue
        seen.add(model)
        for key, field in model.model_fields.items():
            if kind_of(key, list(field.metadata)) == "name" and _holds_text(field.annotation):
                found.add(field.alias or key)
            stack.extend(_inner_models(field.annotation))
    return frozenset(found)


def _holds_text(annotation: Any) -> bool:
    """Whether a field holds free text (str), not one of fixed words (a Literal, an Enum)."""
    if annotation is str:
        return True
    if typing.get_origin(annotation) is typing.Literal:
        return False
    return any(_holds_text(arg) for arg in typing.get_args(annotation))


def _inner_models(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    elif typing.get_origin(annotation) is not None or isinstance(annotation, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from _inner_models(arg)


def unfit_names(item: Any, options: PrintOptions, blamed: set[tuple[str, int | None]]) -> list[Problem]:
    """Every name of a loaded game's files too long for a place names print,
    at its line; a name another measure has blamed at that line already is
    left to it."""
    fields = name_fields(item.system.schemas.values())
    places = name_places(options)
    root = item.game.folder.parent.parent
    problems = []
    for path in sorted(Path(item.game.folder).rglob("*.yaml")):
        doc, _found = load_yaml(path, display_path(path, root))
        if doc is None:
            continue
        for loc, name in _names_in(doc.data, fields):
            problem = _name_problem(doc, loc, name, places)
            if problem is not None and (problem.file, problem.line) not in blamed:
                problems.append(problem)
    return problems


def _names_in(data: Any, fields: frozenset[str]) -> Iterator[tuple[Key, str]]:
    """(where, text) of every value under a name key, walked with a stack."""
    stack: list[tuple[Key, Any]] = [((), data)]
    while stack:
        at, value = stack.pop()
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in fields and isinstance(inner, str):
                    yield (*at, key), inner
                else:
                    stack.append(((*at, key), inner))
        elif isinstance(value, list):
            stack.extend(((*at, i), inner) for i, inner in enumerate(value))


def _name_problem(doc: YamlDocument, loc: Key, name: str, places: tuple[NamePlace, ...]) -> Problem | None:
    """The problem of a name too long for the first place it does not fit, or None."""
    for place in places:
        lines = line_count(name, place.width_mm, place.pt, weight=700)
        if lines > place.lines:
            return doc.problem(
                loc, f"a name of {len(name)} letters is too long to print: it takes {lines} lines of {place.what} "
                     f"at {place.pt:g} pt, where a name may take {place.lines} (at most about "
                     f"{_letters_that_fit(name, place)} letters of this one)",
                hint="shorten it; what more there is to say belongs in a description")
    return None


def _letters_that_fit(name: str, place: NamePlace) -> int:
    """The longest start of `name`, in letters, that fits the place's lines."""
    low, high = 0, len(name)
    while low < high:
        middle = (low + high + 1) // 2
        if line_count(name[:middle], place.width_mm, place.pt, weight=700) <= place.lines:
            low = middle
        else:
            high = middle - 1
    return low
