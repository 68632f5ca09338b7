"""`sixes pack`: from YAML to a box of envelopes.

Edge layer. For one game system it renders, once per paper, each character's
sheet, the public rules summaries, every GM document (whatever the system
provides: cheat sheet, balance report, ...), a roster, a cover page per
envelope and one card print run. Then it merges them with pypdf into one PDF
per envelope in casting order, a GM pack, a card run, and a stuffing manifest
(PDF and CSV), and zips each paper's pack for a print shop. Each game and
paper has a folder of its own, `pack/<game>/<paper>/`, with its zip beside
it. Like `build`, it works in a staging folder and swaps each finished
paper's folder and zip into place at the end, so a failure leaves the
previous pack as it was, and packing one paper or one game never removes
another's pack.

An envelope's PDF is its cover (player, character, envelope number, what
goes in), the character's sheet, the public summaries and the handouts. The
public card decks are not in it: every envelope's set of every deck is
printed in one card run (`card-run.pdf`), full N-up sheets with cut marks,
and the cover and the manifest say which set goes into which envelope.

Envelopes and the GM pack are printed two-sided as one job each, so every part
starts on the front of a sheet: a part with an odd page count is followed by a
blank page (not after a file's last part, and never with `duplex=False`). The
card run is printed two-sided only with backs (fronts and backs alternate);
without backs it is printed one-sided, since a card's reverse would be another
card's face.

A game without per-character sheets (D6xD6, The Sixes System) is packed as
`players` identical envelopes of its public player documents.
"""
from __future__ import annotations

import csv
import dataclasses
import math
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from ..core import naming
from .. import systems
from ..game.casting import ENVELOPES_CEILING, MAX_ENVELOPES, Casting, character_name, game_title, short_title
from ..game.dates import source_date
from ..game.gather import gather
from ..game.load import Loaded
from .context import BuildConfig, BuildContext, cache_warnings, refuse_output
from ..core.errors import BuildError, DataError, Problem, allowed_hint
from ..core.paper import A4, LETTER, Paper
from ..core.paths import TEMPLATES_DIR
from ..render.jobs import Progress, calibration_job, prepare_html
from ..render.options import PrintOptions
from ..systems.base import CARD_SHEET, Card, Deferred, Document, System

if TYPE_CHECKING:
    from ..render.cards import Grid

PACK_ENTRY = "pack"
# Rows of the manifest table that fit one page; a bigger game gets more pages.
MANIFEST_ROWS_PER_PAGE = 16
ROSTER_ROWS_PER_PAGE = 24
CARD_RUN = "card-run"
CALIBRATION_FILE = "duplex-calibration.pdf"
# A spreadsheet reads a cell starting with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class LabelStock:
    """A sheet of self-adhesive labels, in millimetres from the page's top left."""

    name: str
    columns: int
    rows: int
    width: float
    height: float
    left: float             # page edge to the first column
    top: float              # page edge to the first row
    gap_x: float = 0.0      # between columns
    gap_y: float = 0.0      # between rows

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    def origin(self, index: int) -> tuple[float, float]:
        column, row = index % self.columns, (index // self.columns) % self.rows
        return (self.left + column * (self.width + self.gap_x), self.top + row * (self.height + self.gap_y))


# The common stock of each paper, by its name: 21 labels (3 x 7) on A4, 30 (3 x 10) on Letter.
LABEL_STOCK = {
    A4.name: LabelStock("21 labels a sheet, 3 x 7, 63.5 x 38.1 mm (Avery L7160 or alike)", 3, 7, 63.5, 38.1,
                     7.25, 15.15, gap_x=2.5),
    LETTER.name: LabelStock('30 labels a sheet, 3 x 10, 2 5/8 x 1 in (Avery 5160 or alike)', 3, 10, 66.675, 25.4,
                         4.7625, 12.7, gap_x=3.175),
}


@dataclass(frozen=True)
class Envelope:
    number: int
    player: str | None
    character: str | None           # None in a game without character sheets
    sheet: Document | None
    handouts: tuple[Path, ...] = ()
    faction: str = ""

    @property
    def label(self) -> str:
        return self.player or self.character or f"Player {self.number}"

    @property
    def stem(self) -> str:
        """The envelope's file name: its number keeps it apart from every other."""
        return f"{self.number:02d}-{naming.slug(self.label)}"


@dataclass(frozen=True)
class Part:
    title: str
    pages: int
    blank: int = 0                  # blank pages added after it so the next part starts on a front


@dataclass(frozen=True)
class Piece:
    """What goes into a merged PDF: a rendered file, or some pages of it
    (one envelope's cover), maybe with a page laid over each of its pages
    (the player's name on their sheet)."""

    path: Path
    part: Part
    pages: tuple[int, int] | None = None        # [start, stop) of the file's pages; None: all
    stamp: tuple[Path, int] | None = None       # (file, page) laid over every page
    handout: bool = False                       # the GM's own file: its active content is removed


# Every rendered part of a pack by paper, folder and slug: its file and its page count.
Parts = dict[tuple[Paper, str, str], tuple[Path, Part]]


@dataclass(frozen=True)
class Sorted:
    """A system's documents by where they go in the pack."""

    sheets: list[Document]          # one per character: its envelope, and the GM pack
    decks: list[Document]           # public card decks, one set per envelope, all in the card run
    summaries: list[Document]       # public pages, one copy per envelope
    blank_forms: list[Document]     # a public blank of the character sheet: one master in the GM pack
    gm: list[Document]              # GM only


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

    def where(self, number: int) -> str:
        first, last = self.sheets_of[number]
        return f"sheet {first}" if first == last else f"sheets {first}-{last}"


@dataclass
class PackReport:
    out_dir: Path
    system: System
    envelopes: list[Envelope]
    files: list[Path] = field(default_factory=list)
    zips: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)   # documents rendered for this pack
    reused: int = 0                                     # documents taken from the build cache
    casting_file: Path | None = None                    # the casting file used, given or found
    card_run: CardRun | None = None
    sheets: dict[str, int] = field(default_factory=dict)  # paper -> sheets of paper the whole pack takes

    @property
    def root(self) -> Path:
        """This game's packs: a folder per paper and a zip per paper."""
        return self.out_dir / PACK_ENTRY / self.system.slug


