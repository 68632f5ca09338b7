"""Where a pack is planned: envelopes, card runs, labels, rosters, covers.

Game layer: pure. From the gather's game and casting this works out, before
anything renders, what `sixes pack` makes: which envelopes there are and in
which order, which documents it renders and on which papers, what goes into
the GM pack and how the card run is imposed. It reads no file and writes
none; the command (commands/pack.py) renders the plan and the render floor
(render/pack/assembly.py) merges, lists and zips it.

Which entities become envelopes is each system's plain statement: its
documents for the `player` audience are its character sheets, one envelope
each, and its `recast` puts its characters in a casting file's order (the
gather applies it, game/gather.in_casting_order), so the GM documents list
them as the envelopes do. A game without character sheets (D6xD6, The Sixes
System) is packed as `players` identical envelopes of its public documents.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import partial
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from ..core import naming
from ..core.errors import DataError, Problem, allowed_hint
from ..core.i18n import _, decimal_text, line_start, ngettext, pgettext
from ..core.paper import A4, LETTER, CoverLayout, Paper
from ..systems import SLUGS
from ..systems.base import CARD_SHEET, Card, Deferred, Document, System
from .casting import ENVELOPES_CEILING, MAX_ENVELOPES, Casting, character_name, game_title, short_title
from .gather import Gathered
from .handout_title import handout_title, readable_name
from .pack_things import badges_of, deck_set, own_cards, own_set, with_things
from .packet_cards import packet_card_context, stuff_index
from .packet_route import cover_lines, own_pages, packet_papers, with_papers

# Rows of the manifest table that fit one page; a bigger game gets more pages.
MANIFEST_ROWS_PER_PAGE = 16
ROSTER_ROWS_PER_PAGE = 24
CARD_RUN = "card-run"
COVERS = "covers"           # the covers' document, and with half-sheet covers their file


@dataclass(frozen=True)
class LabelStock:
    """A sheet of self-adhesive labels, in millimetres from the page's top left."""

    model: str              # the stock it is laid out for ("Avery L7160")
    columns: int
    rows: int
    width: float
    height: float
    left: float             # page edge to the first column
    top: float              # page edge to the first row
    gap_x: float = 0.0      # between columns
    gap_y: float = 0.0      # between rows
    inches: tuple[str, str] | None = None    # the label's size as a stock sold in inches gives it, else mm

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @property
    def name(self) -> str:
        """What the manifest calls the stock, in the run's language: '21 labels a sheet, 3 x 7, 63.5 x 38.1 mm
        (Avery L7160 or alike)'."""
        if self.inches:
            size = _("{width} x {height} in").format(width=self.inches[0], height=self.inches[1])
        else:
            size = _("{width} x {height} mm").format(width=decimal_text(Decimal(str(self.width)), 1),
                                                      height=decimal_text(Decimal(str(self.height)), 1))
        return ngettext("{count} label a sheet, {columns} x {rows}, {size} ({model} or alike)",
                        "{count} labels a sheet, {columns} x {rows}, {size} ({model} or alike)",
                        self.per_sheet).format(count=self.per_sheet, columns=self.columns, rows=self.rows,
                                               size=size, model=self.model)

    def origin(self, index: int) -> tuple[float, float]:
        column, row = index % self.columns, (index // self.columns) % self.rows
        return (self.left + column * (self.width + self.gap_x), self.top + row * (self.height + self.gap_y))


# The common stock of each paper, by its name: 21 labels (3 x 7) on A4, 30 (3 x 10) on Letter.
LABEL_STOCK = {
    A4.name: LabelStock("Avery L7160", 3, 7, 63.5, 38.1, 7.25, 15.15, gap_x=2.5),
    LETTER.name: LabelStock("Avery 5160", 3, 10, 66.675, 25.4, 4.7625, 12.7, gap_x=3.175, inches=("2 5/8", "1")),
}


@dataclass(frozen=True)
class Envelope:
    number: int
    player: str | None
    character: str | None           # None in a game without character sheets
    sheet: Document | None
    handouts: tuple[Path, ...] = ()
    faction: str = ""
    handout_titles: tuple[str, ...] = ()        # each handout's, as covers and the manifest list it
    extra: tuple[Document, ...] = ()    # the packet's papers after the sheet (packet_route.py)
    things: tuple[str, ...] = ()        # its cards, money, sealed envelopes, badge, counted (pack_things.py)

    def titled_handouts(self) -> list[tuple[Path, str]]:
        """Each handout with its title (handout_title.py), in envelope order."""
        return list(zip(self.handouts, self.handout_titles or [readable_name(h) for h in self.handouts], strict=True))

    @property
    def label(self) -> str:
        """Who the envelope is for, as its cover and label print it (in the game's language)."""
        return self.player or self.character or _("Player {number}").format(number=self.number)

    @property
    def stem(self) -> str:
        """The envelope's file name: its number keeps it apart from every
        other. Never from a translated word: file names stay as they are."""
        return f"{self.number:02d}-{naming.slug(self.player or self.character or f'Player {self.number}')}"


@dataclass(frozen=True)
class Sorted:
    """A system's documents by where they go in the pack."""

    sheets: list[Document]          # one per character: its envelope, and the GM pack
    decks: list[Document]           # public card decks, one set per envelope, all in the card run
    summaries: list[Document]       # public pages, one copy per envelope
    blank_forms: list[Document]     # a public blank of the character sheet: one master in the GM pack
    gm: list[Document]              # GM only


class CardGrid(Protocol):
    """What the card run needs of a card size's imposition (render/pdf/cards.py's Grid)."""

    @property
    def per_page(self) -> int: ...

    def sheet_cuts(self, cards: int) -> int: ...


@dataclass(frozen=True)
class CardRun:
    """Every envelope's set of every public deck, imposed on full sheets.
    Decks that share a context are imposed together; another context starts
    a fresh sheet (a separate document, merged into the same file)."""

    documents: tuple[Document, ...]
    decks: tuple[str, ...]          # the decks' short titles
    set_cards: tuple[str, ...]      # the cards of one envelope's set, by label
    sheets_of: Mapping[int, tuple[int, int]]   # envelope number -> first and last sheet holding its set
    cards_per_sheet: tuple[int, ...]           # cards on each sheet, in print order
    cuts_per_sheet: tuple[int, ...]            # straight cuts each sheet needs
    own_cards: Mapping[int, int] = dataclasses.field(default_factory=dict)  # envelope -> its own cards
    ranges_of: Mapping[int, tuple[tuple[int, int], ...]] = dataclasses.field(default_factory=dict)  # by group

    @property
    def cards(self) -> int:
        return sum(self.cards_per_sheet)

    @property
    def sheets(self) -> int:
        """Sheets of paper: with backs a front and its back share one."""
        return len(self.cards_per_sheet)

    @property
    def cuts(self) -> int:
        return sum(self.cuts_per_sheet)

    @property
    def deck_names(self) -> str:
        return ", ".join(self.decks)

    def where(self, number: int) -> str:
        if number not in self.sheets_of:
            return ""
        ranges = self.ranges_of.get(number) or (self.sheets_of[number],)
        return pgettext("between the parts of a list", "; ").join(
            _("sheet {number}").format(number=first) if first == last else
            _("sheets {first}-{last}").format(first=first, last=last) for first, last in ranges)


@dataclass(frozen=True)
class PackChoices:
    """What the command line chose for a pack, as the plan and the assembly read it."""

    papers: tuple[Paper, ...]
    players: int | None = None      # envelopes of a game without character sheets
    duplex: bool = True             # two-sided: each part starts on a front
    labels: bool = False            # a sheet of envelope labels per paper
    name_sheets: bool = False       # the player's name on their sheet in the envelope
    covers: CoverLayout = "full"    # "half": two covers a sheet in covers.pdf, not in the envelopes' files
    sealed_form: str | None = None  # a sealed insert's form where packet.yaml gives none (insert, fold)

    @property
    def half_covers(self) -> bool:
        return self.covers == "half"


@dataclass(frozen=True)
class PackPlan:
    """Everything a pack is made of, worked out before anything is rendered."""

    system: System
    game: Any
    title: str
    choices: PackChoices
    docs: Sorted
    envelopes: list[Envelope]
    cast: bool                                       # a casting file names the players
    warnings: list[Problem]
    gm_order: list[Document]                         # the GM pack's parts, in order
    run: CardRun | None                              # the card run (plan_card_run), or None
    covers: Document
    stamps: Document | None                          # the players' names, laid over their sheets
    label_docs: Mapping[Paper, Document]
    planned: list[tuple[Document, tuple[Paper, ...]]]   # every document to render, on its papers
    badge_docs: Mapping[Paper, Document] = dataclasses.field(default_factory=dict)   # name badges, by paper


def plan_pack(gathered: Gathered, choices: PackChoices, grid: CardGrid,
              draw: Callable[[str], str] | None = None, badges_per_sheet: Callable[[Paper], int] | None = None
              ) -> PackPlan:
    """The pack of the game the gather chose: its envelopes in casting order
    (the gather's game already lists its characters so), then the documents
    to render, on which papers: covers, name stamps, the card run,
    summaries, the GM pack's parts and labels, and the packet's papers
    (packet_route.py; `draw` draws its relationship map). Refuses a player
    count that does not fit the game."""
    item = gathered.packed
    assert item is not None         # gather(pack=True) chooses the game, or raises
    all_docs = item.system.documents(item.game)
    docs = sort_documents(all_docs)
    refuse_player_count(item.system, gathered.data_dir, docs, gathered.casting_file, choices.players)
    title = game_title(all_docs, item.system)
    casting = gathered.casting.roles if gathered.casting is not None else None
    envelopes, warnings = _envelopes(docs, casting, title, choices.players)
    game_packet = gathered.packets.get(item.system.slug)
    packet = packet_papers(game_packet, title, draw, choices.sealed_form)
    envelopes = with_things(with_papers(envelopes, packet), game_packet)
    cast = casting is not None
    if cast:    # GM documents may print who plays whom: `player_of` maps a sheet's slug to its player
        players = {e.sheet.slug: e.player for e in envelopes if e.sheet is not None and e.player}
        docs = dataclasses.replace(docs, gm=[with_players(d, players) for d in docs.gm])
    # The cheat sheet first, then who plays whom (only when there are
    # characters), the system's other GM documents (a balance report, ...),
    # blank forms, and every character sheet, following the envelopes.
    roster = [pack_roster(title, envelopes, cast)] if docs.sheets else []
    sheets_in_order = [d for e in envelopes if e.sheet is not None for d in (e.sheet, *own_pages(e.extra))]
    index = stuff_index(game_packet, title, envelopes) if game_packet is not None else None
    gm_order = docs.gm[:1] + roster + docs.gm[1:] + docs.blank_forms + sheets_in_order + list(packet.gm) + \
        ([index] if index else [])
    run = plan_card_run(docs.decks, len(envelopes), grid, title, own_cards(envelopes, game_packet))
    covers = envelope_covers(title, envelopes, docs, run, choices.half_covers, sheet_word(item.system))
    stamps = name_stamps(title, envelopes) if cast else None
    own = [covers] + ([stamps] if stamps else []) + list(run.documents if run else ())
    planned = [(doc, choices.papers) for doc in own + docs.summaries + gm_order]
    label_docs = {paper: envelope_labels(title, envelopes, paper) for paper in choices.papers} \
        if choices.labels else {}
    badge_docs = badges_of(game_packet, envelopes, choices.papers, badges_per_sheet, title)
    planned += [(doc, (paper,)) for paper, doc in [*label_docs.items(), *badge_docs.items()]]
    return PackPlan(item.system, item.game, title, choices, docs, envelopes, cast, gathered.warnings + warnings,
                    gm_order, run, covers, stamps, label_docs, planned, badge_docs)


def _envelopes(docs: Sorted, casting: list[Casting] | None, title: str, players: int | None
               ) -> tuple[list[Envelope], list[Problem]]:
    """One envelope per character sheet, else `players` alike ones."""
    if docs.sheets:
        return plan_envelopes(docs.sheets, casting, title)
    assert players is not None      # refuse_player_count asks for it when there are no sheets
    return [Envelope(n, None, None, None) for n in range(1, players + 1)], []


def table_pages(rows: int, per_page: int = MANIFEST_ROWS_PER_PAGE) -> int:
    """Pages a one-row-per-envelope table (roster, manifest) may take."""
    return max(1, -(-rows // per_page))


def one_set(deck: Document) -> Document:
    """A deck as one player needs it: each distinct card once (a shared sheet
    repeats sets so one page serves several players)."""
    seen, cards = set(), []
    for card in deck.cards:
        key = (card.label, card.front, card.back)
        if key not in seen:
            seen.add(key)
            cards.append(card)
    return dataclasses.replace(deck, slug=f"{deck.slug}-one-set", cards=tuple(cards))


def sort_documents(docs: list[Document]) -> Sorted:
    """A public page printed from a character sheet's template is that sheet
    left blank (Six Shooter's Operator sheet): a player already has theirs
    filled in, so it goes to the GM as a master to copy, not in envelopes."""
    sheets = [d for d in docs if d.audience == "player"]
    sheet_templates = {d.template for d in sheets}
    public_pages = [d for d in docs if d.audience == "public" and not d.cards]
    return Sorted(sheets=sheets,
                  decks=[one_set(d) for d in docs if d.audience == "public" and d.cards],
                  summaries=[d for d in public_pages if d.template not in sheet_templates],
                  blank_forms=[d for d in public_pages if d.template in sheet_templates],
                  gm=[d for d in docs if d.audience == "gm"])


def plan_envelopes(sheets: list[Document], casting: list[Casting] | None, title: str
                   ) -> tuple[list[Envelope], list[Problem]]:
    """Envelopes in casting order; characters nobody plays follow, labelled
    by character (all of them, when there is no casting file)."""
    by_slug = {sheet.slug: sheet for sheet in sheets}
    envelopes: list[Envelope] = []
    warnings: list[Problem] = []

    def envelope(player: str | None, sheet: Document, handouts: tuple[Path, ...]) -> Envelope:
        faction = getattr(sheet.context.get("character"), "faction", "") or ""
        return Envelope(len(envelopes) + 1, player, character_name(sheet, title), sheet, handouts,
                        faction if isinstance(faction, str) else "", tuple(handout_title(h) for h in handouts))
    for role in casting or ():
        assert role.slug is not None    # a pack's casting is checked against the characters, or refused
        sheet = by_slug[role.slug]
        envelopes.append(envelope(role.player, sheet, sheet.handouts + role.handouts))
    cast = {e.sheet.slug for e in envelopes if e.sheet is not None}     # all of them, here
    for sheet in sheets:
        if sheet.slug not in cast:
            if casting is not None:
                warnings.append(Problem("casting", None, None,
                                        f"nobody is cast as {character_name(sheet, title)}; "
                                        "their envelope is labelled by character",
                                        severity="warning"))
            envelopes.append(envelope(None, sheet, sheet.handouts))
    return envelopes, warnings


# --- what the command line may not ask ------------------------------------------

def refuse_arguments(data_dir: Path, system: str | None, players: int | None) -> None:
    """A system that is not registered, or a player count out of bounds."""
    registered = list(SLUGS)
    if system is not None and system not in registered:
        raise DataError([Problem(str(data_dir), None, None, f"unknown game system '{system}'",
                                 hint=allowed_hint(system, registered))])
    if players is not None and players < 1:
        raise DataError([Problem(str(data_dir), None, None, f"--players {players}: at least one envelope is needed",
                                 hint="pass --players 1 or more")])
    if players is not None and players > MAX_ENVELOPES:
        raise DataError([Problem(str(data_dir), None, None, f"--players {players}: {ENVELOPES_CEILING}",
                                 hint="pack a bigger event as several games")])


def refuse_player_count(system: System, data_dir: Path, docs: Sorted, casting_file: Path | None,
                        players: int | None) -> None:
    """Envelopes follow the characters when there are any, and a player count
    when there are none; asking for the other is a mistake worth naming."""
    where = str(data_dir / system.slug)
    if docs.sheets and players is not None:
        raise DataError([Problem(where, None, None,
                                 f"--players is for games without character sheets; this {system.title} game has "
                                 f"{len(docs.sheets)} characters, one envelope each",
                                 hint="leave out --players (order and name the envelopes with --casting FILE)")])
    if docs.sheets:
        return
    title = game_title(docs.decks + docs.summaries, system)
    handed_out = ", ".join(short_title(d, title) for d in docs.decks + docs.summaries)
    if not handed_out:
        raise DataError([Problem(where, None, None, f"this game ({system.title}) has nothing for players to pack",
                                 hint="use `sixes build` for its GM documents")])
    if casting_file is not None:
        raise DataError([Problem(str(casting_file), None, None,
                                 f"{system.title} has no per-character sheets, so there is no one to cast",
                                 hint=f"drop --casting and pass --players N for N envelopes ({handed_out})")])
    if players is None:
        raise DataError([Problem(where, None, None,
                                 f"{system.title} has no per-character sheets to pack",
                                 hint=f"pass --players N for N envelopes that each hold {handed_out}")])


# --- the pack's own documents ------------------------------------------------

def with_players(doc: Document, players: dict[str, str]) -> Document:
    """A GM document whose context also holds `player_of` (sheet slug ->
    player's name), so its roster can name them; a slow context stays unread
    until used."""
    context = doc.context
    if isinstance(context, Deferred):
        return dataclasses.replace(doc, context=Deferred(lambda: {**context, "player_of": players}))
    return dataclasses.replace(doc, context={**context, "player_of": players})


def sheet_word(system: System) -> str:
    """What the system calls a player's sheet (its glossary's `sheet`), for the covers and the manifest."""
    return system.glossary.get("sheet", _("character sheet"))


def pack_roster(title: str, envelopes: list[Envelope], cast: bool) -> Document:
    return Document("roster", _("{title}: roster").format(title=title), "pack/roster.html", "gm",
                    {"title": title, "envelopes": envelopes, "cast": cast,
                     "factions": any(e.faction for e in envelopes)},
                    max_pages=table_pages(len(envelopes), ROSTER_ROWS_PER_PAGE))


def envelope_covers(title: str, envelopes: list[Envelope], docs: Sorted, run: CardRun | None,
                    half: bool = False, sheet: str | None = None) -> Document:
    """A cover per envelope, in envelope order: whose it is and what goes in
    (the sheet by the system's own word for it, its glossary's `sheet`).
    One a page, or (`half`) two a sheet, one above the other, cut apart."""
    pages = []
    for envelope in envelopes:
        inside = [line_start(sheet or _("character sheet"))] if envelope.sheet else []
        inside += [line_start(line) for line in cover_lines(envelope.extra, title)]
        inside += [line_start(line) for line in envelope.things]
        inside += [line_start(short_title(d, title)) for d in docs.summaries]
        inside += [_("Handout: {name}").format(name=name) for _path, name in envelope.titled_handouts()]
        cards = None
        if run is not None:
            count = len(run.set_cards)
            shown = ", ".join(run.set_cards) if count <= 4 else ngettext("{count} card", "{count} cards", count).format(
                count=count)
            cards = line_start(_("{decks}: one set ({cards}), from the card run, {where}").format(
                decks=run.deck_names, cards=shown, where=run.where(envelope.number)))
        pages.append({"envelope": envelope, "inside": inside, "cards": cards})
    sheets = [pages[k:k + 2] for k in range(0, len(pages), 2)] if half else []
    return Document(COVERS, _("{title}: envelope covers").format(title=title), "pack/cover.html", "gm",
                    {"title": title, "pages": pages, "count": len(envelopes), "sheets": sheets},
                    max_pages=len(sheets) if half else len(envelopes), flowing=False)


def name_stamps(title: str, envelopes: list[Envelope]) -> Document | None:
    """A page per cast envelope holding only its player's name, at the top:
    laid over each page of that character's sheet."""
    cast = [e for e in envelopes if e.player]
    if not cast:
        return None
    return Document("name-stamps", _("{title}: players' names").format(title=title), "pack/stamp.html", "gm",
                    {"title": title, "envelopes": cast}, max_pages=len(cast), flowing=False)


def envelope_labels(title: str, envelopes: list[Envelope], paper: Paper) -> Document:
    """Labels for the outside of the envelopes: the player's name (or the
    character's, for an envelope nobody is cast in) and the number; never
    the character of a cast player, since anyone can read a label."""
    stock = LABEL_STOCK[paper.name]
    placed = [(e, *stock.origin(k)) for k, e in enumerate(envelopes)]
    sheets = [placed[i:i + stock.per_sheet] for i in range(0, len(placed), stock.per_sheet)]
    return Document(f"labels-{paper.name}", _("{title}: envelope labels").format(title=title), "pack/labels.html", "gm",
                    {"title": title, "sheets": sheets, "stock": stock, "count": len(envelopes)},
                    max_pages=len(sheets), flowing=False)


# --- the card run ------------------------------------------------------------

def plan_card_run(decks: list[Document], envelopes: int, grid: CardGrid, title: str,
                  own: Mapping[int, tuple[Card, ...]] | None = None) -> CardRun | None:
    """Every envelope's set of every deck, in envelope order, on full sheets
    of the card size's grid. Decks are imposed together when they share a
    context (their faces are rendered with it); otherwise each group of
    decks starts a sheet of its own. `own`: each envelope's own cards (its
    items, abilities and money, game/packet_cards.py), a group of their own."""
    by_context: list[tuple[Mapping[str, Any], list[Document]]] = []
    for deck in decks:
        home = next((g for g in by_context if _same_context(g[0], deck.context)), None)
        if home is None:
            by_context.append((deck.context, [deck]))
        else:
            home[1].append(deck)
    groups: list[tuple[Mapping[str, Any], Callable[[int], tuple[Card, ...]]]] = [
        (context, partial(deck_set, tuple(group))) for context, group in by_context]
    if own and any(own.values()):
        groups.append((packet_card_context(title), partial(own_set, own)))
    if not groups or not envelopes:
        return None
    documents: list[Document] = []
    on_sheet: list[int] = []
    sheets_of: dict[int, list[tuple[int, int]]] = {n: [] for n in range(1, envelopes + 1)}
    for k, (context, cards_of) in enumerate(groups):
        first = len(on_sheet) + 1
        cards: list[Card] = []
        for number in range(1, envelopes + 1):
            start = len(cards)
            cards.extend(cards_of(number))
            if len(cards) > start:
                sheets_of[number].append((first + start // grid.per_page, first + (len(cards) - 1) // grid.per_page))
        slug = CARD_RUN if len(groups) == 1 else f"{CARD_RUN}-{k + 1}"
        fronts = math.ceil(len(cards) / grid.per_page)
        documents.append(Document(slug, _("{title}: card run").format(title=title), CARD_SHEET, "public", context,
                                  max_pages=fronts, cards=tuple(cards)))
        on_sheet += [min(grid.per_page, len(cards) - i * grid.per_page) for i in range(fronts)]
    return CardRun(tuple(documents), tuple(short_title(d, title) for d in decks),
                   tuple(c.label for d in decks for c in d.cards),
                   {n: (s[0][0], s[-1][1]) for n, s in sheets_of.items() if s}, tuple(on_sheet),
                   tuple(grid.sheet_cuts(n) for n in on_sheet), {n: len(c) for n, c in (own or {}).items()},
                   {n: tuple(s) for n, s in sheets_of.items() if s})


def _same_context(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if a is b:
        return True
    if isinstance(a, Deferred) or isinstance(b, Deferred):
        return False
    try:
        return dict(a) == dict(b)
    except (TypeError, ValueError):     # values that cannot be compared (an array's ==): keep the decks apart
        return False
