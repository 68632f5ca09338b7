"""Every box of fixed size the data's text fills, declared once: the
stylesheet the PDF prints with and the measure `sixes check` takes both
read it, so they agree by construction.

Edge layer (imports core/ and the card sizes of render/options.py). A
declaration (`Declared`) is a CSS selector and the numbers that decide how
much text its box holds: font size (and the steps it goes down through,
largest first, the last the legible floor), line height, weight, italic,
padding, margins, a rule under or around it, where it is set (a box
placed absolutely), its width and height or a table column's share.
`stylesheet(sheet)` writes those numbers as CSS rules; the templates print
them in a `<style>` (Jinja's `box_css(sheet)`) beside the static
stylesheet they belong to: after templates/cards/cards.css, pack/pack.css
and packet/packet.css, before a system's or the packet's own card sheet
(as the rules stood in each file's cascade). The static file keeps what
does not change the room (colours, positioning, flex) and may not set a
declared property of a declared selector (tests/test_box_declarations.py
scans every sheet printed with it, and every template's `style`). The fit
modules (fit.py, stacked.py, lookup_fit.py, bounded.py, labels.py,
cover_fit.py, faces.py) take every one of those numbers from here; what
the CSS has no word for (CARD_SAFETY, FOOT_AIR) is named here as an
allowance.

Adding a fixed box (a card face, a label, a badge, an insert):

- declare each element whose numbers decide what it holds as a `Declared`
  printed beside its sheet (CARDS for the card frame and any card face,
  PACK for the pack's pages, or a system's "*/cards.css") and add it to
  `DECLARED`; the measure then reads it (`CARD.padding.x`,
  `LABEL_NAME.steps`, `COVER_H2.rule_mm()`), never a copy.
- a face whose zones data fields fill needs no measuring code: each
  zone is a `Zone` (selector, `field`, font `steps`, `line_height`,
  `weight`, a fixed `height_mm`, or `grows` with its text up to
  `max_lines`, or neither: the room the other zones leave, shared at one
  step; `gap_mm` between paragraphs, `what` for messages), listed in a
  `Face(what, system, file, zones, items, frame, corner)` registered in
  `FACES` by its face template (or a name: "sealed/insert"). faces.py
  measures it: `check` reports each zone past its floor at its field's
  file:line:col (`unfit_faces`, `face_problems`), and the face is told
  `card.fit.pts` (each zone's step, in order) and `card.fit.sources`
  (each zone's `data-field`), from its card's context: the entity as
  `item` (else the context itself), its place in `file` as `loc`. The
  packet's item card (ITEM_CARD below) is the worked example.
- in the face template, put `data-field="{{ card.fit.sources[i] }}"` on
  each zone's element and print its step as
  `style="font-size: {{ card.fit.pts[i] }}pt"`; outside a deck, ask
  `fit_face(name, entity)`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from ...core.measure import PT_PER_MM
from ...core.paper import A4, LETTER, Paper
from ..options import CARD_SIZES


@dataclass(frozen=True)
class Edges:
    """Four sides in mm (CSS order); a side left None is not declared."""

    top: float | None = None
    right: float | None = None
    bottom: float | None = None
    left: float | None = None

    def css(self, prop: str) -> list[str]:
        """`prop: …` as a shorthand when all four sides are declared, else a longhand per side."""
        sides = (self.top, self.right, self.bottom, self.left)
        if all(side is not None for side in sides):
            return [f"{prop}: {' '.join(_mm(side) for side in sides)}"]
        names = ("top", "right", "bottom", "left")
        return [f"{prop}-{name}: {_mm(side)}" for name, side in zip(names, sides, strict=True) if side is not None]

    def mm(self, side: str) -> float:
        """A side's length, 0 when not declared."""
        return float(getattr(self, side) or 0.0)

    @property
    def x(self) -> float:
        """Left and right together, mm."""
        return self.mm("left") + self.mm("right")

    @property
    def y(self) -> float:
        """Top and bottom together, mm."""
        return self.mm("top") + self.mm("bottom")


