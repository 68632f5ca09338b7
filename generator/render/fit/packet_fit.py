"""Whether the packet's cards, sealed inserts and badges hold their text.

Fit room: the boxes are declared in packet_boxes.py; measuring is fit.py's
Box (the shipped fonts' metrics, core/measure.py), as every other card's.
`packet_fit_problems` is what `sixes check` and the start of `pack` report
(each field at its file:line:col in packet.yaml, or a badge's name at its
character's); `PACKET_CARD_LAYOUTS` tells the card faces the step their
text prints at (bounded.card_faces), from the same measurement.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ...core.errors import Problem
from ...core.measure import PT_PER_MM, line_count
from ...game.packet import Packet, Person
from ...game.packet_checks import text_at
from ...game.packet_stuff import Where
from ..options import DEFAULT_OPTIONS, PrintOptions
from .fit import Box, Fit, Text, bigger_card, card_room, card_width
from .packet_boxes import BADGE_NAME_LINES, BADGE_STOCK, BOXES, SEALED_CARD_SIZE, BoxSpec

ITEM_FACE = "packet/cards/item.html"
ABILITY_FACE = "packet/cards/ability.html"
NOTE_FACE = "packet/cards/note.html"


def _height(spec: BoxSpec, text: str, width: float, pt: float | None = None) -> float:
    """The height `text` takes set in a box declared by `spec` (its gap below included)."""
    if not text.strip():
        return 0.0
    size = pt or spec.steps[0]
    lines = line_count(text, width - spec.pad[1] - spec.pad[3], size, weight=spec.weight, italic=spec.italic)
    return lines * size * spec.line_height / PT_PER_MM + spec.pad[0] + spec.pad[2] + spec.gap_mm


def _texts(spec: BoxSpec, *fields: tuple[str, str, BoxSpec | None]) -> tuple[Text, ...]:
    """The box's fields as fit.Text: an inset box (the card's `say`) narrower by its padding."""
    return tuple(Text(name, text, gap_mm=(own or spec).gap_mm + ((own.pad[0] + own.pad[2]) if own else 0.0),
                      inset_mm=(own.pad[1] + own.pad[3]) if own else 0.0)
                 for name, text, own in fields)


def card_box(name: str, text: str, say: str, options: PrintOptions) -> Box:
    """An item's or ability's card: the title, then the text (and the line to say) at one step."""
    width = card_width(options)
    room = card_room(options) - _height(BOXES["card_title"], name, width)
    spec = BOXES["card_text"]
    return Box("its card", width, room, _texts(spec, ("text", text, None), ("say", say, BOXES["card_say"])),
               steps=spec.steps, line_height=spec.line_height)


def _card_fits(context: Mapping[str, Any], options: PrintOptions) -> list[Fit]:
    card = context["card"]
    box = card_box(card["name"], card.get("text", ""), card.get("say", ""), options)
    return [Fit(box.step() or box.steps[-1])]


PACKET_CARD_LAYOUTS: dict[str, Callable[[Mapping[str, Any], PrintOptions], list[Fit]]] = {
    ITEM_FACE: _card_fits, ABILITY_FACE: _card_fits}


def insert_box(text: str, trigger: str, form: str | None) -> Box:
    """A sealed insert's inside: its text at a step, under the repeated trigger. Without a form
    (the pack may choose either) the smaller, the insert, is measured."""
    spec = BOXES["fold" if form == "fold" else "insert"]
    width = spec.inner_width
    room = spec.inner_height - _height(BOXES["insert_head"], trigger, width)
    return Box("the inside of its sealed insert", width, room, _texts(spec, ("text", text, None)),
               steps=spec.steps, line_height=spec.line_height)


def sealed_card_pt(name: str, text: str, say: str = "") -> float:
    """The step of a card sealed in an insert (printed at SEALED_CARD_SIZE on the insert's page)."""
    box = card_box(name, text, say, PrintOptions(card_size=SEALED_CARD_SIZE))
    return box.step() or box.steps[-1]


def insert_pt(text: str, trigger: str, form: str | None) -> float:
    """The step a sealed insert's inside prints at (its floor, if the check was skipped)."""
    box = insert_box(text, trigger, form)
    return box.step() or box.steps[-1]


def packet_fit_problems(packets: Iterable[Packet], options: PrintOptions = DEFAULT_OPTIONS,
                        data_dir: Path | None = None) -> list[Problem]:
    """Every card text, sealed insert and badge name of the packets that
    will not fit its box, at its place. Run before anything renders."""
    problems: list[Problem] = []
    for packet in packets:
        stuff = packet.stuff
        inside = PrintOptions(card_size=SEALED_CARD_SIZE)      # a sealed insert's cards print at this size
        for item in stuff.items:
            size = inside if item.sealed else options
            problems += _too_long(card_box(item.name, item.text, "", size), item.at,
                                  f"item {item.number}'s card", None if item.sealed else options)
        for ability in stuff.abilities:
            for size in (options, inside) if ability.sealed_for else (options,):
                problems += _too_long(card_box(ability.name, ability.text, ability.say, size), ability.at,
                                      f"the card of the ability '{ability.name}'", options)
        for sealed in stuff.sealed:
            problems += _too_long(insert_box(sealed.text, sealed.trigger, sealed.form), sealed.at,
                                  f"sealed insert {sealed.number}", None)
        if stuff.badges:
            problems += badge_problems(packet, data_dir)
    return problems


def _too_long(box: Box, at: Where, what: str, options: PrintOptions | None) -> list[Problem]:
    display, line, column, field = at
    found = []
    bigger = bigger_card(lambda o: (card_box_like(box, o),), options) if options is not None else ""
    for long in box.too_long():
        hint = "shorten it" + (f", {bigger}" if bigger else "")
        found.append(Problem(display, line, column, f"about {long.over} words too long for {what} (at most about "
                             f"{long.fit} fit at {long.size_pt:g} pt)", field=field, hint=hint))
    return found


def card_box_like(box: Box, options: PrintOptions) -> Box:
    """The same card's box at another card size (for the 'use --card-size tarot' hint)."""
    say = next((t.text for t in box.texts if t.name == "say"), "")
    text = next((t.text for t in box.texts if t.name == "text"), "")
    return card_box("", text, say, options)


def badge_problems(packet: Packet, data_dir: Path | None = None) -> list[Problem]:
    """A character's name that takes more than two lines on a badge, or a
    public line past the badge's room, on the smaller of the stocks: at the
    text's line in the character's file (with `data_dir`), else at `badges:`."""
    stock = min(BADGE_STOCK.values(), key=lambda s: s.width * s.height)
    spec, name_spec = BOXES["badge"], BOXES["badge_name"]
    width = stock.width - spec.pad[1] - spec.pad[3] - BOXES["badge_mark"].width_mm
    floor = name_spec.steps[-1]
    found = []
    for person in packet.people:
        lines = line_count(person.name, width, floor, weight=name_spec.weight)
        if lines > BADGE_NAME_LINES:
            found.append(_at(packet, person, data_dir, person.name, f"{person.name}'s name takes {lines} lines on "
                             f"a name badge ({stock.width:g} x {stock.height:g} mm, {stock.model}) at {floor:g} pt; "
                             f"at most {BADGE_NAME_LINES} fit", "shorten the name"))
            continue
        room = stock.height - spec.pad[0] - spec.pad[2] - lines * floor * name_spec.line_height / PT_PER_MM \
            - name_spec.gap_mm - _height(BOXES["badge_player"], "Player", width) - 1.5
        box = Box("a name badge", width, room, (Text("description", person.description),),
                  steps=BOXES["badge_line"].steps, line_height=BOXES["badge_line"].line_height)
        found += [_at(packet, person, data_dir, person.description, f"{person.name}'s public description is about "
                      f"{long.over} words too long for a name badge (at most about {long.fit} fit at "
                      f"{long.size_pt:g} pt)", "shorten the description") for long in box.too_long()]
    return found


def _at(packet: Packet, person: Person, data_dir: Path | None, text: str, message: str, hint: str) -> Problem:
    """A badge's problem at the text's place in the character's file, or at packet.yaml's `badges:`."""
    if data_dir is not None:
        display, line, column, _what, field = text_at(person, packet.system, data_dir, text, "")
        if line is not None:
            return Problem(display, line, column, message, field=field, hint=hint)
    display, line, column, field = packet.stuff.badges_at
    return Problem(display, line, column, message, field=field, hint=hint)


def badge_name_pt(name: str, paper: str) -> float:
    """The largest step at which a name takes at most two lines on the paper's badge."""
    stock, spec = BADGE_STOCK[paper], BOXES["badge_name"]
    width = stock.width - BOXES["badge"].pad[1] - BOXES["badge"].pad[3] - BOXES["badge_mark"].width_mm
    return next((pt for pt in spec.steps if line_count(name, width, pt, weight=spec.weight) <= BADGE_NAME_LINES),
                spec.steps[-1])


def badge_line_pt(name: str, text: str, paper: str, name_pt: float) -> float:
    """The step the badge's public line takes under a name set at `name_pt`."""
    stock, spec = BADGE_STOCK[paper], BOXES["badge"]
    width = stock.width - spec.pad[1] - spec.pad[3] - BOXES["badge_mark"].width_mm
    lines = line_count(name, width, name_pt, weight=BOXES["badge_name"].weight)
    room = stock.height - spec.pad[0] - spec.pad[2] - lines * name_pt * BOXES["badge_name"].line_height / PT_PER_MM \
        - BOXES["badge_name"].gap_mm - _height(BOXES["badge_player"], "Player", width) - 1.5
    box = Box("a name badge", width, room, (Text("description", text),), steps=BOXES["badge_line"].steps,
              line_height=BOXES["badge_line"].line_height)
    return box.step() or box.steps[-1]
