"""Envelope labels and name stamps: the player's name as large as its label
holds, so it is read across a table, and whether a name fits its label or
its stamp at all, from the shipped fonts' metrics (core/measure.py, as
render/fit/fit.py measures a card's text) and never from the renderer. Labels
and stamps are laid out to the millimetre, so a name that does not fit is
refused before the pack renders (commands/pack_fit.py name_problems), never
found by the print lint after it.

Edge layer. The boxes' numbers are declared once in render/fit/boxes.py,
which prints them as CSS for templates/pack/labels.html and stamp.html;
the words measured are the templates' (label_lines, stamp_text). The
stock's size comes from game/pack_plan.py's LabelStock.
"""
from __future__ import annotations

from typing import Sequence

from ...core.i18n import _, fill
from ...core.measure import FILL, PT_PER_MM, line_count, text_width
from ..options import PRINTER_EDGE
from .boxes import LABEL, LABEL_LINE, LABEL_NAME, STAMP

# Every number from the declarations (render/fit/boxes.py LABEL, LABEL_NAME,
# LABEL_LINE, STAMP), which also print the CSS.
# The name's sizes, largest first: a long name on a short label (US Letter's 1 inch) goes down to the floor.
NAME_STEPS = LABEL_NAME.steps
NAME_LINE_HEIGHT = LABEL_NAME.line_height or 1.0
NAME_WEIGHT = LABEL_NAME.weight or 400
# The two lines under the name (envelope number, game).
LINES, LINE_PT, LINE_HEIGHT = 2, LABEL_LINE.pt, LABEL_LINE.line_height or 1.0
PAD_X, PAD_Y = LABEL.padding.mm("left"), LABEL.padding.mm("top")
GAP = LABEL_NAME.margin.mm("bottom")
# Room kept for what the model leaves out (rounding, a kerning pair), mm.
SAFETY = 1.5
# A name stamp: one line, set its `right` from the sheet's right edge, and
# kept off the outer 3 mm of the sheet, which a printer cannot reach.
STAMP_PT, STAMP_RIGHT = STAMP.pt, STAMP.place.mm("right")


def label_lines(number: int, count: int, title: str) -> list[str]:
    """The two lines under the name, as labels.html prints them."""
    return [fill(_("Envelope %(number)s of %(count)s"), number=number, count=count), title]


def title_lines(title: str, width_mm: float) -> int:
    """Lines the game's title takes under the name on a label `width_mm` wide."""
    return max(1, line_count(title, width_mm - 2 * PAD_X, LINE_PT))


def one_line(text: str, width_mm: float) -> int:
    """How many of `text`'s first characters fit one line under a label's name
    (a longer start is never narrower, so the count is searched by halves:
    a title of thousands of letters is measured a dozen times, not once a letter)."""
    room = (width_mm - 2 * PAD_X) * FILL
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if text_width(text[:middle], LINE_PT) <= room else (low, middle - 1)
    return low


def name_room(width_mm: float, height_mm: float, under: Sequence[str] = ()) -> tuple[float, float]:
    """The width and height (mm) a label of that size leaves its name, above
    the lines `under` it (each a line when not given)."""
    width = width_mm - LABEL.padding.mm("left") - LABEL.padding.mm("right")
    lines = sum(max(1, line_count(line, width, LINE_PT)) for line in under) if under else LINES
    padding = LABEL.padding.mm("top") + LABEL.padding.mm("bottom")
    return width, height_mm - padding - lines * LINE_PT * LINE_HEIGHT / PT_PER_MM - GAP - SAFETY


def name_pt(name: str, width_mm: float, height_mm: float, under: Sequence[str] = ()) -> float:
    """The largest step at which `name` fits a label `width_mm` by
    `height_mm`: every word whole on its line, breaking only at spaces
    and after hyphens as the browser does and its lines within the height left
    by the lines under it. A name that fits at no step prints at the floor
    (only a pack that skipped `label_fits` gets there)."""
    width, height = name_room(width_mm, height_mm, under)
    pieces = _pieces(name)
    for size in NAME_STEPS:
        if any(text_width(word, size, weight=NAME_WEIGHT) > width * FILL for word in pieces.split()):
            continue
        if _name_height(pieces, width, size) <= height:
            return size
    return NAME_STEPS[-1]


def label_fits(name: str, width_mm: float, height_mm: float, under: Sequence[str] = ()) -> bool:
    """Whether `name` fits its label at the floor at least, a word too long
    for the line broken anywhere (.label-name: overflow-wrap: anywhere)."""
    width, height = name_room(width_mm, height_mm, under)
    return _name_height(_pieces(name), width, NAME_STEPS[-1]) <= height


def _pieces(name: str) -> str:
    return name.replace("-", "- ")     # a line may also break after a hyphen (the space errs wide)


def _name_height(pieces: str, width: float, size: float) -> float:
    return line_count(pieces, width, size, weight=NAME_WEIGHT) * size * NAME_LINE_HEIGHT / PT_PER_MM


def stamp_text(player: str, number: int) -> str:
    """A name stamp's line, as stamp.html prints it."""
    return fill(_("%(player)s · envelope %(number)s"), player=player, number=number)


def stamp_room(paper_width_mm: float) -> float:
    """The width (mm) a stamp's line may take on a sheet that wide: it ends
    12 mm from the right edge and may not start in the outer 3 mm."""
    return paper_width_mm - STAMP_RIGHT - PRINTER_EDGE - SAFETY


def stamp_width(player: str, number: int) -> float:
    """The width (mm) of an envelope's name stamp (never wrapped: white-space: nowrap)."""
    return text_width(stamp_text(player, number), STAMP_PT) / FILL
