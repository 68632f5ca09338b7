"""`sixes pack`: from YAML to a box of envelopes.

Edge layer. For one game system it renders, once per paper, each character's
sheet, one set of each public card deck, the public rules summaries, every GM
document (whatever the system provides: cheat sheet, balance report, ...) and
a roster. Then it merges them with pypdf into one PDF per envelope in casting
order, a GM pack, and a stuffing manifest (PDF and CSV), and zips each paper's
pack for a print shop. Each game and paper has a folder of its own,
`pack/<game>/<paper>/`, with its zip beside it. Like `build`, it works in a
staging folder and swaps each finished paper's folder and zip into place at
the end, so a failure leaves the previous pack as it was, and packing one
paper or one game never removes another's pack.

Envelopes and the GM pack are printed two-sided as one job each, so every part
starts on the front of a sheet: a part with an odd page count is followed by a
blank page (not after a file's last part, and never with `duplex=False`). A
deck with backs has an even count, so its fronts and backs stay paired.

A game without per-character sheets (D6xD6, The Sixes System) is packed as
`players` identical envelopes of its public player documents.
"""
from __future__ import annotations

import csv
import dataclasses
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from . import naming, systems
from .build import Loaded, Progress, load_all, refuse_duplicates
from .casting import Casting, load_casting
from .context import BuildConfig, BuildContext, cache_warnings, refuse_output
from .errors import DataError, Problem, allowed_hint, errors_in
from .paths import TEMPLATES_DIR
from .render.jobs import calibration_job, prepare_html
from .systems.base import Document, System

PACK_ENTRY = "pack"
# Rows of the manifest table that fit one page; a bigger game gets more pages.
MANIFEST_ROWS_PER_PAGE = 24


@dataclass(frozen=True)
class Envelope:
    number: int
    player: str | None
    character: str | None           # None in a game without character sheets
    sheet: Document | None
    handouts: tuple[Path, ...] = ()

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
class Sorted:
    """A system's documents by where they go in the pack."""

    sheets: list[Document]          # one per character: its envelope, and the GM pack
    decks: list[Document]           # public card decks, one set per envelope
    summaries: list[Document]       # public pages, one copy per envelope
    blank_forms: list[Document]     # a public blank of the character sheet: one master in the GM pack
    gm: list[Document]              # GM only


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

    @property
    def root(self) -> Path:
        """This game's packs: a folder per paper and a zip per paper."""
        return self.out_dir / PACK_ENTRY / self.system.slug


