"""Cards whose data texts stack down the face, one block each: the D6xD6
turn sequence (a list item a step) and the Sixes actions card (a row an
action, its name above its reminder, beside its icon).

Edge layer, like render/fit/bounded.py, which asks these layouts for `check`'s
problems and the faces' font step. Each layout measures its face template's
words (change the two together) with the numbers declared in
render/fit/boxes.py, which also prints the face's CSS. The tool's own lines on a
face are measured at the size they print, so a long game title or a long
name takes its real room.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from ...core.i18n import N_, _, fill
from ...core.loading import Key
from ...core.measure import PT_PER_MM, line_count, words_that_fit
from .fit import CARD_BORDER, FOOT_RESERVE, LINE_HEIGHT, Box, Fit, Text, TooLong, card_room, card_width, text_height
from ..options import CARD_SIZES, PrintOptions
from .boxes import (ACTION_ICON, ACTION_NAME, ACTION_ROW, CARD, CARD_FOOT, CARD_H2, D6_P, D6_SUB, TURN_STEP,
                    TURN_STEPS)

# A card's heading and foot, from their declarations (render/fit/boxes.py CARD_H2, CARD_FOOT).
H2_PT, H2_LINE = CARD_H2.pt, CARD_H2.line_height or 1.0
H2_EXTRA = CARD_H2.margin.mm("bottom") + CARD_H2.padding.mm("bottom") + (CARD_H2.rule.mm if CARD_H2.rule else 0.0)
CARD_PAD_BOTTOM = CARD.padding.mm("bottom")
FOOT_PT = CARD_FOOT.pt
MARKER_AIR = 1.0        # measure-only: room a list's number may take past its indent


def foot_extra(title: str, options: PrintOptions) -> float:
    """The height a foot's lines past its first take from the card (the
    card's room, fit.card_room, keeps one line for it)."""
    # Placed inside the card's border (its padding box).
    width = (CARD_SIZES[options.card_size][0] - 2 * CARD_BORDER
             - CARD_FOOT.place.mm("left") - CARD_FOOT.place.mm("right"))
    lines = line_count(title, width, FOOT_PT) if title.strip() else 1
    return max(0, lines - 1) * FOOT_PT * LINE_HEIGHT / PT_PER_MM


@dataclass(frozen=True)
class Block:
    """One data text on the face: what the data file calls it and where it
    is, the tool's fixed line above it (an action's name), and the least
    height its block takes (an icon beside it)."""
    text: Text
    above: tuple[str, float, int] | None = None    # (text, pt, weight), on a line of its own
    least_mm: float = 0.0
    above_at: Key = ()          # where the data file holds the line above (an action's name), to name it


@dataclass(frozen=True)
class Stack:
    """A face of stacked blocks under a heading, between fixed lines."""
    what: str                       # "the Turn sequence card", for a message
    system: str
    heading: str                    # a message (N_), measured in the run's language
    # From what the face is given (the document's context, or the same keys taken from the game):
    blocks: Callable[[Mapping[str, Any]], list[Block]]
    fixed: Callable[[Mapping[str, Any]], list[tuple[str, float, int, float]]]   # (text, pt, weight, space after)
    from_game: Callable[[Any], Mapping[str, Any]]     # the context's keys the face reads, from the game
    inset_mm: float                 # each block is this much narrower than the card (list indent, icon)
    gap_mm: float                   # after each block
    line_height: float = LINE_HEIGHT
    foot: bool = False              # the face prints the game's title in its foot

    def box(self, context: Mapping[str, Any], options: PrintOptions) -> Box:
        """The room the blocks share once the heading and fixed lines have
        theirs; a block's fixed line and least height come off that room at
        each step by the same measure (`StackBox`)."""
        width = card_width(options)
        used = text_height(_(self.heading), width, H2_PT, H2_LINE, weight=700) + H2_EXTRA
        used += sum(text_height(t, width, pt, self.line_height, weight) + after
                    for t, pt, weight, after in self.fixed(context))
        if self.foot:
            used += foot_extra(str(context.get("title", "")), options)
        blocks = self.blocks(context)
        # Without a foot the card's content runs down to its bottom padding;
        # the last block's space after it may reach into that padding.
        room = card_room(options) + (0.0 if self.foot else FOOT_RESERVE - CARD_PAD_BOTTOM) + self.gap_mm
        return StackBox(self.what, width, room - used,
                        tuple(Text(b.text.name, b.text.text, b.text.loc, b.text.file, gap_mm=self.gap_mm,
                                   inset_mm=self.inset_mm) for b in blocks),
                        line_height=self.line_height, blocks=tuple(blocks))

    def fits(self, context: Mapping[str, Any], options: PrintOptions) -> list[Fit]:
        box = self.box(context, options)
        return [Fit(box.step() or box.steps[-1], sources=tuple(t.source(self.system) for t in box.texts))]


