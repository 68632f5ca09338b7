"""The WeasyPrint adapter: the page size, fonts, and a locked-down URL fetcher.

WeasyPrint is imported lazily (it costs about 0.4 s), one FontConfiguration
and one image cache are reused per process, and many documents are rendered
by a small process pool.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlparse

from ...core.errors import UserError
from ...core.paper import Paper
from ...core.paths import TEMPLATES_DIR
from ...game.dates import EARLIEST, given_date, stamped
from . import scratch
from .lint import data_fields

FONTS_DIR = TEMPLATES_DIR / "fonts"


class ForbiddenResource(UserError):
    """A document asked for something outside the project's own folders."""

    multiline = True


@dataclass(frozen=True)
class PdfJob:
    html: str
    base_url: str
    target: Path
    paper: Paper                        # parsed by the command line, never again
    allowed_roots: tuple[Path, ...]
    label: str
    landscape: bool = False
    stylesheets: tuple[str, ...] = ()   # variant CSS files under templates/, applied after the document's
    pdf_variant: str | None = None      # e.g. "pdf/ua-1" for tagged PDFs
    pdf_forms: bool = False             # <input>s as fillable PDF form fields (flattened when False)
    # The date its fonts carry: SOURCE_DATE_EPOCH as the run that made the job
    # was given it (a worker may be older than the run), else None: the fonts' own.
    date: int | None = field(default_factory=given_date)


@dataclass(frozen=True)
class PdfResult:
    label: str
    target: Path
    pages: int
    overflows: tuple[str, ...] = ()
    lint: tuple[str, ...] = ()        # missing glyphs, overlapping text, missing title or language


# Slack for rounding in the layout engine, in CSS pixels (0.1 mm).
_OVERFLOW_TOLERANCE = 0.4


def find_overflows(document: Any) -> list[str]:
    """Text that spills out of a fixed-size box (one with `overflow: hidden`,
    such as a card) is clipped or runs into its neighbour: report each box
    where a descendant's border box reaches past its padding box (margins
    may collapse into the padding; content may not)."""
    found = []
    for number, page in enumerate(document.pages, 1):
        for box in page._page_box.descendants(placeholders=True):   # into positioned boxes too (cards)
            style = getattr(box, "style", None)
            if style is None or style["overflow"] != "hidden" or not hasattr(box, "children"):
                continue
            bottom = box.padding_box_y() + box.padding_height()
            right = box.padding_box_x() + box.padding_width()
            for inner in box.descendants():
                if inner is box or not hasattr(inner, "border_height"):
                    continue
                if inner.border_box_y() + inner.border_height() > bottom + _OVERFLOW_TOLERANCE or \
                        inner.border_box_x() + inner.border_width() > right + _OVERFLOW_TOLERANCE:
                    element = box.element
                    label = element.get("aria-label") or element.get("class") or box.element_tag
                    found.append(f"page {number}: {_filled_by(box)}overflows '{label}'")
                    break
    return found


def _filled_by(box: Any) -> str:
    """'<data fields> ' the box holds (render/fit/bounded.py names each box a
    data field fills), which pushed its content out; else 'content '."""
    fields = data_fields(box.element) if box.element is not None else ()
    return " and ".join(fields) + " " if fields else "content "


def make_fetcher(allowed_roots: tuple[Path, ...]) -> Any:
    """A URL fetcher that serves `data:` URLs and files inside `allowed_roots`
    only; anything else (other files, http, redirects) stops the render."""
    from weasyprint.urls import FatalURLFetchingError, URLFetcher

    roots = tuple(Path(r).resolve() for r in allowed_roots)

    class ProjectFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            scheme = urlparse(url).scheme.lower()
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme == "file":
                path = Path(unquote(urlparse(url).path)).resolve()
                if any(path.is_relative_to(root) for root in roots) and path.is_file():
                    return super().fetch(url, headers)
            raise FatalURLFetchingError(
                f"refused to read {url}: documents may only use files inside "
                + " or ".join(str(r) for r in roots))

    return ProjectFetcher(allowed_protocols=("file", "data"), allow_redirects=False)


_state: dict[str, Any] = {}
# Every document's @font-face rules add the fonts to the process's font
# configuration again, and rendering slows as it grows: one sheet rendered 150
# times in one process took 205 ms at first and 230 ms by the end, but stayed
# at about 200 ms with a fresh configuration every 10 documents (which then
# loads the fonts once more). WeasyPrint deletes an old one's font files.
FONT_CONFIG_DOCUMENTS = 10


def _engine(date: int) -> dict[str, Any]:
    """Per-process WeasyPrint objects, created once (the font configuration,
    and the stylesheets parsed under it, renewed every FONT_CONFIG_DOCUMENTS
    documents, and when the fonts' `date` changes: a font is dated as it is
    loaded into the configuration)."""
    if not _state:
        import weasyprint
        _state.update(weasyprint=weasyprint, cache={}, documents=0)
    if _state["documents"] % FONT_CONFIG_DOCUMENTS == 0 or _state.get("date") != date:
        from weasyprint.text.fonts import FontConfiguration
        scratch.use_own_folder()        # its copies of the fonts go where a killed run's are swept
        _state.update(fonts=FontConfiguration(), sheets={}, date=date, documents=0)
    _state["documents"] += 1
    return _state


_STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="([^"]+)">|<style>(.*?)</style>', re.S)