def table_pages(rows: int, per_page: int = MANIFEST_ROWS_PER_PAGE) -> int:
    """Pages a one-row-per-envelope table (roster, manifest) may take."""
    return max(1, -(-rows // per_page))


def sheets_of_paper(pages: int, duplex: bool) -> int:
    return -(-pages // 2) if duplex else pages


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
                        faction if isinstance(faction, str) else "")
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


def _refuse_player_count(system: System, data_dir: Path, docs: Sorted, casting_file: Path | None,
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
        raise DataError([Problem(where, None, None, f"this {system.title} game has nothing for players to pack",
                                 hint="use `sixes build` for its GM documents")])
    if casting_file is not None:
        raise DataError([Problem(str(casting_file), None, None,
                                 f"{system.title} has no per-character sheets, so there is no one to cast",
                                 hint=f"drop --casting and pass --players N for N envelopes ({handed_out})")])
    if players is None:
        raise DataError([Problem(where, None, None,
                                 f"this {system.title} game has no per-character sheets to pack",
                                 hint=f"pass --players N for N envelopes that each hold {handed_out}")])


def pack(data_dir: Path, out_dir: Path, papers: tuple[Paper | str, ...], *, casting_file: Path | None = None,
         system: str | None = None, players: int | None = None, duplex: bool = True, labels: bool = False,
         name_sheets: bool = False, find_casting_file: bool = True, progress: Progress | None = None,
         **config: Any) -> PackReport:
    """Nothing is written unless the data, the system, the casting and the
    player count all hold up; casting problems are reported with the data's.
    Without `casting_file`, the game folder's own casting.yaml is used when
    it is for this game (`find_casting_file`). `labels` adds a sheet of
    envelope labels; `name_sheets` prints the player's name at the top of
    their character sheet (the GM pack's copies always carry it). `config`
    is the rest of a BuildConfig (options, workers, cache); with the cache
    on, documents `sixes build` already rendered into the same output folder
    (and simulations it remembered) are reused."""
    build_config = BuildConfig(data_dir, out_dir, tuple(Paper.parse(p) for p in papers), site=False, **config)
    refuse_output(build_config.out_dir, build_config.data_dir)
    _refuse_arguments(build_config.data_dir, system, players)
    date = source_date(build_config.data_dir)
    plan = _gather(build_config, casting_file, system, players, find_casting_file)
    plan = _plan_documents(plan, labels, name_sheets, duplex)
    report = plan.report
    game_entry = f"{PACK_ENTRY}/{plan.item.system.slug}"
    chosen = build_config.papers
    archives = {paper: f"{naming.slug(plan.title)}-pack-{paper.name}.zip" for paper in chosen}
    entries = [f"{game_entry}/{name}" for paper in chosen for name in (paper.name, archives[paper])]
    with BuildContext(build_config, entries, progress) as ctx:
        ctx.start(plan.item.system.simulations(plan.item.game))
        parts = _render_parts(ctx, plan.planned, plan.title)
        staged = ctx.staging / game_entry
        for paper in chosen:
            report.sheets[paper.name] = _assemble_paper(ctx, plan, parts, staged / paper.name, paper)
        _zip_papers(staged, archives, date)
        shutil.rmtree(ctx.staging / "parts")
        # A zip of the same paper under an older title of the game goes once the new one is in.
        stale = [entry for entry in ctx.record() for paper, name in archives.items()
                 if entry.startswith(f"{game_entry}/") and entry.endswith(f"-pack-{paper.name}.zip")
                 and entry != f"{game_entry}/{name}"]
        ctx.commit(retire=stale)
    report.rendered, report.reused = ctx.tally.rendered, ctx.tally.reused
    report.files = sorted(p for paper in chosen for p in (report.root / paper.name).rglob("*") if p.is_file())
    report.zips = [report.root / name for name in archives.values()]
    report.warnings += cache_warnings()
    return report


@dataclass
class PackPlan:
    """Everything a pack is made of, worked out before anything is rendered."""

    config: BuildConfig
    item: Loaded
    title: str
    docs: Sorted
    envelopes: list[Envelope]
    casting: list[Casting] | None
    report: PackReport
    duplex: bool = True
    labels: bool = False
    name_sheets: bool = False
    gm_order: list[Document] = field(default_factory=list)
    run: CardRun | None = None                       # the card run (plan_card_run), or None
    covers: Document | None = None
    stamps: Document | None = None
    label_docs: dict[Paper, Document] = field(default_factory=dict)
    planned: list[tuple[Document, tuple[Paper, ...]]] = field(default_factory=list)


def _gather(config: BuildConfig, casting_file: Path | None, system: str | None, players: int | None,
            find_casting_file: bool) -> PackPlan:
    """The gather (game/gather.py: the data of the settings' systems, the
    casting, every problem in one run), then the game chosen and the
    envelopes put in order."""
    data_dir, out_dir = config.data_dir, config.out_dir
    gathered = gather(data_dir, config.settings, config.papers, site=False, casting=casting_file,
                      find=find_casting_file, pack=True, system=system, out_dir=out_dir)
    item = gathered.packed
    assert item is not None         # gather(pack=True) chooses the game, or raises
    from ..render.bounded import refuse_unfit
    refuse_unfit([item], config.options, gathered.warnings)     # before anything renders: what `check` says
    all_docs = item.system.documents(item.game)
    docs = sort_documents(all_docs)
    _refuse_player_count(item.system, data_dir, docs, gathered.casting_file, players)
    title = game_title(all_docs, item.system)
    casting = None
    if gathered.casting is not None:
        casting = gathered.casting.roles
        # Every role of a pack's casting names a character (plan_envelopes relies on it too).
        order = [role.slug for role in casting if role.slug is not None]
        item, all_docs, docs = _in_envelope_order(item, all_docs, docs, order)
    if docs.sheets:
        envelopes, warnings = plan_envelopes(docs.sheets, casting, title)
    else:
        assert players is not None      # _refuse_player_count asks for it when there are no sheets
        envelopes, warnings = [Envelope(n, None, None, None) for n in range(1, players + 1)], []
    report = PackReport(out_dir, item.system, envelopes, casting_file=gathered.casting_file,
                        warnings=gathered.warnings + warnings)
    return PackPlan(config, item, title, docs, envelopes, casting, report)


def _plan_documents(plan: PackPlan, labels: bool, name_sheets: bool, duplex: bool) -> PackPlan:
    """Which documents the pack renders, on which papers: covers, name
    stamps, the card run, summaries, the GM pack's parts and labels."""
    docs, envelopes, title, papers = plan.docs, plan.envelopes, plan.title, plan.config.papers
    # The GM's copies of the sheets follow the envelopes, whatever order the files have.
    sheets_in_order = [e.sheet for e in envelopes if e.sheet is not None]
    cast = plan.casting is not None
    if cast:    # GM documents may print who plays whom: `player_of` maps a sheet's slug to its player
        docs = dataclasses.replace(docs, gm=[_with_players(d, {e.sheet.slug: e.player for e in envelopes
                                                               if e.sheet is not None and e.player})
                                             for d in docs.gm])
    # The cheat sheet first, then who plays whom (only when there are
    # characters), the system's other GM documents (a balance report, ...),
    # blank forms, and every character sheet.
    roster = [_roster(title, envelopes, cast)] if docs.sheets else []
    gm_order = docs.gm[:1] + roster + docs.gm[1:] + docs.blank_forms + sheets_in_order
    run = plan_card_run(docs.decks, len(envelopes), plan.config.options, title)
    plan.report.card_run = run
    covers = _covers(title, envelopes, docs, run)
    stamps = _name_stamps(title, envelopes) if cast else None
    own = [covers] + ([stamps] if stamps else []) + list(run.documents if run else ())
    planned = [(doc, papers) for doc in own + docs.summaries + gm_order]
    label_docs = {paper: _labels(title, envelopes, paper) for paper in papers} if labels else {}
    planned += [(doc, (paper,)) for paper, doc in label_docs.items()]
    return dataclasses.replace(plan, docs=docs, duplex=duplex, labels=labels, name_sheets=name_sheets,
                               gm_order=gm_order, run=run, covers=covers, stamps=stamps, label_docs=label_docs,
                               planned=planned)


def _assemble_paper(ctx: BuildContext, plan: PackPlan, parts: Parts, folder: Path, paper: Paper) -> int:
    """One paper's envelopes, GM pack, card run, labels, calibration sheet
    and manifest, merged from the rendered parts; returns the manifest's sheets."""
    title, envelopes, duplex, options = plan.title, plan.envelopes, plan.duplex, plan.config.options
    covers = plan.covers
    assert covers is not None       # _plan_documents made them
    cover_file, _ = parts[paper, covers.folder, covers.slug]
    stamp_of: dict[int, tuple[Path, int]] = {}
    if plan.stamps is not None:
        stamp_file, _ = parts[paper, plan.stamps.folder, plan.stamps.slug]
        stamp_of = {e.number: (stamp_file, k) for k, e in enumerate(e for e in envelopes if e.player)}
    rows: list[tuple[Envelope, list[Part]]] = []
    for k, envelope in enumerate(envelopes):
        pieces = [Piece(cover_file, Part("cover", 0), (k, k + 1))]
        if envelope.sheet is not None:
            path, part = parts[paper, envelope.sheet.folder, envelope.sheet.slug]
            pieces.append(Piece(path, part, stamp=stamp_of.get(envelope.number) if plan.name_sheets else None))
        pieces += [Piece(*parts[paper, d.folder, d.slug]) for d in plan.docs.summaries]
        pieces += [Piece(h, Part(f"Handout: {h.stem}", 0), handout=True) for h in envelope.handouts]
        contents = _merge(pieces, folder / "envelopes" / f"{envelope.stem}.pdf",
                          f"{title}: envelope {envelope.number} ({envelope.label})", duplex)
        rows.append((envelope, contents))
    gm_contents = None
    if plan.gm_order:
        stamped = {e.sheet.slug: stamp_of.get(e.number) for e in envelopes if e.sheet is not None}
        gm_pieces = [Piece(*parts[paper, d.folder, d.slug], stamp=stamped.get(d.slug) if d.audience == "player"
                           else None) for d in plan.gm_order]
        gm_contents = _merge(gm_pieces, folder / "gm-pack.pdf", f"{title}: GM pack", duplex)
    extras: list[tuple[str, list[Part], str, bool]] = []
    if plan.run is not None:
        run_pieces = [Piece(*parts[paper, d.folder, d.slug]) for d in plan.run.documents]
        extras.append(("Cards", _merge(run_pieces, folder / f"{CARD_RUN}.pdf", f"{title}: card run",
                                       duplex and options.backs), f"{CARD_RUN}.pdf", duplex and options.backs))
    if plan.labels:
        label_doc = plan.label_docs[paper]
        label_path, label_part = parts[paper, label_doc.folder, label_doc.slug]
        extras.append(("Labels", _merge([Piece(label_path, label_part)], folder / "labels.pdf",
                                        f"{title}: envelope labels", False), "labels.pdf", False))
    if options.backs:   # measure the printer's offset before printing the decks' backs
        ctx.render([calibration_job(folder, paper, options)], quiet=True)
        extras.append(("Calibration", [Part("duplex calibration", 2)], CALIBRATION_FILE, True))
    return _write_manifest(ctx, folder, title, rows, gm_contents, extras, plan.run, paper, duplex, options.backs,
                           plan.labels)


def _refuse_arguments(data_dir: Path, system: str | None, players: int | None) -> None:
    registered = list(systems.SLUGS)
    if system is not None and system not in registered:
        raise DataError([Problem(str(data_dir), None, None, f"unknown game system '{system}'",
                                 hint=allowed_hint(system, registered))])
    if players is not None and players < 1:
        raise DataError([Problem(str(data_dir), None, None, f"--players {players}: at least one envelope is needed",
                                 hint="pass --players 1 or more")])
    if players is not None and players > MAX_ENVELOPES:
        raise DataError([Problem(str(data_dir), None, None, f"--players {players}: {ENVELOPES_CEILING}",
                                 hint="pack a bigger event as several games")])


# --- envelope order everywhere ---------------------------------------------

def _in_envelope_order(item: Loaded, all_docs: list[Document], docs: Sorted, order: list[str]
                       ) -> tuple[Loaded, list[Document], Sorted]:
    """The game with its characters in envelope order, so the GM documents
    (a cheat sheet's roster, a balance report's cast table) list them as the
    envelopes do. A system's game is a frozen dataclass, and its player
    sheets follow the order of the tuple of characters it holds; that tuple
    is found by what it does (reversed, it reverses the sheets), reordered,
    and the result checked. A game where that cannot be found keeps its order."""
    sheets = [d.slug for d in docs.sheets]
    wanted = order + [s for s in sheets if s not in order]
    if wanted == sheets or not dataclasses.is_dataclass(item.game) or isinstance(item.game, type):
        return item, all_docs, docs
    for f in dataclasses.fields(item.game):
        value = getattr(item.game, f.name)
        if not isinstance(value, tuple) or len(value) != len(sheets) or len(sheets) < 2:
            continue
        try:
            turned = item.system.documents(dataclasses.replace(item.game, **{f.name: value[::-1]}))
        except Exception:       # not a field the documents can take reversed
            continue
        if [d.slug for d in turned if d.audience == "player"] != sheets[::-1]:
            continue
        position = {slug: k for k, slug in enumerate(sheets)}
        game = dataclasses.replace(item.game, **{f.name: tuple(value[position[s]] for s in wanted)})
        new_docs = item.system.documents(game)
        if [d.slug for d in new_docs if d.audience == "player"] == wanted:
            return Loaded(item.system, game), new_docs, sort_documents(new_docs)
    return item, all_docs, docs


def _with_players(doc: Document, players: dict[str, str]) -> Document:
    """A GM document whose context also holds `player_of` (sheet slug ->
    player's name), so its roster can name them; a slow context stays unread
    until used."""
    context = doc.context
    if isinstance(context, Deferred):
        return dataclasses.replace(doc, context=Deferred(lambda: {**context, "player_of": players}))
    return dataclasses.replace(doc, context={**context, "player_of": players})


# --- the pack's own documents ------------------------------------------------

def _roster(title: str, envelopes: list[Envelope], cast: bool) -> Document:
    return Document("roster", f"{title}: roster", "pack/roster.html", "gm",
                    {"title": title, "envelopes": envelopes, "cast": cast,
                     "factions": any(e.faction for e in envelopes)},
                    max_pages=table_pages(len(envelopes), ROSTER_ROWS_PER_PAGE))


def _deck_names(run: CardRun | None) -> str:
    return ", ".join(run.decks) if run else ""


def _covers(title: str, envelopes: list[Envelope], docs: Sorted, run: CardRun | None) -> Document:
    """One page per envelope, in envelope order: whose it is and what goes in."""
    pages = []
    for envelope in envelopes:
        inside = (["character sheet"] if envelope.sheet else []) + [short_title(d, title) for d in docs.summaries]
        inside += [f"Handout: {h.stem}" for h in envelope.handouts]
        cards = None
        if run is not None:
            shown = ", ".join(run.set_cards) if len(run.set_cards) <= 4 else f"{len(run.set_cards)} cards"
            cards = f"{_deck_names(run)}: one set ({shown}), from the card run, {run.where(envelope.number)}"
        pages.append({"envelope": envelope, "inside": inside, "cards": cards})
    return Document("covers", f"{title}: envelope covers", "pack/cover.html", "gm",
                    {"title": title, "pages": pages, "count": len(envelopes)}, max_pages=len(envelopes))


def _name_stamps(title: str, envelopes: list[Envelope]) -> Document | None:
    """A page per cast envelope holding only its player's name, at the top:
    laid over each page of that character's sheet."""
    cast = [e for e in envelopes if e.player]
    if not cast:
        return None
    return Document("name-stamps", f"{title}: players' names", "pack/stamp.html", "gm",
                    {"title": title, "envelopes": cast}, max_pages=len(cast))


def _labels(title: str, envelopes: list[Envelope], paper: Paper) -> Document:
    """Labels for the outside of the envelopes: the player's name (or the
    character's, for an envelope nobody is cast in) and the number; never
    the character of a cast player, since anyone can read a label."""
    stock = LABEL_STOCK[paper.name]
    placed = [(e, *stock.origin(k)) for k, e in enumerate(envelopes)]
    sheets = [placed[i:i + stock.per_sheet] for i in range(0, len(placed), stock.per_sheet)]
    return Document(f"labels-{paper.name}", f"{title}: envelope labels", "pack/labels.html", "gm",
                    {"title": title, "sheets": sheets, "stock": stock, "count": len(envelopes)},
                    max_pages=len(sheets))


# --- the card run ------------------------------------------------------------

def plan_card_run(decks: list[Document], envelopes: int, options: PrintOptions, title: str) -> CardRun | None:
    """Every envelope's set of every deck, in envelope order, on full sheets
    of the card size's grid. Decks are imposed together when they share a
    context (their faces are rendered with it); otherwise each group of
    decks starts a sheet of its own."""
    from ..render.cards import grid_for
    if not decks or not envelopes:
        return None
    grid = grid_for(options.card_size, options.bleed)
    groups: list[list[Document]] = []
    for deck in decks:
        home = next((g for g in groups if _same_context(g[0].context, deck.context)), None)
        if home is None:
            groups.append([deck])
        else:
            home.append(deck)
    documents: list[Document] = []
    on_sheet: list[int] = []
    sheets_of: dict[int, list[int]] = {n: [] for n in range(1, envelopes + 1)}
    for k, group in enumerate(groups):
        first = len(on_sheet) + 1
        cards: list[Card] = []
        for number in range(1, envelopes + 1):
            start = len(cards)
            for deck in group:
                cards.extend(deck.cards)
            sheets_of[number] += [first + start // grid.per_page, first + (len(cards) - 1) // grid.per_page]
        slug = CARD_RUN if len(groups) == 1 else f"{CARD_RUN}-{k + 1}"
        fronts = math.ceil(len(cards) / grid.per_page)
        documents.append(Document(slug, f"{title}: card run", CARD_SHEET, "public", group[0].context,
                                  max_pages=fronts, cards=tuple(cards)))
        on_sheet += [min(grid.per_page, len(cards) - i * grid.per_page) for i in range(fronts)]
    return CardRun(tuple(documents), tuple(short_title(d, title) for d in decks),
                   tuple(c.label for d in decks for c in d.cards),
                   {n: (min(s), max(s)) for n, s in sheets_of.items()}, tuple(on_sheet),
                   tuple(sheet_cuts(grid, n) for n in on_sheet))


def sheet_cuts(grid: Grid, cards: int) -> int:
    """Straight cuts along the marks for a sheet holding `cards`: one down
    each vertical line of the columns used, then (the strips stacked) one
    across each horizontal line of the rows used. Cards that share an edge
    share its cut; with bleed every card has its own."""
    columns, rows = min(cards, grid.columns), math.ceil(cards / grid.columns)
    return len(grid.cuts(columns, grid.cell_w, grid.card_w)) + len(grid.cuts(rows, grid.cell_h, grid.card_h))


def _same_context(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if a is b:
        return True
    if isinstance(a, Deferred) or isinstance(b, Deferred):
        return False
    try:
        return dict(a) == dict(b)
    except Exception:       # values that cannot be compared: keep the decks apart
        return False


# --- rendering and merging ---------------------------------------------------

_PIECE_LABEL = re.compile(r" \((part \d+|page numbers)\)$")


class SteadyProgress:
    """The pack's progress as documents done out of all it will render, so
    the total never moves. The render batch counts what it has been given so
    far (a document taken from the cache at once, a long one in parts), and
    its total grows as it goes; a part's tick counts its document once."""

    def __init__(self, progress: Progress, total: int):
        self.progress, self.total = progress, total
        self.seen: set[str] = set()

    def __call__(self, label: str, done: int, total: int) -> None:
        self.seen.add(_PIECE_LABEL.sub("", label))
        self.progress(label, min(len(self.seen), self.total), self.total)

    def finish(self) -> None:
        if len(self.seen) < self.total:
            self.seen.update(f"#{k}" for k in range(self.total))
            self.progress("all documents ready", self.total, self.total)


def _render_parts(ctx: BuildContext, planned: list[tuple[Document, tuple[Paper, ...]]], title: str) -> Parts:
    """Every document once per paper it is for, keyed by paper, folder and
    slug (a character's sheet may share a slug with a public document, never
    a folder); a document too long or overflowing fails the pack. Jobs are
    made as the renderer asks for them, a document whose context is slow to
    derive (the balance report) last, so its derivation overlaps the others' rendering."""
    ordered = sorted(planned, key=lambda p: isinstance(p[0].context, Deferred))
    keys = []
    target = ctx.staging / "parts"

    def jobs() -> Iterator:
        for doc, papers in ordered:
            prepared = prepare_html(doc, ctx.config.options)
            for paper in papers:
                path = target / paper.name / f"{doc.folder}-{doc.slug}.pdf"
                name = "character sheet" if doc.audience == "player" else short_title(doc, title)
                keys.append((paper, doc.folder, doc.slug, name))
                yield (prepared.budget, prepared.job(path, paper, (TEMPLATES_DIR, ctx.config.data_dir),
                                                     _part_label(paper, doc)))
    steady = SteadyProgress(ctx.progress, sum(len(papers) for _, papers in planned))
    real, ctx.progress = ctx.progress, steady
    try:
        results = ctx.render(jobs())
    finally:
        ctx.progress = real
    steady.finish()
    rendered = {(paper, folder, slug): (result.target, Part(name, result.pages))
                for (paper, folder, slug, name), result in zip(keys, results, strict=True)}
    for doc, papers in planned:      # one page per envelope (or player), or the pages cannot be told apart
        if doc.slug in ("covers", "name-stamps"):
            for paper in papers:
                _, part = rendered[paper, doc.folder, doc.slug]
                if part.pages != doc.max_pages:
                    raise BuildError(f"{_part_label(paper, doc)}: {part.pages} pages for "
                                     f"{doc.max_pages} envelopes; a name too long for its page?")
    return rendered


def _part_label(paper: Paper, doc: Document) -> str:
    """How progress and errors name one rendered part of a pack."""
    return f"{paper.name} pack/{doc.folder}/{doc.slug}.pdf"


def _merge(given: Sequence[Piece | tuple[Path, Part]], target: Path, title: str, duplex: bool) -> list[Part]:
    """One PDF from several, with its own title and language; returns what
    went in with page counts (handouts are counted here). In duplex a part
    with an odd page count is followed by a blank page of its last page's
    size, so the next part starts on the front of a new sheet. A handout
    loses its active content (render/handouts.py), and its part says so."""
    import io

    from pypdf import PdfReader, PdfWriter

    from ..core.assets import MAX_PDF_BYTES
    from ..core.loading import read_limited
    from ..render.handouts import find_active_content, strip_active_content
    from ..render.parts import save_pdf
    writer, contents, readers = PdfWriter(), [], {}

    def reader(path: Path) -> PdfReader:
        """Through the one gate: a handout is the file the gather checked
        (a real path inside the game folder), a part one this run rendered."""
        if path not in readers:
            readers[path] = PdfReader(io.BytesIO(read_limited(path, MAX_PDF_BYTES, "a PDF")))
        return readers[path]
    pieces = [p if isinstance(p, Piece) else Piece(*p) for p in given]
    for i, piece in enumerate(pieces):
        source = reader(piece.path)
        start, stop = piece.pages or (0, len(source.pages))
        writer.append(source, pages=(start, stop))
        pages = stop - start
        if piece.stamp is not None:
            stamp_path, index = piece.stamp
            overlay = reader(stamp_path).pages[index]
            for page in writer.pages[len(writer.pages) - pages:]:
                page.merge_page(overlay)
        blank = 1 if duplex and pages % 2 and i < len(pieces) - 1 else 0
        if blank:
            box = source.pages[stop - 1].mediabox
            writer.add_blank_page(box.width, box.height)
        removed = find_active_content(source) if piece.handout else []
        note = f" (active content removed: {', '.join(removed)})" if removed else ""
        contents.append(Part(piece.part.title + note, pages, blank))
    if any(piece.handout for piece in pieces):
        strip_active_content(writer)
    save_pdf(writer, target, title)
    return contents


def _zip_papers(staged: Path, archives: dict[Paper, str], date: int) -> None:
    """One zip per paper for the print shop, beside that paper's folder. The
    same files give the same zip: members in path order, each dated `date`
    (game/dates.py), readable by all, with no trace of the machine or user."""
    when = time.gmtime(date)[:6]
    for paper, name in archives.items():
        with zipfile.ZipFile(staged / name, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted((staged / paper.name).rglob("*")):
                if path.is_file():
                    member = zipfile.ZipInfo(str(Path(paper.name) / path.relative_to(staged / paper.name)), when)
                    member.compress_type, member.create_system = zipfile.ZIP_DEFLATED, 3   # 3: Unix
                    member.external_attr = 0o100644 << 16    # a regular file, rw-r--r--
                    with open(path, "rb") as source, zf.open(member, "w") as target:
                        shutil.copyfileobj(source, target)      # streamed: a pack's files can be large


# --- the manifest --------------------------------------------------------------

def describe(contents: list[Part]) -> str:
    """'GM cheat sheet (3 p); 16 x character sheet (18 p)': runs of one kind
    counted; pages are printed pages, blanks are counted apart."""
    runs: list[list[Part]] = []
    for part in contents:
        if runs and runs[-1][0].title == part.title:
            runs[-1].append(part)
        else:
            runs.append([part])
    return "; ".join((f"{len(run)} x " if len(run) > 1 else "") + f"{run[0].title} ({sum(p.pages for p in run)} p)"
                     for run in runs)


def manifest_row(envelope: str | int, player: str, character: str, contents: list[Part], file: str,
                 duplex: bool, cards: str = "") -> dict:
    pages = sum(p.pages + p.blank for p in contents)
    return {"envelope": envelope, "player": player, "character": character, "contents": describe(contents),
            "cards": cards, "pages": pages, "blank_pages": sum(p.blank for p in contents),
            "sheets": sheets_of_paper(pages, duplex), "file": file}


def spreadsheet_safe(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: one starting with = + - @, a
    tab or a carriage return would be read as a formula (a player called
    '=HYPERLINK(...)'), so it gets a leading apostrophe, which spreadsheets
    take as "text follows". Numbers are left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _write_manifest(ctx: BuildContext, folder: Path, title: str, rows: list[tuple[Envelope, list[Part]]],
                    gm_contents: list[Part] | None, extras: list[tuple[str, list[Part], str, bool]],
                    run: CardRun | None, paper: Paper, duplex: bool, backs: bool, labels: bool) -> int:
    """The stuffing list as CSV (for a spreadsheet) and as a PDF to print.
    Pages count every page of the file, blanks included; sheets are the
    paper it takes printed as one job. Returns the sheets of the whole pack."""
    table = [manifest_row(e.number, e.player or "", e.character or "", c, f"envelopes/{e.stem}.pdf", duplex,
                          f"{_deck_names(run)}: set {e.number} ({run.where(e.number)})" if run else "")
             for e, c in rows]
    if gm_contents is not None:
        table.append(manifest_row("GM", "", "", gm_contents, "gm-pack.pdf", duplex))
    for name, contents, file, two_sided in extras:
        row = manifest_row(name, "", "", contents, file, two_sided)
        if name == "Cards" and run is not None:
            row["contents"] = (f"{_deck_names(run)}: {len(rows)} sets of {len(run.set_cards)} "
                               f"({run.cards} cards); {describe(contents)}")
        table.append(row)
    with open(folder / "manifest.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows({key: spreadsheet_safe(value) for key, value in row.items()} for row in table)
    paper_rows = [r for r in table if r["envelope"] != "Labels"]      # labels are printed on label stock
    totals = {"pages": sum(r["pages"] for r in paper_rows), "sheets": sum(r["sheets"] for r in paper_rows)}
    stock = LABEL_STOCK[paper.name]
    manifest = Document("manifest", f"{title}: stuffing manifest", "pack/manifest.html", "gm",
                        {"title": title, "rows": table, "totals": totals, "paper": paper.name,
                         "paper_name": paper.label, "duplex": duplex, "backs": backs, "run": run,
                         "envelopes": len(rows),
                         "labels": stock if labels else None,
                         "label_sheets": math.ceil(len(rows) / stock.per_sheet)},
                        max_pages=table_pages(len(table) + 6))
    prepared = prepare_html(manifest, ctx.config.options)
    ctx.render([(prepared.budget, prepared.job(folder / "manifest.pdf", paper, (TEMPLATES_DIR, ctx.config.data_dir),
                                               f"{paper.name} pack/manifest.pdf"))], quiet=True)
    return totals["sheets"]

