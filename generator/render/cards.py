"""Card sheets: every system's cards laid out N-up at a real card size.

Systems describe cards (`Card`: a face template and its values); this module
renders each face, then places the faces on pages in a grid that fits both A4
and US Letter, with cut marks outside the cards. Card edges touch, so one cut
serves two neighbours. A deck's own stylesheet, if any, is named by the
document context's `card_css` (a path under templates/).
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..systems.base import Document
from .html import environment

CARD_SHEET = "cards/sheet.html"
# Width x height in millimetres.
CARD_SIZES = {"poker": (63.0, 88.0)}
# The printable area common to A4 (210 x 297) and US Letter (215.9 x 279.4),
# less a margin for the cut marks and the printer's unprintable edge.
SHEET_AREA = (210.0 - 2 * 8, 279.4 - 2 * 6)
MARK_LENGTH = 5.0
MARK_GAP = 2.0


@dataclass(frozen=True)
class Grid:
    card_w: float
    card_h: float
    columns: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def width(self) -> float:
        return self.columns * self.card_w

    @property
    def height(self) -> float:
        return self.rows * self.card_h


def grid_for(size: str = "poker") -> Grid:
    w, h = CARD_SIZES[size]
    return Grid(w, h, int(SHEET_AREA[0] // w), int(SHEET_AREA[1] // h))


def render_card_sheet(doc: Document, size: str = "poker") -> str:
    """The HTML of a deck: faces rendered one by one, then imposed."""
    env = environment()
    grid = grid_for(size)
    base = {"card_css": None, **doc.context, "doc_title": doc.title}
    faces = [{"label": card.label,
              "html": Markup(env.get_template(card.front).render(**base, card=card.context))}
             for card in doc.cards]
    pages = [faces[i:i + grid.per_page] for i in range(0, len(faces), grid.per_page)]
    return env.get_template(CARD_SHEET).render(**base, pages=pages, grid=grid,
                                               mark_length=MARK_LENGTH, mark_gap=MARK_GAP)
