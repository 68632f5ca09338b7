"""SVG charts shared by every system's PDFs and site pages.

One drawing for print and screen: inline SVG scales to its box, greys and
hatching tell series apart on a greyscale laser printer, every value is also
written as text (screen readers and `pdftotext` can read it), and templates
put the same numbers in a table beside the chart. With `ink_saver` the fills
become outlines with at most a light pattern: the --ink saver stylesheet
cannot reach inside inline SVG (WeasyPrint applies only an SVG's own styles).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Callable, Sequence

from markupsafe import Markup, escape

from ..core.i18n import decimal_text, percent_text
from .md_escapes import MD_ESCAPES

Number = Fraction | float | int
# Fills distinguishable without colour: dark, hatched, mid grey, light.
FILLS = ("#222", "url(#{hatch})", "#8a8a8a", "#d4d4d4")
# The same for ink saver, about a tenth of each bar inked: light hatch,
# empty, dots, hatch the other way. Bars keep their dark outline.
OUTLINE_FILLS = ("url(#{hatch}-a)", "#fff", "url(#{hatch}-c)", "url(#{hatch}-b)")
DASHES = ("", "6 3", "2 2", "8 3 2 3")
MARKERS = ("circle", "square", "triangle", "diamond")
FONT = 'font-family="Atkinson Hyperlegible, Helvetica, Arial, sans-serif"'
CHAR_WIDTH = 6.2          # rough advance of one 11px character, for label columns
ROW_HEIGHT = 20
# A chart on a site page is raw HTML inside Markdown, and Python-Markdown still
# reads the text between its tags: a label `[x](javascript:...)`, which a
# game's own catalogue may word, became a link inside the SVG. So on screen
# every character Markdown may read as syntax is a character reference as
# md_text writes it, and a line break one space: a chart is one line, so no
# text of it starts one (a list's `-` or `1.`). A browser shows the same text.
_SCREEN_TEXT = str.maketrans({**MD_ESCAPES, **{ch: " " for ch in "\t\n\r\f\v"}})


@dataclass(frozen=True)
class Scale:
    """Sizes of one kind of drawing. Print is drawn 480 units wide and
    shrinks to its box; the site's screen version is drawn for a phone: 340
    units is about the chart's box on a 390 px screen, so its 13-unit text
    shows at 12 px or more there (a 480-wide chart's 11 showed at 7-8 px),
    and each bar's words sit on a line above it, so nothing is squeezed
    beside the bar."""

    width: int
    text: float           # labels, values, keys
    small: float          # axis ticks
    char: float           # rough advance of one character at `text`
    screen: bool


PRINT = Scale(480, 11, 10, CHAR_WIDTH, False)
SCREEN = Scale(340, 13, 13, CHAR_WIDTH * 13 / 11, True)


def _text(value: object, size: Scale) -> str:
    """Text for the drawing, HTML-escaped; on screen (a site page, read as
    Markdown) Markdown-inert too. Markup is deliberate and written as it is."""
    if hasattr(value, "__html__") or not size.screen:
        return str(escape(value))
    return str(value).translate(_SCREEN_TEXT)


def _exact(value: Number) -> Fraction:
    """A number as an exact fraction. A float is read as the decimal it
    prints as (0.565 is 565/1000), not as its binary approximation."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def rounded(value: Number, places: int = 1) -> Decimal:
    """`value` rounded to `places` decimals half away from zero (decimal
    ROUND_HALF_UP): 2.25 -> 2.3, 0.125 at two places -> 0.13, -2.25 -> -2.3.
    Exact, so a half is a half: Python's round() and format() round half to
    even, and on binary floats they see 2.675 as a little under a half."""
    if places < 0:
        raise ValueError("places cannot be negative")
    exact = _exact(value)
    units = int(abs(exact) * 10**places + Fraction(1, 2))       # floor(x + 1/2): halves go up, away from zero
    return Decimal(-units if exact < 0 else units).scaleb(-places)


def fixed(value: Number, places: int = 1) -> str:
    """`value` with `places` decimals (`rounded`), written the game's
    language's way ("2.3", "2,3" in French; core/i18n.py)."""
    return decimal_text(rounded(value, places), places)


def percent(value: Number, places: int = 1) -> str:
    """A probability as a percentage, rounded half away from zero (9/16 is
    56.3%, never 56.2%), written the game's language's way (56,3 % in
    French). The one percentage format of every PDF and site page. Exact 0
    and 1 print without decimals; a value strictly between them never rounds
    to a misleading 0% or 100% (it prints as <0.1% or >99.9%)."""
    exact = _exact(value)
    if exact in (0, 1):
        return percent_text(Decimal(int(exact) * 100), 0)
    smallest = Fraction(1, 10**places) / 100
    if 0 < exact < smallest:
        return "<" + percent_text(rounded(smallest * 100, places), places)
    if 1 - smallest < exact < 1:
        return ">" + percent_text(rounded(100 - smallest * 100, places), places)
    return percent_text(rounded(exact * 100, places), places)


def _hatch_id(*parts: object) -> str:
    """An id unique to this chart's content, so several charts on one page
    never define the same id (repeatable, unlike a counter)."""
    return "sp-hatch-" + hashlib.sha1(repr(parts).encode()).hexdigest()[:10]


def _fill(i: int, hatch: str, ink_saver: bool) -> str:
    fills = OUTLINE_FILLS if ink_saver else FILLS
    return fills[i % len(fills)].format(hatch=hatch)


def _pattern(pattern_id: str, angle: int, mark: str) -> str:
    return (f'<pattern id="{pattern_id}" width="5" height="5" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate({angle})"><rect width="5" height="5" fill="#fff"/>{mark}</pattern>')


def _defs(hatch: str, ink_saver: bool) -> str:
    if not ink_saver:
        stroke = '<line x1="0" y1="0" x2="0" y2="5" stroke="#222" stroke-width="2.2"/>'
        return "<defs>" + _pattern(hatch, 45, stroke) + "</defs>"
    thin = '<line x1="2.5" y1="0" x2="2.5" y2="5" stroke="#222" stroke-width="0.6"/>'
    return ("<defs>" + _pattern(f"{hatch}-a", 45, thin) + _pattern(f"{hatch}-b", -45, thin)
            + _pattern(f"{hatch}-c", 0, '<circle cx="2.5" cy="2.5" r="0.8" fill="#222"/>') + "</defs>")


def _legend(series: Sequence[str], y: float, x0: float, swatch: Callable[[int, float, float], str],
            swatch_width: float = 12, size: Scale = PRINT) -> tuple[str, float]:
    """The key: a swatch and its name per series, in rows from x0 (a new row
    when the next would pass the drawing's width). Returns it and its height."""
    parts, x, row = [], x0, 0
    for i, name in enumerate(series):
        step = round(swatch_width + 16 + size.char * len(name), 2)
        if size.screen and x > x0 and x + step - 12 > size.width:
            x, row = x0, row + 1
        top = y + row * (size.text + 7)
        parts.append(swatch(i, x, top))
        parts.append(f'<text x="{round(x + swatch_width + 4, 2)}" y="{top + 9 + (size.text - 11) / 2:g}" '
                     f'font-size="{size.text:g}" {FONT}>{_text(name, size)}</text>')
        x = round(x + step, 2)
    return "".join(parts), (row + 1) * (size.text + 7)


@dataclass(frozen=True)
class Bar:
    label: str
    values: Sequence[Number]   # one per series, stacked left to right


def bar_chart(bars: Sequence[Bar], *, title: str, series: Sequence[str] = (),
              scale: Number = 1, fmt: Callable[[Number], str] = percent, width: int = 480,
              ink_saver: bool = False, screen: bool = False) -> Markup:
    """Horizontal bars, one row per `Bar`, stacked by series; the row's values
    are written at its right end (on screen: above it, right-aligned),
    separated by slashes, in series order. Naming the series (even one) draws
    a key above the bars. `screen` draws the site's phone-sized version."""
    size = SCREEN if screen else PRINT
    width = size.width if screen else width
    texts = [" / ".join(fmt(v) for v in b.values) for b in bars]
    if screen:
        label_w, value_w, row_h = 0.0, 0.0, ROW_HEIGHT + size.text + 4
    else:
        label_w = round(8 + CHAR_WIDTH * max((len(b.label) for b in bars), default=4), 2)
        value_w = round(10 + CHAR_WIDTH * max((len(t) for t in texts), default=4), 2)
        row_h = ROW_HEIGHT
    plot_w = round(max(width - label_w - value_w, 60), 2)
    hatch = _hatch_id(title, series, [(b.label, tuple(b.values)) for b in bars])
    key, key_h = _legend(series, 4, label_w, lambda i, x, y: f'<rect x="{x}" y="{y}" width="12" height="12" '
                         f'fill="{_fill(i, hatch, ink_saver)}" stroke="#222" stroke-width="0.6"/>',
                         size=size) if series else ("", 0)
    top = (key_h + 4 if screen else 22) if series else 4
    height = top + row_h * len(bars) + 4
    out = [_svg_open(width, height, title, size), _defs(hatch, ink_saver), key]
    bar_stroke = 0.9 if ink_saver else 0.6   # an outline bar needs a firmer edge
    for row, (bar, text) in enumerate(zip(bars, texts, strict=True)):
        y = top + row * row_h
        if screen:
            out.append(f'<text x="0" y="{y + size.text:g}" font-size="{size.text:g}" {FONT}>'
                       f"{_text(bar.label, size)}</text>"
                       f'<text x="{width}" y="{y + size.text:g}" font-size="{size.text:g}" text-anchor="end" {FONT}>'
                       f"{_text(text, size)}</text>")
            y += size.text + 1
        else:
            out.append(f'<text x="{label_w - 6:.2f}" y="{y + 14}" font-size="11" text-anchor="end" {FONT}>'
                       f"{_text(bar.label, size)}</text>")
        out.append(_bar_row(bar, label_w, y, plot_w, scale, hatch, ink_saver, bar_stroke))
        if not screen:
            out.append(f'<text x="{label_w + plot_w + 6:.2f}" y="{y + 14}" font-size="11" {FONT}>'
                       f"{_text(text, size)}</text>")
    out.append("</svg>")
    return Markup("".join(out))


def _svg_open(width: int, height: float, title: str, size: Scale) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {width} {height}" '
            f'width="100%" aria-label="{_text(title, size)}" preserveAspectRatio="xMinYMin meet">'
            f"<title>{_text(title, size)}</title>")


