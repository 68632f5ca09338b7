"""The text of a PDF as the tests read it: pypdf's extraction, whitespace
runs made one space. Extraction is the costly part of many pack tests and
the same envelope or pack is often read by several of them, so each file's
pages are extracted once per process, remembered by the file's contents
(a file rewritten in place is read again)."""
from __future__ import annotations

import hashlib
from io import BytesIO
from pathlib import Path

from pypdf import PdfReader


_READ: dict[str, tuple[str, ...]] = {}       # a file's SHA-256: its pages' text


def page_texts(path: Path) -> list[str]:
    """Each page's text, in order."""
    data = Path(path).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _READ:
        _READ[digest] = tuple(" ".join((page.extract_text() or "").split()) for page in PdfReader(BytesIO(data)).pages)
    return list(_READ[digest])


def text(path: Path) -> str:
    """The whole document's text on one line."""
    return " ".join(t for t in page_texts(path) if t)

