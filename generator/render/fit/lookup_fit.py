"""The D6xD6 lookup card: a fixed grid, and under it a legend that names
every damage level, then two lines of the tool's own words.

Edge layer, beside render/fit/bounded.py (which asks it for `check`'s
problems and the face's heading size). The card prints at one size but for
its heading, so what decides whether it holds is the length of the level
names, of the character's name in the heading, and of the tool's lines in
the run's language (a French or German card spends a line more on its
subtitle and its last line than an English one). A name that would take
the heading onto a second line prints it smaller first. Measures
templates/d6xd6/cards/lookup.html's words with the numbers declared in
render/fit/boxes.py (which print its CSS).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

from ...core.i18n import _, fill
from ...core.measure import FILL, PT_PER_MM, fewest_lines, line_count, text_width
from .fit import LINE_HEIGHT, Box, Fit, Text, TooLong, card_room, card_width, text_height
from ..options import PrintOptions
from .stacked import H2_EXTRA, H2_LINE, H2_PT, foot_extra
from .boxes import D6_CELL, D6_SUB, GRID_CELL, LEGEND, LEGEND_P, SWATCH

# The card's numbers, from their declarations (render/fit/boxes.py), which also print its CSS.
TEXT_PT = LEGEND.pt                             # the legend, the subtitle (D6_SUB) and the grid (D6_CELL): 9 pt
SUB_AFTER = D6_SUB.margin.mm("top") + D6_SUB.margin.mm("bottom")
GRID_LINE = GRID_CELL.line_height or 1.0        # a grid cell: its padding and the rule between rows
GRID_PAD = GRID_CELL.padding.mm("top") + GRID_CELL.padding.mm("bottom") + (D6_CELL.rule.exact_mm if D6_CELL.rule
                                                                           else 0.0)
LEGEND_TOP, PARAGRAPH_AFTER = LEGEND.margin.mm("top"), LEGEND_P.margin.mm("bottom")
SWATCH_MM = SWATCH.width_mm or 0.0
# The legend's lines are filled closer to the edge than FILL: short words
# and a break on either side of each " · " let the renderer set a line to
# 99 % of the card (tests/test_fit.py holds the count against WeasyPrint's).
LEGEND_FILL = 0.99
# The heading's sizes, largest first: a name that would take it onto more
# lines than the legend leaves it prints smaller before check refuses it.
HEADING_STEPS = (H2_PT, 10.5, 9.5)
# What the card's room (fit.card_room) keeps below every card's text, given
# back to the legend: SAFETY (1.5 mm) and the foot's reserve past its line
# (0.4 mm). Every line of this card is measured, and WeasyPrint leaves 1.89 mm
# under a legend check fits exactly, on every card size and shipped language
# (tests/test_lookup_legend.py): with this back, a legend one line longer than
# check passes would truly not fit, so a card check passes never shows an
# empty line under its legend. 0.25 mm stays for rounding.
GIVEN_BACK = 1.64
# The shortest a level's name is asked to be: a word of four letters (K.o.).
SHORT_NAME = 4


def _take_off(sheet: Any, category_word: dict[str, str]) -> str:
    """The card's last line, as lookup.html words it for this sheet."""
    if sheet.armour:
        first = fill(_("armour %(steps)s"), steps=sheet.armour_steps)
    elif sheet.reactive:
        first = fill(_("1 vs %(categories)s"), categories="/".join(category_word[k] for k in sheet.reactive))
    else:
        first = _("armour, or 1 if Focused")
    return f"{_('Take off first:')} {first}; {_('+1 per Drama.')}"


def _lines_mm(text: str, width: float, indent: float = 0.0, fill: float = FILL) -> float:
    return line_count(text, width, TEXT_PT, indent_mm=indent, fill=fill) * TEXT_PT * LINE_HEIGHT / PT_PER_MM


def legend(game: Any) -> str:
    """The legend's words: each level's abbreviation and name."""
    from ...systems.d6xd6.outputs import rungs
    return legend_of(rungs(game))