def _parsed(engine: dict[str, Any], *, filename: Path | None = None, string: str | None = None) -> Any:
    """A stylesheet parsed once per font configuration. Parsing CSS and
    compiling its selectors cost about 40 ms of CPU a document, and every
    document uses the same few files. Keyed by the file's size and time, so a
    long-lived worker (--watch, serve) sees an edited stylesheet."""
    key: tuple[str | int | None, ...]
    if filename is not None:
        stat = filename.stat()
        key = (str(filename), stat.st_mtime_ns, stat.st_size)
    else:
        key = ("string", string)
    sheets = engine["sheets"]
    if key not in sheets:
        fetcher = make_fetcher((TEMPLATES_DIR,))
        sheets[key] = engine["weasyprint"].CSS(filename=filename and str(filename), string=string,
                                               url_fetcher=fetcher, font_config=engine["fonts"])
    return sheets[key]


def _own_stylesheets(html: str, base_url: str, engine: dict[str, Any]) -> tuple[str, list[Any]]:
    """The document's linked stylesheets under templates/ and its <style>
    blocks (templates/layout.html's: the footer's words in the game's
    language), taken out of its HTML and returned parsed (from `_parsed`), in
    the order they come. WeasyPrint cascades them as user stylesheets rather
    than author ones; nothing of ours can tell, since all of them are taken
    alike (a <style> left in would beat every linked sheet), and the
    documents' inline styles and the !important variant sheets win either way."""
    sheets = []

    def take(match: re.Match[str]) -> str:
        if match.group(2) is not None:
            sheets.append(_parsed(engine, string=match.group(2)))
            return ""
        path = Path(unquote(urlparse(urljoin(base_url, match.group(1))).path)).resolve()
        if not path.is_relative_to(TEMPLATES_DIR.resolve()) or not path.is_file():
            return match.group(0)        # WeasyPrint fetches it (and the fetcher judges it)
        sheets.append(_parsed(engine, filename=path))
        return ""

    return _STYLESHEET_LINK.sub(take, html), sheets


# A header cell's HTML scope and the PDF /Scope it becomes (PDF 1.7, 14.8.5.7).
_SCOPES = {"row": "/Row", "rowgroup": "/Row", "both": "/Both"}


def scope_header_cells(document: Any, pdf: Any) -> None:
    """Give every tagged header cell (TH) the /Scope its `<th scope>` names
    (a column when none). WeasyPrint links data cells to their headers
    (/Headers) but writes no /Scope on the headers themselves, which a
    PDF/UA checker then cannot tie to their cells. Called by WeasyPrint
    after the structure tree is made (each cell's box holds its element)."""
    for page in document.pages:
        for box in page._page_box.descendants(placeholders=True):
            element = getattr(box, "mark", None)        # a pydyf.Dictionary, a dict
            if box.element_tag == "th" and isinstance(element, dict):
                scope = _SCOPES.get((box.element.get("scope") or "col").lower(), "/Column")
                element["A"]["Scope"] = scope


@lru_cache(maxsize=1)
def fonts_date() -> int:
    """The newest date the shipped fonts carry inside them (their `head`
    tables), in seconds since 1970: what a PDF's embedded fonts are dated
    without SOURCE_DATE_EPOCH. The only date in our PDFs is in their fonts
    (fontTools stamps a font it converts from WOFF with the variable, else
    the clock), and a date from the game would change every PDF at every
    edit, where the render cache keeps the unchanged ones."""
    from fontTools.misc.timeTools import epoch_diff
    from fontTools.ttLib import TTFont
    stamps = [EARLIEST]
    for path in sorted(FONTS_DIR.glob("*.woff*")):
        with TTFont(path, lazy=True) as font:
            stamps.append(font["head"].modified + epoch_diff)
    return max(stamps)


def render_pdf(job: PdfJob) -> PdfResult:
    """Render one HTML document to a PDF file (written to a temporary name and
    moved into place, so a crash never leaves half a file). The same job
    gives the same bytes: fonts are dated SOURCE_DATE_EPOCH or `fonts_date`,
    and the PDF has no other date and no random identifier."""
    date = fonts_date() if job.date is None else job.date
    with stamped(date):
        return _render(job, date)


def _render(job: PdfJob, date: int) -> PdfResult:
    engine = _engine(date)
    weasyprint = engine["weasyprint"]
    from weasyprint.urls import FatalURLFetchingError
    fetcher = make_fetcher(job.allowed_roots)
    page_css = _parsed(engine, string=f"@page {{ size: {job.paper.css_size}{' landscape' if job.landscape else ''}; }}")
    html, own = _own_stylesheets(job.html, job.base_url, engine)
    variants = [_parsed(engine, filename=TEMPLATES_DIR / name) for name in job.stylesheets]
    try:
        document = weasyprint.HTML(string=html, base_url=job.base_url, url_fetcher=fetcher).render(
            stylesheets=[page_css, *own, *variants], font_config=engine["fonts"], cache=engine["cache"],
            pdf_variant=job.pdf_variant, pdf_forms=job.pdf_forms)
    except FatalURLFetchingError as exc:
        raise ForbiddenResource(f"{job.label}: {exc}") from None
    job.target.parent.mkdir(parents=True, exist_ok=True)
    partial = job.target.with_name(job.target.name + f".{os.getpid()}.part")
    document.write_pdf(partial, pdf_variant=job.pdf_variant, pdf_forms=job.pdf_forms,
                       finisher=scope_header_cells if job.pdf_variant else None)
    os.replace(partial, job.target)
    from .lint import print_faults
    return PdfResult(job.label, job.target, len(document.pages), tuple(find_overflows(document)),
                     tuple(print_faults(document)))
