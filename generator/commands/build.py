"""`sixes build`: gather, plan, render, swap.

Edge layer. Nothing is written until everything the build reads is valid
(game/gather.py: the data, the site's own pages and logo).
The run then works in a BuildContext (context.py), which stages everything
and swaps it into the output folder at the end, so a failed build leaves
the previous output as it was. Rendering starts as soon as each document's
HTML exists (render/pdf/batch.py), so later documents are derived while earlier
ones render; with the cache on, what did not change is not rendered again
(render/cache/ says what is remembered and why; the run asks it through
`BuildContext.cache`).
"""
from __future__ import annotations

import dataclasses
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from ..core import memo
from ..core.errors import Problem
from ..core.i18n import speaking
from ..core.layout import PDF_FOLDER, DocumentPdf, paper_folder
from ..core.loading import reading_game
from ..core.paper import PAPERS, Paper
from ..core.paths import TEMPLATES_DIR
from ..game.dates import given_date, source_date, stamped
from ..game.gather import Gathered, gather
from ..game.load import Loaded
from ..game.settings import Settings
from ..render.pdf.jobs import Budget, calibration_job, prepare_remembered
from ..render.progress import Progress
from ..systems.base import Deferred, Document
from .context import BuildConfig, BuildContext, cache_warnings, long_warnings, refuse_output

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..game.packet import Packet
    from ..render.cache import DocumentCache
    from ..render.pdf.weasy import PdfJob
    from ..render.site.writer import SiteSection
    from ..render.site.mkdocs_build import SiteLook


def output_entries(papers: Iterable[Paper]) -> tuple[str, ...]:
    """What a build replaces in the output folder: each paper's PDFs on its
    own (a build of one paper leaves the other's), the site, the schemas and
    the GM's files that are not PDFs (gm/: the Sixes fight tracker)."""
    return (*(str(paper_folder(paper)) for paper in papers), "site", "schemas", "gm")


@dataclass
class BuildReport:
    out_dir: Path
    pdfs: list[Path] = field(default_factory=list)
    site_index: Path | None = None
    warnings: list[Problem] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)   # labels of PDFs rendered (not taken from the cache)
    pieces: list[str] = field(default_factory=list)     # every file WeasyPrint made: documents, parts, page numbers
    reused: int = 0                                     # PDFs taken from the cache
    site_built: bool = False                            # False when the site was unchanged (or not asked for)
    untouched: bool = False     # nothing changed since the last build, so nothing was even loaded
    kept: list[str] = field(default_factory=list)       # users' own files carried into the new output

    def summary(self) -> dict:
        """What is said about this build, kept so that a build with nothing
        changed can say it again without loading the data (render/cache/builds.py)."""
        return {"site": self.site_index is not None, "warnings": [dataclasses.asdict(p) for p in self.warnings]}

    @classmethod
    def repeated(cls, out_dir: Path, summary: dict | None, papers: Iterable[Paper]) -> "BuildReport | None":
        """The report of the last build said again (`summary`: render/cache's
        record of it), or None when there is none or it is of another version."""
        if summary is None:
            return None
        pdfs = built_pdfs(out_dir, papers)
        try:
            warnings = [Problem(**p) for p in summary["warnings"]]
        except TypeError:       # a record from another version: build
            return None
        return cls(out_dir, pdfs, out_dir / "site" / "index.html" if summary["site"] else None,
                   warnings, reused=len(pdfs), untouched=True)


def built_pdfs(out_dir: Path, papers: Iterable[Paper]) -> list[Path]:
    """Every PDF a build left in the output folder for these papers."""
    return sorted(p for paper in papers for p in (out_dir / paper_folder(paper)).rglob("*.pdf"))



def export_schemas(target: Path) -> list[Path]:
    """One JSON Schema per data file kind, named <system>-<kind>.schema.json.
    They follow from the code alone, so a build remembers them (memo.py)."""
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in memo.remember(memo.key_of("json-schemas"), _schema_texts).items():
        path = target / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _schema_texts() -> dict[str, str]:
    from ..game.packet_models import PacketFile
    from ..game.settings import SettingsFile
    from ..systems import SYSTEMS
    models: dict[str, type[BaseModel]] = {"settings": SettingsFile, "packet": PacketFile}
    models.update({f"{system.slug}-{kind}": model for system in SYSTEMS for kind, model in system.schemas.items()})
    texts = {}
    for name, model in models.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        texts[f"{name}.schema.json"] = json.dumps(schema, indent=2) + "\n"
    return texts


