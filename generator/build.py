"""The pipeline: load all -> validate all -> derive and render -> swap in.

Nothing is written until every data file is valid. Everything is then built
in a staging folder beside the output and moved into place at the end, so a
failed build leaves the previous output exactly as it was.

With `cache=True` (the command line's default) a PDF whose inputs did not
change since the last good build is taken from the build cache instead of
rendered (render/cache.py), and an unchanged site is left in place; results
of slow derivations (generator/memo.py) are read back from the cache folder and
saved there. Rendering starts as soon as each document's HTML exists
(render/batch.py), so later documents are derived while earlier ones render.
"""
from __future__ import annotations

import dataclasses
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from . import memo
from .errors import DataError, Problem, errors_in
from .paths import ICONS_DIR, TEMPLATES_DIR
from .render.cache import RenderCache
from .render.options import DEFAULT_OPTIONS, PrintOptions
from .settings import Settings
from .systems.base import Deferred, Document, System

PAPERS = ("a4", "letter")
def output_entries(papers: Iterable[str]) -> tuple[str, ...]:
    """What a build replaces in the output folder: each paper's PDFs on its
    own (a build of one paper leaves the other's), the site and the schemas."""
    return (*(f"pdf/{paper}" for paper in papers), "site", "schemas")


class BuildError(Exception):
    """The data was valid but something could not be built; says what and where."""


