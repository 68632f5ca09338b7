"""Card faces made of declared zones (render/fit/boxes.py `Face`), measured
from their declarations alone: a new face is a declaration, not a new
measuring module.

Edge layer, beside bounded.py (whose `fit_problems` asks `unfit_faces`,
and whose `card_faces` asks `face_fits` for a registered face's step).
Each zone is one `Box` (fit.py): its width the card's content less the
zone's padding, its height its own or, for the one zone without a height,
the card's room less the other zones' heights and margins.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ...core.errors import Problem
from ...core.loading import YamlDocument
from .boxes import FACES, Face, Zone
from .fit import Box, Fit, Text, box_problems, card_room, card_width
from ..options import PrintOptions


def _outer(zone: Zone) -> float:
    """The height a zone takes beyond its content: its vertical margins and padding."""
    return sum(edges.mm(side) for edges in (zone.margin, zone.padding) for side in ("top", "bottom"))


def face_texts(face: Face, item: Any, loc: tuple) -> dict[str, Text]:
    """Each zone's data field of one entity, at its place in the face's file."""
    return {zone.field: Text(zone.field, str(getattr(item, zone.field, "") or ""), (*loc, zone.field), face.file,
                             gap_mm=zone.gap_mm) for zone in face.zones}


def face_boxes(face: Face, texts: Mapping[str, Text], options: PrintOptions) -> tuple[Box, ...]:
    """One box per zone, in the face's order."""
    width = card_width(options)
    fixed = sum((zone.height_mm or 0.0) + _outer(zone) for zone in face.zones)
    boxes = []
    for zone in face.zones:
        inner = zone.height_mm if zone.height_mm is not None else card_room(options) - fixed
        boxes.append(Box(zone.what or face.what, width - zone.padding.mm("left") - zone.padding.mm("right"), inner,
                         (texts[zone.field],), steps=zone.steps, line_height=zone.line_height or 1.0,
                         weight=zone.weight or 400))
    return tuple(boxes)


def face_fits(face: Face, texts: Mapping[str, Text], options: PrintOptions) -> list[Fit]:
    """What the face template is told: each zone's step (`card.fit.pts`, the
    first also as `card.fit.pt`) and its field's `data-field`."""
    boxes = face_boxes(face, texts, options)
    pts = tuple(box.step() or box.steps[-1] for box in boxes)
    return [Fit(pts[0] if pts else 0.0, pts=pts, sources=tuple(box.texts[0].source(face.system) for box in boxes))]


def face_problems(face: Face, texts: Mapping[str, Text], doc: YamlDocument, options: PrintOptions) -> list[Problem]:
    """A problem at its file:line:col for each zone whose field will not fit even at its floor."""
    return [problem for box in face_boxes(face, texts, options) if box.step() is None
            for problem in box_problems(box, doc)]


def unfit_faces(system: str, game: Any, options: PrintOptions) -> Iterable[Box]:
    """The zones of `system`'s registered faces whose field will not fit."""
    for face in FACES.values():
        if face.system == system:
            for item, loc in face.items(game):
                yield from (box for box in face_boxes(face, face_texts(face, item, loc), options)
                            if box.step() is None)


def layout(face: Face) -> Any:
    """A CARD_LAYOUTS entry for a registered face: its card's entity and place from the card's context."""
    def fits(context: Mapping[str, Any], options: PrintOptions) -> list[Fit]:
        card = context["card"]
        return face_fits(face, face_texts(face, card["item"], tuple(card["loc"])), options)
    return fits
