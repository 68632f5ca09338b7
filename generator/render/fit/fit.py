"""Text in boxes of fixed size: which font step it takes, and what cannot fit.

Edge layer: it knows the card sizes and the card's frame (declared in
render/fit/boxes.py, which prints its CSS), and measures text with the shipped fonts
(core/measure.py), never with the renderer, so `sixes check` answers in
milliseconds. Which boxes each system has is render/fit/bounded.py; the same
boxes give `check` its problems and the templates their font step, so what
`check` passes, `build` prints.

A bounded box holds one or more data fields. Its text takes the largest of
its font steps at which every field fits; below the last step (the legible
floor) the box refuses, and each field past its share of the room is named
at its file:line:col with how many words are too many.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from ...core.errors import Problem
from ...core.loading import Key
from ...core.measure import PT_PER_MM, line_count, prose_lines, words_that_fit
from ..options import CARD_SIZES, PrintOptions
from .boxes import CARD, CARD_FOOT, CARD_SAFETY, FOOT_AIR

# A card's numbers, all from its declaration (render/fit/boxes.py CARD, CARD_FOOT).
CARD_STEPS = CARD.steps     # font steps of text on a card, largest first: the last is the legible floor
LINE_HEIGHT = CARD.line_height or 1.0
CARD_BORDER = CARD.rule.pt / PT_PER_MM if CARD.rule else 0.0
# The foot's line, its place above the bottom edge and a little air above it.
FOOT_RESERVE = CARD_FOOT.place.mm("bottom") + CARD_FOOT.pt * LINE_HEIGHT / PT_PER_MM + FOOT_AIR


@dataclass(frozen=True)
class Text:
    """One data field in a box, and where it came from (for the problem)."""
    name: str                   # the field as the data file spells it: gm_notes
    text: str
    loc: Key = ()               # its place in its YAML file
    file: str = ""              # the file, relative to the system's folder
    gap_mm: float = 1.0         # after each paragraph
    inset_mm: float = 0.0       # narrower than its box by this (a rule at its side)
    italic: bool = False

    def source(self, system: str) -> str:
        """How the printed box names this field (`data-field`), for the print
        lint to report it at its file:line:col: 'six-shooter/challenges.yaml#challenges.1.gm_notes'
        (a file of the data folder itself, `system` "": 'packet.yaml#sixes.items.0.text')."""
        return (f"{system}/" if system else "") + f"{self.file}#" + ".".join(str(part) for part in self.loc)


class Places(Protocol):
    """Where a box's fields are: a YAML document, or what stands for one."""

    def problem(self, loc: Key, message: str, *, hint: str | None = None) -> Problem: ...


