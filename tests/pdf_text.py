"""The text of a PDF as the tests read it: pypdf's extraction, a word
hyphenated at a line's end joined again (base.css hyphenates: "co-" and
"vers.pdf" on two lines read "covers.pdf"), whitespace runs made one
space. Extraction is the costly part of many pack tests and the same
envelope or pack is often read by several of them, so each file's pages
are extracted once per process, remembered by the file's contents (a file
rewritten in place is read again)."""
from __future__ import annotations

import hashlib
import re
from io import BytesIO
from pathlib import Path

from pypdf import PdfReader


_READ: dict[str, tuple[str, ...]] = {}       # a file's SHA-256: its pages' text
# A letter, the hyphen a line ends with, the next line going on in lower case.
_HYPHENATED = re.compile(r"(?<=[^\W\d_])-[ \t]*\n[ \t]*(?=[a-zà-ÿß])")


def _read(page) -> str:
    return " ".join(_HYPHENATED.sub("", page.extract_text() or "").split())


def page_texts(path: Path) -> list[str]:
    """Each page's text, in order."""
    data = Path(path).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _READ:
        _READ[digest] = tuple(_read(page) for page in PdfReader(BytesIO(data)).pages)
    return list(_READ[digest])


def text(path: Path) -> str:
    """The whole document's text on one line."""
    return " ".join(t for t in page_texts(path) if t)

