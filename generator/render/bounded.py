"""The bounded fields: every box of fixed size the data's text lands in.

Edge layer (imports render/fit.py and the systems' models and terms). Each
layout here mirrors one face template and its CSS, named beside it: change
them together. `fit_problems` (what `sixes check` and the start of `build`
and `pack` report) and `card_faces` (what render/cards.py prints) ask the
same layouts, so they agree by construction; the print lint is the guard
behind them (tests/test_fit.py builds games at and over the floors).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..core.datafiles import display_path
from ..core.errors import DataError, Problem
from ..core.loading import YamlDocument, load_yaml
from ..core.measure import PT_PER_MM
from ..systems.base import Card
from .fit import (CARD_STEPS, LINE_HEIGHT, Box, Fit, Text, bigger_card, box_problems, card_room, card_width,
                  text_height)
from .options import DEFAULT_OPTIONS, PrintOptions

# Challenge cards: templates/six-shooter/cards/challenge.html, challenge_notes.html and cards.css.
NAME_PT, NAME_LINE = 11.0, 1.15
HEADING_EXTRA = 1.5 + 0.6 + 0.4          # margin, padding and rule under the name
HEAD_PT, TABLE_PT, CN_PT, CELL_LINE = 7.5, 9.0, 10.0, 1.1
CELL_PAD_X, CELL_PAD_Y = 1.0, 1.0        # both sides: 2 x 0.5 mm; 2 x 0.4 mm and a border
CHALLENGE_COLUMNS = (0.34, 0.10, 0.28, 0.28)     # method, CN, Overcome, Roll hand
GM_INSET = 1.5 + 2 / PT_PER_MM            # the GM notes' rule and padding
STAGES_PT = 8.0
NOTES_FOLLOW = "GM notes: on the next card."
NOTES_HEADING = "GM notes"
CHALLENGES_FILE = "challenges.yaml"


def challenge_box(challenge: Any, method_names: Iterable[str], options: PrintOptions = DEFAULT_OPTIONS,
                  index: int = 0, notes: bool = True) -> Box:
    """A challenge card: the name, the table of methods (one row each, a
    method's name may wrap), the stages line, and the description and GM
    notes sharing what is left (without `notes`, a line saying they follow)."""
    from ..systems.six_shooter.outputs import TERMS
    width, names = card_width(options), list(method_names)
    used = _heading(challenge.name, width)
    columns = [width * part - CELL_PAD_X for part in CHALLENGE_COLUMNS]
    heads = ("Method", TERMS["cn"].label, TERMS["success"].label, TERMS["hand_roll"].label)
    used += max(text_height(h, w, HEAD_PT, CELL_LINE, weight=700) for h, w in zip(heads, columns)) + CELL_PAD_Y
    row = CN_PT * CELL_LINE / PT_PER_MM
    used += sum(max(row, text_height(n, columns[0], TABLE_PT, CELL_LINE)) + CELL_PAD_Y for n in names) + 1.0
    if challenge.stages > 1:
        used += text_height(stages_line(challenge.stages, names), width, STAGES_PT, LINE_HEIGHT) + 1.0
    texts = [Text("description", challenge.description, ("challenges", index, "description"), CHALLENGES_FILE)]
    if notes:
        texts.append(_gm_notes(challenge, index))
    elif challenge.gm_notes.strip():
        used += text_height(NOTES_FOLLOW, width, STAGES_PT, LINE_HEIGHT) + 1.0
    return Box("a challenge card", width, card_room(options) - used, tuple(texts))


def notes_box(challenge: Any, options: PrintOptions = DEFAULT_OPTIONS, index: int = 0) -> Box:
    """The card a challenge's GM notes continue on: its name, and the notes."""
    width = card_width(options)
    return Box("a challenge's GM notes card", width,
               card_room(options) - _heading(f"{challenge.name}: {NOTES_HEADING}", width),
               (_gm_notes(challenge, index),))


def challenge_layout(challenge: Any, method_names: Iterable[str], options: PrintOptions = DEFAULT_OPTIONS,
                     index: int = 0) -> tuple[Box, ...]:
    """One card when everything fits it at some step; else the GM notes move
    to a card of their own that follows it."""
    names = list(method_names)
    whole = challenge_box(challenge, names, options, index)
    if whole.step() is not None or not challenge.gm_notes.strip():
        return (whole,)
    return challenge_box(challenge, names, options, index, notes=False), notes_box(challenge, options, index)


def stages_line(stages: int, names: list[str]) -> str:
    """The widest the card's stages line can be (every average as 99.9)."""
    return f"{stages} stages. Rolls needed on average: " + "; ".join(f"{n} 99.9" for n in names) + "."


def _heading(name: str, width: float) -> float:
    return text_height(name, width, NAME_PT, NAME_LINE, weight=700) + HEADING_EXTRA


def _gm_notes(challenge: Any, index: int) -> Text:
    return Text("gm_notes", challenge.gm_notes, ("challenges", index, "gm_notes"), CHALLENGES_FILE,
                inset_mm=GM_INSET)


def _six_shooter_unfit(game: Any, options: PrintOptions) -> Iterable[Box]:
    names = [d.method_name for d in game.descriptors]
    for i, challenge in enumerate(game.challenges):
        def build(opts: PrintOptions, c=challenge, i=i) -> tuple[Box, ...]:
            return challenge_layout(c, names, opts, i)
        unfit = [box for box in build(options) if box.step() is None]
        if unfit:
            bigger = bigger_card(build, options)
            yield from (replace(box, bigger=bigger) for box in unfit)


# Each system's boxes that will not fit, by slug: (the game, the options) -> boxes.
UNFIT: dict[str, Callable[[Any, PrintOptions], Iterable[Box]]] = {"six-shooter": _six_shooter_unfit}
# How a face with bounded text is laid out, by face template: one box per card it takes.
CARD_LAYOUTS: dict[str, Callable[[Mapping[str, Any], PrintOptions], tuple[Box, ...]]] = {
    "six-shooter/cards/challenge.html":
        lambda card, options: challenge_layout(card["challenge"], [m.name for m in card["methods"]], options),
}
# The face a continuation card prints, by the face it continues.
CONTINUATIONS = {"six-shooter/cards/challenge.html": "six-shooter/cards/challenge_notes.html"}


def card_faces(card: Card, options: PrintOptions) -> tuple[Card, ...]:
    """The card, told its font step (`card.fit`); or the card and its
    continuation. A box past its floor prints at the floor: only a build
    that skipped the check gets there, and its lint then names the field."""
    layout = CARD_LAYOUTS.get(card.front)
    if layout is None:
        return (card,)
    boxes = layout(card.context, options)
    fits = [Fit(box.step() or box.steps[-1], continued=len(boxes) > 1) for box in boxes]
    first = replace(card, context={**card.context, "fit": fits[0]})
    if len(boxes) == 1:
        return (first,)
    return first, replace(card, label=f"{card.label} ({NOTES_HEADING})", front=CONTINUATIONS[card.front],
                          context={**card.context, "fit": fits[1]})


def fit_problems(loaded: Iterable[Any], options: PrintOptions = DEFAULT_OPTIONS) -> list[Problem]:
    """Every bounded field of the loaded games that will not fit its box even
    at its floor size, at its file:line:col. Run before anything renders."""
    problems: list[Problem] = []
    for item in loaded:
        finder = UNFIT.get(item.system.slug)
        docs: dict[str, YamlDocument | None] = {}
        for box in finder(item.game, options) if finder else ():
            name = box.texts[0].file
            if name not in docs:
                docs[name] = _document(item.game.folder / name)
            if docs[name] is not None:
                problems.extend(box_problems(box, docs[name]))
    return problems


def refuse_unfit(loaded: Iterable[Any], options: PrintOptions, known: Iterable[Problem] = ()) -> None:
    """Stop a build or pack before it renders anything when a text will not
    fit (DataError, with the `known` warnings of the load beside them)."""
    found = fit_problems(loaded, options)
    if found:
        raise DataError([*known, *found])


def _document(path: Path) -> YamlDocument | None:
    """A data file again, for its positions (the loader has read it, so it
    loads; shown from the game folder's parent, as load_all shows it)."""
    doc, _ = load_yaml(path, display_path(path, path.parent.parent.parent))
    return doc
