"""Envelope labels: the player's name as large as its label holds, so it is
read across a table, from the shipped fonts' metrics (core/measure.py, as
render/fit.py measures a card's text) and never from the renderer.

Edge layer. Mirrors templates/pack/labels.html and the label rules of
templates/pack/pack.css (.label padding, .label-name, .label-line): change
them together. The stock's size comes from commands/pack.py's LabelStock.
"""
from __future__ import annotations

from ..core.measure import FILL, PT_PER_MM, line_count, text_width

# The name's sizes, largest first: 12 pt was the one size it had before; a
# long name on a short label (US Letter's 1 inch) goes down to the floor.
NAME_STEPS = (32.0, 28.0, 26.0, 24.0, 22.0, 20.0, 18.0, 16.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0)
NAME_LINE_HEIGHT = 1.15         # .label-name
NAME_WEIGHT = 700
# The two lines under the name (envelope number, game): 9 pt, 1.25 high.
LINES, LINE_PT, LINE_HEIGHT = 2, 9.0, 1.25
PAD_X, PAD_Y = 4.0, 2.5         # .label padding, mm
GAP = 0.8                       # .label-name margin-bottom, mm
# Room kept for what the model leaves out (rounding, a kerning pair), mm.
SAFETY = 1.5


def name_room(width_mm: float, height_mm: float) -> tuple[float, float]:
    """The width and height (mm) a label of that size leaves its name."""
    lines = LINES * LINE_PT * LINE_HEIGHT / PT_PER_MM
    return width_mm - 2 * PAD_X, height_mm - 2 * PAD_Y - lines - GAP - SAFETY


def name_pt(name: str, width_mm: float, height_mm: float) -> float:
    """The largest step at which `name` fits a label `width_mm` by
    `height_mm`: every word whole on its line, breaking only at spaces
    and after hyphens as the browser does and its lines within the height left
    by the two lines under it."""
    width, height = name_room(width_mm, height_mm)
    pieces = name.replace("-", "- ")     # a line may also break after a hyphen (the space errs wide)
    for size in NAME_STEPS:
        if any(text_width(word, size, weight=NAME_WEIGHT) > width * FILL for word in pieces.split()):
            continue
        lines = line_count(pieces, width, size, weight=NAME_WEIGHT)
        if lines * size * NAME_LINE_HEIGHT / PT_PER_MM <= height:
            return size
    return NAME_STEPS[-1]