@dataclass(frozen=True)
class Rule:
    """A border: its width in pt, which side ('' for all four), and the rest of its CSS."""

    pt: float
    side: str = ""
    style: str = "solid var(--ink)"

    @property
    def mm(self) -> float:
        """Its height as the measure counts it: rounded up to a tenth of a mm (the renderer snaps rules)."""
        return self.up_to(0.1)

    @property
    def exact_mm(self) -> float:
        return self.pt / PT_PER_MM

    def up_to(self, step: float) -> float:
        """Its height rounded up to a multiple of `step` mm."""
        return math.ceil(self.exact_mm / step - 1e-9) * step

    def css(self) -> str:
        return f"border{'-' + self.side if self.side else ''}: {self.pt:g}pt {self.style}"


@dataclass(frozen=True)
class Declared:
    """One element whose numbers decide what its box holds."""

    selector: str
    sheet: str                              # the static stylesheet it is printed after: "pack/pack.css"
    steps: tuple[float, ...] = ()           # font sizes, largest first; the CSS prints the first
    line_height: float | None = None
    weight: int | None = None
    padding: Edges = Edges()
    margin: Edges = Edges()
    place: Edges = Edges()                  # top, right, bottom, left of a box placed absolutely
    rule: Rule | None = None
    indent_mm: float | None = None          # text-indent (a hanging line: negative)
    width_mm: float | None = None
    height_mm: float | None = None          # a zone of a face: None is the room its other zones leave
    share: float | None = None              # a table column's part of the table's width (width: 34%)
    field: str = ""                         # the data field that fills it, when one does
    italic: bool = False                    # set in the italic face (measured in it too)

    @property
    def pt(self) -> float:
        """The size it prints at by default (its first step)."""
        return self.steps[0]

    @property
    def floor(self) -> float:
        """The smallest step: below it the box refuses."""
        return self.steps[-1]

    def rule_mm(self, step: float = 0.1) -> float:
        """Its rule's height rounded up to `step` mm; 0 without one."""
        return self.rule.up_to(step) if self.rule else 0.0

    def line_mm(self, pt: float | None = None) -> float:
        """The height of one line at `pt` (its own size when not given), in mm."""
        return (pt or self.pt) * (self.line_height or 1.0) / PT_PER_MM

    def properties(self) -> list[str]:
        """Its declarations, as CSS."""
        found = []
        if self.steps:
            found.append(f"font-size: {self.pt:g}pt")
        if self.line_height is not None:
            found.append(f"line-height: {self.line_height:g}")
        if self.weight is not None:
            found.append(f"font-weight: {self.weight}")
        if self.italic:
            found.append("font-style: italic")
        found += self.padding.css("padding") + self.margin.css("margin")
        found += [f"{name}: {_mm(getattr(self.place, name))}" for name in ("top", "right", "bottom", "left")
                  if getattr(self.place, name) is not None]
        if self.rule is not None:
            found.append(self.rule.css())
        if self.indent_mm is not None:
            found.append(f"text-indent: {_mm(self.indent_mm)}")
        found += [f"{name}: {_mm(value)}" for name, value in (("width", self.width_mm), ("height", self.height_mm))
                  if value is not None]
        if self.share is not None:
            found.append(f"width: {self.share * 100:g}%")
        return found

    def css(self) -> str:
        return f"{self.selector} {{ {'; '.join(self.properties())}; }}"

    def property_names(self) -> set[str]:
        """The CSS properties it declares (what a static stylesheet may not set for its selector)."""
        return {line.split(":", 1)[0] for line in self.properties()}


@dataclass(frozen=True)
class Zone(Declared):
    """A text zone of a face that one data field fills. Its height is fixed
    (`height_mm`), its text's (`grows`: a title, at most `max_lines` lines,
    stepping down to get there), or else the room the other zones leave:
    the zones without a height share it, at one step (so they agree on
    `steps` and `line_height`). A zone whose field is empty is not printed
    and takes no room, unless its height is fixed."""

    what: str = ""                          # how a message names it; {field}s are the entity's: "item {number}'s card"
    gap_mm: float = 0.0                     # after each paragraph (its p's bottom margin)
    grows: bool = False
    max_lines: int = 0                      # a growing zone's most lines (0: any)

    def properties(self) -> list[str]:
        """Its declarations; a zone of fixed height clips what would run past it (the print lint reports it)."""
        return [*super().properties(), *(["overflow: hidden"] if self.height_mm is not None else [])]

    def css(self) -> str:
        rule = super().css()
        return rule + (f"\n{self.selector} p {{ margin: 0 0 {_mm(self.gap_mm)}; }}" if self.gap_mm else "")


