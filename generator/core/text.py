"""Text that changes how other text reads: what a name and a prose field
may hold, and when two names look alike on the page.

Core layer: standard library only. `core/validation.py` calls `unreadable`
on every string of every data model (names, prose, file names, mapping keys),
so `sixes check` refuses these characters at their file:line:column before
anything is drawn. Why refuse rather than show them escaped: the printed
fonts cover Latin scripts only, so no text we print needs a direction mark,
and a sheet showing `\\u202e` is never what its writer meant, while a
refusal says where the invisible character sits.

What is refused, by class:
- bidi controls (embeddings, overrides, isolates, marks: U+202A-202E,
  U+2066-2069, U+200E, U+200F, U+061C): they reorder what is drawn, so a
  name can display as another's ("Trojan Source"); refused in all text.
- line and paragraph separators (U+2028, U+2029): WeasyPrint fails on them
  and an editor shows nothing; refused in all text, with "use a new line".
- C0 and C1 controls and DEL: a terminal acts on them; refused in all text
  but tab and new line, which prose may hold (a `|` block).
- other format characters (category Cf): refused in names and file names;
  prose may hold the five that real text uses: the soft hyphen U+00AD (where
  a word may break), zero-width space U+200B (where a line may break),
  zero-width non-joiner and joiner U+200C/U+200D (ligatures, scripts that
  join letters, emoji sequences) and word joiner U+2060 (where it may not).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterator

BIDI_CONTROLS = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
SEPARATORS = frozenset({0x2028, 0x2029})
PROSE_FORMAT = frozenset({0x00AD, 0x200B, 0x200C, 0x200D, 0x2060})
PROSE_CONTROLS = frozenset({0x09, 0x0A})
# How many characters one problem lists before saying how many more.
MOST_SHOWN = 4

# Plain ASCII text (most of it) needs no look at each character: only these.
_ASCII_REFUSED = {"prose": re.compile(r"[\x00-\x08\x0b-\x1f\x7f]"), "other": re.compile(r"[\x00-\x1f\x7f]")}

NAME_ALLOWED = "a name holds letters, digits, spaces and punctuation only"
PROSE_ALLOWED = "text holds printable characters, tabs and new lines"


@dataclass(frozen=True)
class TextKind:
    """What a string field holds, as Annotated metadata on a model field:
    `Annotated[str, NAME]`. Fields called `name`, `title`, `label`, `player`,
    `character` or `*_name`, and mapping keys, are names without it."""

    kind: str


NAME = TextKind("name")
FILE_NAME = TextKind("file name")
NAME_FIELDS = frozenset({"name", "title", "label", "player", "character"})


def kind_of(field_name: str, metadata: list[Any]) -> str:
    """'name', 'file name' or 'prose': how strictly a field's text is read."""
    marks = [m.kind for m in metadata if isinstance(m, TextKind)]
    if marks:
        return marks[0]
    return "name" if field_name in NAME_FIELDS or field_name.endswith("_name") else "prose"


def refused(char: str, kind: str) -> bool:
    """Whether a field of `kind` may not hold `char`."""
    code = ord(char)
    if code in BIDI_CONTROLS or code in SEPARATORS:
        return True
    category = unicodedata.category(char)
    if category == "Cc":
        return kind != "prose" or code not in PROSE_CONTROLS
    return category == "Cf" and (kind != "prose" or code not in PROSE_FORMAT)


def describe(char: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`; a control has no Unicode name."""
    return f"U+{ord(char):04X} " + unicodedata.name(char, "(a control character)")


def unreadable(text: str, kind: str) -> str | None:
    """Why `text` may not stand in a field of `kind` (what was found, and
    where in the text), or None when it may."""
    if text.isascii() and not _ASCII_REFUSED["prose" if kind == "prose" else "other"].search(text):
        return None
    found = [(i, c) for i, c in enumerate(text) if refused(c, kind)]
    if not found:
        return None
    shown = ", ".join(f"{describe(c)} at character {i + 1}" for i, c in found[:MOST_SHOWN])
    if len(found) > MOST_SHOWN:
        shown += f" and {len(found) - MOST_SHOWN} more"
    noun = "text" if kind == "prose" else kind
    return f"the {noun} holds an invisible character that changes how text reads or prints: {shown}"


def advice(text: str, kind: str) -> str:
    """What is allowed, and what to do instead."""
    allowed = NAME_ALLOWED if kind != "prose" else PROSE_ALLOWED
    if any(ord(c) in SEPARATORS for c in text) and kind == "prose":
        return f"{allowed}; write a new line instead (in a `|` block)"
    return f"{allowed}; delete it (most editors do not show it) or retype the text"


def strings_in(value: Any, kind: str, at: tuple = ()) -> Iterator[tuple[tuple, str, str, bool]]:
    """(where inside `value`, text, its kind, whether a mapping key) for
    every string in a field's value: list items, mapping keys (names) and
    values. Nested models are left to their own validation."""
    if isinstance(value, str):
        yield at, value, kind, False
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from strings_in(item, kind, at + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                yield at + (key,), key, "name", True
            yield from strings_in(item, kind, at + (key,))


# Letters of Greek and Cyrillic that print like a Latin letter in the
# shipped fonts (lower case; names are compared casefolded). The common
# look-alikes only: not Unicode's whole confusables table.
_LOOK_ALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "ë", "һ": "h", "і": "i", "ї": "ï", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ϳ": "j", "0": "o", "1": "l",
}
_LOOK_TABLE = str.maketrans(_LOOK_ALIKES)


def looks(name: str) -> str:
    """What a name looks like on the page: NFKC, casefolded, without format
    characters, with Greek and Cyrillic look-alikes (and 0, 1) read as the
    Latin letters they resemble, spaces collapsed. Two names with the same
    look cannot be told apart on a sheet."""
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(text.translate(_LOOK_TABLE).split())
