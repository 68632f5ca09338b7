"""From a described Document to a rendered, checked PDF: the steps build
and pack share.

Edge layer. `prepare_html` turns a Document into HTML with its page budget
and print variant; `Prepared.job` into a WeasyPrint job for one paper;
`render_checked` renders a stream of jobs (or takes them from the render
cache), refuses any that overflow their pages, and only then stores what it
made in the cache.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ...core.errors import BuildError
from ...core.paper import Paper
from ...core.paths import TEMPLATES_DIR
from ...systems.base import Document
from ..cache import DocumentCache, RenderCache
from ..options import PrintOptions
from ..progress import Progress, Tally

if TYPE_CHECKING:
    from .weasy import PdfJob, PdfResult   # imported when a job is made: WeasyPrint's adapter is not needed to plan


@dataclass(frozen=True)
class Budget:
    """The pages a document is laid out for. A deck's, a sheet of covers' or
    labels' count is exact: a page more is a layout bug. A flowing document
    (a reference, a sheet) takes more pages when a game's text, its number
    of entries or its language needs them: the build prints it whole and
    warns. `check` cannot foresee where a page breaks, so a page count is
    never a reason to refuse what check passed (render/fit/page_plans.py
    plans for what it can foresee, so that the warning is rare)."""

    pages: int
    flowing: bool = False


@dataclass(frozen=True)
class Prepared:
    """A document ready for WeasyPrint: its HTML and how to print it."""

    html: str
    budget: Budget
    landscape: bool = False
    stylesheets: tuple[str, ...] = ()
    pdf_variant: str | None = None
    pdf_forms: bool = False

    def job(self, target: Path, paper: Paper, roots: tuple[Path, ...], label: str) -> PdfJob:
        from .weasy import PdfJob
        return PdfJob(self.html, TEMPLATES_DIR.as_uri() + "/", target, paper, roots, label, self.landscape,
                      self.stylesheets, self.pdf_variant, self.pdf_forms)


def document_html(doc: Document, options: PrintOptions | None = None) -> str:
    """The HTML of one `Document`: its template, or the shared card sheet for a
    deck (laid out by `options`, a PrintOptions; defaults when None)."""
    from .cards import render_card_sheet      # Jinja only when something is rendered (load_all needs none)
    from ..html import render_template
    if doc.cards:
        return render_card_sheet(doc, options) if options else render_card_sheet(doc)
    return render_template(doc.template, {**doc.context, "doc_title": doc.title},
                           ink_saver=bool(options and options.ink_saver))


def prepare_html(doc: Document, options: PrintOptions) -> Prepared:
    """The document's HTML, page budget, orientation and variant styles. A
    deck's budget is what its cards impose to (card size and backs decide);
    large print may double a document's budget."""
    from jinja2 import TemplateError

    from .cards import grid_for, page_count
    from ..options import LARGE_PRINT_CSS, LARGE_PRINT_PAGE_FACTOR, PDF_UA, variant_stylesheets
    try:
        html = document_html(doc, options)
    except TemplateError as exc:
        raise BuildError(f"template {doc.template} failed for '{doc.title}': {exc}") from None
    sheets = variant_stylesheets(options, is_deck=bool(doc.cards), is_gm=doc.audience == "gm")
    variant = PDF_UA if options.tagged else None
    if doc.cards:
        return Prepared(html, Budget(page_count(doc, options)), grid_for(options.card_size, options.bleed).landscape,
                        sheets, variant)
    from ..fit.page_plans import extra_pages       # a reference with long notes may take more pages
    factor = LARGE_PRINT_PAGE_FACTOR if LARGE_PRINT_CSS in sheets else 1
    budget = Budget((doc.max_pages + extra_pages(doc.template, doc.context)) * factor, doc.flowing)
    # Only what a player fills in gets form fields; cards and public pages print flat.
    return Prepared(html, budget, False, sheets, variant, options.fillable and doc.audience == "player")


