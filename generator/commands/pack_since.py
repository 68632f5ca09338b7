"""`sixes pack --since PACK`: only what changed since an earlier pack.

Edge layer. It gathers and plans the pack as `sixes pack` does (the same
refusals), reads the earlier pack's record through the reading gate
(game/pack_history.py), makes the new pack's record without rendering it
(game/pack_record.py, render/pack/record.py: each part's HTML), and compares
them (game/reprint.py). With `dry_run` that is all: the list is printed and
nothing is written. Otherwise it renders only the changed parts and writes,
through the output writer, a folder of its own, `pack/<game>/<paper>-reprint-<n>/`:
the reprint sheet, the pages, cards, labels and badges to print, the new
pack's stuffing list marking what is replaced, and the new record (the next
`--since` starts from it). The earlier pack is never changed or removed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..core.errors import Problem
from ..core.i18n import speaking
from ..core.paper import Paper
from ..core.paths import TEMPLATES_DIR
from ..game.pack_history import last_record, read_record, record_path, reprint_folders
from ..game.pack_plan import PackPlan, refuse_arguments
from ..game.pack_record import RECORD_FILE, record_text
from ..game.reprint import Reprint, Sheets, Stock, reprint_of, sheets_of
from ..render.pdf.jobs import Progress, prepare_html
from ..systems.base import System
from .context import BuildContext, refuse_output
from .pack import PACK_ENTRY, PackRequest, gather_for, plan_for, record_for
from .reports import shown_path


@dataclass
class PaperReprint:
    paper: Paper
    reprint: Reprint
    sheets: Sheets
    record: dict[str, Any]
    folder: Path | None = None          # where it was written (None: a dry run)
    files: list[str] = field(default_factory=list)


@dataclass
class ReprintReport:
    system: System
    title: str
    papers: list[PaperReprint]
    warnings: list[Problem]


def reprint(request: PackRequest, since: Path | None, dry_run: bool = False,
            progress: Progress | None = None) -> ReprintReport:
    """The reprint of each paper's pack since its earlier record; nothing is
    written with `dry_run`, nor when the data, the casting or a record is refused."""
    config = request.config()
    refuse_output(config.out_dir, config.data_dir)
    refuse_arguments(config.data_dir, request.system, request.players)
    gathered = gather_for(config, request)
    with speaking(gathered.words):
        plan = plan_for(config, request, gathered)
        root = config.out_dir / PACK_ENTRY / plan.system.slug
        found = []
        for paper in config.papers:
            path = record_path(since, paper.name) if since is not None else last_record(root, paper.name)
            old = read_record(path, shown_path(path), plan.system.slug, plan.title, paper.name)
            new = record_for(plan, paper, config)
            change = reprint_of(old, new, _shown(path, config.out_dir))
            found.append(PaperReprint(paper, change, sheets_of(change, _stock(plan, paper, config)), new))
        report = ReprintReport(plan.system, plan.title, found, list(plan.warnings))
        if not dry_run:
            _write(config, plan, report, progress)
    return report


def _shown(path: Path, out_dir: Path) -> str:
    """The earlier record as the reprint sheet names it: inside the output folder, from there."""
    try:
        return str(path.resolve().relative_to(out_dir.resolve()))
    except ValueError:
        return shown_path(path)


def _stock(plan: PackPlan, paper: Paper, config: Any) -> Stock:
    from ..game.pack_plan import LABEL_STOCK
    from ..render.fit.boxes import badges_per_sheet
    from ..render.pdf.cards import grid_for
    return Stock(grid_for(config.options.card_size, config.options.bleed).per_page, LABEL_STOCK[paper.name].per_sheet,
                 badges_per_sheet(paper), plan.choices.duplex, plan.choices.half_covers)


def _write(config: Any, plan: PackPlan, report: ReprintReport, progress: Progress | None) -> None:
    """Each paper's reprint folder, staged and swapped in by the output writer."""
    game_entry = f"{PACK_ENTRY}/{plan.system.slug}"
    root = config.out_dir / game_entry
    names = {}
    for item in report.papers:
        numbers = [n for n, _path in reprint_folders(root, item.paper.name)]
        names[item.paper] = f"{item.paper.name}-reprint-{(numbers[-1] if numbers else 0) + 1}"
    with BuildContext(config, [f"{game_entry}/{name}" for name in names.values()], progress) as ctx:
        for item in report.papers:
            folder = ctx.staging / game_entry / names[item.paper]
            folder.mkdir(parents=True)
            item.files = _write_paper(ctx, plan, item, folder)
            item.folder = root / names[item.paper]
        ctx.commit()


def _jobs(ctx: BuildContext, docs: list[Any], paper: Paper, target: Any) -> Iterator:
    """(budget, job) for each document, into `target(doc)`."""
    for doc in docs:
        prepared = prepare_html(doc, ctx.config.options)
        yield prepared.budget, prepared.job(target(doc), paper, (TEMPLATES_DIR, ctx.config.data_dir),
                                            f"{paper.name} reprint/{doc.slug}.pdf")


def _write_paper(ctx: BuildContext, plan: PackPlan, item: PaperReprint, folder: Path) -> list[str]:
    """One paper's reprint: render the changed parts, merge them, write the sheet, the list and the record."""
    import shutil

    from ..render.fit.boxes import badges_per_sheet
    from ..render.pack.assembly import Part, Piece, SourcePdfs, merge
    from ..render.pack import reprint as files
    docs = files.reprint_documents(plan, item.reprint, item.paper, badges_per_sheet(item.paper))
    parts = ctx.staging / "reprint-parts" / item.paper.name
    made = docs.all()
    results = ctx.render(_jobs(ctx, made, item.paper, lambda d: parts / f"{d.folder}-{d.slug}.pdf")) if made else []
    rendered = {f"{d.folder}/{d.slug}": (r.target, Part(d.title, r.pages)) for d, r in zip(made, results, strict=True)}
    rendered.update({ident: rendered[f"{d.folder}/{d.slug}"] for ident, d in docs.whole.items()})   # by part id
    sources, written = SourcePdfs(), []
    where: dict[int, tuple[int, int]] = {}
    if pieces := files.page_pieces(plan, item.reprint, docs, rendered):
        where = files.merge_pages(plan, pieces, folder / files.PAGES_FILE, sources)
        written.append(files.PAGES_FILE)
    apart = [([docs.covers] if docs.covers is not None and plan.choices.half_covers else [], files.COVERS_FILE),
             (docs.cards, files.CARDS_FILE), ([docs.labels] if docs.labels else [], files.LABELS_FILE),
             ([docs.badges] if docs.badges else [], files.BADGES_FILE)]
    for chosen, name in apart:      # printed one-sided on their own stock, as in the pack
        if chosen:
            merge([Piece(*rendered[f"{d.folder}/{d.slug}"]) for d in chosen], folder / name,
                  f"{plan.title}: {name}", False, sources)
            written.append(name)
    sheet = files.sheet_document(plan, item.paper, item.reprint, item.sheets, where, written)
    ctx.render(_jobs(ctx, [sheet], item.paper, lambda _d: folder / files.SHEET_FILE), quiet=True)
    files.write_manifest(folder, item.record, item.reprint)
    (folder / RECORD_FILE).write_text(record_text(item.record), encoding="utf-8")
    shutil.rmtree(ctx.staging / "reprint-parts")
    return [files.SHEET_FILE, *written, "manifest.csv", RECORD_FILE]

