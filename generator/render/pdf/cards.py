"""Card sheets: every system's cards laid out N-up at a real card size.

Systems describe cards (`Card`: a face template, an optional back template
and their values); this module renders each face, then imposes the faces on
pages: a grid centred on the page (so one HTML fits both A4 and US Letter),
with cut marks outside the cards in line with every trim edge. Without bleed,
card edges touch and one cut serves two neighbours; with bleed each card is
surrounded by its own bleed and two cuts are needed between cards.

With backs, each page of fronts is followed by a page of backs whose columns
are mirrored, so that on a long-edge duplex printer each back lands behind its
front; the whole back page (cards and marks) moves by the measured printer
offset. A deck's own stylesheet, if any, is named by the document context's
`card_css` (a path under templates/).

All positions are computed here in millimetres; the template only writes them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup

from ...core.i18n import _
from ...core.paper import PAPERS
from ...systems.base import CARD_SHEET, Card, Document
from ..html import environment
from ..fit.bounded import card_faces
from ..options import CARD_SIZES, DEFAULT_OPTIONS, PRINTER_EDGE, PrintOptions

DEFAULT_BACK = "cards/back.html"
CALIBRATION = "cards/calibration.html"
# The area every paper has in common, portrait (A4's width and US Letter's height).
COMMON_PAGE = (min(p.width_mm for p in PAPERS), min(p.height_mm for p in PAPERS))
MARK_GAP = 1.0       # between the card (or its bleed) and the start of a cut mark
MIN_MARK, MAX_MARK = 2.0, 5.0


@dataclass(frozen=True)
class Grid:
    """The imposition of one card size: all lengths in mm, relative to the
    grid's top-left corner (the outer edge of the first card's bleed)."""

    card_w: float
    card_h: float
    bleed: float
    columns: int
    rows: int
    landscape: bool
    mark_length: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def cell_w(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def width(self) -> float:
        return self.columns * self.cell_w

    @property
    def height(self) -> float:
        return self.rows * self.cell_h

    def trim_origin(self, index: int, mirrored: bool = False) -> tuple[float, float]:
        """Top-left of the trim box of the index-th card on a page; a mirrored
        page (backs) reverses the columns."""
        column, row = index % self.columns, index // self.columns
        if mirrored:
            column = self.columns - 1 - column
        return column * self.cell_w + self.bleed, row * self.cell_h + self.bleed

    def cuts(self, count: int, cell: float, card: float) -> list[float]:
        edges = {round(i * cell + self.bleed + d, 4) for i in range(count) for d in (0.0, card)}
        return sorted(edges)

    def sheet_cuts(self, cards: int) -> int:
        """Straight cuts along the marks for a sheet holding `cards`: one down
        each vertical line of the columns used, then (the strips stacked) one
        across each horizontal line of the rows used. Cards that share an edge
        share its cut; with bleed every card has its own."""
        columns, rows = min(cards, self.columns), math.ceil(cards / self.columns)
        return len(self.cuts(columns, self.cell_w, self.card_w)) + len(self.cuts(rows, self.cell_h, self.card_h))

    @property
    def cut_xs(self) -> list[float]:
        return self.cuts(self.columns, self.cell_w, self.card_w)

    @property
    def cut_ys(self) -> list[float]:
        return self.cuts(self.rows, self.cell_h, self.card_h)


def grid_for(size: str = "poker", bleed: float = 0.0) -> Grid:
    """As many cards as fit with room for the marks on both papers; landscape
    only when it holds more cards than portrait."""
    w, h = CARD_SIZES[size]
    best = None
    for landscape in (False, True):
        page_w, page_h = COMMON_PAGE[::-1] if landscape else COMMON_PAGE
        margin = PRINTER_EDGE + MARK_GAP + MIN_MARK
        columns = int((page_w - 2 * margin) // (w + 2 * bleed))
        rows = int((page_h - 2 * margin) // (h + 2 * bleed))
        if columns * rows == 0 or (best and columns * rows <= best.per_page):
            continue
        spare = min(page_w - columns * (w + 2 * bleed), page_h - rows * (h + 2 * bleed)) / 2
        mark = min(MAX_MARK, spare - PRINTER_EDGE - MARK_GAP)
        best = Grid(w, h, bleed, columns, rows, landscape, round(mark, 3))
    if best is None:
        raise ValueError(f"{size} cards do not fit on {' or '.join(p.label for p in PAPERS)}")
    return best


@dataclass(frozen=True)
class Placed:
    label: str
    html: Markup
    x: float    # trim box, mm from the grid's corner
    y: float


@dataclass(frozen=True)
class SheetPage:
    side: str                      # "front" or "back"
    cards: tuple[Placed, ...]
    offset: tuple[float, float]    # mm the whole page content moves


def laid_out(doc: Document, options: PrintOptions) -> list[Card]:
    """The deck's cards as printed: each told the font step of its bounded
    text, a continuation card after any that needs one (render/fit/bounded.py)."""
    return [face for card in doc.cards for face in card_faces(card, doc.context, options)]


def page_count(doc: Document, options: PrintOptions = DEFAULT_OPTIONS) -> int:
    """The pages a deck imposes to: its budget, since more means a layout bug."""
    grid = grid_for(options.card_size, options.bleed)
    fronts = math.ceil(len(laid_out(doc, options)) / grid.per_page)
    return fronts * (2 if options.backs else 1)


def render_card_sheet(doc: Document, options: PrintOptions = DEFAULT_OPTIONS) -> str:
    """The HTML of a deck: faces (and backs) rendered one by one, then imposed."""
    env = environment(ink_saver=options.ink_saver)
    grid = grid_for(options.card_size, options.bleed)
    base = {"card_css": None, **doc.context, "doc_title": doc.title}

    def face(template: str, card: Card) -> Markup:
        return Markup(env.get_template(template).render(**base, card=card.context, card_label=card.label))

    cards, pages = laid_out(doc, options), []
    for start in range(0, len(cards), grid.per_page):
        chunk = cards[start:start + grid.per_page]
        pages.append(SheetPage("front", tuple(
            Placed(c.label, face(c.front, c), *grid.trim_origin(i)) for i, c in enumerate(chunk)), (0.0, 0.0)))
        if options.backs:
            pages.append(SheetPage("back", tuple(
                Placed(_("{label} (back)").format(label=c.label), face(c.back or DEFAULT_BACK, c),
                       *grid.trim_origin(i, mirrored=True))
                for i, c in enumerate(chunk)), options.back_offset))
    return env.get_template(CARD_SHEET).render(**base, pages=pages, grid=grid, mark_gap=MARK_GAP)


def render_calibration(options: PrintOptions = DEFAULT_OPTIONS, title: str | None = None) -> str:
    """Two pages for measuring a duplex printer: a cross on the front, and on
    the back a cross and rulers, moved by the current offset. Held against the
    light from the back, the front cross shows the correction on the rulers."""
    return environment().get_template(CALIBRATION).render(
        doc_title=title or _("Duplex calibration"), offset=options.back_offset, ticks=range(-10, 11),
        ruler=range(0, 101))
