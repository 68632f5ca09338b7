"""Faces made of declared zones (render/fit/boxes.py `Face`), measured
from their declarations alone: a new face is a declaration, not a new
measuring module.

Edge layer, beside bounded.py (whose `fit_problems` asks `unfit_faces`,
and whose `card_faces` asks `face_fits` for a registered face's step).
A zone of fixed height is one `Box` (fit.py) of that height; a growing
zone (a title) one as tall as its text, at the largest step that keeps it
within its lines; the zones without a height share one Box, the frame's
room less the others. Widths are the frame's content less each zone's
own padding, margins and side rule, and less a corner box's width.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Iterable

from ...core.errors import Problem
from ...core.measure import PT_PER_MM
from ..options import PrintOptions
from .boxes import CARD_SAFETY, FACES, Declared, Face, Zone
from .fit import Box, Fit, Places, Text, bigger_card, box_problems, card_room, card_width


def _outer(zone: Declared) -> float:
    """The height a zone takes beyond its content: its vertical margins, padding and rule."""
    rule = zone.rule.exact_mm * (2 if not zone.rule.side else 1) if zone.rule and zone.rule.side in (
        "", "top", "bottom") else 0.0
    return zone.margin.y + zone.padding.y + rule


def _inset(zone: Declared) -> float:
    """How much narrower than the frame a zone's text is: its side padding, margins and rule."""
    rule = zone.rule.exact_mm * (2 if not zone.rule.side else 1) if zone.rule and zone.rule.side in (
        "", "left", "right") else 0.0
    return zone.margin.x + zone.padding.x + rule


def _value(item: Any, name: str) -> Any:
    """An entity's field: an attribute, or a key of a mapping (a card's context)."""
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


class _Fields(dict):
    """An entity's fields by name, for a message's {name}."""

    def __init__(self, item: Any) -> None:
        super().__init__()
        self.item = item

    def __missing__(self, key: str) -> Any:
        return _value(self.item, key)


def face_texts(face: Face, item: Any, loc: tuple) -> dict[str, Text]:
    """Each zone's data field of one entity, at its place in the face's file."""
    return {zone.field: Text(zone.field, str(_value(item, zone.field) or ""), (*loc, zone.field), face.file,
                             gap_mm=zone.gap_mm, italic=zone.italic) for zone in face.zones}


def frame_room(face: Face, options: PrintOptions) -> tuple[float, float]:
    """The width and height the face's zones are stacked in, mm."""
    if face.frame is None:
        width, height = card_width(options), card_room(options)
    else:
        width = (face.frame.width_mm or 0.0) - _inset(face.frame)
        height = (face.frame.height_mm or 0.0) - face.frame.padding.y - CARD_SAFETY
    corner = face.corner.width_mm or 0.0 if face.corner is not None else 0.0
    return width - corner, height


def _grown(zone: Zone, box: Box) -> float:
    """The height a growing zone takes: its text at its step (its floor past its lines)."""
    text = box.texts[0]
    return box.height(text, box.step() or box.steps[-1]) + _outer(zone) if text.text.strip() else 0.0


def _zone_boxes(face: Face, texts: Mapping[str, Text], options: PrintOptions, item: Any = None) -> list[Box]:
    """The box each zone is measured in, in the face's order (the zones sharing the rest share one)."""
    width, height = frame_room(face, options)
    fields = _Fields(item)

    def box(zones: tuple[Zone, ...], room: float) -> Box:
        first = zones[0]
        return Box((first.what or face.what).format_map(fields), width, room,
                   tuple(replace(texts[z.field], inset_mm=_inset(z)) for z in zones), steps=first.steps,
                   line_height=first.line_height or 1.0, weight=first.weight or 400, max_lines=first.max_lines)

    boxes: dict[int, Box] = {}
    taken = 0.0
    for i, zone in enumerate(face.zones):
        if zone.height_mm is not None:
            boxes[i] = box((zone,), zone.height_mm)
            taken += zone.height_mm + _outer(zone)
        elif zone.grows:
            lines = zone.max_lines or 10_000
            boxes[i] = box((zone,), lines * zone.pt * (zone.line_height or 1.0) / PT_PER_MM + zone.gap_mm * lines)
            taken += _grown(zone, boxes[i])
    rest = tuple(zone for zone in face.zones if zone.height_mm is None and not zone.grows)
    filled = tuple(zone for zone in rest if texts[zone.field].text.strip())
    if rest:
        shared = box(filled or rest, height - taken - sum(_outer(zone) for zone in filled))
        boxes.update({face.zones.index(zone): shared for zone in rest})
    return [boxes[i] for i in range(len(face.zones))]


def face_boxes(face: Face, texts: Mapping[str, Text], options: PrintOptions, item: Any = None) -> tuple[Box, ...]:
    """The boxes the face is measured in, in the face's order, each once."""
    found: dict[int, Box] = {}
    for one in _zone_boxes(face, texts, options, item):
        found.setdefault(id(one), one)
    return tuple(found.values())


def face_fits(face: Face, texts: Mapping[str, Text], options: PrintOptions) -> list[Fit]:
    """What the face template is told: each zone's step (`card.fit.pts`, the
    first also as `card.fit.pt`) and its field's `data-field`."""
    pts = tuple(box.step() or box.steps[-1] for box in _zone_boxes(face, texts, options))
    return [Fit(pts[0] if pts else 0.0, pts=pts,
                sources=tuple(texts[zone.field].source(face.system) for zone in face.zones))]


def face_problems(face: Face, texts: Mapping[str, Text], doc: Places, options: PrintOptions, item: Any = None,
                  resizable: bool = True) -> list[Problem]:
    """A problem at its file:line:col for each zone whose field will not fit
    even at its floor (with a bigger card size as a hint, for a card face
    whose size the options choose, when it would hold the lot)."""
    unfit = [box for box in face_boxes(face, texts, options, item) if box.step() is None]
    if unfit and resizable and face.frame is None:
        bigger = bigger_card(lambda o: face_boxes(face, texts, o, item), options)
        unfit = [replace(box, bigger=bigger) for box in unfit]
    return [problem for box in unfit for problem in box_problems(box, doc)]


def unfit_faces(system: str, game: Any, options: PrintOptions) -> Iterable[Box]:
    """The zones of `system`'s registered faces whose field will not fit."""
    for face in FACES.values():
        if face.system == system:
            for item, loc in face.items(game):
                yield from (box for box in face_boxes(face, face_texts(face, item, loc), options, item)
                            if box.step() is None)


def fit_face(name: str, item: Any, card_size: str | None = None, loc: tuple = ()) -> Fit:
    """A registered face fitted to one entity (at a card size, for a card
    face printed at one whatever the options): what a template that prints
    it outside a deck is told (sealed.html, badges.html)."""
    face = FACES[name]
    options = PrintOptions(card_size=card_size) if card_size else PrintOptions()
    (told,) = face_fits(face, face_texts(face, item, loc), options)
    return told


def layout(face: Face) -> Any:
    """A CARD_LAYOUTS entry for a registered face: its card's entity (`card.item`,
    else the card's own context) and place (`card.loc`) from the card's context."""
    def fits(context: Mapping[str, Any], options: PrintOptions) -> list[Fit]:
        card = context["card"]
        return face_fits(face, face_texts(face, card.get("item", card), tuple(card.get("loc", ()))), options)
    return fits
