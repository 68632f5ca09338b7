"""`sixes pack`: from YAML to a box of envelopes.

Edge layer. For one game system (Sixes by default) it renders, once per paper,
each character's sheet, one set of each public card deck, the public rules
summaries, every GM document (whatever the system provides: cheat sheet,
balance report, ...) and a roster. Then it merges them with pypdf into one PDF
per envelope in casting order, a GM pack, and a stuffing manifest (PDF and
CSV), and zips each paper's pack for a print shop. Like `build`, it works in
a staging folder and swaps the finished `pack/` into place at the end, so a
failure leaves the previous pack as it was.
"""
from __future__ import annotations

import csv
import dataclasses
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from .build import Progress, check_layout, load_all, prepare_html, render_pdfs, swap_into_place
from .casting import Casting, load_casting
from .errors import DataError, Problem, errors_in
from .paths import TEMPLATES_DIR
from .render.options import DEFAULT_OPTIONS, PrintOptions
from .systems.base import Document

PACK_ENTRY = "pack"
LANGUAGE = "en"
# Rows of the manifest table that fit one page; a bigger game gets more pages.
MANIFEST_ROWS_PER_PAGE = 24


@dataclass(frozen=True)
class Envelope:
    number: int
    player: str | None
    character: str
    sheet: Document
    handouts: tuple[Path, ...] = ()

    @property
    def label(self) -> str:
        return self.player or self.character

    @property
    def stem(self) -> str:
        return f"{self.number:02d}-{slugify(self.label)}"


@dataclass(frozen=True)
class Part:
    title: str
    pages: int


@dataclass
class PackReport:
    out_dir: Path
    envelopes: list[Envelope]
    files: list[Path] = field(default_factory=list)
    zips: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def table_pages(rows: int) -> int:
    """Pages a one-row-per-envelope table (roster, manifest) may take."""
    return max(1, -(-rows // MANIFEST_ROWS_PER_PAGE))


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "envelope"


def character_name(sheet: Document) -> str:
    character = sheet.context.get("character")
    return getattr(character, "name", None) or sheet.title.split(": ", 1)[-1]


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


def plan_envelopes(sheets: list[Document], casting: list[Casting] | None) -> tuple[list[Envelope], list[Problem]]:
    """Envelopes in casting order; characters nobody plays follow, labelled
    by character (all of them, when there is no casting file)."""
    by_slug = {sheet.slug: sheet for sheet in sheets}
    envelopes, warnings = [], []
    for role in casting or ():
        envelopes.append(Envelope(len(envelopes) + 1, role.player, character_name(by_slug[role.slug]),
                                  by_slug[role.slug], role.handouts))
    cast = {e.sheet.slug for e in envelopes}
    for sheet in sheets:
        if sheet.slug not in cast:
            if casting is not None:
                warnings.append(Problem("casting", None, None,
                                        f"nobody is cast as {character_name(sheet)}; their envelope is labelled by character",
                                        severity="warning"))
            envelopes.append(Envelope(len(envelopes) + 1, None, character_name(sheet), sheet))
    return envelopes, warnings


def pack(data_dir: Path, out_dir: Path, papers: tuple[str, ...], *, casting_file: Path | None = None,
         system: str = "sixes", options: PrintOptions = DEFAULT_OPTIONS, workers: int | None = None,
         progress: Progress | None = None) -> PackReport:
    progress = progress or (lambda label, done, total: None)
    data_dir, out_dir = Path(data_dir).resolve(), Path(out_dir).resolve()
    loaded, problems = load_all(data_dir)
    item = next((i for i in loaded if i.system.slug == system), None)
    if item is None:
        raise DataError([Problem(str(data_dir), None, None, f"no {system} game in this folder",
                                 hint=f"`sixes pack` needs a {system}/ sub-folder")])
    docs = item.system.documents(item.game)
    sheets = [d for d in docs if d.audience == "player"]
    decks = [one_set(d) for d in docs if d.audience == "public" and d.cards]
    summaries = [d for d in docs if d.audience == "public" and not d.cards]
    gm_docs = [d for d in docs if d.audience == "gm"]
    title = next((d.context["title"] for d in docs if isinstance(d.context.get("title"), str)), item.system.title)

    casting = None
    if casting_file is not None:
        names = {character_name(sheet): sheet.slug for sheet in sheets}
        casting, found = load_casting(Path(casting_file), names, (data_dir, Path(casting_file).resolve().parent))
        if errors_in(found):
            raise DataError(found)
    envelopes, warnings = plan_envelopes(sheets, casting)
    report = PackReport(out_dir, envelopes, warnings=[p for p in problems if p.severity == "warning"] + warnings)
    roster = Document("roster", f"{title}: roster", "pack/roster.html", "gm",
                      {"title": title, "envelopes": envelopes, "cast": casting is not None,
                       "faction": {e.number: getattr(e.sheet.context.get("character"), "faction", "")
                                   for e in envelopes}},
                      max_pages=table_pages(len(envelopes)))

    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".sixes-pack-", dir=out_dir))
    try:
        parts = _render_parts(staging / "parts", sheets + decks + summaries + gm_docs + [roster],
                              papers, data_dir, options, workers, progress)
        for paper in papers:
            folder = staging / PACK_ENTRY / paper
            rows = []
            for envelope in envelopes:
                pieces = [parts[paper, envelope.sheet.slug]] + [parts[paper, d.slug] for d in decks + summaries]
                pieces += [(h, Part(f"Handout: {h.stem}", 0)) for h in envelope.handouts]
                contents = _merge(pieces, folder / "envelopes" / f"{envelope.stem}.pdf",
                                  f"{title}: envelope {envelope.number} ({envelope.label})")
                rows.append((envelope, contents))
            # The cheat sheet first, then who plays whom, the system's other GM
            # documents (a balance report, ...), and every character sheet.
            gm_order = gm_docs[:1] + [roster] + gm_docs[1:] + sheets
            gm_pieces = [parts[paper, d.slug] for d in gm_order]
            gm_contents = _merge(gm_pieces, folder / "gm-pack.pdf", f"{title}: GM pack")
            _write_manifest(folder, title, rows, gm_contents, paper, data_dir, options)
        for paper in papers:
            archive = staging / PACK_ENTRY / f"{slugify(title)}-pack-{paper}.zip"
            with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
                for path in sorted((staging / PACK_ENTRY / paper).rglob("*")):
                    if path.is_file():
                        zf.write(path, Path(paper) / path.relative_to(staging / PACK_ENTRY / paper))
        shutil.rmtree(staging / "parts")
        swap_into_place(staging, out_dir, (PACK_ENTRY,))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    root = out_dir / PACK_ENTRY
    report.files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".zip")
    report.zips = sorted(root.glob("*.zip"))
    return report


