"""A pack's files from its rendered parts: merged PDFs, the manifest, the zips.

Edge layer, beside parts.py (the other place pypdf joins PDFs). The plan
(game/pack_plan.py) says what goes where; the command (commands/pack.py)
renders every part once per paper; this merges them into one PDF per
envelope in casting order, a GM pack and a card run, writes the stuffing
manifest (PDF and CSV) and zips each paper's folder for a print shop.

An envelope's PDF is its cover (player, character, envelope number, what
goes in), the character's sheet, the public summaries and the handouts. The
public card decks are not in it: every envelope's set of every deck is
printed in one card run (`card-run.pdf`), full N-up sheets with cut marks,
and the cover and the manifest say which set goes into which envelope. With
half-sheet covers (`--covers half`) the covers leave the envelopes' PDFs for
one file of their own, `covers.pdf`, two a sheet, printed one-sided (a
cover's back is another envelope's) and cut across the middle.

Envelopes and the GM pack are printed two-sided as one job each, so every part
starts on the front of a sheet: a part with an odd page count is followed by a
blank page (not after a file's last part, and never with `duplex=False`). The
card run is printed two-sided only with backs (fronts and backs alternate);
without backs it is printed one-sided, since a card's reverse would be another
card's face.
"""
from __future__ import annotations

import csv
import math
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ...core.errors import BuildError
from ...core.i18n import N_, _, ngettext, pgettext
from ...core.paper import Paper
from ...core.paths import TEMPLATES_DIR
from ...game.pack_plan import CARD_RUN, COVERS, LABEL_STOCK, Envelope, PackPlan, table_pages
from ...systems.base import Document
from ..pdf.jobs import Budget, Progress, calibration_job, prepare_html
from ..options import PrintOptions

if TYPE_CHECKING:
    from ..pdf.weasy import PdfJob

CALIBRATION_FILE = "duplex-calibration.pdf"
COVERS_FILE = f"{COVERS}.pdf"
# The manifest's rows that are not envelopes: the keys the table and the CSV
# keep in English; the printed manifest shows them translated.
GM_ROW, COVERS_ROW, CARDS_ROW, LABELS_ROW, CALIBRATION_ROW = N_("GM"), N_("Covers"), N_("Cards"), N_("Labels"), \
    N_("Calibration")
BADGES_ROW = N_("Badges")
BADGES_FILE = "badges.pdf"
# A spreadsheet reads a cell starting with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PIECE_LABEL = re.compile(r" \((part \d+|page numbers)\)$")


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
# Renders (budget, job) pairs quietly: no progress, not counted (BuildContext.render, quiet).
Renderer = Callable[[list[tuple[Budget, "PdfJob"]]], object]


class SourcePdfs:
    """The PDFs one paper's files are merged from. Each part this run
    rendered is parsed once and kept for the paper: every envelope holds the
    same summaries, and pypdf parses the whole object stream holding a
    PDF's catalogue before it can count its pages (parsing each part again
    for every file made the example's pack 2.18x as slow:
    benchmarks/bench_pack.py). A merge only reads them. A handout, the GM's
    file and maybe large, is read afresh for the file it goes into and not
    kept."""

    def __init__(self) -> None:
        self._parts: dict[Path, Any] = {}

    def part(self, path: Path) -> Any:
        """The pypdf PdfReader of a part this run rendered."""
        if path not in self._parts:
            self._parts[path] = self.read(path)
        return self._parts[path]

    @staticmethod
    def read(path: Path) -> Any:
        """A PdfReader of `path`, through the one gate: a handout is the file
        the gather checked (a real path inside the game folder), a part one
        this run rendered."""
        import io

        from pypdf import PdfReader

        from ...core.assets import MAX_PDF_BYTES
        from ...core.loading import read_limited
        return PdfReader(io.BytesIO(read_limited(path, MAX_PDF_BYTES, "a PDF")))


@dataclass(frozen=True)
class Press:
    """Where and how one paper's files are assembled."""

    paper: Paper
    folder: Path                    # pack/<game>/<paper>/ in the staging folder
    options: PrintOptions
    data_dir: Path                  # the game folder: templates may read its portraits
    render: Renderer
    sources: SourcePdfs = field(default_factory=SourcePdfs)     # the paper's rendered parts, each parsed once


@dataclass(frozen=True)
class ExtraFile:
    """A file of the pack besides the envelopes and the GM pack: its manifest row."""

    name: str                       # the row's name: Covers, Cards, Labels, Calibration
    contents: list[Part]
    file: str
    two_sided: bool