@dataclass(frozen=True)
class Face:
    """A face of declared zones, stacked down its frame in order: a card
    (`frame` None: the card size the options choose) or a declared box of
    its own size (`frame`: width, height, padding), clear of a box set in a
    `corner` (each zone narrower by its width). One face per entity `items`
    finds in a game: (the entity, its place in `file`). A card face template
    is given its entity as `card.item` (else the card's own context is the
    entity) and its place as `card.loc`."""

    what: str                               # "an item card"
    system: str                             # the folder its data files are in, for `data-field` ("": the data folder)
    file: str                               # the data file its entities are in, in that folder
    zones: tuple[Zone, ...] = ()
    items: Callable[[Any], Iterable[tuple[Any, tuple]]] = lambda game: ()
    frame: Declared | None = None
    corner: Declared | None = None

    def __post_init__(self) -> None:
        shared = {(zone.steps, zone.line_height) for zone in self.zones if zone.height_mm is None and not zone.grows}
        if len(shared) > 1:
            raise ValueError(f"{self.what}: the zones sharing the room left differ in steps or line height")

    def declared(self) -> tuple[Declared, ...]:
        """Its frame, its corner and its zones: what it prints with."""
        return (*(box for box in (self.frame, self.corner) if box is not None), *self.zones)


@dataclass(frozen=True)
class Stock:
    """A sheet of boxes cut apart (badge stock): the stock's name, its grid,
    each box's size in mm, and that size as the packet names it in inches."""

    model: str
    columns: int
    rows: int
    width_mm: float
    height_mm: float
    inches: tuple[str, str] | None = None

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows


# The static stylesheets declarations are printed after (a template links the
# file, then prints `box_css(name)` in a <style>).
CARDS, PACK = "cards/cards.css", "pack/pack.css"


def _mm(value: float | None) -> str:
    return "0" if not value else f"{value:g}mm"


# --- The card frame (templates/cards/sheet.html; the rest of .card in cards.css) ---
CARD = Declared(".card", CARDS, steps=(9.0, 8.0, 7.0), line_height=1.18, padding=Edges(3.2, 3.0, 3.0, 3.0),
                rule=Rule(0.25, style="solid #999"))
CARD_H2 = Declared(".card h2", CARDS, steps=(12.0,), line_height=1.15, weight=700, margin=Edges(0, 0, 1.5, 0),
                   padding=Edges(bottom=0.6), rule=Rule(1.0, "bottom", "solid #000"))
CARD_FOOT = Declared(".card .foot", CARDS, steps=(7.0,), place=Edges(right=3.5, bottom=2.2, left=3.5))
# Measure-only allowances of a card: air kept over the foot's line, and room
# kept for what the model leaves out (rounding of borders, a kerning pair).
FOOT_AIR, CARD_SAFETY = 0.686, 1.5

# --- Envelope labels and name stamps (templates/pack/labels.html, stamp.html) ---
LABEL = Declared(".label", PACK, padding=Edges(2.5, 4.0, 2.5, 4.0))
LABEL_NAME = Declared(".label-name", PACK, field="label",
                      steps=(32.0, 28.0, 26.0, 24.0, 22.0, 20.0, 18.0, 16.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0),
                      line_height=1.15, weight=700, margin=Edges(bottom=0.8))
LABEL_LINE = Declared(".label-line", PACK, steps=(9.0,), line_height=1.25)
STAMP = Declared(".stamp", PACK, field="player", steps=(9.0,), line_height=1.2, margin=Edges(0, 0, 0, 0),
                 place=Edges(top=4.2, right=12.0))

