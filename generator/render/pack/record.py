"""Fingerprints of what a pack's parts show, for its record (game/pack_record.py).

Edge layer, in the pack room. A document's fingerprint is its HTML's (the
template filled in with the data, the print options' layout), not its PDF's
bytes: the PDF carries a date in its fonts, and WeasyPrint's own choices,
while the HTML holds only what the page shows. The HTML names a picture by
its path, so the path's place (the game folder, the templates folder) is
taken out and the picture's own bytes are counted in: moving the game folder
changes nothing, a new portrait changes the sheet. A handout is the GM's
own PDF, counted by its bytes. Every file is read through the reading gate.
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from urllib.parse import unquote

from ...core.assets import MAX_PDF_BYTES
from ...core.loading import UnreadableFile, read_limited
from ...core.paths import TEMPLATES_DIR
from ...systems.base import Card, Document
from ..options import PrintOptions
from ..pdf.jobs import document_html

_FILE_URI = re.compile(r"file://([^\"'\s)]+)")
# A portrait or picture the HTML points at: at most this much is read to count it.
MAX_PICTURE_BYTES = 16 * 1024 * 1024


class HtmlShows:
    """What each part shows, as fingerprints (the record's `Shows`). A deck's
    card is fingerprinted alone, in its run's context, once per card."""

    def __init__(self, options: PrintOptions, data_dir: Path):
        self.options = options
        self.places = [(str(Path(data_dir).resolve()), "game:"), (str(TEMPLATES_DIR.resolve()), "templates:")]
        self._cards: dict[tuple[int, int], str] = {}
        self._files: dict[str, str] = {}

    def document(self, doc: Document) -> str:
        return self._html(document_html(doc, self.options))

    def card(self, run: Document, card: Card) -> str:
        key = (id(run), id(card))       # a deck's card is the same object in every envelope's set
        if key not in self._cards:
            self._cards[key] = self.document(dataclasses.replace(run, cards=(card,), max_pages=1))
        return self._cards[key]

    def file(self, path: Path) -> str:
        return hashlib.sha256(read_limited(path, MAX_PDF_BYTES, "a handout")).hexdigest()[:16]

    def _html(self, html: str) -> str:
        """The HTML's fingerprint, with each file it points at by place and content."""
        pictures = []
        for uri in sorted(set(_FILE_URI.findall(html))):
            path = unquote(uri)
            if path not in self._files:
                self._files[path] = self._picture(Path(path))
            pictures.append(self._files[path])
        for place, name in self.places:
            html = html.replace("file://" + place, name)
        digest = hashlib.sha256(html.encode("utf-8"))
        for picture in pictures:
            digest.update(picture.encode("ascii"))
        return digest.hexdigest()[:16]

    @staticmethod
    def _picture(path: Path) -> str:
        try:
            return hashlib.sha256(read_limited(path, MAX_PICTURE_BYTES, "a picture")).hexdigest()[:16]
        except (UnreadableFile, OSError):      # a font or a folder the page links: its name is in the HTML already
            return "-"
