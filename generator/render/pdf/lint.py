"""Print checks on a laid-out WeasyPrint document, besides overflow (weasy.py).

Edge layer. A glyph the shipped fonts lack would be drawn from whatever font
the machine has (a different look, a font we may not embed) or as an empty
box, so text in a font family we do not ship, or a character our fonts do
not cover, fails the build with the page and the element. Text of one
element printed over another's (a shared class moving a table onto its
legend, a card's text running under its foot), through the side border of
its box, or off the printable part of the sheet fails it too, and so do a
table pushed wider than its column and a table row whose cells land on two
pages (a roster's name on one page, its figures on the next). Every PDF
also needs a title and a language in its metadata (screen readers, print
queues). `print_faults` runs every check.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator, NamedTuple

from ...core.glyphs import INVISIBLE, shipped_coverage
from ..options import PRINTER_EDGE

# Characters never drawn (core/glyphs.py INVISIBLE): controls, soft hyphens, joiners; a space is drawn.


@lru_cache(maxsize=None)
def _covered(families: tuple[str, ...]) -> frozenset[int]:
    """The code points a font stack covers, worked out once per stack: every
    text box of every page asks."""
    coverage = shipped_coverage()
    return frozenset().union(*(coverage[f] for f in families))


def _label(element: Any) -> str | None:
    if element is None:
        return None
    return element.get("aria-label") or (f"{element.tag}.{element.get('class').split()[0]}"
                                         if element.get("class") else None)


def find_missing_glyphs(document: Any) -> list[str]:
    """'page 2: ‘Card: Attack’ (span.name): no glyph for '☃' (U+2603) in Atkinson Hyperlegible'."""
    from weasyprint.formatting_structure.boxes import TextBox
    coverage = shipped_coverage()
    found: list[str] = []

    def walk(box: Any, context: str | None, number: int) -> None:
        element = getattr(box, "element", None)
        context = _label(element) if element is not None and element.get("aria-label") else context
        if isinstance(box, TextBox):
            families = [f for f in box.style["font_family"] if f in coverage]
            tag = element.tag if element is not None else "text"
            where = f"page {number}: " + (f"'{context}' " if context else "") + f"<{tag}>"
            if not families:
                found.append(f"{where}: font-family {', '.join(box.style['font_family'])} is not a shipped font "
                             f"(text '{box.text.strip()[:30]}')")
                return
            covered = _covered(tuple(families))
            for char in dict.fromkeys(box.text):
                if ord(char) not in covered and unicodedata.category(char) not in INVISIBLE:
                    found.append(f"{where}: no glyph for '{char}' (U+{ord(char):04X}) in {' or '.join(families)}")
            return
        for child in getattr(box, "children", ()):
            walk(child, context, number)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, None, number)
    return list(dict.fromkeys(found))


# Where a line of text puts ink, in ems about its baseline (capitals above,
# descenders below). A text box is as tall as its font's whole ascent and
# descent, which the lines of a tightly set heading and the paragraph under it
# overlap by design.
_INK_ABOVE, _INK_BELOW = 0.75, 0.2
# Overlap allowed between two texts' ink bands, in CSS px (about 0.26 mm).
_OVERLAP_TOLERANCE = 1.0
_PX_PER_MM = 96 / 25.4


class _Scope(NamedTuple):
    """What a text box sits in, passed down the box tree."""
    line: object = None      # the outermost line box: text of one line may touch
    block: object = None     # the block whose lines hold it: a paragraph's wrapped lines may touch
    table: object = None     # faults inside a table are named by the table
    frames: tuple = ()       # the boxes with side borders around it, which its text must stay inside
    context: str | None = None   # the nearest aria-label (a card's name)
    source: str | None = None    # the nearest data-field: the data field that filled it (render/fit/bounded.py)
    fields: tuple = ()           # every data field of the nearest aria-labelled element (the card)


@dataclass(frozen=True)
class _Run:
    """One text box's ink band, with its scope."""
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    scope: _Scope
    image: bool = False     # an image or a chart, not text

    @property
    def kind(self) -> str:
        return "the image" if self.image else "text of"

    @property
    def owner(self) -> Any:
        return self.scope.table or self.scope.block