# --- Envelope covers (templates/pack/cover.html): a page each, or half a sheet ---
COVER_PAGE_MARGINS = Declared("@page cover", PACK, margin=Edges(12.0, 12.0, 14.0, 12.0))
COVER_PAGE = Declared(".cover-page", PACK, padding=Edges(top=18.0), line_height=1.3)
COVER_NUMBER = Declared(".cover-number", PACK, steps=(14.0,), margin=Edges(6.0, 0, 2.0, 0))
COVER_FIGURE = Declared(".cover-number b", PACK, steps=(30.0,))
COVER_NAME = Declared("h1.cover-name", PACK, field="label", steps=(28.0,), line_height=1.15, weight=700,
                      margin=Edges(0, 0, 3.0, 0))
COVER_ROLE = Declared(".cover-role", PACK, steps=(15.0,), margin=Edges(0, 0, 10.0, 0))
COVER_H2 = Declared(".cover-page h2, .cover-half h2", PACK, steps=(13.0,), line_height=1.15, weight=700,
                    margin=Edges(top=6.0), padding=Edges(bottom=0.8), rule=Rule(0.6, "bottom"))
CHECKLIST = Declared(".checklist", PACK, steps=(12.0,), padding=Edges(0, 0, 0, 0), margin=Edges(3.0, 0, 8.0, 0))
CHECKLIST_ITEM = Declared(".checklist li", PACK, field="handouts", margin=Edges(0, 0, 3.0, 0),
                          padding=Edges(left=7.0), indent_mm=-7.0)
COVER_HALF = Declared(".cover-half", PACK, padding=Edges(10.0, 16.0, 8.0, 16.0), line_height=1.3)
HALF_NUMBER = Declared(".cover-half .cover-number", PACK, steps=(12.0,), margin=Edges(2.0, 0, 1.0, 0))
HALF_FIGURE = Declared(".cover-half .cover-number b", PACK, steps=(22.0,))
HALF_NAME = Declared(".cover-half h1.cover-name", PACK, steps=(22.0,), margin=Edges(0, 0, 1.5, 0))
HALF_ROLE = Declared(".cover-half .cover-role", PACK, steps=(13.0,), margin=Edges(0, 0, 3.0, 0))
HALF_H2 = Declared(".cover-half h2", PACK, steps=(12.0,), margin=Edges(top=2.0))
HALF_CHECKLIST = Declared(".cover-half .checklist", PACK, steps=(11.0,), margin=Edges(2.0, 0, 3.0, 0))
HALF_ITEM = Declared(".cover-half .checklist li", PACK, margin=Edges(bottom=1.5))
# The cover's small lines (its kicker and its footer) are base.css's .small and .kicker.
COVER_SMALL = Declared(".cover-page .small, .cover-half .small, .cover-page .kicker, .cover-half .kicker", PACK,
                       steps=(9.0,))

# --- D6xD6 card faces (printed before d6xd6/cards.css, which keeps the rest) ---
D6 = "d6xd6/cards.css"
D6_SUB = Declared(".card .sub", D6, steps=(9.0,), margin=Edges(-0.8, 0, 1.2, 0))
D6_P = Declared(".card p", D6, margin=Edges(0, 0, 1.2, 0))
D6_CELL = Declared(".card th, .card td", D6, steps=(9.0,), line_height=1.12, padding=Edges(0.35, 0.8, 0.35, 0.8),
                   rule=Rule(0.4, style="solid #888"))
# The lookup card (render/fit/lookup_fit.py): its grid's cells, its legend of level names, the swatch in it.
GRID_CELL = Declared("table.grid th, table.grid td", D6, line_height=1.05, padding=Edges(0.15, 0, 0.15, 0))
LEGEND = Declared(".legend", D6, field="levels", steps=(9.0,), margin=Edges(top=1.2))
LEGEND_P = Declared(".legend p", D6, margin=Edges(0, 0, 0.8, 0))
SWATCH = Declared(".swatch", D6, width_mm=3.0, height_mm=3.0)
# The turn card's steps (render/fit/stacked.py TURN).
TURN_STEPS = Declared(".steps", D6, field="turn_sequence", line_height=1.15, padding=Edges(left=4.0),
                      margin=Edges(0, 0, 1.0, 0))
TURN_STEP = Declared(".steps li", D6, margin=Edges(bottom=0.4))

