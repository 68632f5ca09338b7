"""Long documents rendered in parts and joined.

Edge layer. A template may cut a document into parts (html.new_part), each
starting a page: the cheat sheet's roster and the balance report's cast
table come in runs of characters. Each part is rendered and cached on its
own, so editing one character renders the one run it sits in rather than the
whole document. Parts print no page numbers; once the page count is known, a
stamp document with the same page rules prints "Page N of M" on blank pages,
and each stamp page is laid over its page of the joined PDF.

Fillable forms are rendered whole: joining files would lose their form
fields. Tagged (PDF/UA) parts keep their structure trees through the join
(render/pdf/tagged_join.py, with qpdf: joining with pypdf cost more than
rendering the part that changed), and the stamped numbers are artifacts.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

from ...core import i18n
from ..html import PART_MARK
from .weasy import PdfJob, PdfResult

PART_CSS = "print/part.css"
STAMP_CSS = "print/page-numbers.css"

_BODY_OPEN = re.compile(r"<body[^>]*>", re.I)
_PAGE_REF = re.compile(r"^page (\d+):")


def splittable(job: PdfJob) -> bool:
    return PART_MARK in job.html and not job.pdf_forms


def split_html(html: str) -> list[str]:
    """One whole HTML document per part: the same head, the part's body."""
    start, closing = _body_start(html), html.rindex("</body>")
    head, body, tail = html[:start], html[start:closing], html[closing:]
    return [head + chunk + tail for chunk in body.split(PART_MARK)]


def _body_start(html: str) -> int:
    """Where the body's content begins in a whole HTML document."""
    opened = _BODY_OPEN.search(html)
    assert opened is not None       # every template renders a whole document, <body> included
    return opened.end()


def part_jobs(job: PdfJob) -> list[PdfJob]:
    """The jobs rendering each part, into a folder beside the target."""
    folder = job.target.parent / ".parts"
    return [replace(job, html=html, target=folder / f"{job.target.stem}.{k}.pdf", label=f"{job.label} (part {k})",
                    stylesheets=job.stylesheets + (PART_CSS,))
            for k, html in enumerate(split_html(job.html), 1)]


def stamp_job(job: PdfJob, pages: int) -> PdfJob:
    """Blank pages under the document's own page rules, numbered 1 to `pages`."""
    head = split_html(job.html)[0]
    head = head[:_body_start(head)]
    html = head + '<div class="page-stamp"></div>' * pages + "</body></html>"
    return replace(job, html=html, target=job.target.parent / ".parts" / f"{job.target.stem}.numbers.pdf",
                   label=f"{job.label} (page numbers)", stylesheets=job.stylesheets + (STAMP_CSS,))


def joined_result(job: PdfJob, parts: list[PdfResult], stamp: Path) -> PdfResult:
    """Join the rendered parts into the job's target, stamp the page numbers,
    and report the parts' findings with page numbers of the whole document.
    Tagged parts keep their structure trees, and the numbers are artifacts."""
    from .tagged_join import join_tagged
    join_tagged([part.target for part in parts], stamp, job.target, i18n.current().language, job.label)
    overflows, lint, offset = [], [], 0
    for part in parts:
        overflows += [_shift(m, offset) for m in part.overflows]
        lint += [_shift(m, offset) for m in part.lint]
        offset += part.pages
    return PdfResult(job.label, job.target, offset, tuple(overflows), tuple(dict.fromkeys(lint)))


def declared_language(readers: Sequence[Any]) -> str:
    """The language (/Lang) the first of `readers` (pypdf) that declares one
    declares: what a joined or merged PDF of our rendered documents declares.
    The run's language when none does (only organisers' own handouts were merged)."""
    for reader in readers:
        if lang := str(reader.trailer["/Root"].get("/Lang", "")):
            return lang
    return i18n.current().language


def save_pdf(writer: Any, target: Path, title: str, language: str) -> None:
    """Write a PDF assembled with pypdf, with the title and language every PDF
    we make carries (and asks a viewer to show the title, as a tagged one
    does), under a temporary name first so no half file is left."""
    from pypdf.generic import BooleanObject, DictionaryObject, NameObject, TextStringObject
    writer.add_metadata({"/Title": title, "/Producer": "Sixes Press"})
    writer._root_object[NameObject("/Lang")] = TextStringObject(language)
    writer._root_object[NameObject("/ViewerPreferences")] = DictionaryObject(
        {NameObject("/DisplayDocTitle"): BooleanObject(True)})
    drop_unreachable(writer)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with open(partial, "wb") as handle:
        writer.write(handle)
    partial.replace(target)


def drop_unreachable(writer: Any) -> None:
    """Leave out of the file every object nothing in it reaches any more.
    pypdf writes every object it was ever given: an action a handout's page
    pointed at stays in the bytes after the page lets go of it
    (handouts.strip_active_content), where a print shop's preflight, which
    reads bytes, still finds it. Walked with a stack, never recursion."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject
    reached: set[int] = set()
    stack: list[Any] = [writer._root_object, writer._info]
    while stack:
        item = stack.pop()
        if isinstance(item, IndirectObject):
            if item.pdf is not writer or item.idnum in reached:
                continue
            reached.add(item.idnum)
            item = writer._objects[item.idnum - 1]
        if isinstance(item, DictionaryObject):
            stack.extend(item.values())
        elif isinstance(item, ArrayObject):
            stack.extend(item)
    for root in (writer._root_object, writer._info):
        if getattr(root, "indirect_reference", None) is not None:
            reached.add(root.indirect_reference.idnum)
    for number in range(1, len(writer._objects) + 1):
        if number not in reached:
            writer._objects[number - 1] = None


def _shift(message: str, offset: int) -> str:
    """'page 2: ...' of a part -> the page of the whole document."""
    return _PAGE_REF.sub(lambda m: f"page {int(m.group(1)) + offset}:", message, count=1)
