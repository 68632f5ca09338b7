"""Print checks on a laid-out WeasyPrint document, besides overflow (pdf.py).

Edge layer. A glyph the shipped fonts lack would be drawn from whatever font
the machine has (a different look, a font we may not embed) or as an empty
box, so text in a font family we do not ship, or a character our fonts do
not cover, fails the build with the page and the element. Every PDF also
needs a title and a language in its metadata (screen readers, print queues).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..paths import TEMPLATES_DIR

# Characters that are never drawn: spaces, controls, soft hyphens, joiners.
_INVISIBLE = {"Zs", "Zl", "Zp", "Cc", "Cf"}
_FONT_FACE = re.compile(r"@font-face\s*{[^}]*?font-family:\s*\"([^\"]+)\"[^}]*?url\(([^)]+)\)", re.S)


@lru_cache(maxsize=None)
def shipped_coverage() -> dict[str, frozenset[int]]:
    """Code points each shipped family covers (all weights and styles), read
    from the fonts that base.css declares."""
    from fontTools.ttLib import TTFont
    coverage: dict[str, set[int]] = {}
    for family, url in _FONT_FACE.findall((TEMPLATES_DIR / "base.css").read_text(encoding="utf-8")):
        with TTFont(TEMPLATES_DIR / url.strip("\"' "), lazy=True) as font:
            coverage.setdefault(family, set()).update(font.getBestCmap())
    return {family: frozenset(points) for family, points in coverage.items()}


@lru_cache(maxsize=None)
def _covered(families: tuple[str, ...]) -> frozenset[int]:
    """The code points a font stack covers, worked out once per stack: every
    text box of every page asks."""
    coverage = shipped_coverage()
    return frozenset().union(*(coverage[f] for f in families))


def _label(element) -> str | None:
    if element is None:
        return None
    return element.get("aria-label") or (f"{element.tag}.{element.get('class').split()[0]}"
                                         if element.get("class") else None)


def find_missing_glyphs(document) -> list[str]:
    """'page 2: ‘Card: Attack’ (span.name): no glyph for '☃' (U+2603) in Atkinson Hyperlegible'."""
    from weasyprint.formatting_structure.boxes import TextBox
    coverage = shipped_coverage()
    found: list[str] = []

    def walk(box, context, number):
        element = getattr(box, "element", None)
        context = _label(element) if element is not None and element.get("aria-label") else context
        if isinstance(box, TextBox):
            families = [f for f in box.style["font_family"] if f in coverage]
            where = f"page {number}: " + (f"'{context}' " if context else "") + f"<{element.tag if element is not None else 'text'}>"
            if not families:
                found.append(f"{where}: font-family {', '.join(box.style['font_family'])} is not a shipped font "
                             f"(text '{box.text.strip()[:30]}')")
                return
            covered = _covered(tuple(families))
            for char in dict.fromkeys(box.text):
                if ord(char) not in covered and unicodedata.category(char) not in _INVISIBLE:
                    found.append(f"{where}: no glyph for '{char}' (U+{ord(char):04X}) in {' or '.join(families)}")
            return
        for child in getattr(box, "children", ()):
            walk(child, context, number)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, None, number)
    return list(dict.fromkeys(found))


def metadata_faults(document) -> list[str]:
    faults = []
    if not (document.metadata.title or "").strip():
        faults.append("no document title (the HTML <title> is empty)")
    if not document.metadata.lang:
        faults.append("no document language (<html lang> is missing)")
    return faults