# The weapons and distances cards' tables (render/fit/bounded.py): subtitles, heads, columns.
WEAPONS_SUB = Declared(".weapons-card .sub, .weapons-card .who", D6, steps=(8.0,), line_height=1.18)
WHO = Declared(".who", D6, field="attack", steps=(9.0,), margin=Edges(bottom=1.0))
WEAPONS_DAMAGE = Declared(".weapons col.dmg", D6, share=0.38)
BAND_COLUMN = Declared(".distances col.band", D6, share=0.24)
REACH_COLUMN = Declared(".distances col.reach", D6, share=0.24)
DISTANCE_HEAD = Declared(".distances th", D6, steps=(8.0,))
BAND_NAME = Declared(".distances td:first-child b", D6, field="name", steps=(8.5,))
# The ladder card's cells and its level column (a name may take two lines there).
LADDER_CELL = Declared(".ladder td, .ladder th", D6, line_height=1.05, padding=Edges(0.2, 0.8, 0.2, 0.8))
LEVEL_COLUMN = Declared(".ladder th.lvl", D6, field="name", weight=700, width_mm=16.0)

# --- The Six Shooter challenge card (printed before six-shooter/cards.css; render/fit/bounded.py) ---
SS = "six-shooter/cards.css"
CHALLENGE_NAME = Declared(".challenge h2", SS, field="name", steps=(11.0,), line_height=1.15)
CHALLENGE_TEXT = Declared(".challenge .fitted", SS, field="description", line_height=1.18)
CHALLENGE_P = Declared(".challenge .fitted p", SS, margin=Edges(0, 0, 1.0, 0))
CHALLENGE_TABLE = Declared(".challenge table", SS, margin=Edges(0, 0, 1.0, 0))
METHOD_COLUMN = Declared(".challenge col.m", SS, share=0.34)
CN_COLUMN = Declared(".challenge col.cn", SS, share=0.10)
OK_COLUMN = Declared(".challenge col.ok", SS, share=0.28)
ROLL_COLUMN = Declared(".challenge col.roll", SS, share=0.28)
CHALLENGE_CELL = Declared(".challenge td, .challenge th", SS, field="methods", steps=(9.0,), line_height=1.1,
                          padding=Edges(0.4, 0.5, 0.4, 0.5), rule=Rule(0.5, style="solid var(--rule)"))
CHALLENGE_HEAD = Declared(".challenge th", SS, steps=(7.5,))
CHALLENGE_CN = Declared(".challenge td.cn", SS, steps=(10.0,), weight=700)
STAGES = Declared(".challenge .stages", SS, steps=(8.0,), line_height=1.18,
                  margin=Edges(0, 0, 1.0, 0))
GM_NOTES = Declared(".challenge .gm", SS, field="gm_notes", padding=Edges(left=1.5),
                    rule=Rule(2.0, "left", "solid #000"))

# --- The Sixes actions card (printed before sixes/cards.css; render/fit/stacked.py ACTIONS) ---
SIXES = "sixes/cards.css"
ACTION_ROW = Declared(".card .row", SIXES, field="reminder", margin=Edges(bottom=1.1))
ACTION_ICON = Declared(".card .row .icon", SIXES, width_mm=8.5, height_mm=8.5, margin=Edges(right=2.0))
ACTION_NAME = Declared(".card .row b", SIXES, field="name", steps=(9.5,))

# --- The packet's cards (templates/packet/cards/*.html, before packet/cards.css; measured by faces.py) ---
PACKET_CARDS, PACKET = "packet/cards.css", "packet/packet.css"
CARD_TITLE = Zone(".packet-card .packet-title", PACKET_CARDS, field="name", steps=(11.0,), line_height=1.15,
                  weight=700, margin=Edges(0, 0, 2.4, 0), padding=Edges(bottom=0.6), rule=Rule(0.8, "bottom"),
                  grows=True, what="the name on {name}'s card")
CARD_TEXT = Zone(".packet-card .packet-text", PACKET_CARDS, field="text", steps=(9.0, 8.0, 7.0), line_height=1.18,
                 weight=400, margin=Edges(0, 0, 0, 0), gap_mm=1.0)