@dataclass(frozen=True)
class StackBox(Box):
    """A Box whose texts each carry a fixed line above them and a least height."""
    blocks: tuple[Block, ...] = ()

    def _block(self, text: Text) -> Block:
        """The block a measured text is (found by its place in the data)."""
        return next(b for b in self.blocks if b.text.loc == text.loc)

    def height(self, text: Text, size: float) -> float:
        block = self._block(text)
        body = super().height(text, size) - (text.gap_mm if text.text.strip() else 0.0)
        if block.above is not None:
            line, pt, weight = block.above
            body += text_height(line, self.width_mm - text.inset_mm, pt, self.line_height, weight)
        return max(body, block.least_mm) + text.gap_mm

    def too_long(self) -> list[TooLong]:
        """The longest blocks, one after another, each cut by the lines the
        card is over (at most all of its own), until the rest fits at the
        floor: the least to shorten. When the lines above the blocks (the
        actions' names) overfill the card on their own, they are what to
        shorten, not the texts."""
        floor = self.steps[-1]
        bare = sum(self.height(replace(t, text=""), floor) for t in self.texts) - self.height_mm
        if bare > 0 and (names := self._names_too_long(bare)):
            return names
        line_mm = floor * self.line_height / PT_PER_MM
        over = sum(self.height(t, floor) for t in self.texts) - self.height_mm
        found = []
        for text in sorted(self.texts, key=lambda t: -self.lines(t, floor)):
            if over <= 0:
                break
            lines = self.lines(text, floor)
            cut = min(lines, math.ceil(over / line_mm))
            fit = words_that_fit(text.text, lines - cut, self.width_mm - text.inset_mm, floor)
            found.append(TooLong(text, max(1, len(text.text.split()) - fit), fit, floor, self._name_lines(text)))
            over -= cut * line_mm
        return found

    def _name_lines(self, text: Text) -> str:
        """'or shorten its name (2 lines at 9.5 pt)' when the line above the
        text runs over one line: that would make room too."""
        block = self._block(text)
        if block.above is None:
            return ""
        line, pt, weight = block.above
        lines = line_count(line, self.width_mm - text.inset_mm, pt, weight=weight)
        return f"or shorten its name ({lines} lines at {pt:g} pt)" if lines > 1 else ""

    def _names_too_long(self, over: float) -> list[TooLong]:
        """The lines above the blocks that run over one line, longest first,
        each cut until the card's bare blocks fit: the names to shorten."""
        named = []
        for block, text in zip(self.blocks, self.texts, strict=True):     # a text is measured narrowed by its inset
            if block.above is not None and block.above_at:
                line, pt, weight = block.above
                width = self.width_mm - text.inset_mm
                named.append((line_count(line, width, pt, weight=weight), line, pt, weight, width, block))
        found = []
        for lines, line, pt, weight, width, block in sorted(named, key=lambda n: -n[0]):
            line_mm = pt * self.line_height / PT_PER_MM
            cut = min(lines - 1, math.ceil(over / line_mm))
            if over <= 0 or cut <= 0:
                break           # longest first: the rest take one line each, or nothing is over
            fit = words_that_fit(line, lines - cut, width, pt, weight=weight)
            found.append(TooLong(Text("name", line, block.above_at, block.text.file),
                                 max(1, len(line.split()) - fit), fit, pt))
            over -= cut * line_mm
        return found


# The D6xD6 turn card: templates/d6xd6/cards/turn.html, with the numbers
# of its subtitle, its steps and its paragraph declared in render/fit/boxes.py.
def _turn_fixed(c: Mapping[str, Any]) -> list[tuple[str, float, int, float]]:
    combat = c["combat"]
    metres = combat.free_move_metres
    sub_after = D6_SUB.margin.mm("top") + D6_SUB.margin.mm("bottom")
    # The card's own messages (templates/d6xd6/cards/turn.html), filled in as the template fills them.
    return [(fill(_("A turn is %(seconds)s seconds: one action each."), seconds=combat.turn_seconds), D6_SUB.pt, 400,
             sub_after),
            (fill(_("Move up to %(metres)s m and still act. Further takes a movement action: %(metres)s m more per "
                    "success level."), metres=metres), CARD.pt, 400,
             D6_P.margin.mm("bottom") + TURN_STEPS.margin.mm("bottom"))]


def _turn_blocks(c: Mapping[str, Any]) -> list[Block]:
    return [Block(Text("turn_sequence", step, ("turn_sequence", i), "combat.yaml"))
            for i, step in enumerate(c["combat"].turn_sequence)]


TURN = Stack("the Turn sequence card", "d6xd6", N_("Turn sequence"), _turn_blocks, _turn_fixed,
             lambda game: {"combat": game.combat, "title": game.info.title},
             inset_mm=TURN_STEPS.padding.mm("left") + MARKER_AIR, gap_mm=TURN_STEP.margin.mm("bottom"),
             line_height=TURN_STEPS.line_height or 1.0, foot=True)


# The Sixes actions card: templates/sixes/cards/actions.html, with its row's,
# icon's and name's numbers declared in render/fit/boxes.py (ACTION_*).
ICON_MM, ICON_GAP = ACTION_ICON.width_mm or 0.0, ACTION_ICON.margin.mm("right")
ROW_GAP, NAME_PT = ACTION_ROW.margin.mm("bottom"), ACTION_NAME.pt


def _action_blocks(c: Mapping[str, Any]) -> list[Block]:
    return [Block(Text("reminder", action.reminder, ("actions", key, "reminder"), "actions.yaml"),
                  above=(action.name, NAME_PT, 700), least_mm=ICON_MM, above_at=("actions", key, "name"))
            for key, action in c["actions"].items()]


ACTIONS = Stack("the Actions hand-signal card", "sixes", N_("Actions"), _action_blocks, lambda c: [],
                lambda game: {"actions": game.actions}, inset_mm=ICON_MM + ICON_GAP, gap_mm=ROW_GAP)

# By face template.
STACKS: dict[str, Stack] = {"d6xd6/cards/turn.html": TURN, "sixes/cards/actions.html": ACTIONS}


def unfit_stacks(system: str, game: Any, options: PrintOptions) -> list[Box]:
    """The stacked faces of `system` whose blocks do not fit at the floor."""
    boxes = [stack.box(stack.from_game(game), options) for stack in STACKS.values() if stack.system == system]
    return [box for box in boxes if box.step() is None]