def legend_of(ladder: Sequence[Any]) -> str:
    """The legend's words for a ladder of rungs (its first, no damage, has none)."""
    return " · ".join(f"{r.abbr} {r.name}" for r in ladder[1:])


def heading(name: str) -> str:
    """The card's heading, as lookup.html words it."""
    return fill(_("Lookup: %(name)s"), name=name) if name else _("Lookup")


def room_for_legend(sheet: Any, title: str, rows: int, category_word: dict[str, str],
                    options: PrintOptions) -> float:
    """The height the legend of level names may take on `sheet`'s lookup
    card: the card's room less its heading, subtitle, grid of `rows`
    rows, the two lines after the legend and a foot past one line."""
    width = card_width(options)
    used = text_height(heading(sheet.name), width, H2_PT, H2_LINE, weight=700) + H2_EXTRA
    used += _lines_mm(_("Row: yours. Column: damage in."), width) + SUB_AFTER
    used += rows * (TEXT_PT * GRID_LINE / PT_PER_MM + GRID_PAD)
    swatch = SWATCH_MM + text_width(" ", TEXT_PT)
    used += LEGEND_TOP + _lines_mm(_("at or below you: one step worse. Plain: take it."), width, swatch)
    used += _lines_mm(_take_off(sheet, category_word), width) + 2 * PARAGRAPH_AFTER     # the last p's margin is air
    return card_room(options) - used - foot_extra(title, options) + GIVEN_BACK


@dataclass(frozen=True)
class LegendBox(Box):
    """The legend of damage levels, measured per name: the longest name is
    blamed by the letters it has past the most it may keep, the other names
    as they are (so each letter cut from it takes one off its count); only
    when even a short word in its place would not do is the next longest
    blamed too, beside that word."""

    ladder: tuple[Any, ...] = ()
    locs: tuple[tuple[Any, ...], ...] = ()     # each named rung's place in damage.yaml

    def fits(self, names: Sequence[str]) -> bool:
        named = [self.ladder[0], *(replace(r, name=n) for r, n in zip(self.ladder[1:], names, strict=True))]
        return _lines_mm(legend_of(named), self.width_mm, fill=LEGEND_FILL) <= self.height_mm

    def step(self) -> float | None:
        return TEXT_PT if self.fits([r.name for r in self.ladder[1:]]) else None

    def too_long(self) -> list[TooLong]:
        names = [r.name for r in self.ladder[1:]]
        found = []
        for i in sorted(range(len(names)), key=lambda k: -len(names[k])):
            limit = self._most_letters(names, i)
            found.append(TooLong(Text("name", names[i], self.locs[i], "damage.yaml"),
                                 len(names[i]) - max(limit, SHORT_NAME), max(limit, SHORT_NAME), TEXT_PT,
                                 unit="letter", each=" in this name, the others as they are,"))
            if limit >= SHORT_NAME:
                break
            names[i] = names[i][:SHORT_NAME]
        return [long for long in found if long.over > 0]

    def _most_letters(self, names: Sequence[str], i: int) -> int:
        """The most letters of names[i] that fit, the others as they are
        (-1 if none do): the longest start that fits, tried from the longest
        down, past the starts whose letters alone need more lines than the
        legend has (`fewest_lines`, which grows with the start: found by
        halving). A name of 2,000 letters was tried at every length."""
        def legend_with(k: int) -> list[str]:
            return [*names[:i], names[i][:k], *names[i + 1:]]

        def ruled_out(k: int) -> bool:
            text = legend_of([self.ladder[0], *(replace(r, name=n) for r, n in
                                                zip(self.ladder[1:], legend_with(k), strict=True))])
            floor = fewest_lines(text, self.width_mm, TEXT_PT, fill=LEGEND_FILL)
            return floor * TEXT_PT * LINE_HEIGHT / PT_PER_MM > self.height_mm       # as _lines_mm counts

        if ruled_out(0):
            return -1
        low, high = 0, len(names[i])
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (low, middle - 1) if ruled_out(middle) else (middle, high)
        return next((k for k in range(low, -1, -1) if self.fits(legend_with(k))), -1)