CARD_SAY = Zone(".packet-card .packet-say", PACKET_CARDS, field="say", steps=(9.0, 8.0, 7.0), line_height=1.18,
                weight=400, italic=True, padding=Edges(1.0, 1.5, 1.0, 2.5), margin=Edges(0, 0, 1.0, 0),
                rule=Rule(1.0, "left"))
ITEM_CARD = Face("an item card", "", "packet.yaml", zones=(CARD_TITLE, replace(CARD_TEXT, what="item {number}'s card")))
ABILITY_CARD = Face("an ability card", "", "packet.yaml", zones=(
    CARD_TITLE, *(replace(zone, what="the card of the ability '{name}'") for zone in (CARD_TEXT, CARD_SAY))))
NOTE_CARD = Face("a note", "", "packet.yaml", zones=(
    Zone(".packet-card .note-value", PACKET_CARDS, field="value", steps=(30.0,), line_height=1.0, weight=700,
         margin=Edges(14.0, 0, 0, 0), grows=True),
    Zone(".packet-card .note-currency", PACKET_CARDS, field="currency", steps=(12.0,), line_height=1.15, weight=400,
         what="the currency on a note of {value}")))
SEALED_CARD_SIZE = "poker"      # the cards sealed in an insert print on its page at this size, whatever --card-size

# --- A sealed insert (templates/packet/sealed.html): an A6 box for a small envelope, or a folded page ---
INSERT = Declared(".sealed .sealed-page.insert .sealed-box", PACKET, steps=(11.0,), line_height=1.18, weight=400,
                  padding=Edges(8.0, 8.0, 8.0, 8.0), margin=Edges(0, 0, 1.5, 0), width_mm=105.0, height_mm=148.0)
FOLD = replace(INSERT, selector=".sealed .sealed-page.fold .sealed-box", padding=Edges(), width_mm=186.0,
               height_mm=230.0)
SEALED_HEAD = Zone(".sealed .kicker, .sealed .sealed-when, .sealed .sealed-time", PACKET, field="trigger",
                   steps=(8.0,), line_height=1.3, weight=400, margin=Edges(0, 0, 2.0, 0), grows=True)
SEALED_TEXT = Zone(".sealed .sealed-text", PACKET, field="text", steps=(11.0, 10.0, 9.0), line_height=1.18,
                   weight=400, margin=Edges(0, 0, 0, 0), gap_mm=2.0, what="the inside of sealed insert {number}")
SEALED_TRIGGER = Declared(".sealed .sealed-trigger", PACKET, steps=(14.0,), line_height=1.2, weight=700,
                          margin=Edges(0, 0, 3.0, 0))
FOLD_LINE = Declared(".sealed .fold-line", PACKET, steps=(8.0,), line_height=1.18, weight=400,
                     margin=Edges(40.0, 0, 0, 0))
SEALED_CARD = Declared(".sealed .sealed-card", PACKET, steps=(9.0,), line_height=1.18, weight=400,
                       padding=Edges(3.2, 3.0, 3.0, 3.0), margin=Edges(0, 4.0, 4.0, 0),
                       width_mm=CARD_SIZES[SEALED_CARD_SIZE][0], height_mm=CARD_SIZES[SEALED_CARD_SIZE][1])
INSIDE = Face("the inside of a sealed insert", "", "packet.yaml", zones=(SEALED_HEAD, SEALED_TEXT), frame=INSERT)

# --- Name badges (templates/packet/badges.html), on the paper's badge stock, the grid centred on the page:
# hold a printed sheet against the stock before printing the lot. ---
MM_PER_IN = 25.4
BADGE_STOCK = {
    A4.name: Stock("Avery L4785", 2, 4, 80.0, 50.0),
    LETTER.name: Stock("Avery 5390", 2, 4, 3.375 * MM_PER_IN, 7 / 3 * MM_PER_IN, inches=("3 3/8", "2 1/3")),
}

def badges_per_sheet(paper: Paper) -> int:
    """How many name badges a sheet of `paper`'s badge stock holds (what the pack plan pages them by)."""
    return BADGE_STOCK[paper.name].per_sheet


