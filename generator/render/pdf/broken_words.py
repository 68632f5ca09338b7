"""The print lint's word check: no word is cut at a line's end without a hyphen.

Edge layer: reads WeasyPrint's laid-out boxes, and core/measure.py's
hyphenation dictionaries. A typesetter breaks a word at a syllable and
prints a hyphen there, in the document's language (base.css `hyphens:
auto` with `<html lang>`: WeasyPrint asks Pyphen's dictionary); a cell that
lets its words break anywhere (`overflow-wrap: anywhere`) shreds "Vitesse"
into "Vitess|e" as soon as its automatic table is short of room. So a line
that ends in a letter or figure, where the next line of the same block goes
on with one and the two halves are one word of the element's text (a <br>
or a block's edge counts as a space), is a fault, named with its page and
the word cut where it was cut.

One cut is allowed, because no layout could avoid it: a word (a game's name
of forty letters, a compound in a card's narrow column) that starts its
line, is wider than the whole line and has no syllable that fits. `check`
counts its lines so (core/measure.py). Where `hyphens: auto` is on, the
renderer tried the dictionary before it cut; elsewhere the lint asks the
dictionary itself. A cell of an automatic table is not a set width (its
column shrinks to what its words allow), so there the cut is allowed only
in a game's name (`class="name"` on the cell or inside it), which the table
may not widen past its column.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from ...core.measure import dictionary_for

_SPACES = re.compile(r"\s+")
# A break inside a word: letters or figures on both sides of the line's end.
_LAST_WORD = re.compile(r"(\w+)$")
_FIRST_WORD = re.compile(r"^(\w+)")


def _named(box: Any) -> bool:
    """A box of a game's name: its element has class `name` (a cell, a span)."""
    element = getattr(box, "element", None)
    return element is not None and "name" in (element.get("class") or "").split()


def _texts(box: Any, named: bool = False) -> Iterator[tuple[Any, bool]]:
    """The text boxes of a line, in reading order, each with whether it is
    (inside) a game's name."""
    from weasyprint.formatting_structure.boxes import TextBox
    named = named or _named(box)
    if isinstance(box, TextBox):
        yield box, named
        return
    for child in getattr(box, "children", ()):
        yield from _texts(child, named)


# Elements that end a line or a block of their own: a space in the text.
_SEPARATE = {"br", "p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "section", "ul", "ol", "dt", "dd"}


def _source(element: Any) -> str:
    """An element's text as the reader wrote it, spaces collapsed (a <br> and
    a block's edge count as one), compared without case (a kicker's
    `text-transform: uppercase`)."""
    if element is None:
        return ""
    parts: list[str] = []

    def gather(node: Any) -> None:
        parts.append(node.text or "")
        for child in node:
            if not isinstance(child.tag, str):          # a comment or a processing instruction
                parts.append(child.tail or "")
                continue
            separate = child.tag in _SEPARATE
            parts.append(" " if separate else "")
            gather(child)
            parts.append(" " if separate else "")
            parts.append(child.tail or "")

    gather(element)
    return _SPACES.sub(" ", "".join(parts)).casefold()


def _forced(first_line: Any, head: str, word: str, text: Any, name: bool, auto_table: bool) -> bool:
    """A break no layout could avoid: the word starts its line and still
    does not fit it (the renderer cuts a word only then), where the box's
    width is set (not a cell an automatic table shrank, unless it holds a
    game's name), and no syllable of it would have fit: the renderer tried
    the dictionary first where `hyphens: auto` is on, else the lint asks it
    (a break two letters or more before the cut)."""
    if auto_table and not name:
        return False
    if "".join(t.text for t, _ in _texts(first_line)).strip() != head:
        return False
    language = text.style["lang"]
    if text.style["hyphens"] == "auto" and language:
        return True
    dictionary = dictionary_for(language or "en")
    return dictionary is None or not any(place <= len(head) - 2 for place in dictionary.positions(word))


def find_broken_words(document: Any) -> list[str]:
    """'page 1: a word is cut without a hyphen: “Vitess|e” (th)' for each word
    a line ends inside with no hyphen (see the module's docstring for the one
    break allowed), once per word and element."""
    from weasyprint.formatting_structure.boxes import BlockContainerBox, LineBox, TableBox
    found: list[str] = []

    def check(block: Any, number: int, auto_table: bool, named: bool) -> None:
        lines = [child for child in block.children if isinstance(child, LineBox)]
        for first, second in zip(lines, lines[1:], strict=False):
            ends, starts = list(_texts(first, named)), list(_texts(second, named))
            if not ends or not starts:
                continue
            (end, name), start = ends[-1], starts[0][0]
            head, tail = _LAST_WORD.search(end.text), _FIRST_WORD.match(start.text)
            if head is None or tail is None:
                continue
            word = head.group(1) + tail.group(1)
            source = _source(end.element)
            if word.casefold() not in source or f"{head.group(1)} {tail.group(1)}".casefold() in source:
                continue
            if _forced(first, head.group(1), word, end, name, auto_table):
                continue
            found.append(f"page {number}: a word is cut without a hyphen: "
                         f"“{head.group(1)}|{tail.group(1)}” (<{end.element_tag or 'text'}>)")

    def walk(box: Any, number: int, auto_table: bool, named: bool) -> None:
        if isinstance(box, TableBox):
            auto_table = box.style["table_layout"] != "fixed"
        named = named or _named(box)
        if isinstance(box, BlockContainerBox):
            check(box, number, auto_table, named)
        for child in getattr(box, "children", ()):
            if not isinstance(child, LineBox):
                walk(child, number, auto_table, named)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, number, False, False)
    return list(dict.fromkeys(found))
