"""Whether each envelope's cover fits its page, or its half of a sheet,
before anything renders.

Edge layer (imports core/measure.py). The covers' page count is exact (the
pack cuts covers.pdf into envelopes by page), so a cover that runs long
would fail the pack after rendering: twenty handouts on one envelope's
checklist, a long name. This measures each cover as templates/pack/cover.html
lays it out, with the numbers declared in render/fit/boxes.py (which also
print its CSS), and says which
do not fit, so the pack refuses them where the handouts or the name are
given, before it renders. The measure errs long by a little: a cover it
passes always prints on its page (tests/test_pack_covers.py holds it to
WeasyPrint on both papers and both layouts).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ...core.i18n import _, fill
from ...core.measure import PT_PER_MM, line_count
from ...core.paper import Paper
from .boxes import (CHECKLIST, CHECKLIST_ITEM, COVER_FIGURE, COVER_H2, COVER_HALF, COVER_NAME, COVER_NUMBER,
                    COVER_PAGE, COVER_PAGE_MARGINS, COVER_ROLE, COVER_SMALL, HALF_CHECKLIST, HALF_FIGURE, HALF_H2,
                    HALF_ITEM, HALF_NAME, HALF_NUMBER, HALF_ROLE, Declared)

# Every number of a cover from its declarations (render/fit/boxes.py), which also print its CSS.
LINE = COVER_PAGE.line_height or 1.0
HEADING_LINE = COVER_NAME.line_height or 1.0
KICKER_SPACING = 1.1         # the kicker's letter-spacing (0.08em, base.css) and capitals, as a narrower line
BOX_INDENT = CHECKLIST_ITEM.padding.mm("left")     # a checklist item's box and its gap (its hanging indent)
H2_RULE = COVER_H2.padding.mm("bottom") + (COVER_H2.rule.mm if COVER_H2.rule else 0.0)
PAGE_MARGINS = tuple(COVER_PAGE_MARGINS.margin.mm(side) for side in ("top", "bottom", "left"))     # top, bottom, side


@dataclass(frozen=True)
class CoverStyle:
    """The sizes (pt) and spaces (mm) of one cover layout."""

    top: float               # space above the kicker: the page's padding
    bottom: float            # space below the last line
    side: float              # each side, from the sheet's edge
    number_pt: float         # the envelope's number (its line set by the big figure)
    number_margins: float
    name_pt: float
    name_margin: float
    role_pt: float
    role_margin: float
    h2_pt: float
    h2_margin: float         # above the heading, where it collapses with the role's margin
    item_pt: float
    item_gap: float
    list_margins: tuple[float, float]


def _style(page: tuple[float, float, float], number: Declared, figure: Declared, name: Declared, role: Declared,
           h2: Declared, checklist: Declared, item: Declared) -> CoverStyle:
    """A cover layout from the declarations of its parts; `page` is its (top, bottom, side) edges."""
    return CoverStyle(top=page[0], bottom=page[1], side=page[2], number_pt=figure.pt,
                      number_margins=number.margin.mm("top") + number.margin.mm("bottom"), name_pt=name.pt,
                      name_margin=name.margin.mm("bottom"), role_pt=role.pt, role_margin=role.margin.mm("bottom"),
                      h2_pt=h2.pt, h2_margin=h2.margin.mm("top"), item_pt=checklist.pt,
                      item_gap=item.margin.mm("bottom"),
                      list_margins=(checklist.margin.mm("top"), checklist.margin.mm("bottom")))


FULL = _style((PAGE_MARGINS[0] + COVER_PAGE.padding.mm("top"), PAGE_MARGINS[1], PAGE_MARGINS[2]),
              COVER_NUMBER, COVER_FIGURE, COVER_NAME, COVER_ROLE, COVER_H2, CHECKLIST, CHECKLIST_ITEM)
HALF = _style((COVER_HALF.padding.mm("top"), COVER_HALF.padding.mm("bottom"), COVER_HALF.padding.mm("left")),
              HALF_NUMBER, HALF_FIGURE, HALF_NAME, HALF_ROLE, HALF_H2, HALF_CHECKLIST, HALF_ITEM)
SMALL_PT = COVER_SMALL.pt


def _mm(lines: int, pt: float, line: float = LINE) -> float:
    return lines * pt * line / PT_PER_MM


def cover_height(page: Mapping[str, Any], title: str, style: CoverStyle, width: float) -> float:
    """The height (mm) of one cover's text, from the top of its page or half
    to the foot of its last line, as WeasyPrint stacks it."""
    envelope = page["envelope"]
    height = style.top + _mm(line_count(title.upper(), width / KICKER_SPACING, SMALL_PT), SMALL_PT)
    height += style.number_margins + _mm(1, style.number_pt)
    height += _mm(line_count(envelope.label, width, style.name_pt, weight=700), style.name_pt, HEADING_LINE) \
        + style.name_margin
    role = envelope.character or ""
    if envelope.player and envelope.faction:
        role += f" ({envelope.faction})"
    height += _mm(max(1, line_count(fill(_("plays %(character)s"), character=role), width, style.role_pt,
                                    weight=700)), style.role_pt)
    height += max(style.role_margin, style.h2_margin)
    height += _mm(line_count(_("In this envelope"), width, style.h2_pt, weight=700), style.h2_pt,
                  HEADING_LINE) + H2_RULE
    items = [_("This cover"), *page["inside"], *([page["cards"]] if page["cards"] else [])]
    height += max(2.0, style.list_margins[0])
    height += sum(_mm(max(1, line_count(item, width - BOX_INDENT, style.item_pt)), style.item_pt) + style.item_gap
                  for item in items) - style.item_gap
    height += style.list_margins[1]
    stem = f"envelopes/{envelope.stem}.pdf"
    footer = fill(_("Tick each item as it goes in. This envelope's file: %(file)s"), file=stem)
    return height + _mm(line_count(footer, width, SMALL_PT), SMALL_PT) + style.bottom


def cover_room(paper: Paper, half: bool) -> float:
    """The height (mm) a cover may take: its page, or half the sheet."""
    return paper.height_mm / 2 if half else paper.height_mm


def unfit_covers(context: Mapping[str, Any], papers: Iterable[Paper], half: bool) -> list[tuple[Any, str]]:
    """(envelope, what is too long) for each cover that will not fit its
    page or half sheet on one of `papers`: the cover measured in the run's
    language, as it prints; what is too long said in the command line's
    English."""
    style = HALF if half else FULL
    found: dict[int, tuple[Any, str]] = {}
    for paper in papers:
        width = paper.width_mm - 2 * style.side
        room = cover_room(paper, half)
        for page in context["pages"]:
            height = cover_height(page, context["title"], style, width)
            envelope = page["envelope"]
            if height > room and envelope.number not in found:
                where = f"{'half a sheet' if half else 'a page'} of {paper.label}"
                items = len(page["inside"]) + 1 + bool(page["cards"])
                found[envelope.number] = (envelope, f"its cover lists {items} items and takes about "
                                                    f"{round(height)} mm, more than {where} ({round(room)} mm)")
    return [found[number] for number in sorted(found)]