# --- rendering the parts ---------------------------------------------------------

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


def part_label(paper: Paper, doc: Document) -> str:
    """How progress and errors name one rendered part of a pack."""
    return f"{paper.name} pack/{doc.folder}/{doc.slug}.pdf"


def refuse_uneven_pages(plan: PackPlan, parts: Parts) -> None:
    """Covers and name stamps hold one page per envelope (or player; half-sheet
    covers one per two envelopes), or the pages cannot be told apart."""
    for doc, papers in plan.planned:
        if doc.slug in (COVERS, "name-stamps"):
            for paper in papers:
                _path, part = parts[paper, doc.folder, doc.slug]
                if part.pages != doc.max_pages:
                    room = "half sheet" if doc.slug == COVERS and plan.choices.half_covers else "page"
                    raise BuildError(f"{part_label(paper, doc)}: {part.pages} pages for {len(plan.envelopes)} "
                                     f"envelopes, not {doc.max_pages}; a name or list too long for its {room}?")


# --- one paper's files -----------------------------------------------------------

def assemble_paper(plan: PackPlan, parts: Parts, press: Press) -> int:
    """One paper's envelopes, GM pack, card run, labels, calibration sheet
    and manifest, merged from the rendered parts; returns the manifest's sheets."""
    stamp_of: dict[int, tuple[Path, int]] = {}
    if plan.stamps is not None:
        stamp_file, _part = parts[press.paper, plan.stamps.folder, plan.stamps.slug]
        stamp_of = {e.number: (stamp_file, k) for k, e in enumerate(e for e in plan.envelopes if e.player)}
    rows = [(envelope, _envelope_file(plan, parts, press, k, stamp_of)) for k, envelope in enumerate(plan.envelopes)]
    gm_contents = None
    if plan.gm_order:
        stamped = {e.sheet.slug: stamp_of.get(e.number) for e in plan.envelopes if e.sheet is not None}
        gm_pieces = [Piece(*parts[press.paper, d.folder, d.slug], stamp=stamped.get(d.slug)
                           if d.audience == "player" else None) for d in plan.gm_order]
        gm_title = _("{title}: GM pack").format(title=plan.title)
        gm_contents = merge(gm_pieces, press.folder / "gm-pack.pdf", gm_title, plan.choices.duplex, press.sources)
    manifest = Manifest(plan, press.paper, press.options.backs, rows, gm_contents, _extra_files(plan, parts, press))
    return manifest.write(press)


def _envelope_file(plan: PackPlan, parts: Parts, press: Press, k: int, stamp_of: dict[int, tuple[Path, int]]
                   ) -> list[Part]:
    """The k-th envelope's PDF: its cover (unless covers are half sheets,
    printed apart), sheet, summaries and handouts."""
    envelope, paper = plan.envelopes[k], press.paper
    pieces = []
    if not plan.choices.half_covers:
        cover_file, _part = parts[paper, plan.covers.folder, plan.covers.slug]
        pieces.append(Piece(cover_file, Part(_("cover"), 0), (k, k + 1)))
    if envelope.sheet is not None:
        path, part = parts[paper, envelope.sheet.folder, envelope.sheet.slug]
        pieces.append(Piece(path, part, stamp=stamp_of.get(envelope.number) if plan.choices.name_sheets else None))
    pieces += [Piece(*parts[paper, d.folder, d.slug]) for d in envelope.extra]      # its packet (packet_route.py)
    pieces += [Piece(*parts[paper, d.folder, d.slug]) for d in plan.docs.summaries]
    pieces += [Piece(h, Part(_("Handout: {name}").format(name=name), 0), handout=True)
               for h, name in envelope.titled_handouts()]
    return merge(pieces, press.folder / "envelopes" / f"{envelope.stem}.pdf",
                 _("{title}: envelope {number} ({label})").format(title=plan.title, number=envelope.number,
                                                                  label=envelope.label), plan.choices.duplex,
                 press.sources)


