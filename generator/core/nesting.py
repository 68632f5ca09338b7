"""How deep a game's own page nests, and how long Markdown would take over its
brackets, found in one scan each before anything parses it.

Core layer: pure, the standard library only (the gather reads pages with it,
the cleaner uses it too). Python-Markdown nests lists by recursion (about 300
levels raise RecursionError) and the HTML parser checks its stack of open
elements for every tag (1,500 nested `<div>` took 0.3 s, 3,000 took 2.4 s,
10,000 took 27 s). A page of house rules nests a handful of levels, so a page
nesting more than MAX_PAGE_NESTING is refused when it is read, at the line
where it gets too deep, and the cleaner refuses HTML nesting more than
MAX_HTML_NESTING (Markdown adds levels of its own: a list item is two
elements) before it parses it.

Python-Markdown reads a link's text by counting brackets from each `[` to
the `]` that closes it, or to the end of the paragraph when none does: 5,000
`[` that never close took 14 s. `bracket_work` adds up those distances as
Markdown would walk them; a page over MAX_BRACKET_WORK (about a second) is
refused at the paragraph that goes over. A page with a link on every line
comes nowhere near it.
"""
from __future__ import annotations

import re
from typing import NamedTuple

MAX_PAGE_NESTING = 100
MAX_HTML_NESTING = 300
MAX_BRACKET_WORK = 1_000_000     # characters Markdown would walk from every `[`
TAB_WIDTH = 4           # Python-Markdown's: one level of a nested list is four columns

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})
_SELF_CLOSING = frozenset({"p", "li", "dt", "dd", "tr", "td", "th", "option"})
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]{0,40})")


class TooDeep(NamedTuple):
    """Where the text first nests deeper than allowed, and how deep that is."""

    line: int
    column: int
    depth: int
    what: str


def too_deep(text: str, limit: int, markdown: bool = True) -> TooDeep | None:
    """Where `text` first nests more than `limit` levels: HTML elements and,
    when it is Markdown, quotes (`>`) and indentation. None when it does not."""
    found = _html_too_deep(text, limit)
    if markdown:
        lines = _markdown_too_deep(text, limit)
        if lines is not None and (found is None or lines.line < found.line):
            found = lines
    return found


def _html_too_deep(text: str, limit: int) -> TooDeep | None:
    """The open elements, as a browser would roughly keep them: a closing
    tag closes up to its element, a `<p>` or `<li>` closes the one before it.
    Each tag costs one step: the next `>` is looked for once, not per tag."""
    stack: list[str] = []
    next_close = -1
    for tag in _TAG.finditer(text):
        if tag.start() < next_close:        # inside the tag before: an attribute's text
            continue
        if next_close < tag.end():
            next_close = text.find(">", tag.end())
            if next_close == -1:
                return None
        closing, name = tag.group(1), tag.group(2).lower()
        if closing:
            if name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name):]
        elif name not in _VOID and text[next_close - 1] != "/":
            if name in _SELF_CLOSING and stack and stack[-1] == name:
                stack.pop()
            stack.append(name)
            if len(stack) > limit:
                return _at(text, tag.start(), len(stack), "elements")
    return None


def _markdown_too_deep(text: str, limit: int) -> TooDeep | None:
    """A line quoted (`>`) or indented more levels than `limit`."""
    offset = 0
    for line in text.split("\n"):
        quotes = indent = 0
        for character in line:
            if character == ">":
                quotes += 1
            elif character == " ":
                indent += 1
            elif character == "\t":
                indent += TAB_WIDTH - indent % TAB_WIDTH
            else:
                break
        else:           # nothing but quotes and spaces: its indentation opens nothing
            indent = 0
        depth = max(quotes, indent // TAB_WIDTH + 1 if indent else 0)
        if depth > limit:
            return _at(text, offset, depth, "quotes" if quotes > limit else "levels of indentation")
        offset += len(line) + 1
    return None


def _at(text: str, index: int, depth: int, what: str) -> TooDeep:
    line = text.count("\n", 0, index) + 1
    return TooDeep(line, index - (text.rfind("\n", 0, index) + 1) + 1, depth, what)


def bracket_work(text: str, limit: int = MAX_BRACKET_WORK) -> tuple[int, int] | None:
    """The line where the characters Markdown would walk from every `[` to
    its `]` (or to the end of its paragraph) first pass `limit`, and that
    total; None when they never do. Fenced code is not read for links.
    (`offset - 2`: the paragraph's last character, before its line break.)"""
    total, fenced, start_line = 0, False, 1
    open_at: list[int] = []
    offset = 0
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if line.lstrip(" ").startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or not line.strip():        # the paragraph ends: what never closed walks to here
            total += sum(offset - 2 - at for at in open_at)
            open_at = []
            if total > limit:
                return start_line, total
            start_line = number + 1
            offset += len(line) + 1
            continue
        for k, character in enumerate(line):
            if character == "[":
                open_at.append(offset + k)
            elif character == "]" and open_at:
                total += offset + k - open_at.pop()
        offset += len(line) + 1
        if total > limit:
            return start_line, total
    total += sum(offset - 2 - at for at in open_at)
    return (start_line, total) if total > limit else None