@dataclass(frozen=True)
class HeadingBox(Box):
    """A character's name in its lookup card's heading ("Lookup: name", bold),
    which may take only the height the legend leaves it: lines are counted
    in the heading as it prints, at each of HEADING_STEPS."""

    def lines(self, text: Text, size: float) -> int:
        return line_count(heading(text.text), self.width_mm, size, weight=700)

    def height(self, text: Text, size: float) -> float:
        return self.lines(text, size) * size * H2_LINE / PT_PER_MM

    def too_long(self) -> list[TooLong]:
        text, size = self.texts[0], self.steps[-1]
        words = text.text.split()
        fit = max((k for k in range(len(words) + 1)
                   if self.height(replace(text, text=" ".join(words[:k])), size) <= self.height_mm), default=0)
        return [TooLong(text, max(1, len(words) - fit), fit, size)]


def heading_box(sheet: Any, title: str, ladder: Sequence[Any], category_word: dict[str, str],
                options: PrintOptions, index: int = -1) -> HeadingBox:
    """The room `sheet`'s heading has once the legend of `ladder` has its own:
    the card's room for the legend with its heading at full size, less
    the legend, plus that heading."""
    from ...systems.d6xd6.rules import CONDITIONS
    width = card_width(options)
    room = room_for_legend(sheet, title, 1 + len(CONDITIONS), category_word, options)
    need = _lines_mm(legend_of(ladder), width, fill=LEGEND_FILL)
    own = text_height(heading(sheet.name), width, H2_PT, H2_LINE, weight=700)
    return HeadingBox("the heading of its lookup card (a longer name leaves too little room for the legend of "
                      "damage levels)", width, room - need + own,
                      (Text("name", sheet.name, ("characters", index, "name"), "characters.yaml"),),
                      steps=HEADING_STEPS)


def lookup_fits(context: Mapping[str, Any], options: PrintOptions) -> list[Fit]:
    """The size the card's heading prints at (`card.fit.pt`)."""
    box = heading_box(context["card"]["sheet"], context["title"], context["rungs"], context["category_word"],
                      options)
    return [Fit(box.step() or box.steps[-1])]


def unfit_lookups(game: Any, options: PrintOptions) -> Iterable[Box]:
    """The lookup cards whose legend does not fit. When it would not fit
    under a heading without a name, the level names are too long: one box
    holding the legend, blamed on each name past the letters every name
    may have (LegendBox). Otherwise each
    character whose name will not fit the heading, even at its smallest
    size, is blamed at the name (shortening it is what helps)."""
    from ...systems.d6xd6.outputs import CATEGORY_WORDS, rungs, sheet_for
    from ...systems.d6xd6.rules import CONDITIONS
    words = {key: _(w.word) for key, w in CATEGORY_WORDS.items()}
    width, ladder = card_width(options), rungs(game)
    sheets = [(i, sheet_for(c, game)) for i, c in enumerate([*game.characters.characters, None])]
    nameless = min(room_for_legend(replace(s, name=""), game.info.title, 1 + len(CONDITIONS), words, options)
                   for _i, s in sheets)
    if _lines_mm(legend_of(ladder), width, fill=LEGEND_FILL) > nameless:
        locs = (*(("levels", i, "name") for i in range(len(game.damage.levels))), ("overkill", "name"))
        yield LegendBox("the legend of the lookup card, which names every damage level", width, nameless,
                        (Text("name", legend_of(ladder), locs[0], "damage.yaml", gap_mm=0.0),), steps=(TEXT_PT,),
                        ladder=tuple(ladder), locs=locs)
        return
    for i, sheet in sheets:
        if sheet.name:
            box = heading_box(sheet, game.info.title, ladder, words, options, i)
            if box.step() is None:
                yield box
