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

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .i18n import current
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
# The hyphen a hyphenated line ends with (base.css `hyphenate-character`: the
# shipped fonts have no U+2010, the renderer's own choice).
HYPHEN = "-"
# A word the renderer may hyphenate: marks before and after it, none inside.
_HYPHENABLE = re.compile(r"^(\W*)(\w{5,})\W*$")


@lru_cache(maxsize=None)
def dictionary_for(language: str) -> Any:
    """Pyphen's hyphenation dictionary for a language (the one WeasyPrint
    uses for `<html lang>`), None where it has none: then nothing is
    hyphenated, by the renderer either."""
    import pyphen
    found = pyphen.language_fallback(language.replace("-", "_"))
    return pyphen.Pyphen(lang=found, left=2, right=2) if found else None


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
    """The text as the `prose` filter prints it (render/html.py, the guide's "Long text
    fields", docs/pages/guide/your-game.md): paragraphs at blank lines; inside one, a line
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
    greedily at spaces and hyphenating as the renderer does (`_set_word`);
    `indent_mm` is taken from the first line (a bold label before the
    text); lines filled to `fill` of the width."""
    face = _Face(size_pt, weight, italic, width_mm * fill, dictionary_for(current().language))
    count = 0
    for paragraph in prose_lines(text):
        for line in paragraph:
            used, lines = indent_mm if count == 0 else 0.0, 1
            for word in line.split():
                used, more = _set_word(word, used, face)
                lines += more
            count += lines
    return count


def fewest_lines(text: str, width_mm: float, size_pt: float, *, weight: int = 400, italic: bool = False,
                 fill: float = FILL) -> int:
    """A floor under `line_count`, in one pass: no line holds more than its
    width of the text's letters (a piece cut from a word, a start and its
    hyphen, each fits what is left of its line), so the letters' widths
    added up take at least that many lines. It only grows with the text, so
    a search over lengths can rule out at once what no counting would let
    fit. 0 (no floor) where a letter alone is wider than a line, or where
    the language's breaks may change letters (pyphen's Catalan and
    Hungarian spell some breaks with other letters)."""
    if not _breaks_keep_letters(dictionary_for(current().language)):
        return 0
    advances, room = _advances(weight, italic), width_mm * fill * PT_PER_MM / size_pt
    ems = 0.0
    for char in text:
        if not char.isspace():
            wide = advances.get(char, _FALLBACK_EM)
            if wide > room:
                return 0
            ems += wide
    return max(0, math.ceil(ems / room * (1 - 1e-9) - 1e-9))       # below any rounding of the count's sums


@lru_cache(maxsize=None)
def _breaks_keep_letters(dictionary: Any) -> bool:
    """Whether every break of `dictionary` splits a word without changing its
    letters (pyphen stores the other kind's spelling with the break)."""
    if dictionary is None:
        return True
    patterns = getattr(getattr(dictionary, "hd", None), "patterns", None)
    if not isinstance(patterns, dict):
        return False
    return not any(getattr(value, "data", None) for _, values in patterns.values() for value in values)


@dataclass(frozen=True)
class _Face:
    """What a line is set with: the type, the line's width and the language's hyphenation."""
    size_pt: float
    weight: int
    italic: bool
    width_mm: float
    dictionary: Any

    def width(self, text: str) -> float:
        return text_width(text, self.size_pt, weight=self.weight, italic=self.italic)

    def wider(self, text: str, room: float) -> bool:
        """Whether `text` is wider than `room` (the answer `width` gives),
        reading only as far as a start plainly wider: a word of 2,000
        letters set line by line was summed whole for every line."""
        advances, limit = _advances(self.weight, self.italic), room * PT_PER_MM / self.size_pt
        ems = 0.0
        for char in text:
            ems += advances.get(char, _FALLBACK_EM)
            if ems > limit * (1 + 1e-9) + 1e-9:    # past any rounding of the whole sum's
                return True
        return self.width(text) > room


def _set_word(word: str, used: float, face: _Face) -> tuple[float, int]:
    """Sets one word after `used` millimetres of its line, as WeasyPrint
    does with base.css's `hyphens: auto` and `overflow-wrap: break-word`: a
    word that does not fit what is left of the line is hyphenated at the
    longest dictionary break whose part and hyphen fit, else it starts the
    next line; a word wider than a whole line, with no break that fits,
    is cut where it reaches the edge, and the rest is set again. Returns
    the width used on the last line and the lines added."""
    space, added, rest = face.width(" "), 0, word
    while True:
        room = face.width_mm - (used + space if used else 0.0)
        if not face.wider(rest, room):
            return (used + space if used else 0.0) + face.width(rest), added
        head = _hyphenated(rest, room, face)
        if head is None and used:                  # the word goes whole to the next line
            used, added = 0.0, added + 1
            continue
        if head is None:                           # wider than a line and no break fits: cut at the edge
            head = _cut(rest, face.width_mm, face.size_pt, face.weight, face.italic)
        rest, used, added = rest[len(head):], 0.0, added + 1


def _hyphenated(token: str, room: float, face: _Face) -> str | None:
    """The longest start of `token` the renderer would end a line with,
    hyphen added, in `room` millimetres; None if none fits. Only a word of
    five letters or more, with no mark inside it (the renderer's own breaks
    at a hyphen or an apostrophe are left to it: counting them whole only
    ever counts more lines), and two letters at least on each side
    (WeasyPrint's `hyphenate-limit-chars: auto`)."""
    word = _HYPHENABLE.match(token)
    if face.dictionary is None or word is None:
        return None
    before = word.group(1)
    for start, _end in face.dictionary.iterate(_reach(word.group(2), room, face)):
        if face.width(before + start + HYPHEN) <= room:
            return before + start
    return None


def _reach(word: str, room: float, face: _Face) -> str:
    """The start of `word` that decides every break short enough for `room`:
    a break's place depends on the patterns around it, none longer than the
    dictionary's longest (`maxlen`), so the letters past the widest start
    that fits, and a pattern's length more, change none of those breaks.
    Hyphenating the whole of a name of 2,000 letters once per line it
    takes made `check` run for minutes; this is the same answer at once.
    The whole word where pyphen says no length, or where cutting it would
    change whether it is all capitals (which spells a break's letters)."""
    longest = getattr(getattr(face.dictionary, "hd", None), "maxlen", None)
    if not isinstance(longest, int):
        return word
    advances, limit = _advances(face.weight, face.italic), room * PT_PER_MM / face.size_pt
    ems, wide = 0.0, len(word)
    for count, char in enumerate(word, 1):
        ems += advances.get(char, _FALLBACK_EM)
        if ems > limit:             # no start this long or longer fits: the breaks within it are all we need
            wide = count
            break
    cut = word[:wide + longest + 2]
    return cut if cut.isupper() == word.isupper() else word


def _cut(word: str, width_mm: float, size_pt: float, weight: int, italic: bool) -> str:
    """The first line of a word wider than the line, as the renderer breaks
    it (base.css `overflow-wrap: break-word`, checked against WeasyPrint in
    tests/test_fit.py): as many of its letters as fit, at least one; the
    rest goes on the next line. No hyphen is added."""
    advances = _advances(weight, italic)
    room = width_mm * PT_PER_MM / size_pt           # the line's width in ems
    used = 0.0
    for count, char in enumerate(word):
        used += advances.get(char, _FALLBACK_EM)
        if count and used > room:
            return word[:count]
    return word


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