@dataclass(frozen=True)
class Box:
    """A box of fixed size: how wide, how much height its fields may take,
    at which sizes, and what it is called in a message."""
    what: str
    width_mm: float
    height_mm: float
    texts: tuple[Text, ...]
    steps: tuple[float, ...] = CARD_STEPS
    line_height: float = LINE_HEIGHT
    bigger: str = ""            # a hint: what would hold more (another card size)
    weight: int = 400           # the fields' font weight (a bold name breaks into more lines)
    max_lines: int = 0          # a field may take at most this many lines (0: as many as the height holds)

    def lines(self, text: Text, size: float) -> int:
        return line_count(text.text, self.width_mm - text.inset_mm, size, weight=self.weight, italic=text.italic) \
            if text.text.strip() else 0

    def height(self, text: Text, size: float) -> float:
        if not text.text.strip():
            return 0.0
        return self.lines(text, size) * size * self.line_height / PT_PER_MM + len(prose_lines(text.text)) * text.gap_mm

    def step(self) -> float | None:
        """The largest step at which every field fits; None below the floor."""
        for size in self.steps:
            if sum(self.height(t, size) for t in self.texts) <= self.height_mm and not (
                    self.max_lines and any(self.lines(t, size) > self.max_lines for t in self.texts)):
                return size
        return None

    def too_long(self) -> list[TooLong]:
        """Each field past its share at the floor: its share is the room the
        others leave, counting each other field at most at an equal part of
        the box."""
        floor = self.steps[-1]
        line_mm = floor * self.line_height / PT_PER_MM
        fair = self.height_mm / len(self.texts)
        found = []
        for text in self.texts:
            others = sum(min(self.height(o, floor), fair) for o in self.texts if o is not text)
            room = self.height_mm - others - len(prose_lines(text.text)) * text.gap_mm
            lines = max(0, int(room // line_mm))
            lines = min(lines, self.max_lines) if self.max_lines else lines
            if self.lines(text, floor) > lines:
                fit = words_that_fit(text.text, lines, self.width_mm - text.inset_mm, floor, weight=self.weight,
                                     italic=text.italic)
                found.append(TooLong(text, len(text.text.split()) - fit, fit, floor))
        if not found and self.step() is None:      # shares rounded in its favour: the longest is too long
            text = max(self.texts, key=lambda t: self.height(t, floor))
            fit = words_that_fit(text.text, int(self.height_mm // line_mm), self.width_mm - text.inset_mm, floor,
                                 weight=self.weight, italic=text.italic)
            found.append(TooLong(text, len(text.text.split()) - fit, fit, floor))
        return found


@dataclass(frozen=True)
class TooLong:
    """A field that will not fit: the words too many, the words that fit,
    and the size they were measured at (the floor, or a name's own size)."""
    text: Text
    over: int
    fit: int
    size_pt: float
    also: str = ""          # another way to make room ("or shorten its name, …")
    unit: str = "word"      # what `over` and `fit` count: words of the field, or letters of a name
    each: str = ""          # what `fit` is a limit of, when not the whole field (" in each level's name")


def card_width(options: PrintOptions) -> float:
    """The width of a card's content, in mm."""
    return CARD_SIZES[options.card_size][0] - CARD.padding.mm("left") - CARD.padding.mm("right") - 2 * CARD_BORDER


def card_room(options: PrintOptions) -> float:
    """The height a card's content may fill above its foot, in mm."""
    return CARD_SIZES[options.card_size][1] - CARD.padding.mm("top") - FOOT_RESERVE - CARD_SAFETY


def text_height(text: str, width: float, size: float, line_height: float, weight: int = 400) -> float:
    """Height of text set in one block, in mm."""
    return line_count(text, width, size, weight=weight) * size * line_height / PT_PER_MM


def bigger_card(build: Callable[[PrintOptions], tuple[Box, ...]], options: PrintOptions) -> str:
    """'or use --card-size tarot' when the biggest card would hold it all."""
    for size in ("tarot",):
        if options.card_size != size and all(b.step() is not None for b in build(PrintOptions(card_size=size))):
            return f"or use --card-size {size}"
    return ""


def box_problems(box: Box, doc: Places) -> list[Problem]:
    """One error per field of `box` that will not fit, at its position in `doc`."""
    problems = []
    for long in box.too_long():
        hint = "shorten it" + "".join(f", {way}" for way in (long.also, box.bigger) if way)
        problems.append(doc.problem(
            long.text.loc, f"about {_count(long.over, long.unit)} too long for {box.what} "
                           f"(at most about {_count(long.fit, long.unit)} fit{long.each} at {long.size_pt:g} pt)",
            hint=hint))
    return problems


def _count(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


@dataclass(frozen=True)
class Fit:
    """What a face template is told (`card.fit`): the step its bounded text
    prints at, whether part of it follows on the next card, and for a table
    that runs over cards, the rows this card prints and which part it is."""
    pt: float
    continued: bool = False
    rows: tuple = ()
    part: int = 1
    parts: int = 1
    sources: tuple[str, ...] = ()     # data-field of each bounded text (or of each row's)
    pts: tuple[float, ...] = ()       # a face of declared zones: each zone's step (faces.py)


@dataclass(frozen=True)
class Cell:
    """One cell of a table row: its width (mm) and its parts, each starting a
    line: (text, font size or None for the step, weight)."""
    width: float
    parts: tuple[tuple[str, float | None, int], ...]
    source: Text | None = None      # the data field its first part prints (a name), to blame when it is too tall

    def height(self, size: float, line_height: float) -> float:
        return sum(line_count(text, self.width, part or size, weight=weight) * (part or size)
                   for text, part, weight in self.parts if text) * line_height / PT_PER_MM


@dataclass(frozen=True)
class Row:
    """One row of a table on cards: its cells, the data fields it holds
    (for the problem), and the item the template prints."""
    cells: tuple[Cell, ...]
    texts: tuple[Text, ...]
    item: object = None

    def height(self, size: float, line_height: float, pad: float) -> float:
        return max(cell.height(size, line_height) for cell in self.cells) + pad


def flow(rows: list[Row], room: float, steps: tuple[float, ...], line_height: float, pad: float,
         first: float | None = None) -> tuple[float, list[list[Row]]] | None:
    """Rows dealt onto as few cards as the floor needs, at the largest step
    that needs no more, evenly (no card left with one straggler): (step,
    rows of each card); None when a row alone does not fit a card at the
    floor. The first card may have more room (`first`: its heading is
    shorter than ', continued')."""
    floor = _deal(rows, steps[-1], room, first or room, line_height, pad)
    if floor is None:
        return None
    for size in steps:
        cards = _deal(rows, size, room, first or room, line_height, pad)
        if cards is not None and len(cards) <= len(floor):
            total = sum(row.height(size, line_height, pad) for row in rows)
            cap = total / len(cards)
            while cap < room:       # the lowest fill that still needs no more cards
                even = _deal(rows, size, min(cap, room), min(cap, first or room), line_height, pad)
                if even is not None and len(even) <= len(cards):
                    return size, even
                cap += 1.0
            return size, cards
    return steps[-1], floor


def _deal(rows: list[Row], size: float, room: float, first: float, line_height: float, pad: float
          ) -> list[list[Row]] | None:
    """Rows in order onto cards of `room` (the first of `first`); None when one row alone is too tall."""
    cards: list[list[Row]] = [[]]
    used = 0.0
    for row in rows:
        height = row.height(size, line_height, pad)
        if height > min(room, first):      # a row must fit whichever card it lands on
            return None
        if cards[-1] and used + height > (first if len(cards) == 1 else room):
            cards.append([])
            used = 0.0
        cards[-1].append(row)
        used += height
    return cards
