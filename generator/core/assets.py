"""Checks of the files the data points at: portraits and handout PDFs.

Core layer: the standard library and `loading` at import; Pillow and pypdf
(both already needed by the renderer and the pack) are imported only when a
file is checked. A file that the renderer or the pack would choke on (a
damaged PNG, text named .png, an image of a billion pixels, an SVG that
loads files of its own, an encrypted PDF) is found when the data is checked,
and reported at the line that names it, instead of failing or hanging a
build minutes later. Each check reads a bounded amount and decodes a
bounded image; none of them follows a link out of the file.
"""
from __future__ import annotations

import logging
import re
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NamedTuple

from .loading import UnreadableFile, open_regular, read_limited

# The limits. A portrait prints a few centimetres wide: 1,200 pixels a side
# is sharp at 300 dpi, so 40 megapixels (about 6,300 x 6,300) is generous
# and still decodes in well under a second. Handouts may be scanned maps.
MAX_IMAGE_BYTES = 16 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000
MAX_PDF_BYTES = 64 * 1024 * 1024

# Raster formats the renderer prints (by Pillow's name), besides SVG. MPO is
# how Pillow names the JPEG many cameras write.
RASTER_FORMATS = ("PNG", "JPEG", "MPO", "GIF", "WEBP")
IMAGE_KINDS = "PNG, JPEG, GIF, WebP or SVG"
# The names an image may have where the site publishes it (render/site/publish.py).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
# A reference inside an SVG may only point into the SVG itself (#id).
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.I)
_IMPORT = re.compile(r"@import", re.I)


class Fault(NamedTuple):
    """What is wrong with a file: said at the line that names it."""

    message: str
    hint: str | None = None


def asset_bytes(path: Path) -> bytes:
    """An image's bytes (a portrait, the logo, a page's image) as the site
    takes them: through the one gate, bounded, a regular file, inside the
    game folder being read (loading.reading_game)."""
    return read_limited(path, MAX_IMAGE_BYTES, "an image")