@dataclass
class Loaded:
    system: System
    game: Any


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
        changed can say it again without loading the data (render/cache.record_build)."""
        return {"site": self.site_index is not None, "warnings": [dataclasses.asdict(p) for p in self.warnings]}

    @classmethod
    def repeated(cls, out_dir: Path, summary: dict, papers: Iterable[str]) -> "BuildReport":
        pdfs = sorted(p for paper in papers for p in (out_dir / "pdf" / paper).rglob("*.pdf"))
        return cls(out_dir, pdfs, out_dir / "site" / "index.html" if summary["site"] else None,
                   [Problem(**p) for p in summary["warnings"]], reused=len(pdfs), untouched=True)


Progress = Callable[[str, int, int], None]


def icon_names() -> frozenset[str]:
    return frozenset(p.stem for p in ICONS_DIR.glob("*.svg"))


def load_all(data_dir: Path, strict: bool = False, systems: Iterable[str] | None = None
             ) -> tuple[list[Loaded], list[Problem]]:
    """Load every system present in `data_dir` (or only `systems`, the
    settings' list). Raises DataError listing every problem when anything is
    invalid (warnings too, when `strict`). Text the printed fonts cannot show
    is refused here, at its line, not by the renderer later."""
    from . import systems as registry
    from .datafiles import unknown_system_folders
    from .glyphs import check_glyphs
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise DataError([Problem(str(data_dir), None, None, "data folder not found",
                                 hint="pass --data DIR, or create one with `sixes new DIR`")])
    wanted = list(registry.SLUGS if systems is None else systems)
    present = [registry.system(slug) for slug in registry.SLUGS if slug in wanted and (data_dir / slug).is_dir()]
    display_root = data_dir.parent if data_dir.parent != data_dir else data_dir
    problems = unknown_system_folders(data_dir, registry.SLUGS, display_root)
    if not present:
        raise DataError(problems + [Problem(str(data_dir), None, None, "no game data in this folder",
                                            hint="expected a sub-folder named " + " or ".join(wanted))])
    loaded = []
    for system in present:
        game, found = system.load(data_dir / system.slug, display_root, icon_names())
        problems.extend(found)
        if not errors_in(found):
            problems.extend(check_glyphs(data_dir / system.slug, display_root))
        if game is not None:
            loaded.append(Loaded(system, game))
    blocking = problems if strict else errors_in(problems)
    if blocking:
        raise DataError(problems)
    return loaded, problems


def game_inputs(data_dir: Path) -> list[Path]:
    """What a game folder's outputs are made from: its settings file and its
    systems' folders (never anything else in it, such as its output)."""
    from .settings import SETTINGS_FILE
    from .systems import SLUGS
    return [path for path in (Path(data_dir) / SETTINGS_FILE, *(Path(data_dir) / slug for slug in SLUGS))
            if path.exists()]


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
    from .settings import SettingsFile
    from .systems import SYSTEMS
    models = {"settings": SettingsFile}
    models.update({f"{system.slug}-{kind}": model for system in SYSTEMS for kind, model in system.schemas.items()})
    texts = {}
    for name, model in models.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        texts[f"{name}.schema.json"] = json.dumps(schema, indent=2) + "\n"
    return texts


def protected_folders(data_dir: Path) -> tuple[tuple[str, Path], ...]:
    """What an output folder may never be, hold or lie inside. The game
    folder itself may hold the output (game/output), but not be it."""
    from .paths import MKDOCS_CONFIG, PACKAGE_DIR, SITE_SOURCES_DIR
    from .render.cache import cache_base
    return (*(("game data", path) for path in game_inputs(data_dir)), ("templates", TEMPLATES_DIR),
            ("site sources", SITE_SOURCES_DIR), ("site configuration", MKDOCS_CONFIG),
            ("Sixes Press code", PACKAGE_DIR), ("build cache", cache_base()))


def refuse_output(out_dir: Path, data_dir: Path) -> None:
    """Refuse an output folder that would overwrite anything the build reads."""
    from .output import OutputError, refuse_unsafe
    out, data = Path(out_dir).resolve(), Path(data_dir).resolve()
    if out == data or data.is_relative_to(out):
        where = "is" if out == data else "holds"
        raise OutputError(f"refusing to write into {out}: it {where} the game folder ({data}); "
                          "choose an output folder of its own, e.g. output/ inside the game folder")
    refuse_unsafe(out, protected_folders(data))


def build(data_dir: Path, out_dir: Path, papers: tuple[str, ...] = PAPERS, *,
          site: bool = True, strict: bool = False, workers: int | None = None,
          progress: Progress | None = None, options: PrintOptions = DEFAULT_OPTIONS,
          cache: bool = False, settings: Settings | None = None) -> BuildReport:
    from .output import OutputFolder
    settings = settings or Settings()
    progress = progress or (lambda label, done, total: None)
    data_dir, out_dir = Path(data_dir).resolve(), Path(out_dir).resolve()
    refuse_output(out_dir, data_dir)
    inputs = ""
    if cache and data_dir.is_dir():
        from .render.cache import build_inputs_key, site_inputs_key, unchanged_build
        inputs = site_inputs_key(data_dir, list(papers), options)    # before reading: an edit during the build counts
        last = unchanged_build(out_dir, build_inputs_key(inputs, site, strict))
        try:
            if last is not None:
                return BuildReport.repeated(out_dir, last, papers)
        except TypeError:       # a record from another version: build
            pass

    loaded, problems = load_all(data_dir, strict=strict, systems=settings.file.systems)
    report = BuildReport(out_dir, warnings=[p for p in problems if p.severity == "warning"])
    entries = output_entries(papers)
    with OutputFolder(out_dir, protected_folders(data_dir), entries) as output:
        staging = output.staging
        if cache:
            from .render.cache import load_memo
            memo.restore(load_memo(out_dir))
        from .render.batch import start_simulations
        try:
            for item in loaded:
                start_simulations(item.system.simulations(item.game), workers)
            documents = {item.system.slug: item.system.documents(item.game) for item in loaded}
            for item in loaded:
                refuse_duplicates(item.system, documents[item.system.slug])
            # Documents whose context is Deferred (slow to derive) come last: the
            # pool renders everything else while this process works them out.
            plan = sorted(((item, doc) for item in loaded for doc in documents[item.system.slug]),
                          key=lambda planned: isinstance(planned[1].context, Deferred))

            def planned_jobs():
                """Each document's HTML is made as the batch asks for it, so a
                Deferred context (systems/base.py) is derived while the pool
                renders the documents before it."""
                for item, doc in plan:
                    prepared = prepare_html(doc, options)
                    for paper in papers:
                        target = staging / "pdf" / paper / item.system.slug / doc.folder / f"{doc.slug}.pdf"
                        yield prepared.budget, prepared.job(target, paper, (TEMPLATES_DIR, data_dir),
                                                            f"{paper} {item.system.slug}/{doc.folder}/{doc.slug}.pdf")
                if options.backs:
                    for paper in papers:
                        yield calibration_job(staging / "pdf" / paper, paper, options)

            render_checked(planned_jobs(), RenderCache(out_dir, data_dir) if cache else None, workers, progress,
                           report)
            for parts in list((staging / "pdf").rglob(".parts")):    # joined by now; not part of the output
                shutil.rmtree(parts)

            export_schemas(staging / "schemas")
            if site:
                progress("site", 0, 1)
                report.site_built = _build_site(staging, loaded, documents, list(papers),
                                                 out_dir if cache else None, inputs)
                progress("site", 1, 1)
            if cache:       # what this build worked out, for the next one (only a build that passed)
                from .render.cache import save_memo
                save_memo(out_dir, memo.take_used())
            output.commit(entries)
            report.kept = output.kept
        finally:
            memo.drop_promises()

    report.pdfs = sorted(p for paper in papers for p in (out_dir / "pdf" / paper).rglob("*.pdf"))
    if site:
        report.site_index = out_dir / "site" / "index.html"
    if cache:
        from .render.cache import build_inputs_key, record_build, take_warnings
        record_build(out_dir, build_inputs_key(inputs, site, strict), entries, report.summary())
        report.warnings += [Problem("cache", None, None, w, severity="warning") for w in take_warnings()]
    return report


def render_checked(jobs: Iterable[tuple[int, Any]], store: RenderCache | None, workers: int | None,
                   progress: Progress, report: BuildReport) -> list:
    """Render every (budget, job), or take it from the cache, starting each as
    soon as it is planned; refuse any layout fault; only then store what was
    made (a failed build writes no cache). `report` tallies the work."""
    from .render.batch import RenderBatch
    budgets = []
    with RenderBatch(store, workers, progress) as batch:
        for budget, job in jobs:
            budgets.append(budget)
            batch.add(job)
        results = batch.finish()
    report.rendered += batch.rendered
    report.pieces += batch.pieces
    report.reused += batch.reused
    check_layout(budgets, results)
    if store is not None:
        for key, result in batch.fresh:
            store.store(key, result.target, result.pages)
        store.save()
    return results


def layout_faults(budgets: list[int], results) -> list[str]:
    """Every page-count or overflow fault of the rendered documents, given
    each one's page budget."""
    faults = []
    for budget, result in zip(budgets, results):
        if result.pages > budget:
            faults.append(f"{result.label}: {result.pages} pages, at most {budget} expected")
        faults.extend(f"{result.label}: {o}" for o in result.overflows + result.lint)
    return faults


def check_layout(budgets: list[int], results) -> None:
    """Refuse the build when any rendered document has a layout fault."""
    faults = layout_faults(budgets, results)
    if faults:
        raise BuildError("documents do not fit their pages:\n" + "\n".join(f"  {f}" for f in faults))


def refuse_duplicates(system: System, documents: list[Document]) -> None:
    """Two documents may never write the same file (Pelican's rule), not even
    on a file system that ignores case. The loaders keep entity slugs apart
    (naming.slug), so this guards the code's own document names."""
    seen: set[tuple[str, str]] = set()
    for doc in documents:
        key = (doc.folder, doc.slug.casefold())
        if key in seen:
            raise BuildError(f"{system.slug}: two documents would both write {doc.folder}/{doc.slug}.pdf")
        seen.add(key)


@dataclass(frozen=True)
class Prepared:
    """A document ready for WeasyPrint: its HTML and how to print it."""

    html: str
    budget: int                       # pages it may take; more is a layout bug
    landscape: bool = False
    stylesheets: tuple[str, ...] = ()
    pdf_variant: str | None = None
    pdf_forms: bool = False

    def job(self, target: Path, paper: str, roots: tuple[Path, ...], label: str):
        from .render.pdf import PdfJob
        return PdfJob(self.html, TEMPLATES_DIR.as_uri() + "/", target, paper, roots, label, self.landscape,
                      self.stylesheets, self.pdf_variant, self.pdf_forms)


def prepare_html(doc: Document, options: PrintOptions) -> Prepared:
    """The document's HTML, page budget, orientation and variant styles. A
    deck's budget is what its cards impose to (card size and backs decide);
    large print may double a document's budget."""
    from jinja2 import TemplateError

    from .render.cards import grid_for, page_count
    from .render.html import document_html
    from .render.options import LARGE_PRINT_CSS, LARGE_PRINT_PAGE_FACTOR, PDF_UA, variant_stylesheets
    try:
        html = document_html(doc, options)
    except TemplateError as exc:
        raise BuildError(f"template {doc.template} failed for '{doc.title}': {exc}") from None
    sheets = variant_stylesheets(options, is_deck=bool(doc.cards), is_gm=doc.audience == "gm")
    variant = PDF_UA if options.tagged else None
    if doc.cards:
        return Prepared(html, page_count(doc, options), grid_for(options.card_size, options.bleed).landscape,
                        sheets, variant)
    budget = doc.max_pages * (LARGE_PRINT_PAGE_FACTOR if LARGE_PRINT_CSS in sheets else 1)
    # Only what a player fills in gets form fields; cards and public pages print flat.
    return Prepared(html, budget, False, sheets, variant, options.fillable and doc.audience == "player")


CALIBRATION_SLUG = "duplex-calibration"


def calibration_job(folder: Path, paper: str, options: PrintOptions):
    """(budget, job) for the duplex calibration sheet, printed whenever cards
    have backs: into `folder`, beside the systems' folders or a pack."""
    from .render.cards import render_calibration
    from .render.options import PDF_UA
    prepared = Prepared(render_calibration(options), 2, pdf_variant=PDF_UA if options.tagged else None)
    return 2, prepared.job(folder / f"{CALIBRATION_SLUG}.pdf", paper, (TEMPLATES_DIR,), f"{paper} {CALIBRATION_SLUG}.pdf")


def _build_site(staging: Path, loaded: list[Loaded], documents: dict[str, list[Document]],
                papers: list[str], out_dir: Path | None = None, inputs: str = "") -> bool:
    """Stage and build the site; with a cache (`out_dir` and the site's
    `inputs` key given), an unchanged site is left as it is (nothing staged
    is swapped in). Returns whether MkDocs ran."""
    from .paths import MKDOCS_CONFIG
    from .render.cache import SITE_INPUTS, SITE_KEY, remember_site, site_key, site_unchanged
    from .render.site import SiteSection, build_site, stage_sources

    if out_dir and site_unchanged(out_dir, SITE_INPUTS, inputs):
        return False
    sections = []
    for item in loaded:
        public = {d.slug: d for d in documents[item.system.slug] if d.audience == "public"}
        sections.append(SiteSection(item.system, item.system.pages(item.game), public))
    docs_dir = staging / "site-src"
    nav = stage_sources(docs_dir, sections, staging / "pdf", papers)
    key = site_key(docs_dir, MKDOCS_CONFIG) + json.dumps(nav)
    unchanged = bool(out_dir and site_unchanged(out_dir, SITE_KEY, key))
    if not unchanged:
        build_site(docs_dir, staging / "site", nav)
    shutil.rmtree(docs_dir)
    if out_dir:
        remember_site(out_dir, inputs, key)
    return not unchanged