def _bar_row(bar: Bar, x0: float, y: float, plot_w: float, scale: Number, hatch: str, ink_saver: bool,
             stroke: float) -> str:
    """One bar's frame and its stacked parts."""
    out = [f'<rect x="{x0}" y="{y + 3}" width="{plot_w}" height="{ROW_HEIGHT - 6}" '
           f'fill="none" stroke="#bbb" stroke-width="0.6"/>']
    x = x0
    for i, value in enumerate(bar.values):
        w = plot_w * float(Fraction(value) / Fraction(scale)) if scale else 0
        if w > 0:
            out.append(f'<rect x="{x:.2f}" y="{y + 3}" width="{w:.2f}" height="{ROW_HEIGHT - 6}" '
                       f'fill="{_fill(i, hatch, ink_saver)}" stroke="#222" stroke-width="{stroke}"/>')
        x += w
    return "".join(out)


@dataclass(frozen=True)
class Line:
    label: str
    points: Sequence[tuple[Number, Number]]   # (x, y), x ascending


def _marker(kind: str, x: float, y: float, ink_saver: bool = False) -> str:
    """Circles and diamonds are hollow; squares and triangles solid, or
    hollow with a firmer outline under ink saver (the shape still tells them apart)."""
    solid = 'fill="#fff" stroke="#222" stroke-width="1.2"' if ink_saver else 'fill="#222"'
    if kind == "circle":
        return f'<circle cx="{x:.2f}" cy="{y:.2f}" r="3" fill="#fff" stroke="#222" stroke-width="1.2"/>'
    if kind == "square":
        return f'<rect x="{x - 3:.2f}" y="{y - 3:.2f}" width="6" height="6" {solid}/>'
    if kind == "triangle":
        return f'<path d="M{x:.2f} {y - 3.6:.2f}L{x + 3.4:.2f} {y + 2.6:.2f}L{x - 3.4:.2f} {y + 2.6:.2f}Z" {solid}/>'
    return (f'<path d="M{x:.2f} {y - 3.6:.2f}L{x + 3.6:.2f} {y:.2f}L{x:.2f} {y + 3.6:.2f}L{x - 3.6:.2f} {y:.2f}Z" '
            'fill="#fff" stroke="#222"/>')