def asset_fault(path: Path, shown: str) -> Fault | None:
    """The fault of the portrait or handout at `path` (named `shown` in the
    data), or None when it will print. The kind follows the file's suffix."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return pdf_fault(path, shown)
    if suffix == ".svg":
        return svg_fault(path, shown)
    return raster_fault(path, shown)


def raster_fault(path: Path, shown: str) -> Fault | None:
    """A PNG, JPEG, GIF or WebP image: identified, measured before any pixel
    is decoded, its structure verified, then decoded whole."""
    from PIL import Image, UnidentifiedImageError
    try:
        with open_regular(path, MAX_IMAGE_BYTES, "an image") as file, _quiet():
            try:
                image = Image.open(file)
            except Image.DecompressionBombError as exc:     # far over our limit: Pillow's own refusal
                return _too_many_pixels(shown, None, str(exc))
            except UnidentifiedImageError:
                file.seek(0)
                return Fault(f"'{shown}' is not an image: found {_sniff(file.read(512))}",
                             hint=f"allowed: {IMAGE_KINDS} images")
            except Exception as exc:     # a header Pillow recognised, then could not read
                return _damaged(shown, None, exc)
            with image:
                if image.format not in RASTER_FORMATS:
                    return Fault(f"'{shown}' is a {image.format} image", hint=f"allowed: {IMAGE_KINDS}; "
                                 "save it in one of those formats")
                kind, (width, height) = image.format, image.size
                if width * height > MAX_IMAGE_PIXELS:
                    return _too_many_pixels(shown, (width, height))
                try:
                    image.verify()
                except Exception as exc:     # Pillow raises many kinds on damaged data
                    return _damaged(shown, kind, exc)
            file.seek(0)
            try:
                with Image.open(file, formats=[kind]) as image:
                    image.load()
            except Exception as exc:     # as above: the decoder's own words say what is wrong
                return _damaged(shown, kind, exc)
    except UnreadableFile as exc:
        return Fault(f"'{shown}': {exc.message}", exc.hint)
    return None


def svg_fault(path: Path, shown: str) -> Fault | None:
    """Well-formed XML with an <svg> root, no DOCTYPE (nor entities), and no
    reference to anything outside itself: no other file, no address, no
    embedded data URL."""
    from xml.etree import ElementTree
    try:
        with open_regular(path, MAX_IMAGE_BYTES, "an image") as file:
            data = file.read(MAX_IMAGE_BYTES + 1)
    except UnreadableFile as exc:
        return Fault(f"'{shown}': {exc.message}", exc.hint)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return Fault(f"'{shown}' declares a DOCTYPE or entities", hint="save it as plain SVG, without a DOCTYPE")
    if b"<?xml-stylesheet" in data:
        return _outside_reference(shown, "<?xml-stylesheet?>")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        line, column = exc.position
        return Fault(f"'{shown}' is not well-formed XML ({_xml_error(exc)} at line {line}, column {column + 1})",
                     hint="an SVG must be valid XML; export it again from your drawing program")
    if root.tag not in ("svg", SVG_NAMESPACE + "svg"):
        return Fault(f"'{shown}' is not an SVG image (its root element is <{_local(root.tag)}>)",
                     hint=f"allowed: {IMAGE_KINDS} images")
    for element in root.iter():
        for name, value in element.attrib.items():
            if _local(name) in ("href", "src") and not value.strip().startswith("#"):
                return _outside_reference(shown, value)
            for target in _CSS_URL.findall(value):
                if not target.startswith("#"):
                    return _outside_reference(shown, target)
        if _local(element.tag) == "style" and element.text:
            if _IMPORT.search(element.text):
                return _outside_reference(shown, "@import")
            for target in _CSS_URL.findall(element.text):
                if not target.startswith("#"):
                    return _outside_reference(shown, target)
    return None


def pdf_fault(path: Path, shown: str) -> Fault | None:
    """A handout the pack can merge: a readable, unencrypted PDF with pages."""
    from pypdf import PdfReader
    try:
        with open_regular(path, MAX_PDF_BYTES, "a handout") as file, _quiet():
            try:
                reader = PdfReader(file, strict=False)
                if reader.is_encrypted:
                    return Fault(f"'{shown}' is an encrypted (password-protected) PDF",
                                 hint="save a copy without a password and name that one")
                pages = len(reader.pages)
                for page in reader.pages:   # each page read once: a broken page tree fails here
                    _ = page.mediabox
            except Exception as exc:     # pypdf raises many kinds on damaged files
                return Fault(f"'{shown}' is a damaged PDF ({_reason(exc)})",
                             hint="export or print it to PDF again")
    except UnreadableFile as exc:
        return Fault(f"'{shown}': {exc.message}", exc.hint)
    if pages == 0:
        return Fault(f"'{shown}' is a PDF with no pages", hint="a handout needs at least one page")
    return None


@contextmanager
def _quiet() -> Iterator[None]:
    """Pillow warns, and pypdf logs, about every oddity it works around; the
    check reports what matters itself, so neither reaches the terminal."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


def _too_many_pixels(shown: str, size: tuple[int, int] | None, refusal: str = "") -> Fault:
    if size:
        found = f"is {size[0]:,} x {size[1]:,} pixels"
    else:
        count = re.search(r"\((\d+) pixels\)", refusal)
        found = f"has {int(count[1]):,} pixels" if count else "has too many pixels"
    return Fault(f"'{shown}' {found}; an image may have at most {MAX_IMAGE_PIXELS // 1_000_000} megapixels",
                 hint="scale it down: 1,200 pixels a side prints sharp at 300 dpi")


def _damaged(shown: str, kind: str | None, exc: Exception) -> Fault:
    what = f"{kind} image" if kind else "image"
    return Fault(f"'{shown}' is a damaged {what} ({_reason(exc)})",
                 hint="export it again from your image program")


def _outside_reference(shown: str, target: str) -> Fault:
    target = target if len(target) <= 60 else target[:60] + "..."
    return Fault(f"'{shown}' refers to something outside itself ('{target}')",
                 hint="an SVG portrait may refer only to its own parts (#id); embed or draw everything in it")


def _sniff(head: bytes) -> str:
    """What the start of a file that is not an image looks like."""
    stripped = head.lstrip()
    if stripped.startswith(b"%PDF"):
        return "a PDF"
    if stripped.startswith((b"<svg", b"<?xml")):
        return "SVG, which needs a name ending in .svg"
    text: str | None
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = head[:exc.start].decode("utf-8") if exc.start > len(head) - 4 else None
    if not head:
        return "an empty file"
    if text is not None and "\0" not in text:
        return "text"
    return "data of no image format"


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 100 else text[:100] + "..."


def _xml_error(exc: Exception) -> str:
    return str(exc).split(":")[0]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]

