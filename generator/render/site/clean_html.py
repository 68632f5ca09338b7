"""The cleaner of a game's own pages: plain document markup only.

Edge layer: the standard library, markupsafe and tinyhtml5 (which WeasyPrint
brings). A security boundary, so it is a file of its own: a game's own pages
are Markdown with raw HTML allowed, passed around like any data, so after
MkDocs has made HTML of them `clean_html` keeps only plain document markup
(text, headings, lists, tables, links, images, details) and drops scripts,
styles, frames, forms, event handlers and every attribute but a few. Links
may go to pages, anchors, http(s) and mailto; images only to files beside the
pages, so the site still loads nothing from the network.

Bounded work: the tree is written with a stack of its own, never recursion,
so a page nesting 100,000 elements is cleaned like any other; every pattern
here is anchored or linear, and tags are stripped from text by a scan.
"""
from __future__ import annotations

import html
import re
from typing import Any, Iterable

from markupsafe import escape

from ...core.nesting import MAX_HTML_NESTING, too_deep
from ...game.pages import strip_tags


class UnsafeHtml(Exception):
    """A page's HTML did not come out of cleaning the same twice."""


_KEPT_TAGS = frozenset({
    "p", "div", "blockquote", "pre", "ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "br", "wbr", "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td",
    "figure", "figcaption", "details", "summary", "section", "article", "aside", "header", "footer",
    "a", "abbr", "b", "cite", "code", "del", "dfn", "em", "i", "img", "ins", "kbd", "mark", "q", "s",
    "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
})
_VOID_TAGS = frozenset({"br", "wbr", "hr", "img", "col"})
_KEPT_ATTRS = {
    "*": frozenset({"id", "class", "title", "lang"}),
    "a": frozenset({"href"}), "img": frozenset({"src", "alt", "width", "height"}),
    "th": frozenset({"colspan", "rowspan", "scope", "style"}), "td": frozenset({"colspan", "rowspan", "style"}),
    "ol": frozenset({"start", "reversed"}), "li": frozenset({"value"}), "details": frozenset({"open"}),
    "col": frozenset({"span"}), "colgroup": frozenset({"span"}), "time": frozenset({"datetime"}),
}
_LINK_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_ALIGN = re.compile(r"^text-align: ?(left|right|center);?$")
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]*$")
_CLASS = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_NUMBER = re.compile(r"^[0-9]{1,4}$")


def clean_html(fragment: str, page: str = "") -> str:
    """`fragment` (HTML that MkDocs made from a game's own page) with only
    plain document markup left. It is parsed as a browser would (the HTML5
    algorithm, by tinyhtml5, which WeasyPrint brings), then written out anew
    from the tree: kept elements with their kept attributes, all text escaped,
    so nothing the parser read in some other way survives. An element that is
    not kept goes with everything inside it (a script, a style sheet, a form,
    an SVG, a frame): unwrapping it could nest what is left in ways a browser
    would read differently. The result is parsed again and must come out the
    same, or the page is refused."""
    deep = too_deep(fragment, MAX_HTML_NESTING, markdown=False)
    if deep is not None:
        raise UnsafeHtml(f"{page or 'a page of the game'}: its HTML nests more than {MAX_HTML_NESTING} "
                         "elements deep; flatten the lists, quotes or HTML blocks in it")
    first = _clean_once(fragment)
    if _clean_once(first) != first:
        raise UnsafeHtml(f"{page or 'a page of the game'}: its HTML could not be made safe; "
                             "simplify the raw HTML in it")
    return first


def _clean_once(fragment: str) -> str:
    from tinyhtml5.parser import HTMLParser

    tree = HTMLParser(namespace_html_elements=False).parse_fragment(fragment, container="div")
    out = [html.escape(tree.text, quote=False)] if tree.text else []
    stack = _children(tree)         # what is left to write, last first: elements and finished text
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        opening = _opening_tag(item)
        if opening is None:
            continue
        out.append(opening)
        if item.tag in _VOID_TAGS:
            continue
        stack.append(f"</{item.tag}>")
        stack.extend(_children(item))
        if item.text:
            stack.append(html.escape(item.text, quote=False))
    return "".join(out)


def _children(element: Any) -> list[Any]:
    """An element's children and the text after each, in reverse, for the
    writer's stack. A child's text after it is written even if the child is
    dropped: it belongs to the parent."""
    items: list = []
    for child in reversed(element):
        if child.tail:
            items.append(html.escape(child.tail, quote=False))
        items.append(child)
    return items


def _opening_tag(element: Any) -> str | None:
    """The element's opening tag with its kept attributes, or None when the
    element goes with everything inside it."""
    tag = element.tag if isinstance(element.tag, str) else None
    if tag not in _KEPT_TAGS:
        return None
    attrs = _kept_attributes(tag, element.attrib)
    if attrs is None:
        return None
    return f"<{tag}" + "".join(f' {name}="{html.escape(value)}"' for name, value in attrs) + ">"


def _kept_attributes(tag: str, attrib: dict) -> list[tuple[str, str]] | None:
    """The attributes kept, in a fixed order; None drops the element (an
    image from anywhere but beside the page)."""
    allowed = _KEPT_ATTRS["*"] | _KEPT_ATTRS.get(tag, frozenset())
    kept = []
    for name in sorted(attrib):
        value = attrib[name]
        if not isinstance(name, str) or name not in allowed:
            continue
        if name in ("href", "src"):
            value = _safe_url(value, image=name == "src")
            if value is None:
                continue
        elif name == "id" and not _ID.match(value):
            continue
        elif name == "class":
            value = " ".join(c for c in value.split() if _CLASS.match(c) and (not c.startswith("md-")
                                                                             or c.startswith("md-button")))
            if not value:
                continue
        elif name == "style":
            match = _ALIGN.match(value.strip())
            if not match:
                continue
            value = f"text-align: {match.group(1)};"
        elif name in ("colspan", "rowspan", "start", "value", "span", "width", "height") and not _NUMBER.match(value):
            continue
        elif name == "scope" and value not in ("row", "col", "rowgroup", "colgroup"):
            continue
        kept.append((name, value))
    if tag == "img":
        if not any(name == "src" for name, _ in kept):
            return None
        if "alt" not in attrib:     # screen readers would read out the file name
            kept.append(("alt", ""))
    return sorted(kept)


def _safe_url(value: str, image: bool) -> str | None:
    """A link to a page, an anchor, http(s) or mailto; an image only from a
    relative path (beside the pages, so nothing loads from the network).
    Read as a browser reads it: outer spaces and controls and every tab and
    line break dropped first; a control character left inside refuses it."""
    url = re.sub(r"[\t\n\r]", "", value).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                                                 "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
    if re.search(r"[\x00-\x1f\x7f]", url):
        return None
    scheme = _SCHEME.match(url)
    if image:
        return None if scheme or url.startswith(("/", "\\")) or not url else url
    if scheme and scheme.group(1).lower() not in _LINK_SCHEMES:
        return None
    return url


def plain_toc(items: Iterable[Any]) -> None:
    """A table of contents' titles as text: MkDocs takes them from the
    headings, and Material prints them without escaping. (Recursive, but a
    table of contents nests six heading levels at most.)"""
    for item in items:
        item.title = str(escape(html.unescape(strip_tags(item.title))))
        plain_toc(item.children)
