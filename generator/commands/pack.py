"""`sixes pack`: from YAML to a box of envelopes, as gather, plan, render,
assemble, swap.

Edge layer. For one game system it gathers the data and the casting
(game/gather.py), plans the envelopes and the documents they need
(game/pack_plan.py), renders each document once per paper (each character's
sheet, the public summaries, every GM document, a roster, the envelopes'
covers, a page each or two a sheet, and one card run), then merges them
into one PDF per envelope in casting order, a GM pack, a card run (and the
half-sheet covers) and a stuffing manifest, and zips each paper's pack for
a print shop (render/pack/assembly.py). Each game and paper
has a folder of its own, `pack/<game>/<paper>/`, with its zip beside it.
Like `build`, it works in a staging folder and swaps each finished paper's
folder and zip into place at the end, so a failure leaves the previous pack
as it was, and packing one paper or one game never removes another's pack.
"""
from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..core import naming
from ..core.errors import DataError, Problem
from ..core.i18n import speaking
from ..core.paper import CoverLayout, Paper
from ..core.paths import TEMPLATES_DIR
from ..game.casting import short_title
from ..game.dates import source_date
from ..game.gather import Gathered, gather
from ..game.packet_route import part_name
from ..game.pack_record import RECORD_FILE, pack_options, record_of, record_text
from ..game.pack_plan import CardRun, Envelope, PackChoices, PackPlan, plan_pack, refuse_arguments, sheet_word
from ..game.settings import Settings
from ..render.pdf.jobs import Progress, prepare_html
from ..render.options import DEFAULT_OPTIONS, PrintOptions
from ..render.pack.assembly import (Part, Parts, Press, SteadyProgress, assemble_paper, part_label,
                                    refuse_uneven_pages, zip_papers)
from ..systems.base import Deferred, System
from .context import BuildConfig, BuildContext, cache_warnings, long_warnings, refuse_output
from .pack_fit import envelope_problems

PACK_ENTRY = "pack"


@dataclass(frozen=True)
class PackRequest:
    """Everything a pack is asked for, parsed: the command line builds one.
    Without `casting_file`, the game folder's own casting.yaml is used when
    it is for this game (`find_casting_file`). With `cache` (the default,
    as the command's), documents any build already rendered (the PDFs are
    shared by every output folder) and simulations remembered for the same
    output folder are reused."""

    data_dir: Path
    out_dir: Path
    papers: tuple[Paper, ...]
    system: str | None = None           # the game to pack; None: the folder's only one
    casting_file: Path | None = None
    find_casting_file: bool = True
    players: int | None = None          # envelopes of a game without character sheets
    duplex: bool = True
    labels: bool = False                # a sheet of envelope labels
    name_sheets: bool = False           # the player's name on their sheet (the GM pack's copies always)
    covers: CoverLayout = "full"        # "half": two covers a sheet in covers.pdf, cut apart
    sealed_form: str | None = None      # a sealed insert's form where packet.yaml gives none
    options: PrintOptions = DEFAULT_OPTIONS
    workers: int | None = None
    cache: bool = True                  # as `sixes pack` does without --no-cache
    settings: Settings = field(default_factory=Settings)

    def config(self) -> BuildConfig:
        return BuildConfig(self.data_dir, self.out_dir, self.papers, site=False, workers=self.workers,
                           options=self.options, cache=self.cache, settings=self.settings)

    def choices(self) -> PackChoices:
        return PackChoices(self.papers, self.players, self.duplex, self.labels, self.name_sheets, self.covers,
                           self.sealed_form)


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


def pack(request: PackRequest, progress: Progress | None = None) -> PackReport:
    """Nothing is written unless the data, the system, the casting and the
    player count all hold up; casting problems are reported with the data's."""
    config = request.config()
    refuse_output(config.out_dir, config.data_dir)
    refuse_arguments(config.data_dir, request.system, request.players)
    date = source_date(config.data_dir)
    gathered = gather_for(config, request)
    with speaking(gathered.words):
        return _pack(config, request, gathered, date, progress)


def _pack(config: BuildConfig, request: PackRequest, gathered: Gathered, date: int,
          progress: Progress | None) -> PackReport:
    """Plan, render, assemble and swap one game's pack, in the game's language."""
    plan = plan_for(config, request, gathered)
    report = PackReport(config.out_dir, plan.system, plan.envelopes, casting_file=gathered.casting_file,
                        warnings=list(plan.warnings), card_run=plan.run)
    game_entry = f"{PACK_ENTRY}/{plan.system.slug}"
    archives = {paper: f"{naming.slug(plan.title)}-pack-{paper.name}.zip" for paper in config.papers}
    entries = [f"{game_entry}/{name}" for paper in config.papers for name in (paper.name, archives[paper])]
    with BuildContext(config, entries, progress) as ctx:
        ctx.start(plan.system.simulations(plan.game))
        parts = _render_parts(ctx, plan)
        staged = ctx.staging / game_entry
        for paper in config.papers:
            press = Press(paper, staged / paper.name, config.options, config.data_dir,
                          lambda jobs: ctx.render(jobs, quiet=True))
            report.sheets[paper.name] = assemble_paper(plan, parts, press)
            write_record(staged / paper.name, plan, paper, config)
        zip_papers(staged, archives, date)
        shutil.rmtree(ctx.staging / "parts")
        _swap(ctx, game_entry, archives)
    report.rendered, report.reused = ctx.tally.rendered, ctx.tally.reused
    report.files = sorted(p for paper in config.papers for p in (report.root / paper.name).rglob("*") if p.is_file())
    report.zips = [report.root / name for name in archives.values()]
    report.warnings += long_warnings(ctx.tally) + cache_warnings()
    return report


