"""What a pack would refuse of its envelopes before it renders, at the line
that causes it: a cover too long for its page or half sheet (at the
handouts that fill it), a player's name too long for its name stamp or
label (at the player), and a game title whose lines under each label's
name leave no room for it (at the title).

Commands floor: it plans the pack (game/pack_plan.py) and measures with
render/fit/cover_fit.py and render/fit/labels.py. `pack` stops on these before it
renders; `check` asks the same of every game a plain `pack` could pack,
with the same options (the settings' `pack:` section, else the command
line's, shared with `pack`), so whatever `pack` refuses here, `check`
has refused first. What is measured is in the game's language, as it
prints (run inside `speaking`); the messages are the command line's, in
English, as every other.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core.errors import DataError, Problem
from ..core.paper import Paper
from ..game.casting import Casting
from ..game.gather import Gathered
from ..game.pack_plan import LABEL_STOCK, Envelope, LabelStock, PackChoices, PackPlan
from ..game.settings import PackLayout
from ..render.options import PrintOptions

NO_LABELS = "or pack without labels (--no-labels, or `labels: false` under `pack:` in sixes.yaml)"


def pack_problems(gathered: Gathered, papers: tuple[Paper, ...], layout: PackLayout,
                  options: PrintOptions) -> list[Problem]:
    """For `check`: what `pack` with `layout` would refuse of each game it
    could pack (the casting file's, with it; any other, without one). A game
    without character sheets is measured with one envelope, as
    `--players 1` (what else it needs, the pack says), and only for labels
    or half covers: its envelopes are alike, their covers a fixed list that
    a page always holds, and deriving its documents is most of a check's time."""
    from ..render.fit.boxes import badges_per_sheet
    from ..render.pdf.cards import grid_for
    casting = gathered.casting
    if casting is not None and any(p.severity == "error" for p in casting.problems):
        return []
    problems: list[Problem] = []
    for item in gathered.loaded:
        if item.system.recast is None and not (layout.labels or layout.covers == "half"):
            continue
        own = casting is not None and casting.system == item.system.slug
        chosen = replace(gathered, packed=item, casting=casting if own else None,
                         casting_file=gathered.casting_file if own else None)
        choices = PackChoices(papers, None if item.system.recast else 1, labels=layout.labels,
                              name_sheets=layout.name_sheets, covers=layout.covers)
        from ..game.pack_plan import plan_pack
        try:
            plan = plan_pack(chosen, choices, grid_for(options.card_size, options.bleed),
                             badges_per_sheet=badges_per_sheet)
        except DataError:       # a game this pack cannot be made of at all: `pack` says why
            continue
        problems += envelope_problems(plan, chosen, papers)
    return problems


def envelope_problems(plan: PackPlan, gathered: Gathered, papers: tuple[Paper, ...]) -> list[Problem]:
    """Every envelope's cover, name stamp and label that will not fit."""
    return cover_problems(plan, gathered, papers) + name_problems(plan, gathered, papers)


def cover_problems(plan: PackPlan, gathered: Gathered, papers: tuple[Paper, ...]) -> list[Problem]:
    """Each envelope whose cover will not fit its page or half sheet
    (render/fit/cover_fit.py), at the casting entry or the character's file that
    gives its handouts: the covers' page count is exact, and only the render
    would find it otherwise."""
    from ..render.fit.cover_fit import unfit_covers
    assert isinstance(plan.covers.context, dict)
    roles = gathered.casting.roles if gathered.casting is not None else []
    hint = ("give some of its handouts to the player another way, shorten what the cover lists, or print a "
            "cover a page (--covers full, or `covers: full` under `pack:` in sixes.yaml)") \
        if plan.choices.half_covers else "give some of its handouts to the player another way, or shorten what " \
                                         "the cover lists"
    return [_envelope_problem(envelope, _handouts_source(envelope, roles, gathered.data_dir), why, hint)
            for envelope, why in unfit_covers(plan.covers.context, papers, plan.choices.half_covers)]


def name_problems(plan: PackPlan, gathered: Gathered, papers: tuple[Paper, ...]) -> list[Problem]:
    """Each envelope whose name will not fit its name stamp (every cast
    envelope has one, laid over its sheet in the GM pack), its name badge's
    player line when the badges print players (render/fit/packet_fit.py) or,
    with labels, its label on one of `papers` (render/fit/labels.py), at the casting entry's
    player or the character's file; when the name would fit under a title
    of one line, the title is what does not fit, and it is blamed once, at
    its own line."""
    from ..render.fit.labels import stamp_room, stamp_width
    from ..render.fit.packet_fit import unfit_badge_player
    roles = gathered.casting.roles if gathered.casting is not None else []
    narrowest = min(papers, key=lambda p: p.width_mm)
    badge_papers = [paper.name for paper in plan.badge_docs]
    badge_players = {badge["player"] for doc in plan.badge_docs.values() for sheet in doc.context["sheets"]
                     for badge in sheet if badge["player"]}
    problems: list[Problem] = []
    title_blamed: dict[str, tuple[LabelStock, Paper, int, list[Envelope]]] = {}
    for envelope in plan.envelopes:
        found: list[tuple[str, str]] = []
        if plan.stamps is not None and envelope.player:
            width, room = stamp_width(envelope.player, envelope.number), stamp_room(narrowest.width_mm)
            if width > room:
                found.append((f"its name stamp takes about {round(width)} mm, more than the {round(room)} mm "
                              f"across the top of {narrowest.label}", "shorten the player's name as the envelope "
                                                                      "should show it"))
        if envelope.player and envelope.player in badge_players:
            why = unfit_badge_player(envelope.player, badge_papers)
            if why is not None:
                found.append((why, "shorten the player's name as the badge should show it, or leave players off "
                                   "the badges (`player: false` under `badges:` in packet.yaml)"))
        for paper in papers if plan.choices.labels else ():
            stock = LABEL_STOCK[paper.name]
            title = _title_blamed(envelope, len(plan.envelopes), plan.title, stock)
            if title == 0:
                found.append(_name_unfit(stock, paper))
                break
            if title is not None:
                title_blamed.setdefault(stock.model, (stock, paper, title, []))[3].append(envelope)
        role = _role(envelope, roles)
        source = role.player_at if role is not None else _member_file(envelope, gathered.data_dir)
        problems += [_envelope_problem(envelope, source, why, hint) for why, hint in found]
    return problems + [_title_problem(plan, *blamed) for blamed in title_blamed.values()][:1]


def _title_blamed(envelope: Envelope, count: int, title: str, stock: LabelStock) -> int | None:
    """None when the name fits its label; else the title's line count when
    the name would fit under a title of one line, or no name would fit
    under the title's lines (the title is too long), else 0 (the name is)."""
    from ..render.fit.labels import label_fits, label_lines, title_lines
    under = label_lines(envelope.number, count, title)
    if label_fits(envelope.label, stock.width, stock.height, under):
        return None
    lines = title_lines(title, stock.width)
    if lines > 1 and (label_fits(envelope.label, stock.width, stock.height, [under[0], "."])
                      or not label_fits("X", stock.width, stock.height, under)):    # no room for any name
        return lines
    return 0


def _name_unfit(stock: LabelStock, paper: Paper) -> tuple[str, str]:
    from ..render.fit.labels import NAME_STEPS
    return (f"its name does not fit a label of {stock.model} ({paper.label}) even at {NAME_STEPS[-1]:g} pt",
            "shorten the name as the envelope should show it (a casting file's `player:` names it), " + NO_LABELS)


def _title_problem(plan: PackPlan, stock: LabelStock, paper: Paper, lines: int, envelopes: list[Envelope]
                   ) -> Problem:
    """The game's title, printed under every label's name, at its line in game.yaml."""
    from ..render.fit.labels import one_line
    named = ", ".join(f"{e.number} ({e.label})" for e in envelopes[:3]) + \
        (f" and {len(envelopes) - 3} more" if len(envelopes) > 3 else "")
    letters = one_line(plan.title, stock.width)
    message = (f"the game's title, printed under the name on each label of {stock.model}, takes {lines} lines "
               f"there ({paper.label}) and leaves too little room for the name of envelope{'s' * (len(envelopes) > 1)} "
               f"{named}")
    hint = f"shorten the title to one line of the label (about {letters} letters: '{plan.title[:letters]}'), " + \
        NO_LABELS
    from ..render.fit.bounded import field_problem
    return field_problem(plan.game.folder, "game.yaml", ("title",), message, hint)


def _envelope_problem(envelope: Envelope, source: tuple[str, int | None, int | None], why: str, hint: str) -> Problem:
    return Problem(*source, f"envelope {envelope.number} ({envelope.label}): {why}", hint=hint)


def _role(envelope: Envelope, roles: list[Casting]) -> Casting | None:
    """The casting entry an envelope was made from: the cast's envelopes come first, in casting order."""
    return roles[envelope.number - 1] if envelope.player and envelope.number <= len(roles) else None


def _member_file(envelope: Envelope, data_dir: Path, key: str | None = None) -> tuple[str, int | None, int | None]:
    """The character file behind an envelope's sheet (at its `key`'s line when
    the loader recorded it), else the game folder."""
    member = envelope.sheet.context.get("member") if envelope.sheet is not None else None
    source = getattr(member, "source", None)
    at = getattr(member, f"{key}_at", None) if key else None
    if not isinstance(source, str):
        return data_dir.name, None, None
    return (source, *at) if isinstance(at, tuple) else (source, None, None)


def _handouts_source(envelope: Envelope, roles: list[Casting], data_dir: Path) -> tuple[str, int | None, int | None]:
    """Where a cover's list comes from: the casting entry that gives its
    handouts, else the character's file that does, else its casting entry."""
    role = _role(envelope, roles)
    if role is not None and (role.handouts or envelope.sheet is None or not envelope.sheet.handouts):
        return role.at
    return _member_file(envelope, data_dir, "handouts")