def _text_runs(page_box: Any) -> Iterator[_Run]:
    """Every visible, non-blank text box on a page, and every image and
    inline SVG (a portrait, a logo, a chart) as one box of ink. Decorative
    elements (aria-hidden) are skipped; absolutely positioned and floated
    boxes start a line and a frame of their own."""
    from weasyprint.formatting_structure.boxes import BlockContainerBox, LineBox, ReplacedBox, TableBox, TextBox
    from weasyprint.layout.absolute import AbsolutePlaceholder
    stack = [(page_box, _Scope(block=page_box))]
    while stack:
        box, scope = stack.pop()
        if isinstance(box, AbsolutePlaceholder):   # stands in for a positioned box, and hides its type
            box = box._box
        line, block, table, frames, context, source, fields = scope
        element = getattr(box, "element", None)
        if element is not None and element.get("aria-label"):
            context, fields = element.get("aria-label"), data_fields(element)
        if element is not None and element.get("data-field"):
            source = element.get("data-field")
        if isinstance(box, TextBox):
            if box.text.strip() and box.style["visibility"] == "visible" and box.width > 0:
                size, baseline = box.style["font_size"], box.position_y + box.baseline
                yield _Run(box.position_x, baseline - _INK_ABOVE * size, box.position_x + box.width,
                           baseline + _INK_BELOW * size, box.text.strip(),
                           _Scope(line, block, table, frames, context, source, fields))
            continue
        if element is not None and element.get("aria-hidden") == "true":
            continue
        if isinstance(box, ReplacedBox):        # an image or a chart: its box is ink like text's
            if box.style["visibility"] == "visible" and box.width > 0 and box.height > 0:
                x, y = box.border_box_x(), box.border_box_y()
                what = box.element_tag.rsplit("}", 1)[-1]
                label = (element.get("alt") or element.get("aria-label") or "") if element is not None else ""
                yield _Run(x, y, x + box.border_width(), y + box.border_height(), f"<{what}> {label}".strip(),
                           _Scope(line, block, table, frames, context, source, fields), image=True)
            continue
        if box.is_absolutely_positioned() or box.is_floated():
            line, frames = None, ()
        if isinstance(box, LineBox):
            line = line or box
        else:
            if isinstance(box, TableBox):
                table = box
            elif isinstance(box, BlockContainerBox):
                block = box
            if box.style["border_left_width"] and box.style["border_right_width"]:
                frames = (*frames, box)
        scope = _Scope(line, block, table, frames, context, source, fields)
        stack.extend((child, scope) for child in reversed(getattr(box, "children", ())))


def _name(box: Any, context: str | None = None) -> str:
    element = box.element
    if element is None or box.element_tag is None:
        where = "page margin"
    else:
        where = box.element_tag + (f".{element.get('class').split()[0]}" if element.get("class") else "")
    return (f"{context} › " if context else "") + where


def data_fields(element: Any) -> tuple[str, ...]:
    """The data fields (`data-field`, render/fit/bounded.py) an element holds."""
    return tuple(dict.fromkeys(e.get("data-field") for e in element.iter() if e.get("data-field")))


def _describe(run: _Run) -> str:
    """The data field that filled the text, or those of its card, when the
    template names them (the build turns each into file:line:col); else the
    element, for a template's own text."""
    fields = (run.scope.source,) if run.scope.source else run.scope.fields
    if fields:
        return " and ".join(fields) + (f" (on '{run.scope.context}')" if run.scope.context else "")
    return f"{_name(run.owner, run.scope.context)} “{run.text[:24].rstrip()}”"


def _misplaced(run: _Run, right: float, bottom: float, edge: float) -> str | None:
    """Why a text box is where no text should be: off the printable part of
    the sheet, or through the side border of the box it is in."""
    slack = _OVERLAP_TOLERANCE
    if run.x0 < edge - slack or run.y0 < edge - slack or run.x1 > right + slack or run.y1 > bottom + slack:
        return f"runs off the printable area (the outer {PRINTER_EDGE:g} mm of the sheet)"
    for frame in run.scope.frames:
        left = frame.padding_box_x()
        if run.x0 < left - slack or run.x1 > left + frame.padding_width() + slack:
            return f"runs through the border of '{_name(frame, run.scope.context)}'"
    return None


