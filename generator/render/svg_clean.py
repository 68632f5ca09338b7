"""A user's SVG written anew from a strict allow-list, so it can run nothing.

Edge layer: the standard library only. The site serves a logo or portrait in
SVG only after this: the file is parsed (core.assets.svg_fault has already
refused a DOCTYPE, entities and every reference outside the file) and a new
document is written from the tree, element by element, with only drawing
elements (shapes, text, groups, gradients, clips, masks, markers, filters
without images) and their geometry and paint attributes. Everything else goes
with all it holds: script, foreignObject, every animation (one can set an
href), a, image, feImage, style sheets, event attributes. A `url()` or href
may point only into the file (#id); a style attribute keeps only paint
properties whose values pass the same test. Text and values are escaped as
they are written, so what a browser reads is what was checked. The walk keeps
its own stack: a deeply nested drawing cannot exhaust Python's recursion.
"""
from __future__ import annotations

import re
from xml.etree import ElementTree
from xml.sax.saxutils import escape, quoteattr

from ..core.errors import DataError, Problem

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"

DRAWING = frozenset({
    "svg", "g", "defs", "title", "desc", "symbol", "use", "switch",
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath",
    "linearGradient", "radialGradient", "stop", "clipPath", "mask", "pattern", "marker",
    "filter", "feGaussianBlur", "feOffset", "feBlend", "feColorMatrix", "feComposite", "feFlood", "feMerge",
    "feMergeNode", "feMorphology", "feDropShadow", "feComponentTransfer", "feFuncR", "feFuncG", "feFuncB",
    "feFuncA", "feTurbulence", "feDisplacementMap", "feTile",
})
TEXT_HOLDERS = frozenset({"title", "desc", "text", "tspan", "textPath"})
PAINT = frozenset({
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
    "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity", "color",
    "display", "visibility", "font-family", "font-size", "font-weight", "font-style", "font-variant",
    "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift", "letter-spacing",
    "word-spacing", "text-decoration", "stop-color", "stop-opacity", "clip-path", "clip-rule", "mask",
    "marker-start", "marker-mid", "marker-end", "filter", "flood-color", "flood-opacity", "lighting-color",
    "color-interpolation-filters", "paint-order", "vector-effect", "shape-rendering", "text-rendering",
    "mix-blend-mode", "isolation", "overflow",
})
GEOMETRY = frozenset({
    "id", "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2", "points", "d",
    "transform", "viewBox", "preserveAspectRatio", "version", "offset", "gradientUnits", "gradientTransform",
    "spreadMethod", "fx", "fy", "fr", "patternUnits", "patternContentUnits", "patternTransform",
    "clipPathUnits", "maskUnits", "maskContentUnits", "markerWidth", "markerHeight", "markerUnits", "refX",
    "refY", "orient", "dx", "dy", "rotate", "textLength", "lengthAdjust", "startOffset", "stdDeviation", "in",
    "in2", "result", "mode", "values", "type", "operator", "k1", "k2", "k3", "k4", "radius", "filterUnits",
    "primitiveUnits", "tableValues", "slope", "intercept", "amplitude", "exponent", "baseFrequency",
    "numOctaves", "seed", "stitchTiles", "scale", "xChannelSelector", "yChannelSelector",
    "requiredFeatures", "systemLanguage",
})
MAX_VALUE = 100_000         # a path's data may be long; nothing else comes near
# The functions a kept value may call: colours, arithmetic, transforms and
# filter effects, none of which can load anything. Any other (image-set(),
# -webkit-image-set(), image(), cross-fade(), element(), paint(), src()...)
# may name an image to fetch: `mask: image-set("https://...")` made a
# browser load it, so a value calling one is not kept.
SAFE_FUNCTIONS = frozenset({
    "url", "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "calc", "min", "max",
    "clamp", "matrix", "translate", "translatex", "translatey", "scale", "scalex", "scaley", "rotate", "skewx",
    "skewy", "blur", "brightness", "contrast", "drop-shadow", "grayscale", "hue-rotate", "invert", "opacity",
    "saturate", "sepia",
})
_FUNCTION = re.compile(r"([a-z0-9_-]*)\s*\(")


def clean_svg(data: bytes, shown: str) -> bytes:
    """The drawing in `data` as a new SVG document holding only what the
    allow-list keeps; a DataError naming `shown` if it is no SVG at all."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise DataError([Problem(shown, None, None, f"not well-formed SVG ({exc})")]) from None
    if _name(root.tag) != "svg":
        raise DataError([Problem(shown, None, None, "not an SVG image")])
    out: list[str] = []
    stack: list[ElementTree.Element | str] = [root]      # an element to open, or text to write as it is
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        tag = _name(item.tag)
        if tag not in DRAWING:
            continue
        attrs = "".join(f" {name}={quoteattr(value)}" for name, value in _kept(item))
        out.append(f'<{tag} xmlns="{SVG}"{attrs}>' if item is root else f"<{tag}{attrs}>")
        holds_text = tag in TEXT_HOLDERS
        if holds_text and item.text:
            out.append(escape(item.text))
        stack.append(f"</{tag}>")
        for child in reversed(item):
            if holds_text and child.tail:
                stack.append(escape(child.tail))
            stack.append(child)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + "".join(out) + "\n").encode("utf-8")


def _name(tag: object) -> str:
    """An SVG element's local name; anything in another namespace gets a name
    the allow-list never holds."""
    if not isinstance(tag, str):
        return "#other"
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return local if namespace == SVG else "#other"
    return tag


def _kept(element: ElementTree.Element) -> list[tuple[str, str]]:
    """The element's attributes that the allow-list keeps, in a fixed order."""
    kept = {}
    for name, value in element.attrib.items():
        if len(value) > MAX_VALUE:
            continue
        if name in ("href", f"{{{XLINK}}}href"):
            if value.strip().startswith("#") and _plain(value):
                kept["href"] = value.strip()
        elif name == f"{{{XML}}}space":
            if value in ("default", "preserve"):
                kept["xml:space"] = value
        elif name == "style":
            style = _clean_style(value)
            if style:
                kept["style"] = style
        elif (name in PAINT or name in GEOMETRY) and _plain(value):
            kept[name] = value
    return sorted(kept.items())


def _clean_style(value: str) -> str:
    """A style attribute's paint declarations that pass `_plain`."""
    kept = []
    for declaration in value.split(";"):
        prop, colon, val = declaration.partition(":")
        prop, val = prop.strip().lower(), val.strip()
        if colon and prop in PAINT and val and _plain(val):
            kept.append(f"{prop}:{val}")
    return ";".join(kept)


def _plain(value: str) -> bool:
    """A value that can reach nothing: every url() points into the file
    (#id), it calls no function but SAFE_FUNCTIONS, and no CSS escape,
    comment, at-rule, expression or scheme hides one."""
    lowered = value.lower()
    if any(mark in lowered for mark in ("\\", "/*", "@", "expression", "javascript:", "data:", "&", "<", ">")):
        return False
    if any(name not in SAFE_FUNCTIONS for name in _FUNCTION.findall(lowered)):
        return False
    start = lowered.find("url(")
    while start != -1:
        target = lowered[start + 4:].lstrip(" \t\n\r\"'")
        if not target.startswith("#"):
            return False
        start = lowered.find("url(", start + 4)
    return True
