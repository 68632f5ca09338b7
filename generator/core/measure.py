"""How many lines a text needs in a box, from the shipped fonts' own metrics.

Core layer: reads the font files (fontTools, as core/glyphs.py does) and
nothing of the renderer, so `sixes check` can say a text will not fit its
card before anything is rendered, in well under a second. Widths are the
fonts' advance widths (kerning left out: it only ever narrows Latin text a
little, so leaving it out errs on the side of more lines). Lines break the
way the browser breaks them: greedily, at spaces, and at every line break
the text keeps (the `prose` filter keeps the writer's breaks after a
sentence, and paragraphs); a word longer than a whole line (a German
compound in a narrow column) starts a line and breaks where it reaches
the edge, as base.css's `overflow-wrap: break-word` has the renderer do.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .paths import TEMPLATES_DIR

PT_PER_MM = 72 / 25.4
# The widths of the shipped faces; the Ext subset has what Latin lacks.
_FACES = {(400, False): "400-normal", (700, False): "700-normal",
          (400, True): "400-italic", (700, True): "700-italic"}
_FALLBACK_EM = 0.6
# Lines are filled to this part of the box's width: the renderer rounds glyph
# positions, and a line measured within half a percent of full broke early
# when compared with WeasyPrint (tests/test_fit.py).
FILL = 0.98     # a character neither subset has (check_glyphs refuses it anyway)
_ENDS_SENTENCE = re.compile(r"[.!?:…][\"'”’»)\]]*$")
_STARTS_ITEM = re.compile(r"([-*•–]|\d+[.)])\s")


@lru_cache(maxsize=None)
def _advances(weight: int, italic: bool) -> dict[str, float]:
    """Advance width of every character the face has, in ems: read once per
    face (about 30 ms), then every measurement is a dictionary look-up."""
    from fontTools.ttLib import TTFont
    widths: dict[str, float] = {}
    for subset in ("latin-ext", "latin"):        # Latin last: it wins where both have a glyph
        path = TEMPLATES_DIR / "fonts" / f"atkinson-hyperlegible-{subset}-{_FACES[weight, italic]}.woff"
        with TTFont(path, lazy=True) as font:
            em, metrics = font["head"].unitsPerEm, font["hmtx"].metrics
            widths.update({chr(code): metrics[name][0] / em for code, name in font.getBestCmap().items()})
    return widths


def text_width(text: str, size_pt: float, *, weight: int = 400, italic: bool = False) -> float:
    """Width of `text` on one line, in millimetres."""
    advances = _advances(weight, italic)
    ems = sum(advances.get(char, _FALLBACK_EM) for char in text)
    return ems * size_pt / PT_PER_MM


def prose_lines(text: str) -> list[list[str]]:
    """The text as the `prose` filter prints it (render/html.py, README "Text
    that keeps its shape"): paragraphs at blank lines; inside one, a line
    break kept where a line ends a sentence (. ! ? : or an ellipsis, with any
    closing quote) or the next line is a list item (- * • – 1. 1)); any other
    break of the YAML is a space, so a long line wrapped by hand flows on."""
    text = str(text).replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[list[str]] = []
    lines: list[str] = []
    for raw in [*text.split("\n"), ""]:
        line = raw.strip()
        if line:
            if lines and not (_ENDS_SENTENCE.search(lines[-1]) or _STARTS_ITEM.match(line)):
                lines[-1] += " " + line
            else:
                lines.append(line)
        elif lines:
            blocks.append(lines)
            lines = []
    return blocks


def line_count(text: str, width_mm: float, size_pt: float, *, weight: int = 400, italic: bool = False,
               indent_mm: float = 0.0, fill: float = FILL) -> int:
    """Lines `text` fills in a box `width_mm` wide at `size_pt`, breaking
    greedily at spaces; `indent_mm` is taken from the first line (a bold
    label before the text); lines filled to `fill` of the width."""
    space = text_width(" ", size_pt, weight=weight, italic=italic)
    width_mm *= fill
    count = 0
    for paragraph in prose_lines(text):
        for line in paragraph:
            used, lines = indent_mm if count == 0 else 0.0, 1
            for word in line.split():
                wide = text_width(word, size_pt, weight=weight, italic=italic)
                if used and used + space + wide > width_mm:
                    lines, used = lines + 1, 0.0
                if not used and wide > width_mm:        # wider than a whole line: broken where it reaches the edge
                    pieces = _broken(word, width_mm, size_pt, weight, italic)
                    lines, wide = lines + len(pieces) - 1, text_width(pieces[-1], size_pt, weight=weight,
                                                                       italic=italic)
                used += (space if used else 0.0) + wide
            count += lines
    return count


def _broken(word: str, width_mm: float, size_pt: float, weight: int, italic: bool) -> list[str]:
    """A word wider than the line, as the renderer breaks it (base.css
    `overflow-wrap: break-word`, checked against WeasyPrint in
    tests/test_fit.py): each line filled with as many of its letters as fit,
    at least one, the rest on the next. No hyphen is added."""
    advances = _advances(weight, italic)
    room = width_mm * PT_PER_MM / size_pt           # the line's width in ems
    pieces, piece, used = [], "", 0.0
    for char in word:
        wide = advances.get(char, _FALLBACK_EM)
        if piece and used + wide > room:
            pieces.append(piece)
            piece, used = "", 0.0
        piece, used = piece + char, used + wide
    return [*pieces, piece]


def words_that_fit(text: str, lines: int, width_mm: float, size_pt: float, *, weight: int = 400,
                   italic: bool = False) -> int:
    """How many of `text`'s words fit in `lines` lines (the rest would not)."""
    words = text.split()
    low, high = 0, len(words)
    while low < high:       # the largest prefix that fits; line counts only grow with words
        middle = (low + high + 1) // 2
        if line_count(" ".join(words[:middle]), width_mm, size_pt, weight=weight, italic=italic) <= lines:
            low = middle
        else:
            high = middle - 1
    return low