def build(config: BuildConfig, progress: Progress | None = None) -> BuildReport:
    """Build every PDF, the schemas and the site `config` asks for: gather,
    plan, render, swap. A build whose inputs and output folder are as the
    last one left them says so and stops before it loads anything."""
    refuse_output(config.out_dir, config.data_dir)
    date = source_date(config.data_dir)       # the site's files carry it (and a bad SOURCE_DATE_EPOCH stops here)
    run = BuildContext(config, output_entries(config.papers), progress)
    last = BuildReport.repeated(config.out_dir, run.cache.last_build(), config.papers)
    if last is not None:
        return last
    gathered = _gather(config)
    report = BuildReport(config.out_dir, warnings=list(gathered.warnings))
    with speaking(gathered.words), run:
        documents = _plan(run, gathered.loaded)
        report.site_built = _render(run, gathered, documents, date)
        run.commit()
    return _finished(report, run)


def _gather(config: BuildConfig) -> Gathered:
    """Everything the build reads, checked (the folder's casting file, when
    there is one, sets the cast order: core/cast_order.py), and every text
    measured against its box before anything renders: what `check` says."""
    gathered = gather(config.data_dir, config.settings, config.papers, strict=config.strict, site=config.site,
                      out_dir=config.out_dir)
    from ..render.fit.bounded import refuse_unfit
    with speaking(gathered.words):
        refuse_unfit(gathered.loaded, config.options, gathered.warnings)
    return gathered


def _plan(run: BuildContext, loaded: list[Loaded]) -> dict[str, list[Document]]:
    """Every system's documents, with their slow simulations started in the pool first."""
    for item in loaded:
        run.start(item.system.simulations(item.game))
    return {item.system.slug: item.system.documents(item.game) for item in loaded}


def _render(run: BuildContext, gathered: Gathered, documents: dict[str, list[Document]], date: int) -> bool:
    """Render the PDFs, export the schemas and the GM's trackers, and build
    the site, all into the staging folder; returns whether MkDocs ran. The
    site is built while the workers render when none of the PDFs it offers
    is among those still being made (an edited character's sheet is not)."""
    config, staging = run.config, run.staging
    site: list[bool] = []

    def site_meanwhile(unwritten: set[Path]) -> None:
        offered = {staging / DocumentPdf(paper, slug, doc.folder, doc.slug).path for slug, docs in documents.items()
                   for doc in docs if doc.audience == "public" for paper in config.papers}
        if config.site and not offered & unwritten:
            site.append(_site_step(run, gathered, documents, date))

    run.render(_planned_jobs(gathered.loaded, documents, staging, config, run.cache.documents),
               meanwhile=site_meanwhile)
    for parts in list((staging / PDF_FOLDER).rglob(".parts")):    # joined by now; not part of the output
        shutil.rmtree(parts)
    export_schemas(staging / "schemas")
    from ..render.site.tracker import write_trackers     # GM only: never reaches the site (render/site/tracker.py)
    write_trackers(staging, gathered.loaded)
    if config.site and not site:
        site.append(_site_step(run, gathered, documents, date))
    return bool(site) and site[0]


def _site_step(run: BuildContext, gathered: Gathered, documents: dict[str, list[Document]], date: int) -> bool:
    run.progress("site", 0, 1)
    built = _build_site(run, gathered, documents, date=date)
    run.progress("site", 1, 1)
    return built


def _finished(report: BuildReport, run: BuildContext) -> BuildReport:
    """The report of a build swapped in, recorded in the cache (so the next
    build with nothing changed can repeat it), with the cache's warnings."""
    config = run.config
    report.kept = run.kept
    report.rendered, report.pieces, report.reused = run.tally.rendered, run.tally.pieces, run.tally.reused
    report.pdfs = built_pdfs(config.out_dir, config.papers)
    if config.site:
        report.site_index = config.out_dir / "site" / "index.html"
    report.warnings += long_warnings(run.tally)      # said again by a build that finds nothing changed
    run.cache.record(run.entries, report.summary())
    report.warnings += cache_warnings()
    return report


def _planned_jobs(loaded: list[Loaded], documents: dict[str, list[Document]], staging: Path, config: BuildConfig,
                  remembered: DocumentCache | None = None) -> Iterator[tuple[Budget, PdfJob]]:
    """Each document's HTML is made as the batch asks for it, so a Deferred
    context (systems/base.py: slow to derive) is derived while the pool
    renders the documents before it; those documents come last. A document
    whose inputs the last build saw takes its HTML from `remembered`; the
    others (an edit's documents) come first, so the pool renders them while
    this process takes the unchanged ones from the caches."""
    def order(planned: tuple[Loaded, Document]) -> tuple[bool, bool]:
        doc = planned[1]
        return isinstance(doc.context, Deferred), remembered is not None and remembered.holds(doc, config.options)
    plan = sorted(((item, doc) for item in loaded for doc in documents[item.system.slug]), key=order)
    for item, doc in plan:
        prepared = prepare_remembered(doc, config.options, remembered)
        for paper in config.papers:
            pdf = DocumentPdf(paper, item.system.slug, doc.folder, doc.slug)
            yield prepared.budget, prepared.job(staging / pdf.path, paper, (TEMPLATES_DIR, config.data_dir), pdf.label)
    if config.options.backs:
        for paper in config.papers:
            yield calibration_job(staging / paper_folder(paper), paper, config.options)