def _extra_files(plan: PackPlan, parts: Parts, press: Press) -> list[ExtraFile]:
    """Half-sheet covers, the card run, the labels and the duplex calibration
    sheet, each when asked for."""
    paper, folder, title, backs = press.paper, press.folder, plan.title, press.options.backs
    extras: list[ExtraFile] = []
    if plan.choices.half_covers:
        cover_path, _part = parts[paper, plan.covers.folder, plan.covers.slug]
        covers = Part(ngettext("{count} envelope cover, two a sheet", "{count} envelope covers, two a sheet",
                                len(plan.envelopes)).format(count=len(plan.envelopes)), 0)
        merged = merge([Piece(cover_path, covers)], folder / COVERS_FILE,
                       _("{title}: envelope covers").format(title=title), False, press.sources)
        extras.append(ExtraFile(COVERS_ROW, merged, COVERS_FILE, False))
    if plan.run is not None:
        two_sided = plan.choices.duplex and backs
        run_pieces = [Piece(*parts[paper, d.folder, d.slug]) for d in plan.run.documents]
        merged = merge(run_pieces, folder / f"{CARD_RUN}.pdf", _("{title}: card run").format(title=title), two_sided,
                       press.sources)
        extras.append(ExtraFile(CARDS_ROW, merged, f"{CARD_RUN}.pdf", two_sided))
    if plan.choices.labels:
        label_doc = plan.label_docs[paper]
        label_path, label_part = parts[paper, label_doc.folder, label_doc.slug]
        merged = merge([Piece(label_path, label_part)], folder / "labels.pdf",
                       _("{title}: envelope labels").format(title=title), False, press.sources)
        extras.append(ExtraFile(LABELS_ROW, merged, "labels.pdf", False))
    if (badge_doc := plan.badge_docs.get(paper)) is not None:
        badge_path, badge_part = parts[paper, badge_doc.folder, badge_doc.slug]
        merged = merge([Piece(badge_path, badge_part)], folder / BADGES_FILE,
                       _("{title}: name badges").format(title=title), False, press.sources)
        extras.append(ExtraFile(BADGES_ROW, merged, BADGES_FILE, False))
    if backs:   # measure the printer's offset before printing the decks' backs
        press.render([calibration_job(folder, paper, press.options)])
        extras.append(ExtraFile(CALIBRATION_ROW, [Part(_("duplex calibration"), 2)], CALIBRATION_FILE, True))
    return extras


def merge(given: Sequence[Piece | tuple[Path, Part]], target: Path, title: str, duplex: bool,
          sources: SourcePdfs | None = None) -> list[Part]:
    """One PDF from several (read through `sources`: the paper's, else a
    merge's own), with its own title and language; returns what went in
    with page counts (handouts are counted here). In duplex a part with an
    odd page count is followed by a blank page of its last page's size, so
    the next part starts on the front of a new sheet. A handout loses its
    active content (handouts.py), and its part says so."""
    from pypdf import PdfWriter

    from .handouts import find_active_content, strip_active_content
    from ..pdf.parts import declared_language, save_pdf
    from ..pdf.tagged_merge import TaggedMerge, as_artifact
    writer, contents, overlays = PdfWriter(), [], {}
    tags = TaggedMerge(writer)
    sources = sources or SourcePdfs()
    pieces = [p if isinstance(p, Piece) else Piece(*p) for p in given]
    for i, piece in enumerate(pieces):
        source = sources.read(piece.path) if piece.handout else sources.part(piece.path)
        start, stop = piece.pages or (0, len(source.pages))
        writer.append(source, pages=(start, stop))
        if not piece.handout:       # a handout joins untagged: its tree, if any, is not one of ours
            tags.add(source, len(writer.pages) - (stop - start), start, stop)
        pages = stop - start
        if piece.stamp is not None:
            if piece.stamp not in overlays:     # once: a stamp may lie over several pages
                stamp_file, index = piece.stamp
                overlays[piece.stamp] = as_artifact(sources.part(stamp_file).pages[index])
            overlay = overlays[piece.stamp]
            for page in writer.pages[len(writer.pages) - pages:]:
                page.merge_page(overlay)
        blank = 1 if duplex and pages % 2 and i < len(pieces) - 1 else 0
        if blank:
            box = source.pages[stop - 1].mediabox
            writer.add_blank_page(box.width, box.height)
        removed = find_active_content(source) if piece.handout else []
        part_title = piece.part.title
        if removed:
            part_title = _("{part} (active content removed: {what})").format(part=part_title, what=", ".join(removed))
        contents.append(Part(part_title, pages, blank))
    if any(piece.handout for piece in pieces):
        strip_active_content(writer)
    tags.finish(title)
    save_pdf(writer, target, title, declared_language([sources.part(p.path) for p in pieces if not p.handout]))
    return contents


def zip_papers(staged: Path, archives: dict[Paper, str], date: int) -> None:
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

