"""The packet's fixed boxes, each declared once: the item, ability and note
cards' text, the sealed insert, the name badge and its stock.

Fit room (imports core/ and the shared render modules). Every size,
padding, font and line height of these boxes is in `BOXES`; the templates
(templates/packet/cards/*.html, sealed.html, badges.html) take their CSS
from `box_css` (the Jinja global `packet_box`), and `check`'s measurement
(packet_fit.py) reads the same numbers, so the two cannot drift. Shaped
like the coming one-declaration-per-box API (render/fit/): a box is a
name, a size where it has one, padding, font steps (largest first, the
last the legible floor), line height and weight.

Badge stock, by paper: on A4, 8 a sheet at 80 x 50 mm (Avery L4785 or
alike); on US Letter, 8 a sheet at 3 3/8 x 2 1/3 in (Avery 5390 or alike);
each grid centred on the page, so hold a printed sheet against the stock
before printing the lot.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.paper import A4, LETTER
from ..options import CARD_SIZES

SEALED_CARD_SIZE = "poker"      # the cards sealed in an insert: printed on its page at this size, whatever --card-size

MM_PER_IN = 25.4


@dataclass(frozen=True)
class BoxSpec:
    """One fixed box: its size (0: the frame it sits in decides), padding
    (top, right, bottom, left, mm), font steps (pt), line height, weight."""

    steps: tuple[float, ...]
    line_height: float = 1.18
    weight: int = 400
    italic: bool = False
    width_mm: float = 0.0
    height_mm: float = 0.0
    pad: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    gap_mm: float = 0.0             # below the box (a title's rule and margin)
    margin: tuple[float, float, float, float] | None = None     # all four margins, where not just a gap below
    at_mm: tuple[float, float] | None = None                    # top and right, for a box set in a corner

    @property
    def inner_width(self) -> float:
        return self.width_mm - self.pad[1] - self.pad[3]

    @property
    def inner_height(self) -> float:
        return self.height_mm - self.pad[0] - self.pad[2]


@dataclass(frozen=True)
class BadgeStock:
    """A sheet of badge inserts: the stock's name, its grid, each badge's size in mm."""

    model: str
    columns: int
    rows: int
    width: float
    height: float
    inches: tuple[str, str] | None = None

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows


BOXES: dict[str, BoxSpec] = {
    # On a card (inside the shared .card frame of templates/cards/cards.css, whose room fit.card_room gives).
    "card_title": BoxSpec((11.0,), line_height=1.15, weight=700, gap_mm=2.4),
    "card_text": BoxSpec((9.0, 8.0, 7.0), line_height=1.18, gap_mm=1.0),
    "card_say": BoxSpec((9.0, 8.0, 7.0), line_height=1.18, italic=True, pad=(1.0, 1.5, 1.0, 2.5), gap_mm=1.0),
    "note_value": BoxSpec((30.0,), line_height=1.0, weight=700, margin=(14.0, 0.0, 0.0, 0.0)),
    "note_currency": BoxSpec((12.0,), line_height=1.15),
    # A sealed insert for a small envelope: A6, centred on the page, cut along its dashed edge.
    "insert": BoxSpec((11.0, 10.0, 9.0), width_mm=105.0, height_mm=148.0, pad=(8.0, 8.0, 8.0, 8.0), gap_mm=1.5),
    "insert_trigger": BoxSpec((14.0,), line_height=1.2, weight=700, gap_mm=3.0),
    "insert_head": BoxSpec((8.0,), line_height=1.3, gap_mm=2.0),
    # A card sealed in an insert, printed on the insert's own page (measured as packet_fit.card_box at this size).
    "sealed_card": BoxSpec((9.0,), width_mm=CARD_SIZES[SEALED_CARD_SIZE][0], height_mm=CARD_SIZES[SEALED_CARD_SIZE][1],
                           pad=(3.2, 3.0, 3.0, 3.0), margin=(0.0, 4.0, 4.0, 0.0)),
    "fold_line": BoxSpec((8.0,), margin=(40.0, 0.0, 0.0, 0.0)),
    # A fold-and-staple sheet: the page both papers share, less the margins.
    "fold": BoxSpec((11.0, 10.0, 9.0), width_mm=186.0, height_mm=230.0, pad=(0.0, 0.0, 0.0, 0.0), gap_mm=1.5),
    # A name badge: its stock's size, by paper (BADGE_STOCK); these are its insides.
    "badge": BoxSpec((8.0,), pad=(4.0, 4.0, 4.0, 4.0)),
    "badge_name": BoxSpec((18.0, 16.0, 14.0, 12.0), line_height=1.1, weight=700, gap_mm=1.0),
    "badge_player": BoxSpec((10.0,), line_height=1.2, gap_mm=1.0),
    "badge_line": BoxSpec((8.0, 7.5, 7.0), line_height=1.2),
    # 11 pt at 2.3 lines is the 9 mm circle: the mark sits in its middle.
    "badge_mark": BoxSpec((11.0,), line_height=2.3, weight=700, width_mm=9.0, height_mm=9.0, at_mm=(3.0, 3.0)),
}
BADGE_NAME_LINES = 2            # a name may take two lines on a badge, no more

BADGE_STOCK = {
    A4.name: BadgeStock("Avery L4785", 2, 4, 80.0, 50.0),
    LETTER.name: BadgeStock("Avery 5390", 2, 4, 3.375 * MM_PER_IN, 7 / 3 * MM_PER_IN, inches=("3 3/8", "2 1/3")),
}


def box_css(name: str, pt: float | None = None) -> str:
    """A box's CSS declarations, from its declaration: what a template writes
    in a `style` attribute (at `pt`, a step the fit chose, else the first)."""
    spec = BOXES[name]
    parts = [f"font-size: {pt or spec.steps[0]:g}pt", f"line-height: {spec.line_height:g}",
             f"font-weight: {spec.weight}"]
    if spec.italic:
        parts.append("font-style: italic")
    if any(spec.pad):
        parts.append("padding: " + " ".join(f"{p:g}mm" for p in spec.pad))
    if spec.margin:
        parts.append("margin: " + " ".join(f"{m:g}mm" for m in spec.margin))
    elif spec.gap_mm:
        parts.append(f"margin: 0 0 {spec.gap_mm:g}mm")
    if spec.at_mm:
        parts.append(f"top: {spec.at_mm[0]:g}mm; right: {spec.at_mm[1]:g}mm")
    if spec.width_mm:
        parts.append(f"width: {spec.width_mm:g}mm")
    if spec.height_mm:
        parts.append(f"height: {spec.height_mm:g}mm")
    return "; ".join(parts)


def badge_css(paper: str) -> str:
    """A badge's own size on a paper's stock (its padding from its declaration)."""
    stock = BADGE_STOCK[paper]
    return f"width: {stock.width:.3f}mm; height: {stock.height:.3f}mm; " + box_css("badge")


def badge_stock_name(paper: str) -> str:
    """What the manifest calls a paper's badge stock, in the run's language."""
    from ...core.i18n import _, ngettext
    stock = BADGE_STOCK[paper]
    size = _("{width} x {height} in").format(width=stock.inches[0], height=stock.inches[1]) if stock.inches else \
        _("{width} x {height} mm").format(width=f"{stock.width:g}", height=f"{stock.height:g}")
    return ngettext("{count} badge a sheet, {columns} x {rows}, {size} ({model} or alike)",
                    "{count} badges a sheet, {columns} x {rows}, {size} ({model} or alike)",
                    stock.per_sheet).format(count=stock.per_sheet, columns=stock.columns, rows=stock.rows,
                                            size=size, model=stock.model)