def _build_site(run: BuildContext, gathered: Gathered, documents: dict[str, list[Document]], *, date: int) -> bool:
    """Stage and build the site, dated `date` (game/dates.py): a site is
    built again when its content or SOURCE_DATE_EPOCH changed, not for a
    date that moved with an edit elsewhere (a character); a site the cache
    knows unchanged (run.cache) is left as it is (nothing staged is swapped
    in). When only some pages' text changed, MkDocs makes those alone
    (render/site/partial.py). Returns whether MkDocs ran. The game's own
    pages and logo were read and checked by the gather, before anything rendered."""
    from ..render.site.writer import stage_sources
    from ..render.site.mkdocs_build import build_site, theme_words
    from ..render.site.partial import partial_site

    if run.cache.site_unchanged():
        return False
    config, loaded = run.config, gathered.loaded
    sections = [site_section(item, documents[item.system.slug], config.settings,
                             gathered.packets.get(item.system.slug)) for item in loaded]
    docs_dir = run.staging / "site-src"
    look = site_look(config.settings, loaded, gathered.logo)
    with reading_game(config.data_dir):     # the game's images and logo are copied through the one gate
        nav = stage_sources(docs_dir, sections, run.staging, config.papers, look, gathered.own,
                            earlier_papers(config.out_dir, config.papers, sections))
        unchanged = run.cache.staged_site_unchanged(docs_dir, json.dumps(nav), repr(look),
                                                     json.dumps(theme_words()), f"@{given_date()}")
        if not unchanged:
            partial = partial_site(run.cache.previous_site())     # only the pages whose text changed, if it can
            with stamped(date):         # MkDocs dates the sitemap (and its gzip header) by the variable
                build_site(docs_dir, run.staging / "site", nav, look, partial)
    shutil.rmtree(docs_dir)
    return not unchanged


def earlier_papers(out_dir: Path, papers: Iterable[Paper], sections: list["SiteSection"]) -> dict[Paper, Path]:
    """The papers an earlier build left in the output folder (this run
    builds the others), each with that folder, when it holds every public
    PDF the site offers: after `build --paper a4` and `build --paper
    letter`, the site offers both papers' downloads, as the output holds both."""
    return {paper: out_dir for paper in PAPERS if paper not in papers and (out_dir / paper_folder(paper)).is_dir()
            and all((out_dir / DocumentPdf(paper, section.system.slug, doc.folder, doc.slug).path).is_file()
                    for section in sections for doc in section.public_documents.values())}


def site_section(item: Loaded, documents: list[Document], settings: Settings, packet: Packet | None = None
                 ) -> SiteSection:
    """One system's part of the site: its pages, its public documents, the
    game's title and public pitch (the home page leads with them) and, when
    the settings ask for a cast list, its public cast and open groups
    (game/packet_site.py)."""
    from ..game.packet_site import public_groups
    from ..render.site.writer import SiteSection
    public = {d.slug: d for d in documents if d.audience == "public"}
    cast_list = item.system.cast_list if settings.file.site.cast_list else None
    cast = tuple(cast_list(item.game)) if cast_list is not None else None
    info = item.game.info
    # A private adventure (Six Shooter's visibility) keeps its pitch off the site.
    pitch = info.blurb if getattr(info, "visibility", "public") == "public" else ""
    groups = public_groups(packet, [c.name for c in cast]) if cast is not None else ()
    return SiteSection(item.system, item.system.pages(item.game), public, cast, info.title, pitch, groups)


def site_look(settings: Settings, loaded: list[Loaded], logo: Path | None = None) -> SiteLook:
    """The site's name and look from the settings; without a name there, the
    game's own title (the first game's, when the folder holds several: a join
    of every title would be too long for a phone's header). The logo is the
    one the gather checked."""
    from ..render.site.mkdocs_build import SiteLook
    site = settings.file.site
    titles = [item.game.info.title for item in loaded]
    name = site.name or (titles[0] if titles else "Sixes Press")
    return SiteLook(name, site.description, site.url, settings.language, site.primary, site.accent, logo)
