"""Which of the packet's texts fills which declared box, and at which size.

Fit room. The boxes (the item, ability and note cards, a sealed insert's
inside, a name badge on each paper's stock) are faces declared in
boxes.py and measured by faces.py, as every other face; this module only
hands each entity to its face at the size it prints at and says where its
text is written, for `packet_fit_problems`: what `sixes check` and the
start of `pack` report (a card's or an insert's text at its line in
packet.yaml, a badge's at its character's file).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ...core.errors import Problem
from ...core.loading import Key
from ...game.packet import Packet, Person
from ...game.packet_checks import text_at
from ...game.packet_stuff import Where
from ..options import DEFAULT_OPTIONS, PrintOptions
from .boxes import ABILITY_CARD, BADGE_STOCK, FACES, INSIDE, ITEM_CARD, NOTE_CARD, SEALED_CARD_SIZE, Face
from .faces import face_boxes, face_problems, face_texts


class _At:
    """An entity's fields at their places in packet.yaml (any other at `at`, its text's)."""

    def __init__(self, at: Where, places: tuple[tuple[str, Where], ...] = ()) -> None:
        self.at, self.places = at, dict(places)

    def problem(self, loc: Key, message: str, *, hint: str | None = None) -> Problem:
        display, line, column, field = self.places.get(str(loc[-1]), self.at) if loc else self.at
        return Problem(display, line, column, message, field=field, hint=hint)


class _Badge:
    """A badge's fields at their line in the character's file (with the
    data folder), else at packet.yaml's `badges:`."""

    def __init__(self, packet: Packet, person: Person, data_dir: Path | None) -> None:
        self.packet, self.person, self.data_dir = packet, person, data_dir

    def problem(self, loc: Key, message: str, *, hint: str | None = None) -> Problem:
        if self.data_dir is not None:
            text = str(getattr(self.person, str(loc[-1]), ""))
            display, line, column, _what, field = text_at(self.person, self.packet.system, self.data_dir, text, "")
            if line is not None:
                return Problem(display, line, column, message, field=field, hint=hint)
        return _At(self.packet.stuff.badges_at).problem(loc, message, hint=hint)


def _problems(face: Face, item: object, at: _At | _Badge, options: PrintOptions, resizable: bool = True
              ) -> list[Problem]:
    return face_problems(face, face_texts(face, item, ()), at, options, item, resizable)


def packet_fit_problems(packets: Iterable[Packet], options: PrintOptions = DEFAULT_OPTIONS,
                        data_dir: Path | None = None) -> list[Problem]:
    """Every card text, sealed insert and badge text of the packets that
    will not fit its box, at its place. Run before anything renders."""
    problems: list[Problem] = []
    inside = PrintOptions(card_size=SEALED_CARD_SIZE)      # a sealed insert's cards print at this size
    for packet in packets:
        stuff = packet.stuff
        for item in stuff.items:
            problems += _problems(ITEM_CARD, item, _At(item.at, item.places), inside if item.sealed else options,
                                  not item.sealed)
        for ability in stuff.abilities:
            for size in (options, inside) if ability.sealed_for else (options,):
                problems += _problems(ABILITY_CARD, ability, _At(ability.at, ability.places), size, size is options)
        for note in sorted({n for purse in stuff.purses.values() for n, _count in purse.bills}):
            note_text = {"value": note, "currency": stuff.money_name(note)}
            problems += _problems(NOTE_CARD, note_text, _At(stuff.money_at), options)
        for sealed in stuff.sealed:
            face = FACES["sealed/fold"] if sealed.form == "fold" else INSIDE    # no form: the smaller, the insert
            problems += _problems(face, sealed, _At(sealed.at, sealed.places), options)
        if stuff.badges:
            smaller = min(BADGE_STOCK, key=lambda paper: BADGE_STOCK[paper].width_mm * BADGE_STOCK[paper].height_mm)
            for person in packet.people:
                problems += _problems(FACES[f"badge/{smaller}"], person, _Badge(packet, person, data_dir), options)
    return problems


def unfit_badge_player(player: str, papers: Iterable[str]) -> str | None:
    """Why a player's name will not fit the player's line of a name badge
    on any of `papers` (its stock), or None: the player comes from the
    casting file, so `pack` and `check` measure it with each envelope
    (commands/pack_fit.py), not with the packet."""
    entity = {"name": "", "player": player, "description": ""}
    for paper in papers:
        face = FACES[f"badge/{paper}"]
        for box in face_boxes(face, face_texts(face, entity, ()), DEFAULT_OPTIONS, entity):
            if box.step() is None and any(text.name == "player" for text in box.texts):
                return (f"the player's name does not fit one line of a name badge of {BADGE_STOCK[paper].model} "
                        f"({box.width_mm:.0f} mm at {box.steps[-1]:g} pt)")
    return None