@dataclass(frozen=True)
class Manifest:
    """One paper's stuffing list: a row per envelope, the GM pack's and each
    extra file's. Pages count every page of the file, blanks included;
    sheets are the paper it takes printed as one job."""

    plan: PackPlan
    paper: Paper
    backs: bool
    envelopes: list[tuple[Envelope, list[Part]]]
    gm_contents: list[Part] | None
    extras: list[ExtraFile] = field(default_factory=list)

    def table(self) -> list[dict[str, Any]]:
        run, duplex = self.plan.run, self.plan.choices.duplex
        table = [manifest_row(e.number, e.player or "", e.character or "", c, f"envelopes/{e.stem}.pdf", duplex,
                              _("{decks}: set {number} ({where})").format(decks=run.deck_names, number=e.number,
                                                                          where=run.where(e.number)) if run else "")
                 for e, c in self.envelopes]
        separator = pgettext("between the parts of a list", "; ")
        for row, (envelope, _c) in zip(table, self.envelopes, strict=True):
            row["contents"] = separator.join([row["contents"], *envelope.things])
        if self.gm_contents is not None:
            table.append(manifest_row(GM_ROW, "", "", self.gm_contents, "gm-pack.pdf", duplex))
        for extra in self.extras:
            row = manifest_row(extra.name, "", "", extra.contents, extra.file, extra.two_sided)
            if extra.name == CARDS_ROW and run is not None:
                row["contents"] = ngettext("{decks}: {sets} set of {size} ({cards} cards); {contents}",
                                           "{decks}: {sets} sets of {size} ({cards} cards); {contents}",
                                           len(self.envelopes)).format(
                    decks=run.deck_names, sets=len(self.envelopes), size=len(run.set_cards), cards=run.cards,
                    contents=describe(extra.contents))
            table.append(row)
        return table

    def document(self, table: list[dict[str, Any]], totals: dict[str, int]) -> Document:
        """The manifest to print, from its table."""
        stock, paper, run = LABEL_STOCK[self.paper.name], self.paper, self.plan.run
        count = len(self.envelopes)
        title = _("{title}: stuffing manifest").format(title=self.plan.title)
        return Document("manifest", title, "pack/manifest.html", "gm",
                        {"title": self.plan.title, "rows": table, "totals": totals, "paper": paper.name,
                         "paper_name": paper.label, "duplex": self.plan.choices.duplex, "backs": self.backs,
                         "run": run, "envelopes": count, "labels": stock if self.plan.choices.labels else None,
                         "cover_sheets": self.plan.covers.max_pages if self.plan.choices.half_covers else None,
                         "label_sheets": math.ceil(count / stock.per_sheet),
                         "badges": self.plan.badge_docs.get(paper) is not None},
                        max_pages=table_pages(len(table) + 6))

    def write(self, press: Press) -> int:
        """The stuffing list as CSV (for a spreadsheet) and as a PDF to
        print, into the paper's folder; returns the sheets of the whole pack."""
        table = self.table()
        with open(press.folder / "manifest.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(table[0]))
            writer.writeheader()
            writer.writerows({key: spreadsheet_safe(value) for key, value in row.items()} for row in table)
        paper_rows = [r for r in table if r["envelope"] not in (LABELS_ROW, BADGES_ROW)]     # printed on their stock
        totals = {"pages": sum(r["pages"] for r in paper_rows), "sheets": sum(r["sheets"] for r in paper_rows)}
        prepared = prepare_html(self.document(table, totals), press.options)
        press.render([(prepared.budget, prepared.job(press.folder / "manifest.pdf", press.paper,
                                                     (TEMPLATES_DIR, press.data_dir),
                                                     f"{press.paper.name} pack/manifest.pdf"))])
        return totals["sheets"]


def sheets_of_paper(pages: int, duplex: bool) -> int:
    return -(-pages // 2) if duplex else pages


def describe(contents: list[Part]) -> str:
    """'GM cheat sheet (3 p); 16 x character sheet (18 p)': runs of one kind
    counted; pages are printed pages, blanks are counted apart."""
    runs: list[list[Part]] = []
    for part in contents:
        if runs and runs[-1][0].title == part.title:
            runs[-1].append(part)
        else:
            runs.append([part])
    separator = pgettext("between the parts of a list", "; ")
    return separator.join((_("{count} x {part}") if len(run) > 1 else "{part}").format(
        count=len(run), part=_("{title} ({pages} p)").format(title=run[0].title, pages=sum(p.pages for p in run)))
        for run in runs)


def manifest_row(envelope: str | int, player: str, character: str, contents: list[Part], file: str,
                 duplex: bool, cards: str = "") -> dict[str, Any]:
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