def line_chart(lines: Sequence[Line], *, title: str, x_label: str, y_label: str,
               y_max: Number = 1, fmt: Callable[[Number], str] = percent,
               width: int = 480, height: int = 260, ink_saver: bool = False, legend: bool = False,
               screen: bool = False) -> Markup:
    """Lines with markers and dash patterns (readable in greyscale); each
    line's label is written at its end. Axes start at 0. With `legend`, a key
    above the plot also pairs each label with its dash and marker, for when
    line ends crowd together. `screen` draws the site's phone-sized version."""
    size = SCREEN if screen else PRINT
    xs = [float(x) for line in lines for x, _ in line.points]
    x_min, x_max = min(xs, default=0), max(xs, default=1)
    left, right, bottom = 44, 60, 34
    top: float = 26         # grows by the key's height, which may be fractional
    if screen:
        width, height = size.width, height * size.width // 480 + 60
        left, bottom = 48, 40
        right = round(10 + size.char * max((len(line.label) for line in lines), default=4))
    key = ""
    if legend:
        key, key_h = _legend([line.label for line in lines], 20, 4 if screen else left,
                             lambda i, x, y: _line_swatch(i, x, y, ink_saver), swatch_width=24, size=size)
        top += key_h + 4 if screen else 20
    plot_w, plot_h = width - left - right, height - top - bottom
    span = (x_max - x_min) or 1

    def px(x: Number) -> float:
        return left + plot_w * (float(x) - x_min) / span

    def py(y: Number) -> float:
        return top + plot_h * (1 - float(Fraction(y) / Fraction(y_max)))

    out = [_svg_open(width, height, title, size), key]
    for i in range(5):   # horizontal grid at quarters of y_max
        y_value = Fraction(y_max) * i / 4
        y = py(y_value)
        out.append(f'<line x1="{left}" y1="{y:.2f}" x2="{left + plot_w}" y2="{y:.2f}" stroke="#ccc" '
                   'stroke-width="0.6"/>')
        out.append(f'<text x="{left - 4}" y="{y + 4:.2f}" font-size="{size.small:g}" text-anchor="end" {FONT}>'
                   f"{_text(fmt(y_value), size)}</text>")
    ticks = sorted({x for line in lines for x, _ in line.points})
    step = max(1, len(ticks) // (6 if screen else 10))
    for x in ticks[::step]:
        out.append(f'<text x="{px(x):.2f}" y="{top + plot_h + size.small + 4:g}" font-size="{size.small:g}" '
                   f'text-anchor="middle" {FONT}>{_text(str(x), size)}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 4}" font-size="{size.text:g}" text-anchor="middle" {FONT}>'
               f"{_text(x_label, size)}</text>")
    out.append(f'<text x="4" y="{size.text + 1:g}" font-size="{size.text:g}" {FONT}>{_text(y_label, size)}</text>')
    out.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#222"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#222"/>')
    out.extend(_plotted(i, line, px, py, ink_saver, size) for i, line in enumerate(lines) if line.points)
    out.append("</svg>")
    return Markup("".join(out))


def _line_swatch(i: int, x: float, y: float, ink_saver: bool) -> str:
    """A line's key: a short stretch of its dash with its marker."""
    dash = DASHES[i % len(DASHES)]
    return (f'<line x1="{x}" y1="{y + 5}" x2="{x + 24}" y2="{y + 5}" stroke="#222" stroke-width="1.4"'
            + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
            + _marker(MARKERS[i % len(MARKERS)], x + 12, y + 5, ink_saver))


def _plotted(i: int, line: Line, px: Callable[[Number], float], py: Callable[[Number], float], ink_saver: bool,
             size: Scale) -> str:
    """The `i`th line: its path, a marker at each point and its label at its end."""
    path = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.2f} {py(y):.2f}" for j, (x, y) in enumerate(line.points))
    dash = DASHES[i % len(DASHES)]
    out = [f'<path d="{path}" fill="none" stroke="#222" stroke-width="1.4"'
           + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"]
    out.extend(_marker(MARKERS[i % len(MARKERS)], px(x), py(y), ink_saver) for x, y in line.points)
    last_x, last_y = line.points[-1]
    out.append(f'<text x="{px(last_x) + 6:.2f}" y="{py(last_y) + 4:.2f}" font-size="{size.small:g}" {FONT}>'
               f"{_text(line.label, size)}</text>")
    return "".join(out)