def _render_parts(target: Path, documents: list[Document], papers, data_dir: Path, options: PrintOptions,
                  workers, progress) -> dict[tuple[str, str], tuple[Path, Part]]:
    """Every document once per paper; a document too long or overflowing fails the pack."""
    jobs, keys = [], []
    for doc in documents:
        prepared = prepare_html(doc, options)
        for paper in papers:
            path = target / paper / f"{doc.folder}-{doc.slug}.pdf"
            jobs.append((prepared.budget, prepared.job(path, paper, (TEMPLATES_DIR, data_dir),
                                                       f"{paper} pack/{doc.folder}/{doc.slug}.pdf")))
            name = "character sheet" if doc.audience == "player" else doc.title.split(": ", 1)[-1]
            keys.append((paper, doc.slug, name))
    results = render_pdfs([job for _, job in jobs], workers, progress)
    check_layout([budget for budget, _ in jobs], results)
    return {(paper, slug): (result.target, Part(name, result.pages))
            for (paper, slug, name), result in zip(keys, results)}


def _merge(pieces: list[tuple[Path, Part]], target: Path, title: str) -> list[Part]:
    """One PDF from several, with its own title and language; returns what
    went in with page counts (handouts are counted here)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject
    writer, contents = PdfWriter(), []
    for path, part in pieces:
        reader = PdfReader(path)
        writer.append(reader)
        contents.append(Part(part.title, len(reader.pages)))
    writer.add_metadata({"/Title": title, "/Producer": "Sixes Press"})
    writer._root_object[NameObject("/Lang")] = TextStringObject(LANGUAGE)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as handle:
        writer.write(handle)
    return contents


def _write_manifest(folder: Path, title: str, rows, gm_contents: list[Part], paper: str, data_dir: Path,
                    options: PrintOptions) -> None:
    """The stuffing list as CSV (for a spreadsheet) and as a PDF to print."""
    def describe(contents: list[Part]) -> str:
        """'GM cheat sheet (3 p); 16 x character sheet (18 p)': runs of one kind counted."""
        runs: list[list[Part]] = []
        for part in contents:
            if runs and runs[-1][0].title == part.title:
                runs[-1].append(part)
            else:
                runs.append([part])
        return "; ".join((f"{len(run)} x " if len(run) > 1 else "") + f"{run[0].title} ({sum(p.pages for p in run)} p)"
                         for run in runs)

    table = [{"envelope": e.number, "player": e.player or "", "character": e.character,
              "contents": describe(c), "pages": sum(p.pages for p in c),
              "file": f"envelopes/{e.stem}.pdf"} for e, c in rows]
    table.append({"envelope": "GM", "player": "", "character": "", "contents": describe(gm_contents),
                  "pages": sum(p.pages for p in gm_contents), "file": "gm-pack.pdf"})
    with open(folder / "manifest.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    manifest = Document("manifest", f"{title}: stuffing manifest", "pack/manifest.html", "gm",
                        {"title": title, "rows": table, "paper": paper}, max_pages=table_pages(len(table)))
    prepared = prepare_html(manifest, options)
    results = render_pdfs([prepared.job(folder / "manifest.pdf", paper, (TEMPLATES_DIR, data_dir),
                                        f"{paper} pack/manifest.pdf")], 1, lambda *a: None)
    check_layout([prepared.budget], results)