def table_pages(rows: int) -> int:
    """Pages a one-row-per-envelope table (roster, manifest) may take."""
    return max(1, -(-rows // MANIFEST_ROWS_PER_PAGE))


def sheets_of_paper(pages: int, duplex: bool) -> int:
    return -(-pages // 2) if duplex else pages


def character_name(sheet: Document, title: str) -> str:
    """Whom a character sheet is for: the game's title taken off its title."""
    return short_title(sheet, title)


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


def choose_system(loaded: list[Loaded], system: str | None, data_dir: Path) -> Loaded:
    """The game to pack: the one named, or the only one in the folder."""
    present = {item.system.slug: item for item in loaded}
    listed = ", ".join(present)
    if system is None:
        if len(present) == 1:
            return loaded[0]
        raise DataError([Problem(str(data_dir), None, None,
                                 f"this folder holds {len(present)} games ({listed}); which one should be packed?",
                                 hint="pass --system " + " or --system ".join(present))])
    if system not in present:
        title = systems.system(system).title
        raise DataError([Problem(str(data_dir), None, None,
                                 f"no {title} game in this folder (it holds: {listed})",
                                 hint=f"--system {system} needs a sub-folder named {system}/; or pack one of: {listed}")])
    return present[system]


def plan_envelopes(sheets: list[Document], casting: list[Casting] | None, title: str
                   ) -> tuple[list[Envelope], list[Problem]]:
    """Envelopes in casting order; characters nobody plays follow, labelled
    by character (all of them, when there is no casting file)."""
    by_slug = {sheet.slug: sheet for sheet in sheets}
    envelopes, warnings = [], []
    for role in casting or ():
        sheet = by_slug[role.slug]
        envelopes.append(Envelope(len(envelopes) + 1, role.player, character_name(sheet, title), sheet,
                                  sheet.handouts + role.handouts))
    cast = {e.sheet.slug for e in envelopes}
    for sheet in sheets:
        if sheet.slug not in cast:
            if casting is not None:
                warnings.append(Problem("casting", None, None,
                                        f"nobody is cast as {character_name(sheet, title)}; their envelope is labelled by character",
                                        severity="warning"))
            envelopes.append(Envelope(len(envelopes) + 1, None, character_name(sheet, title), sheet, sheet.handouts))
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


def pack(data_dir: Path, out_dir: Path, papers: tuple[str, ...], *, casting_file: Path | None = None,
         system: str | None = None, players: int | None = None, duplex: bool = True,
         progress: Progress | None = None, **config) -> PackReport:
    """Nothing is written unless the data, the system, the casting and the
    player count all hold up. `config` is the rest of a BuildConfig
    (options, workers, cache); with the cache on, documents `sixes build`
    already rendered into the same output folder (and simulations it
    remembered) are reused."""
    config = BuildConfig(data_dir, out_dir, papers, site=False, **config)
    data_dir, out_dir, options = config.data_dir, config.out_dir, config.options
    refuse_output(out_dir, data_dir)
    _refuse_arguments(data_dir, system, players)
    loaded, problems = load_all(data_dir)
    item = choose_system(loaded, system, data_dir)
    all_docs = item.system.documents(item.game)
    refuse_duplicates(item.system, all_docs)
    docs = sort_documents(all_docs)
    _refuse_player_count(item.system, data_dir, docs, casting_file, players)
    title = game_title(all_docs, item.system)

    casting, casting_warnings = None, []
    if casting_file is not None:
        names = {character_name(sheet, title): sheet.slug for sheet in docs.sheets}
        casting, casting_warnings = load_casting(Path(casting_file), names,
                                                 (data_dir, Path(casting_file).resolve().parent))
        if errors_in(casting_warnings):
            raise DataError(casting_warnings)
    if docs.sheets:
        envelopes, warnings = plan_envelopes(docs.sheets, casting, title)
    else:
        envelopes, warnings = [Envelope(n, None, None, None) for n in range(1, players + 1)], []
    report = PackReport(out_dir, item.system, envelopes,
                        warnings=[p for p in problems if p.severity == "warning"] + casting_warnings + warnings)
    # The cheat sheet first, then who plays whom (only when there are
    # characters), the system's other GM documents (a balance report, ...),
    # blank forms, and every character sheet.
    roster = [_roster(title, envelopes, casting is not None)] if docs.sheets else []
    gm_order = docs.gm[:1] + roster + docs.gm[1:] + docs.blank_forms + docs.sheets
    handed_out = docs.decks + docs.summaries

    game_entry = f"{PACK_ENTRY}/{item.system.slug}"
    archives = {paper: f"{naming.slug(title)}-pack-{paper}.zip" for paper in papers}
    entries = [f"{game_entry}/{name}" for paper in papers for name in (paper, archives[paper])]
    with BuildContext(config, entries, progress) as ctx:
        ctx.start(item.system.simulations(item.game))
        parts = _render_parts(ctx, handed_out + gm_order, title)
        staged = ctx.staging / game_entry
        for paper in papers:
            folder = staged / paper
            rows = []
            for envelope in envelopes:
                sheet = [envelope.sheet] if envelope.sheet else []
                pieces = [parts[paper, d.folder, d.slug] for d in sheet + handed_out]
                pieces += [(h, Part(f"Handout: {h.stem}", 0)) for h in envelope.handouts]
                contents = _merge(pieces, folder / "envelopes" / f"{envelope.stem}.pdf",
                                  f"{title}: envelope {envelope.number} ({envelope.label})", duplex)
                rows.append((envelope, contents))
            gm_contents = None
            if gm_order:
                gm_contents = _merge([parts[paper, d.folder, d.slug] for d in gm_order], folder / "gm-pack.pdf",
                                     f"{title}: GM pack", duplex)
            _write_manifest(ctx, folder, title, rows, gm_contents, paper, duplex)
            if options.backs:   # measure the printer's offset before printing the decks' backs
                ctx.render([calibration_job(folder, paper, options)], quiet=True)
        _zip_papers(staged, archives)
        shutil.rmtree(ctx.staging / "parts")
        # A zip of the same paper under an older title of the game goes once the new one is in.
        stale = [entry for entry in ctx.record() for paper, name in archives.items()
                 if entry.startswith(f"{game_entry}/") and entry.endswith(f"-pack-{paper}.zip")
                 and entry != f"{game_entry}/{name}"]
        ctx.commit(retire=stale)
    report.rendered, report.reused = ctx.tally.rendered, ctx.tally.reused
    report.files = sorted(p for paper in papers for p in (report.root / paper).rglob("*") if p.is_file())
    report.zips = [report.root / name for name in archives.values()]
    report.warnings += cache_warnings()
    return report


def _refuse_arguments(data_dir: Path, system: str | None, players: int | None) -> None:
    registered = list(systems.SLUGS)
    if system is not None and system not in registered:
        raise DataError([Problem(str(data_dir), None, None, f"unknown game system '{system}'",
                                 hint=allowed_hint(system, registered))])
    if players is not None and players < 1:
        raise DataError([Problem(str(data_dir), None, None, f"--players {players}: at least one envelope is needed",
                                 hint="pass --players 1 or more")])


def game_title(documents: list[Document], system: System) -> str:
    """The game's own title, as its documents carry it (else the system's name)."""
    return next((d.context["title"] for d in documents if isinstance(d.context.get("title"), str)), system.title)


def short_title(doc: Document, title: str) -> str:
    """'The Last Night: GM cheat sheet' -> 'GM cheat sheet' (the game's title
    may itself hold ': ', so it is removed whole, never split at the first)."""
    return doc.title.removeprefix(f"{title}: ")


def _roster(title: str, envelopes: list[Envelope], cast: bool) -> Document:
    return Document("roster", f"{title}: roster", "pack/roster.html", "gm",
                    {"title": title, "envelopes": envelopes, "cast": cast,
                     "faction": {e.number: getattr(e.sheet.context.get("character"), "faction", "")
                                 for e in envelopes}},
                    max_pages=table_pages(len(envelopes)))


def _zip_papers(staged: Path, archives: dict[str, str]) -> None:
    """One zip per paper for the print shop, beside that paper's folder."""
    for paper, name in archives.items():
        with zipfile.ZipFile(staged / name, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted((staged / paper).rglob("*")):
                if path.is_file():
                    zf.write(path, Path(paper) / path.relative_to(staged / paper))


def _render_parts(ctx: BuildContext, documents: list[Document], title: str
                  ) -> dict[tuple[str, str, str], tuple[Path, Part]]:
    """Every document once per paper, keyed by paper, folder and slug (a
    character's sheet may share a slug with a public document, never a
    folder); a document too long or overflowing fails the pack."""
    jobs, keys = [], []
    target = ctx.staging / "parts"
    for doc in documents:
        prepared = prepare_html(doc, ctx.config.options)
        for paper in ctx.config.papers:
            path = target / paper / f"{doc.folder}-{doc.slug}.pdf"
            jobs.append((prepared.budget, prepared.job(path, paper, (TEMPLATES_DIR, ctx.config.data_dir),
                                                       f"{paper} pack/{doc.folder}/{doc.slug}.pdf")))
            name = "character sheet" if doc.audience == "player" else short_title(doc, title)
            keys.append((paper, doc.folder, doc.slug, name))
    results = ctx.render(jobs)
    return {(paper, folder, slug): (result.target, Part(name, result.pages))
            for (paper, folder, slug, name), result in zip(keys, results)}


def _merge(pieces: list[tuple[Path, Part]], target: Path, title: str, duplex: bool) -> list[Part]:
    """One PDF from several, with its own title and language; returns what
    went in with page counts (handouts are counted here). In duplex a part
    with an odd page count is followed by a blank page of its last page's
    size, so the next part starts on the front of a new sheet."""
    from pypdf import PdfReader, PdfWriter

    from .render.parts import save_pdf
    writer, contents = PdfWriter(), []
    for i, (path, part) in enumerate(pieces):
        reader = PdfReader(path)
        writer.append(reader)
        pages = len(reader.pages)
        blank = 1 if duplex and pages % 2 and i < len(pieces) - 1 else 0
        if blank:
            box = reader.pages[-1].mediabox
            writer.add_blank_page(box.width, box.height)
        contents.append(Part(part.title, pages, blank))
    save_pdf(writer, target, title)
    return contents


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
                 duplex: bool) -> dict:
    pages = sum(p.pages + p.blank for p in contents)
    return {"envelope": envelope, "player": player, "character": character, "contents": describe(contents),
            "pages": pages, "blank_pages": sum(p.blank for p in contents),
            "sheets": sheets_of_paper(pages, duplex), "file": file}


def _write_manifest(ctx: BuildContext, folder: Path, title: str, rows, gm_contents: list[Part] | None, paper: str,
                    duplex: bool) -> None:
    """The stuffing list as CSV (for a spreadsheet) and as a PDF to print.
    Pages count every page of the file, blanks included; sheets are the
    paper it takes printed as one job."""
    table = [manifest_row(e.number, e.player or "", e.character or "", c, f"envelopes/{e.stem}.pdf", duplex)
             for e, c in rows]
    if gm_contents is not None:
        table.append(manifest_row("GM", "", "", gm_contents, "gm-pack.pdf", duplex))
    with open(folder / "manifest.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    totals = {"pages": sum(r["pages"] for r in table), "sheets": sum(r["sheets"] for r in table)}
    manifest = Document("manifest", f"{title}: stuffing manifest", "pack/manifest.html", "gm",
                        {"title": title, "rows": table, "totals": totals, "paper": paper, "duplex": duplex},
                        max_pages=table_pages(len(table) + 1))
    prepared = prepare_html(manifest, ctx.config.options)
    ctx.render([(prepared.budget, prepared.job(folder / "manifest.pdf", paper, (TEMPLATES_DIR, ctx.config.data_dir),
                                               f"{paper} pack/manifest.pdf"))], quiet=True)