def find_overlaps(document: Any) -> list[str]:
    """'page 1: text of 'Card: Odds › table.odds “2”' overlaps 'Card: Odds › p.legend “Roll”''
    for text of two elements printed over each other (once per pair), and
    'page 1: text of '…' runs off the printable area' (within PRINTER_EDGE of
    the sheet's edge) or '… runs through the border of …' for text where no
    text belongs. A sweep down each page compares only texts whose ink bands
    share a height."""
    found: list[str] = []
    edge = PRINTER_EDGE * _PX_PER_MM
    for number, page in enumerate(document.pages, 1):
        right, bottom = page.width - edge, page.height - edge
        runs = sorted(_text_runs(page._page_box), key=lambda r: r.y0)
        active: list[_Run] = []
        reported: set[tuple[int, int]] = set()
        for run in runs:
            fault = _misplaced(run, right, bottom, edge)
            if fault and (id(run.owner), 0) not in reported:
                reported.add((id(run.owner), 0))
                found.append(f"page {number}: {run.kind} '{_describe(run)}' {fault}")
            active = [a for a in active if a.y1 - run.y0 > _OVERLAP_TOLERANCE]
            for other in active:
                if other.scope.block is run.scope.block or \
                        (run.scope.line is not None and other.scope.line is run.scope.line):
                    continue
                pair = (id(other.owner), id(run.owner))
                if pair not in reported and min(other.x1, run.x1) - max(other.x0, run.x0) > _OVERLAP_TOLERANCE:
                    reported.add(pair)
                    first, second = _describe(other), _describe(run)
                    found.append(f"page {number}: {other.kind} '{first}' overlaps '{second}'" if first != second else
                                 f"page {number}: {first}: too long, its text runs into other text")
            active.append(run)
    return list(dict.fromkeys(found))   # identical cards on one page fault alike


def find_split_rows(document: Any) -> list[str]:
    """'page 3: a table row (“Absalom Quick played by”) is split: it continues
    on the next page' for a body row laid out on more than one page (named by
    its first page, which render/pdf/parts.py shifts for a part). Only a <tr> is
    a row read across: a layout of columns (`display: table` on a div) flows
    over pages by design. Rows a table repeats on every page (its thead and
    tfoot) are not splits, and nor is a row taller than a whole page (a
    game's long text in one cell): no page could hold it, so it must go on,
    and the rows around it still start on a page of their own."""
    from weasyprint.formatting_structure.boxes import TableRowBox, TableRowGroupBox
    rows: dict[int, _RowParts] = {}      # id of a row's element -> where it was laid out

    def walk(box: Any, number: int, room: float, repeated: bool) -> None:
        if isinstance(box, TableRowGroupBox):
            repeated = box.is_header or box.is_footer
        if isinstance(box, TableRowBox):
            if box.element is None or box.element.tag != "tr" or repeated:
                return
            parts = rows.setdefault(id(box.element), _RowParts(number, box.element, room))
            parts.pages.add(number)
            parts.height += box.margin_height()
            return
        for child in getattr(box, "children", ()):
            walk(child, number, room, repeated)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, number, page._page_box.height, False)
    found = []
    for parts in rows.values():
        if len(parts.pages) > 1 and parts.height <= parts.room:
            words = " ".join(" ".join(parts.element.itertext()).split())
            found.append(f"page {parts.first}: a table row (“{words[:30].rstrip()}”) is split: "
                         "it continues on the next page")
    return list(dict.fromkeys(found))


@dataclass
class _RowParts:
    """A table row's pieces: its first page, its element, the room of that
    page's body, the pages it is on and the height of its pieces together."""

    first: int
    element: Any
    room: float
    pages: set[int] = field(default_factory=set)
    height: float = 0.0


def find_wide_tables(document: Any) -> list[str]:
    """'page 1: table.slots (“Speed Effect Attack deals”) is 6.1 mm wider
    than its column' for a table whose words (a long action name in a
    header, "Spezialaktion") push it past the block it sits in: its text
    stays inside its own cells, so the overlap check cannot see it, but its
    rules run into the next column or off the sheet."""
    from weasyprint.formatting_structure.boxes import BlockContainerBox, TableBox
    found: list[str] = []

    def walk(box: Any, column: Any, number: int) -> None:
        if isinstance(box, TableBox) and column is not None:
            right = column.content_box_x() + column.width
            over = box.border_box_x() + box.border_width() - right
            if over > _OVERLAP_TOLERANCE:
                words = " ".join(" ".join(box.element.itertext()).split()) if box.element is not None else ""
                found.append(f"page {number}: {_name(box)} (“{words[:30].rstrip()}”) is "
                             f"{over / _PX_PER_MM:.1f} mm wider than its column")
        if isinstance(box, BlockContainerBox) and not box.is_table_wrapper:
            column = box
        for child in getattr(box, "children", ()):
            walk(child, column, number)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, None, number)
    return list(dict.fromkeys(found))


def metadata_faults(document: Any) -> list[str]:
    faults = []
    if not (document.metadata.title or "").strip():
        faults.append("no document title (the HTML <title> is empty)")
    if not document.metadata.lang:
        faults.append("no document language (<html lang> is missing)")
    return faults


def print_faults(document: Any) -> list[str]:
    """Every print check of a laid-out document, in the order they are reported."""
    from .broken_words import find_broken_words
    return (find_missing_glyphs(document) + find_overlaps(document) + find_wide_tables(document)
            + find_split_rows(document) + find_broken_words(document) + metadata_faults(document))
