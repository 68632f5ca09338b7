"""The bounded fields: every box of fixed size the data's text lands in.

Edge layer (imports render/fit/fit.py and the systems' models and terms).
Each layout here measures one face template's words with the numbers its
boxes are declared with (render/fit/boxes.py, which prints their CSS).
`fit_problems` (what `sixes check` and the start of `build`
and `pack` report) and `card_faces` (what render/pdf/cards.py prints) ask the
same layouts, so they agree by construction; the print lint is the guard
behind them (tests/test_fit.py builds games at and over the floors).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ...core.datafiles import display_path
from ...core.errors import DataError, Problem
from ...core.i18n import _, fill
from ...core.loading import YamlDocument, format_loc, load_yaml
from ...core.measure import PT_PER_MM, line_count
from ...systems.base import Card
from .lookup_fit import lookup_fits, unfit_lookups
from .name_fit import unfit_names
from .fit import (CARD_STEPS, Box, Cell, Fit, Row, Text, bigger_card, box_problems, card_room, card_width,
                  flow, text_height)
from ..options import DEFAULT_OPTIONS, PrintOptions
from .stacked import H2_EXTRA, H2_LINE, H2_PT, STACKS, unfit_stacks
from . import boxes as decl
from .faces import layout, unfit_faces

# Challenge cards: templates/six-shooter/cards/challenge.html and challenge_notes.html,
# every number from the declarations (render/fit/boxes.py CHALLENGE_*, STAGES, GM_NOTES).
NAME_PT, NAME_LINE = decl.CHALLENGE_NAME.pt, decl.CHALLENGE_NAME.line_height or 1.0
HEADING_EXTRA = H2_EXTRA                  # margin, padding and rule under the name (.card h2)
HEAD_PT, TABLE_PT, CN_PT = decl.CHALLENGE_HEAD.pt, decl.CHALLENGE_CELL.pt, decl.CHALLENGE_CN.pt
CELL_LINE = decl.CHALLENGE_CELL.line_height or 1.0
# Both sides' padding; the top and bottom's and the rule between rows, rounded up.
CELL_PAD_X = decl.CHALLENGE_CELL.padding.x
CELL_PAD_Y = decl.CHALLENGE_CELL.padding.y + decl.CHALLENGE_CELL.rule_mm()
CHALLENGE_COLUMNS = tuple(c.share or 0.0 for c in (decl.METHOD_COLUMN, decl.CN_COLUMN, decl.OK_COLUMN,
                                                   decl.ROLL_COLUMN))
GM_INSET = decl.GM_NOTES.padding.x + (decl.GM_NOTES.rule.exact_mm if decl.GM_NOTES.rule else 0.0)   # rule, padding
STAGES_PT, STAGES_LINE, STAGES_AFTER = decl.STAGES.pt, decl.STAGES.line_height or 1.0, decl.STAGES.margin.y
TABLE_AFTER = decl.CHALLENGE_TABLE.margin.mm("bottom")
CHALLENGES_FILE = "challenges.yaml"


def challenge_box(challenge: Any, method_names: Iterable[str], options: PrintOptions = DEFAULT_OPTIONS,
                  index: int = 0, notes: bool = True) -> Box:
    """A challenge card: the name, the table of methods (one row each, a
    method's name may wrap), the stages line, and the description and GM
    notes sharing what is left (without `notes`, a line saying they follow)."""
    from ...systems.six_shooter.outputs import TERMS
    width, names = card_width(options), list(method_names)
    used = _heading(challenge.name, width)
    columns = [width * part - CELL_PAD_X for part in CHALLENGE_COLUMNS]
    heads = (_("Method"), TERMS["cn"].label, TERMS["success"].label, TERMS["hand_roll"].label)
    used += max(text_height(h, w, HEAD_PT, CELL_LINE, weight=700)
                for h, w in zip(heads, columns, strict=True)) + CELL_PAD_Y
    row = CN_PT * CELL_LINE / PT_PER_MM
    used += sum(max(row, text_height(n, columns[0], TABLE_PT, CELL_LINE)) + CELL_PAD_Y for n in names) + TABLE_AFTER
    if challenge.stages > 1:
        used += text_height(stages_line(challenge.stages, names), width, STAGES_PT, STAGES_LINE) + STAGES_AFTER
    texts = [Text("description", challenge.description, ("challenges", index, "description"), CHALLENGES_FILE)]
    if notes:
        texts.append(_gm_notes(challenge, index))
    elif challenge.gm_notes.strip():
        used += text_height(notes_follow(), width, STAGES_PT, STAGES_LINE) + STAGES_AFTER
    return Box("a challenge card", width, card_room(options) - used, tuple(texts))


def notes_box(challenge: Any, options: PrintOptions = DEFAULT_OPTIONS, index: int = 0) -> Box:
    """The card a challenge's GM notes continue on: its name, and the notes."""
    width = card_width(options)
    return Box("a challenge's GM notes card", width,
               card_room(options) - _heading(fill(_("%(challenge)s: GM notes"), challenge=challenge.name), width),
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
    """The widest the card's stages line can be (every average as 99.9), in
    the run's language, as challenge.html prints it."""
    return (f"{fill(_('%(count)s stages.'), count=stages)} {_('Rolls needed on average:')} "
            + "; ".join(f"{n} 99.9" for n in names) + ".")


def notes_follow() -> str:
    """The line a challenge card prints when its GM notes follow (challenge.html)."""
    return f"{_('GM notes:')} {_('on the next card.')}"


def _heading(name: str, width: float) -> float:
    return text_height(name, width, NAME_PT, NAME_LINE, weight=700) + HEADING_EXTRA


def _gm_notes(challenge: Any, index: int) -> Text:
    return Text("gm_notes", challenge.gm_notes, ("challenges", index, "gm_notes"), CHALLENGES_FILE,
                inset_mm=GM_INSET)


# The D6xD6 distances card: templates/d6xd6/cards/distances.html, its numbers declared in boxes.py.
CARD_H2 = (H2_PT, H2_LINE, H2_EXTRA)            # .card h2: size, line height, margin, padding and rule
# A cell's line height, and its padding and the rule between rows (rounded up), from boxes.py D6_CELL.
TABLE_LINE = decl.D6_CELL.line_height or 1.0
TABLE_PAD = decl.D6_CELL.padding.y + decl.D6_CELL.rule_mm(0.05)
CELL_SIDES = decl.D6_CELL.padding.x
DISTANCE_COLUMNS = (decl.BAND_COLUMN.share or 0.0, decl.REACH_COLUMN.share or 0.0,
                    1 - (decl.BAND_COLUMN.share or 0.0) - (decl.REACH_COLUMN.share or 0.0))
# Band names at 8.5 pt and the header row at 8 pt: a German band (Schuss)
# and a French heading (Jusqu’à) fit a bridge card's columns unbroken.
BAND_PT, HEAD_ROW_PT, CELL_PT = decl.BAND_NAME.pt, decl.DISTANCE_HEAD.pt, decl.D6_CELL.pt
COMBAT_FILE = "combat.yaml"


def distance_rows(distances: Iterable[Any], options: PrintOptions) -> list[Row]:
    """A row per band: its name (bold), how far it reaches (two lines), and
    its note, the bounded field, which takes the card's step."""
    from ...systems.d6xd6.outputs import LOST_RULE
    columns = [card_width(options) * part - CELL_SIDES for part in DISTANCE_COLUMNS]
    rows = []
    for i, d in enumerate(distances):
        other = f"{d.miles} mi" if d.miles else f"{d.yards} yd" if d.yards else ""
        reach = ((f"{d.metres} m", CELL_PT, 400), (other, CELL_PT, 400)) if d.metres else ((_("beyond"), CELL_PT, 400),)
        note = (f"{d.note} {_(LOST_RULE)}", None, 700) if d.key == "lost" else (d.note, None, 400)
        rows.append(Row((Cell(columns[0], ((d.name, BAND_PT, 700),), Text("name", d.name, ("distances", i, "name"),
                                                                            COMBAT_FILE, gap_mm=0.0)),
                         Cell(columns[1], reach),
                         Cell(columns[2], (note,))),
                        (Text("note", d.note, ("distances", i, "note"), COMBAT_FILE),), d))
    return rows


def table_rooms(options: PrintOptions, title: str, heads: list[tuple[str, float, float]], used: float = 0.0
                ) -> tuple[float, float]:
    """(room on a continuation card, room on the first), under `title`, the
    header row of `heads` and the same `used` height of text on both."""
    continued = fill(_("%(title)s, continued"), title=title)
    return table_room(options, continued, heads) - used, table_room(options, title, heads) - used


def table_room(options: PrintOptions, title: str, heads: list[tuple[str, float, float]]) -> float:
    """The height a table's rows may fill on a card under `title` and a
    header row of (label, column width, size) `heads`, measured in the run's
    language: a German label may take two lines of its column."""
    size, line, extra = CARD_H2
    head = max(text_height(label, width, pt, TABLE_LINE, weight=700) for label, width, pt in heads)
    return (card_room(options) - text_height(title, card_width(options), size, line, weight=700) - extra
            - head - TABLE_PAD)


def distance_heads(options: PrintOptions) -> list[tuple[str, float, float]]:
    """The distances card's header row (templates/d6xd6/cards/distances.html), by column."""
    columns = [card_width(options) * part - CELL_SIDES for part in DISTANCE_COLUMNS]
    return [(label, width, HEAD_ROW_PT) for label, width in zip((_("Band"), _("Up to"), _("What works")), columns,
                                                                 strict=True)]


def distance_fits(distances: Iterable[Any], options: PrintOptions) -> list[Fit]:
    return _flowed(distance_rows(distances, options), *table_rooms(options, _("Distances"), distance_heads(options)),
                   "d6xd6")


# The D6xD6 weapons cards, one category each: templates/d6xd6/cards/weapons.html.
WEAPON_COLUMNS = (1 - (decl.WEAPONS_DAMAGE.share or 0.0), decl.WEAPONS_DAMAGE.share or 0.0)
# .sub and .who: size, line height, margins.
SUB_PT, SUB_LINE = decl.WEAPONS_SUB.pt, decl.WEAPONS_SUB.line_height or 1.0
SUB_EXTRA = decl.D6_SUB.margin.y + decl.WHO.margin.mm("bottom")


def weapon_rows(category: Mapping[str, Any], comments: list[str], levels: Mapping[str, Any],
                options: PrintOptions, file: str = "", base: tuple = ()) -> list[Row]:
    """A row per weapon: its name and its notes (the weapon's `comment`, the
    bounded field, last among them; all at the step), and its damage (a
    line per band)."""
    columns = [card_width(options) * part - CELL_SIDES for part in WEAPON_COLUMNS]
    rows = []
    for i, (w, comment) in enumerate(zip(category["weapons"], comments, strict=True)):
        damage = tuple((f"{band} {levels[key].name}" if band else levels[key].name, CELL_PT, 700)
                       for band, key in w["damage"])
        texts = (Text("comment", comment, (*base, "weapons", i, "comment"), file),) if comment else ()
        name = Text("name", w["name"], (*base, "weapons", i, "name"), file, gap_mm=0.0)
        rows.append(Row((Cell(columns[0], ((w["name"], CELL_PT, 400), (". ".join(w["notes"]), None, 400)), name),
                         Cell(columns[1], damage)), texts, w))
    return rows


def weapon_rooms(category: Mapping[str, Any], title: str, reach: list[str], options: PrintOptions,
                 who: bool = True) -> tuple[float, float]:
    """The height a category's rows may fill under its heading, reach and
    (with `who`) who attacks and defends: on a continuation card, and on the first."""
    from ...systems.d6xd6.outputs import CATEGORY_WORDS
    width = card_width(options)
    sub = f"{title}. " + fill(_("Reach: %(bands)s only."), bands=", ".join(reach))
    used = text_height(sub, width, SUB_PT, SUB_LINE) + sum(text_height(t, width, SUB_PT, SUB_LINE, weight=700)
                                                            for t in (who_lines(category) if who else ()))
    heads = [(label, width * part - CELL_SIDES, CELL_PT)
             for label, part in zip((_("Weapon"), _("Damage")), WEAPON_COLUMNS, strict=True)]
    return table_rooms(options, _(CATEGORY_WORDS[category["key"]].weapons), heads, used + 2 * SUB_EXTRA)


def who_lines(category: Mapping[str, Any]) -> list[str]:
    """Who may attack and defend with a category's weapons, as weapons.html prints them over its table."""
    return [f"{_('Attack:')} {', '.join(category['attack'])}", f"{_('Defend:')} {', '.join(category['defence'])}"]


def who_box(category: Mapping[str, Any], rows: list[Row], title: str, reach: list[str], options: PrintOptions,
            file: str, c: int) -> Box | None:
    """The lists of who attacks and defends, when they leave a weapons card
    too little room for the tallest of its rows (at the floor) and would not
    without them: those lists, not the rows, are what to shorten."""
    room, bare = weapon_rooms(category, title, reach, options)[0], weapon_rooms(category, title, reach, options,
                                                                                 False)[0]
    tallest = max((row.height(CARD_STEPS[-1], TABLE_LINE, TABLE_PAD) for row in rows), default=0.0)
    if tallest <= room or tallest > bare:
        return None
    lines = who_lines(category)
    return Box(f"the lines over the {category['key']} weapons card's table, who attacks and who defends, beside "
               f"its tallest row", card_width(options), bare - tallest,
               tuple(Text(key, line, ("categories", c, key), file, gap_mm=0.0)
                     for key, line in zip(("attack", "defence"), lines, strict=True)),
               steps=(SUB_PT,), line_height=SUB_LINE, weight=700)


def weapon_fits(context: Mapping[str, Any], options: PrintOptions) -> list[Fit]:
    card = context["card"]
    category, table = card["category"], card["table"]
    number = next(i for i, c in enumerate(table.categories) if c.key == category["key"])
    file = context["table_files"][next(i for i, (t, _rows) in enumerate(context["tables"]) if t is table)]
    rows = weapon_rows(category, [w.comment for w in table.categories[number].weapons], context["level"], options,
                       file, ("categories", number))
    return _flowed(rows, *weapon_rooms(category, table.title,
                                       [context["distance"][b].name for b in category["reach"]], options), "d6xd6")


def _flowed(rows: list[Row], room: float, first: float, system: str) -> list[Fit]:
    """What each card of a table that runs over cards is told, with each
    row's source; a row too long for any card prints at the floor (the
    check has said so)."""
    size, cards = flow(rows, room, CARD_STEPS, TABLE_LINE, TABLE_PAD, first) or (CARD_STEPS[-1], [rows])
    return [Fit(size, i < len(cards) - 1, tuple(r.item for r in part), i + 1, len(cards),
                tuple(r.texts[0].source(system) if r.texts else "" for r in part)) for i, part in enumerate(cards)]


def _too_tall(rows: list[Row], room: float, cell: int, what: str) -> Iterable[Box]:
    """A box for each field whose row alone is taller than a card: the
    bounded field of the row's `cell`, at the floor, and the name heading
    any cell too tall alone (a weapon without notes, a band), at its size;
    each with the room the rest of its cell leaves it."""
    floor = CARD_STEPS[-1]
    for row in rows:
        if row.height(floor, TABLE_LINE, TABLE_PAD) <= room:
            continue
        for k, holder in enumerate(row.cells):
            steps: tuple[float, ...]
            if k == cell and row.texts:
                text, size, steps = row.texts[0], floor, CARD_STEPS
                weight = next((w for _t, pt, w in holder.parts if pt is None), 400)     # the part at the step
            elif holder.source is not None and holder.height(floor, TABLE_LINE) + TABLE_PAD > room:
                text, (_first, pt, weight) = holder.source, holder.parts[0]
                size = pt or floor
                steps = (size,)
            else:
                continue
            own = text_height(text.text, holder.width, size, TABLE_LINE, weight=weight)
            rest = max(0.0, holder.height(floor, TABLE_LINE) - own)
            yield Box(what, holder.width, room - TABLE_PAD - rest, row.texts if k == cell and row.texts else (text,),
                      steps=steps, line_height=TABLE_LINE, weight=weight)


# The ladder card's level column: templates/d6xd6/cards/ladder.html, its
# width, padding and weight declared in boxes.py (LEVEL_COLUMN, decl.LADDER_CELL).
# A name may take two lines there ('Knocked Out', 'Mortal Wound'): the card
# holds every rung at two lines (built with all six so), not at three.
LEVEL_COLUMN = (decl.LEVEL_COLUMN.width_mm or 0.0) - decl.LADDER_CELL.padding.x
LEVEL_PT, LEVEL_LINE, LEVEL_LINES = decl.D6_CELL.pt, decl.LADDER_CELL.line_height or 1.0, 2


def _level_names(game: Any) -> Iterable[Box]:
    for i, level in enumerate(game.damage.levels):
        if line_count(level.name, LEVEL_COLUMN, LEVEL_PT, weight=700) > LEVEL_LINES:
            yield Box("the level column of the damage-ladder card", LEVEL_COLUMN,
                      LEVEL_LINES * LEVEL_PT * LEVEL_LINE / PT_PER_MM,
                      (Text("name", level.name, ("levels", i, "name"), "damage.yaml", gap_mm=0.0),),
                      steps=(LEVEL_PT,), line_height=LEVEL_LINE, weight=700)


def _d6xd6_unfit(game: Any, options: PrintOptions) -> Iterable[Box]:
    from ...systems.d6xd6.outputs import weapon_rows as printed_rows
    yield from unfit_stacks("d6xd6", game, options)
    yield from _level_names(game)
    yield from unfit_lookups(game, options)
    yield from _too_tall(distance_rows(game.combat.distances, options),
                         table_rooms(options, _("Distances"), distance_heads(options))[0], 2,
                         "a row of the distances card")
    names = {d.key: d.name for d in game.combat.distances}
    levels = {level.key: level for level in game.damage.levels}
    for table, file in zip(game.tables, game.table_files, strict=True):
        for c, (category, model) in enumerate(zip(printed_rows(table, names), table.categories, strict=True)):
            rows = weapon_rows(category, [w.comment for w in model.weapons], levels, options, file, ("categories", c))
            reach = [names[b] for b in category["reach"]]
            who = who_box(category, rows, table.title, reach, options, file, c)
            if who is not None:
                yield who
                continue
            room = weapon_rooms(category, table.title, reach, options)[0]
            yield from _too_tall(rows, room, 0, f"a row of the {category['key']} weapons card")


# Notes in the tables of one-page references. Their columns are laid out by
# the browser; the widths here are a little under what the starters' pages
# give them (tests/test_fit.py builds every note at its capacity). A note
# holds at most NOTE_LINES lines; a long one makes the page budget grow.
@dataclass(frozen=True)
class PageNotes:
    what: str                   # "a note of the rules reference"
    system: str
    key: str                    # the context's key, and the game's attribute, holding them
    file: str
    notes: Callable[[Any], list[tuple[str, tuple]]]     # (text, place in the file) of each
    width_mm: float
    pt: float
    # Lines a note may take before the page needs more room: what the
    # document's own budget holds for it (a page already full at the starter's
    # notes, as the I6 combat card is on US Letter, holds one).
    allowance: int = 2


NOTE_LINES = 12                 # each note's capacity
PAGE_BODY_MM = 279.4 - 26.0     # US Letter, the shorter paper, less the page margins (base.css)
PAGE_LINE = 1.3                 # html's line height (base.css)
PAGE_NOTES = {
    "sixes/rules_reference.html": PageNotes(
        "a rule in the rules reference", "sixes", "actions", "actions.yaml",
        lambda actions: [(a.rule, ("actions", k, "rule")) for k, a in actions.items()], 75.0, 10.0),
    "i6/combat_card.html": PageNotes(
        "a rule on the combat card", "i6", "actions", "actions.yaml",
        lambda actions: [(a.rule, ("actions", i, "rule")) for i, a in enumerate(actions)], 90.0, 9.5, allowance=1),
    "six-shooter/gm_sheet.html": PageNotes(
        "a description on the Critical Number sheet", "six-shooter", "guide", "rules.yaml",
        lambda guide: [(g.description, ("guide", i, "description")) for i, g in enumerate(guide)], 50.0, 10.0),
    "sixes-system/matrix_card.html": PageNotes(
        "a cover note on the matrix card", "sixes-system", "modes", "modes.yaml",
        lambda modes: [(c.note, ("cover", i, "note")) for i, c in enumerate(modes.cover)]
        + [(modes.active_cover.note, ("active_cover", "note"))], 48.0, 9.0),
}


def _page_notes_unfit(system: str, game: Any) -> Iterable[Box]:
    for spec in PAGE_NOTES.values():
        if spec.system != system:
            continue
        height = NOTE_LINES * spec.pt * PAGE_LINE / PT_PER_MM
        for text, loc in spec.notes(getattr(game, spec.key)):
            if line_count(text, spec.width_mm, spec.pt) > NOTE_LINES:
                yield Box(spec.what, spec.width_mm, height, (Text(loc[-1], text, loc, spec.file, gap_mm=0.0),),
                          steps=(spec.pt,), line_height=PAGE_LINE)


def _six_shooter_unfit(game: Any, options: PrintOptions) -> Iterable[Box]:
    names = [d.method_name for d in game.descriptors]
    for i, challenge in enumerate(game.challenges):
        def build(opts: PrintOptions, c: Any = challenge, i: int = i) -> tuple[Box, ...]:
            return challenge_layout(c, names, opts, i)
        unfit = [box for box in build(options) if box.step() is None]
        if unfit:
            bigger = bigger_card(build, options)
            yield from (replace(box, bigger=bigger) for box in unfit)


# Each system's boxes that will not fit, by slug: (the game, the options) -> boxes.
UNFIT: dict[str, Callable[[Any, PrintOptions], Iterable[Box]]] = {
    "six-shooter": _six_shooter_unfit, "d6xd6": _d6xd6_unfit,
    "sixes": lambda game, options: unfit_stacks("sixes", game, options)}
def challenge_fits(challenge: Any, method_names: Iterable[str], options: PrintOptions, index: int) -> list[Fit]:
    """Each card of a challenge: its step, and its texts' sources (description, GM notes)."""
    boxes = challenge_layout(challenge, method_names, options, index)
    sources = tuple(t.source("six-shooter") for t in challenge_box(challenge, [], options, index).texts)
    return [Fit(box.step() or box.steps[-1], continued=i < len(boxes) - 1, part=i + 1, parts=len(boxes),
                sources=sources) for i, box in enumerate(boxes)]


# How a face with bounded text is laid out, by face template: given the
# document's and the card's context, what each card it takes is told.
CARD_LAYOUTS: dict[str, Callable[[Mapping[str, Any], PrintOptions], list[Fit]]] = {
    "six-shooter/cards/challenge.html":
        lambda c, options: challenge_fits(c["card"]["challenge"], [m.name for m in c["card"]["methods"]], options,
                                          c["card"]["index"]),
    "d6xd6/cards/distances.html": lambda c, options: distance_fits(c["combat"].distances, options),
    "d6xd6/cards/weapons.html": weapon_fits,
    "d6xd6/cards/lookup.html": lookup_fits,
    **{face: stack.fits for face, stack in STACKS.items()},
    **{template: layout(face) for template, face in decl.FACES.items()},
}
# The face a continuation card prints, by the face it continues.
CONTINUATIONS = {"six-shooter/cards/challenge.html": "six-shooter/cards/challenge_notes.html"}


def card_faces(card: Card, context: Mapping[str, Any], options: PrintOptions) -> tuple[Card, ...]:
    """The card, told how its bounded text fits (`card.fit`), and any cards
    that continue it. A box past its floor prints at the floor: only a build
    that skipped the check gets there, and its lint then names the field."""
    layout = CARD_LAYOUTS.get(card.front)
    if layout is None:
        return (card,)
    fits = layout({**context, "card": card.context}, options)
    return tuple(replace(card, label=card.label if fit.part == 1 else _("{label} ({part} of {parts})").format(
                             label=card.label, part=fit.part, parts=fit.parts),
                         front=card.front if fit.part == 1 else CONTINUATIONS.get(card.front, card.front),
                         context={**card.context, "fit": fit}) for fit in fits)


def fit_problems(loaded: Iterable[Any], options: PrintOptions = DEFAULT_OPTIONS) -> list[Problem]:
    """Every bounded field of the loaded games that will not fit its box even
    at its floor size, at its file:line:col. Run before anything renders."""
    problems: list[Problem] = []
    for item in loaded:
        finder = UNFIT.get(item.system.slug)
        docs: dict[str, YamlDocument | None] = {}
        unfit = [*(finder(item.game, options) if finder else ()), *_page_notes_unfit(item.system.slug, item.game),
                 *unfit_faces(item.system.slug, item.game, options)]
        for box in unfit:
            name = box.texts[0].file
            if name not in docs:
                docs[name] = _document(item.game.folder / name, item.game.folder.parent.parent)
            doc = docs[name]
            if doc is not None:
                problems.extend(box_problems(box, doc))
        blamed = {(p.file, p.line) for p in problems}
        problems.extend(unfit_names(item, options, blamed))     # the floor under every measure above
    return problems


def refuse_unfit(loaded: Iterable[Any], options: PrintOptions, known: Iterable[Problem] = ()) -> None:
    """Stop a build or pack before it renders anything when a text will not
    fit (DataError, with the `known` warnings of the load beside them)."""
    found = fit_problems(loaded, options)
    if found:
        raise DataError([*known, *found])


_SOURCE = re.compile(r"([\w./-]+\.yaml)#([\w.-]+)")     # packet.yaml#… is the data folder's own file


def locate_fields(text: str, data_dir: Path) -> str:
    """The print lint's messages with each data field a template named
    ('six-shooter/challenges.yaml#challenges.1.gm_notes', Text.source) at
    its file:line:col, as `check` shows it."""
    docs: dict[str, YamlDocument | None] = {}

    def located(match: re.Match) -> str:
        file, dotted = match.groups()
        if file not in docs:
            docs[file] = _document(data_dir / file, data_dir.parent)
        doc = docs[file]
        loc = tuple(int(p) if p.isdigit() else p for p in dotted.split("."))
        if doc is None:
            return f"{file} {format_loc(loc)}"
        line, column = doc.position(loc)
        return f"{doc.display}:{line}:{column} {format_loc(loc)}"
    return _SOURCE.sub(located, text)


def field_problem(folder: Path, file: str, loc: tuple, message: str, hint: str) -> Problem:
    """A problem at a field of one of a game's data files (`folder`, the
    system's), read again for its position as the fit check reads it."""
    doc = _document(folder / file, folder.parent.parent)
    if doc is None:
        return Problem(display_path(folder / file, folder.parent.parent), None, None, message, hint=hint)
    return doc.problem(loc, message, hint=hint)


def _document(path: Path, display_root: Path) -> YamlDocument | None:
    """A data file again, for its positions (the loader has read it, so it
    loads; shown from the game folder's parent, as load_all shows it)."""
    doc, _problems = load_yaml(path, display_path(path, display_root))
    return doc
