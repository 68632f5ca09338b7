"""Text the printed fonts cannot show, found when the data is checked.

Core layer: it reads the shipped fonts' character maps (fontTools, imported
only when a file holds a character outside plain ASCII) and nothing of the
renderer. Called from game/load.py so that `sixes check` names the file,
line and column of a name in Hebrew or Chinese; the build's own glyph lint
(render/pdf/lint.py, which asks `shipped_coverage` here) can only name the page
of the PDF it failed to print.

Every string in a data file is checked, keys too, against every shipped
font at once: a character no font covers can never print. (Which family an
element uses is the template's business; the build's lint still checks that.)
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from .datafiles import display_path
from .errors import Problem
from .paths import TEMPLATES_DIR
from .loading import MAX_YAML_BYTES, Key, UnreadableFile, YamlDocument, load_yaml, read_limited

# Characters that are never drawn, so need no glyph: line and paragraph
# separators, controls, format characters (render/pdf/lint.py asks the same). A
# space is not among them: its width comes from the font that sets it, and one
# the shipped fonts lack (an ideographic space, U+3000; a thin space) is set in
# whatever font the machine has, wider than any measure of check's, so a name
# that check passed overflowed its label after rendering.
INVISIBLE = {"Zl", "Zp", "Cc", "Cf"}
# How many characters one problem lists before saying how many more.
MOST_SHOWN = 6
GLYPH_HINT = ("the printed fonts (templates/fonts) draw the letters of the languages README lists under "
              "Languages, and not these; write it with those letters")
SPACE_HINT = ("a space the printed fonts lack is set in another font, wider than check can measure: write a plain "
              "space (or a no-break space, U+00A0)")


def check_glyphs(folder: Path, display_root: Path) -> list[Problem]:
    """One error for each string in the YAML files under `folder` with a
    character no shipped font covers. Files that do not load are skipped:
    their loader reports them. Most files cost one read: only those with a
    character outside plain ASCII, or an escape, are parsed again."""
    problems: list[Problem] = []
    for path in sorted(folder.rglob("*.y*ml")):
        if any(part.startswith(".") for part in path.relative_to(folder).parts) or not path.is_file():
            continue
        try:
            text = read_limited(path, MAX_YAML_BYTES, "a YAML data file").decode("utf-8")
        except (UnreadableFile, UnicodeDecodeError):
            continue        # the loader says what is wrong with it
        escapes = "\\" in text       # a double-quoted "\u05e9" is a character the raw text does not show
        if not escapes and (not _uncovered(set(text), plain_only=True) or not _uncovered(set(text))):
            continue
        doc, found = load_yaml(path, display_path(path, display_root))
        if doc is not None and not found:
            problems.extend(unprintable_text([doc]))
    return problems


def unprintable_text(docs: Iterable[YamlDocument]) -> list[Problem]:
    """An error at each string (value or key) of `docs` that has characters
    no shipped font covers, naming them."""
    problems: list[Problem] = []
    for doc in docs:
        for loc, text, is_key in _strings(doc.data, ()):
            missing = _uncovered(set(text))
            if missing:
                shown = sorted(missing, key=text.index)
                names = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in shown[:MOST_SHOWN])
                if len(shown) > MOST_SHOWN:
                    names += f" and {len(shown) - MOST_SHOWN} more"
                spaces = any(unicodedata.category(c) == "Zs" for c in shown)
                problems.append(doc.problem(loc, f"the text has characters the printed fonts cannot show: {names}",
                                            hint=SPACE_HINT if spaces else GLYPH_HINT, key=is_key))
    return problems


def _strings(data: Any, loc: Key) -> Iterator[tuple[Key, str, bool]]:
    """(location, text, whether it is a key) for every string in `data`."""
    if isinstance(data, str):
        yield loc, data, False
    elif isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str):
                yield loc + (key,), key, True
            yield from _strings(value, loc + (key,))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from _strings(item, loc + (i,))


def _uncovered(chars: set[str], plain_only: bool = False) -> set[str]:
    """The visible characters of `chars` some face lacks; with `plain_only`,
    every character outside printable ASCII (a test that needs no font)."""
    if plain_only:
        return {c for c in chars if not (" " <= c <= "~" or c in "\n\r\t")}
    covered = _coverage()
    return {c for c in chars if ord(c) not in covered and unicodedata.category(c) not in INVISIBLE}


def undrawn(text: str) -> list[str]:
    """The visible characters of `text` that some shipped face (regular,
    bold, italic, bold italic) cannot draw, in the order they first appear:
    any text may be set in any of them (a name in a bold heading, a
    description in italics). Plain ASCII needs no font read (an English
    game's check never opens one)."""
    if not _uncovered(set(text), plain_only=True):
        return []
    missing = _uncovered(set(text))
    return [char for char in dict.fromkeys(text) if char in missing]


@lru_cache(maxsize=1)
def _coverage() -> frozenset[int]:
    """What every face draws: each face's families together, and the faces in common."""
    faces = list(face_coverage().values())
    return frozenset.intersection(*faces) if faces else frozenset()


_FONT_FACE = re.compile(r"@font-face\s*{([^}]*)}", re.S)
_FAMILY = re.compile(r"font-family:\s*\"([^\"]+)\"")
_URL = re.compile(r"url\(([^)]+)\)")
_WEIGHT = re.compile(r"font-weight:\s*(\d+)")
_ITALIC = re.compile(r"font-style:\s*italic")
FACE_NAMES = {(400, False): "regular", (700, False): "bold", (400, True): "italic", (700, True): "bold italic"}


@lru_cache(maxsize=None)
def _declared() -> tuple[tuple[str, int, bool, frozenset[int]], ...]:
    """(family, weight, italic, code points) of each @font-face of base.css,
    read from the font file it names."""
    from fontTools.ttLib import TTFont
    faces = []
    for block in _FONT_FACE.findall((TEMPLATES_DIR / "base.css").read_text(encoding="utf-8")):
        family, url, weight = _FAMILY.search(block), _URL.search(block), _WEIGHT.search(block)
        if family is None or url is None:
            continue
        with TTFont(TEMPLATES_DIR / url.group(1).strip("\"' "), lazy=True) as font:
            points = frozenset(font.getBestCmap())
        faces.append((family.group(1), int(weight.group(1)) if weight else 400, bool(_ITALIC.search(block)), points))
    return tuple(faces)


@lru_cache(maxsize=None)
def shipped_coverage() -> dict[str, frozenset[int]]:
    """Code points each shipped family covers (all weights and styles), read
    from the fonts that base.css declares."""
    coverage: dict[str, frozenset[int]] = {}
    for family, _, _, points in _declared():
        coverage[family] = coverage.get(family, frozenset()) | points
    return coverage


@lru_cache(maxsize=None)
def face_coverage() -> dict[str, frozenset[int]]:
    """Code points each face ('regular', 'bold', 'italic', 'bold italic')
    draws from any shipped family: the text's stack falls back from the
    Latin fonts to the Latin Extended ones within one face."""
    coverage: dict[str, frozenset[int]] = {}
    for _, weight, italic, points in _declared():
        name = FACE_NAMES.get((weight, italic), f"{weight}{' italic' if italic else ''}")
        coverage[name] = coverage.get(name, frozenset()) | points
    return coverage