def prepare_remembered(doc: Document, options: PrintOptions, documents: DocumentCache | None) -> Prepared:
    """`prepare_html`, or what it made for the same inputs in the last build
    (render/cache/documents.py), which is kept for the next when this build passes."""
    key = documents.key(doc, options) if documents is not None else None
    if documents is None or key is None:
        return prepare_html(doc, options)
    entry = documents.fetch(key)
    if entry is not None:
        return Prepared(entry["html"], Budget(entry["pages"], entry["flowing"]), entry["landscape"],
                        tuple(entry["stylesheets"]), entry["pdf_variant"], entry["pdf_forms"])
    prepared = prepare_html(doc, options)
    documents.store(key, {"html": prepared.html, "pages": prepared.budget.pages, "flowing": prepared.budget.flowing,
                          "landscape": prepared.landscape, "stylesheets": list(prepared.stylesheets),
                          "pdf_variant": prepared.pdf_variant, "pdf_forms": prepared.pdf_forms})
    return prepared


CALIBRATION_SLUG = "duplex-calibration"


def calibration_job(folder: Path, paper: Paper, options: PrintOptions) -> tuple[Budget, PdfJob]:
    """(budget, job) for the duplex calibration sheet, printed whenever cards
    have backs: into `folder`, beside the systems' folders or a pack."""
    from .cards import render_calibration
    from ..options import PDF_UA
    prepared = Prepared(render_calibration(options), Budget(2), pdf_variant=PDF_UA if options.tagged else None)
    return prepared.budget, prepared.job(folder / f"{CALIBRATION_SLUG}.pdf", paper, (TEMPLATES_DIR,),
                                         f"{paper.name} {CALIBRATION_SLUG}.pdf")


def render_checked(jobs: Iterable[tuple[Budget, PdfJob]], store: RenderCache | None, workers: int | None,
                   progress: Progress, report: Tally, meanwhile: Callable[[set[Path]], None] | None = None
                   ) -> list[PdfResult]:
    """Render every (budget, job), or take it from the cache, starting each as
    soon as it is planned; refuse any layout fault; only then store what was
    made (a failed build writes no cache). `report` tallies the work, and
    the documents that ran past their budget's pages. `meanwhile`, once
    every job is planned, is given the targets not written yet and may work
    while the workers render them."""
    from .batch import RenderBatch
    budgets: list[Budget] = []
    with RenderBatch(store, workers, progress) as batch:
        for budget, job in jobs:
            budgets.append(budget)
            batch.add(job)
        if meanwhile is not None:
            meanwhile(batch.unwritten())
        results = batch.finish()
    report.rendered += batch.rendered
    report.pieces += batch.pieces
    report.reused += batch.reused
    check_layout(budgets, results)
    report.long += long_documents(budgets, results)
    if store is not None:
        for key, result in batch.fresh:
            store.store(key, result.target, result.pages)
        store.save()
    return results


def layout_faults(budgets: Sequence[Budget], results: Sequence[PdfResult]) -> list[str]:
    """Every page-count or overflow fault of the rendered documents, given
    each one's page budget."""
    faults = []
    for budget, result in zip(budgets, results, strict=True):
        if result.pages > budget.pages and not budget.flowing:
            faults.append(f"{result.label}: {result.pages} pages, {budget.pages} expected")
        faults.extend(f"{result.label}: {o}" for o in result.overflows + result.lint)
    return faults


def long_documents(budgets: Sequence[Budget], results: Sequence[PdfResult]) -> list[tuple[str, str]]:
    """(label, what to tell) of each flowing document that ran past its
    budget's pages: printed whole, and worth a warning."""
    return [(result.label, f"runs to {result.pages} pages where its layout plans {budget.pages} (the game's text, "
             f"or its language, takes more room than planned); it prints whole: fine if intended, else shorten "
             f"the game's text it shows")
            for budget, result in zip(budgets, results, strict=True) if budget.flowing and result.pages > budget.pages]


def check_layout(budgets: Sequence[Budget], results: Sequence[PdfResult]) -> None:
    """Refuse the build when any rendered document has a layout fault."""
    faults = layout_faults(budgets, results)
    if faults:
        raise BuildError("documents do not fit their pages:\n" + "\n".join(f"  {f}" for f in faults))