def plan_for(config: BuildConfig, request: PackRequest, gathered: Gathered) -> PackPlan:
    """The pack's plan (game/pack_plan.py), refused when a cover, name or label will not fit."""
    from ..render.pdf.cards import grid_for
    from ..render.pdf.relationship_map import draw_map
    from ..render.fit.boxes import badges_per_sheet
    plan = plan_pack(gathered, request.choices(), grid_for(config.options.card_size, config.options.bleed), draw_map,
                     badges_per_sheet)
    if unfit := envelope_problems(plan, gathered, config.papers):
        raise DataError([*gathered.warnings, *unfit])
    return plan


def record_for(plan: PackPlan, paper: Paper, config: BuildConfig) -> dict:
    """The record of one paper's pack (game/pack_record.py): what each part shows."""
    from ..render.pack.record import HtmlShows
    return record_of(plan, paper, HtmlShows(config.options, config.data_dir),
                     pack_options(plan, dataclasses.asdict(config.options)))


def write_record(folder: Path, plan: PackPlan, paper: Paper, config: BuildConfig) -> None:
    """The record into a paper's staged folder, beside the manifest."""
    (folder / RECORD_FILE).write_text(record_text(record_for(plan, paper, config)), encoding="utf-8")


def gather_for(config: BuildConfig, request: PackRequest) -> Gathered:
    """The gather (game/gather.py: the data of the settings' systems, the
    casting, every problem in one run) with the game packed chosen, then
    every text checked in its box before anything renders (what `check` says)."""
    gathered = gather(config.data_dir, config.settings, config.papers, site=False, casting=request.casting_file,
                      find=request.find_casting_file, pack=True, system=request.system, out_dir=config.out_dir)
    assert gathered.packed is not None         # gather(pack=True) chooses the game, or raises
    from ..render.fit.bounded import refuse_unfit
    from ..render.fit.packet_fit import packet_fit_problems
    with speaking(gathered.words):
        packet = gathered.packets.get(gathered.packed.system.slug)
        unfit = packet_fit_problems([packet] if packet is not None else [], config.options, config.data_dir)
        refuse_unfit([gathered.packed], config.options, [*gathered.warnings, *unfit])
        if unfit:
            raise DataError([*gathered.warnings, *unfit])
    return gathered


def _swap(ctx: BuildContext, game_entry: str, archives: dict[Paper, str]) -> None:
    """Each paper's folder and zip into place; a zip of the same paper under
    an older title of the game goes once the new one is in, and so do the
    paper's reprints (`pack --since`): they amended the pack this one replaces."""
    stale = [entry for entry in ctx.record() for paper, name in archives.items()
             if entry.startswith(f"{game_entry}/") and (entry.endswith(f"-pack-{paper.name}.zip")
                                                         or entry.startswith(f"{game_entry}/{paper.name}-reprint-"))
             and entry != f"{game_entry}/{name}"]
    ctx.commit(retire=stale)


def _render_parts(ctx: BuildContext, plan: PackPlan) -> Parts:
    """Every document once per paper it is for, keyed by paper, folder and
    slug (a character's sheet may share a slug with a public document, never
    a folder); a document too long or overflowing fails the pack. Jobs are
    made as the renderer asks for them, a document whose context is slow to
    derive (the balance report) last, so its derivation overlaps the others' rendering."""
    ordered = sorted(plan.planned, key=lambda p: isinstance(p[0].context, Deferred))
    keys = []
    target = ctx.staging / "parts"

    def jobs() -> Iterator:
        for doc, papers in ordered:
            prepared = prepare_html(doc, ctx.config.options)
            for paper in papers:
                path = target / paper.name / f"{doc.folder}-{doc.slug}.pdf"
                name = part_name(doc, plan.title) or (sheet_word(plan.system) if doc.audience == "player"
                                                      else short_title(doc, plan.title))
                keys.append((paper, doc.folder, doc.slug, name))
                yield (prepared.budget, prepared.job(path, paper, (TEMPLATES_DIR, ctx.config.data_dir),
                                                     part_label(paper, doc)))
    steady = SteadyProgress(ctx.progress, sum(len(papers) for _, papers in plan.planned))
    real, ctx.progress = ctx.progress, steady
    try:
        results = ctx.render(jobs())
    finally:
        ctx.progress = real
    steady.finish()
    rendered = {(paper, folder, slug): (result.target, Part(name, result.pages))
                for (paper, folder, slug, name), result in zip(keys, results, strict=True)}
    refuse_uneven_pages(plan, rendered)
    return rendered