BADGE_MARK = Declared(".badge .badge-mark", PACKET, steps=(11.0,), line_height=2.3, weight=700,     # a 9 mm circle
                      place=Edges(top=3.0, right=3.0), width_mm=9.0, height_mm=9.0)
BADGE_NAME = Zone(".badge .badge-name", PACKET, field="name", steps=(18.0, 16.0, 14.0, 12.0), line_height=1.1,
                  weight=700, margin=Edges(0, 0, 1.0, 0), grows=True, max_lines=2, what="the name on a name badge")
BADGE_PLAYER = Zone(".badge .badge-player", PACKET, field="player", steps=(10.0,), line_height=1.2, weight=400,
                    margin=Edges(0, 0, 1.0, 0), height_mm=4.3)      # one line, kept whether the pack prints it or not
BADGE_LINE = Zone(".badge .badge-line", PACKET, field="description", steps=(8.0, 7.5, 7.0), line_height=1.2,
                  weight=400, what="{name}'s public description on a name badge")
BADGES = {paper: Face("a name badge", "", "", zones=(BADGE_NAME, BADGE_PLAYER, BADGE_LINE), corner=BADGE_MARK,
                      frame=Declared(f".badge-grid.{paper} .badge", PACKET, steps=(8.0,), line_height=1.18,
                                     weight=400, padding=Edges(4.0, 4.0, 4.0, 4.0), width_mm=stock.width_mm,
                                     height_mm=stock.height_mm))
          for paper, stock in BADGE_STOCK.items()}

# Every declaration, in the order its sheet prints it (a later rule of equal weight wins).
DECLARED: tuple[Declared, ...] = (
    CARD, CARD_H2, CARD_FOOT,
    LABEL, LABEL_NAME, LABEL_LINE, STAMP,
    COVER_PAGE_MARGINS, COVER_PAGE, COVER_NUMBER, COVER_FIGURE, COVER_NAME, COVER_ROLE, COVER_H2, CHECKLIST,
    CHECKLIST_ITEM, COVER_HALF, HALF_NUMBER, HALF_FIGURE, HALF_NAME, HALF_ROLE, HALF_H2, HALF_CHECKLIST, HALF_ITEM,
    COVER_SMALL,
    D6_SUB, D6_P, D6_CELL, GRID_CELL, LEGEND, LEGEND_P, SWATCH, TURN_STEPS, TURN_STEP,
    WEAPONS_SUB, WHO, WEAPONS_DAMAGE, BAND_COLUMN, REACH_COLUMN, DISTANCE_HEAD, BAND_NAME, LADDER_CELL, LEVEL_COLUMN,
    CHALLENGE_NAME, CHALLENGE_TEXT, CHALLENGE_P, CHALLENGE_TABLE, METHOD_COLUMN, CN_COLUMN, OK_COLUMN, ROLL_COLUMN,
    CHALLENGE_CELL, CHALLENGE_HEAD, CHALLENGE_CN, STAGES, GM_NOTES,
    ACTION_ROW, ACTION_ICON, ACTION_NAME,
    SEALED_TRIGGER, FOLD_LINE, SEALED_CARD,
)
# Faces made of declared zones alone, by face template, or by name for a
# face that is not a card (faces.py measures them; `fit_face` fits one by name).
FACES: dict[str, Face] = {
    "packet/cards/item.html": ITEM_CARD, "packet/cards/ability.html": ABILITY_CARD, "packet/cards/note.html": NOTE_CARD,
    "sealed/insert": INSIDE, "sealed/fold": replace(INSIDE, frame=FOLD),
    **{f"badge/{paper}": face for paper, face in BADGES.items()},
}


def every_declared() -> tuple[Declared, ...]:
    """Every declaration: `DECLARED` and the frames and zones of every registered face, each rule once."""
    found = {d.css(): d for d in (*DECLARED, *(d for face in FACES.values() for d in face.declared()))}
    return tuple(found.values())


def stylesheet(sheet: str, declared: Iterable[Declared] | None = None) -> str:
    """The CSS rules of every declaration printed beside `sheet`, or of those `declared`."""
    chosen = every_declared() if declared is None else tuple(declared)
    return "\n".join(d.css() for d in chosen if d.sheet == sheet) + "\n"
