"""The Jinja environment for PDFs (HTML) and its twin for site pages (Markdown).

Autoescape is on for both: text from the data can never inject markup into a
PDF. Markdown needs more than that, since `[x](javascript:...)`, `{: onclick=...}`
or `![](http://...)` hold no HTML special character: in the site templates
(`*.md.j2`) every value a `{{ }}` prints is Markdown *text* (`md_text`), and
only Markup (charts, icons, macro output) passes through as it is. Jinja
itself HTML-escapes (only) the plain parts when `~` or `join` meets Markup, so
a site template gives data `md_text` first if it ever mixes the two.
StrictUndefined makes a misspelt variable fail the build instead of printing
nothing. Number formatting lives here, at the edge.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache, partial
from typing import Callable
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Undefined, pass_context
from markupsafe import Markup, escape

from ..core import i18n
from ..core.measure import prose_lines
from ..core.paths import TEMPLATES_DIR
from .charts import Bar, Line, bar_chart, fixed, line_chart, percent
from .md_escapes import MD_ESCAPES
from .fit.boxes import BADGE_STOCK, SEALED_CARD_SIZE, stylesheet
from .fit.faces import fit_face
from .fit.labels import label_lines, name_pt, stamp_text


def never(value: int | None, word: str | None = None) -> str:
    """None means "cannot happen" in the rules tables."""
    if value is not None:
        return str(value)
    return i18n._("never") if word is None else word


# Site templates are Markdown: the templates whose output is read as such.
MARKDOWN_SUFFIX = ".md.j2"

# Spaces that break (and line ends); a no-break space (56,3 % in French, 1 000 000) is a character like any other.
_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")


def md_text(value: object) -> Markup:
    """`value` as Markdown that reads back as exactly its text, never as
    structure, a link, an image, an attribute or HTML.

    Every run of whitespace becomes one space: a value cannot open a line of
    its own (a heading, a list, a reference definition, an indented code
    block). Data that should be paragraphs is split by the template (the
    `paragraphs` filter), where the structure belongs. A hyphen is kept
    between two letters or digits (words, anchors, file names: no Markdown
    construct starts there); a full stop is escaped after the digits a value
    starts with, where `1. ` would start a list. One pass over the original
    characters, so no reference is escaped twice.
    """
    if hasattr(value, "__html__"):
        return Markup(value)
    text = _WHITESPACE.sub(" ", str(value))
    out = []
    leading_digits = 0    # digits the value starts with (after spaces), or -1 once anything else came
    last = len(text) - 1
    for i, ch in enumerate(text):
        if ch in MD_ESCAPES:
            out.append(MD_ESCAPES[ch])
        elif (ch == "-" and not (0 < i < last and text[i - 1].isalnum() and text[i + 1].isalnum())
              or ch == "." and leading_digits > 0 and (i == last or text[i + 1] == " ")):
            out.append(f"&#{ord(ch)};")
        else:
            out.append(ch)
        if leading_digits >= 0 and not (ch == " " and leading_digits == 0):
            leading_digits = leading_digits + 1 if ch.isdigit() else -1
    return Markup("".join(out))


def md_cell(value: object) -> Markup:
    """Text for a Markdown table cell: `md_text`, which keeps it on one line
    and escapes pipes, so a cell can never break its table. Markup (a macro's
    output) keeps its markup but not its pipes and line breaks."""
    if hasattr(value, "__html__"):
        return Markup(" ".join(str(value).replace("|", "&#124;").split()))
    return md_text(value)


def _markdown_finalize(value: object) -> object:
    """What a `{{ }}` in a site template prints: plain values as Markdown
    text; Markup (deliberate output) and undefined values as they are."""
    if isinstance(value, Undefined) or hasattr(value, "__html__"):
        return value
    return md_text(value)


def paragraphs(value: str) -> list[str]:
    """Blank-line separated paragraphs of a YAML block string."""
    return [" ".join(p.split()) for p in value.split("\n\n") if p.strip()]


def prose(value: object, cls: str | None = None) -> Markup:
    """A long text field as HTML paragraphs that keep the shape it was typed
    in, the same on every sheet and card of every system (the guide: docs/pages/guide/your-game.md, "Long text
    fields"); where the breaks fall is `core.measure.prose_lines`,
    which the fit check measures too. The text is escaped; `cls` is the
    paragraphs' class."""
    if value is None or isinstance(value, Undefined):
        return Markup("")
    opening = Markup('<p class="{}">').format(cls) if cls else Markup("<p>")
    return Markup("").join(opening + Markup("<br>").join(escape(line) for line in lines) + Markup("</p>")
                           for lines in prose_lines(str(value)))


# Where a long document may be cut into separately rendered parts (render/pdf/parts.py).
PART_MARK = "<!--sixes:part-->"


def new_part(running_title: str) -> Markup:
    """Start a part of a long document on a new page. The part repeats the
    running title (the page footer's text), since each part may be rendered
    on its own; the footer's page numbers are stamped after joining."""
    return Markup(PART_MARK + '<div class="game-title running-title">') + escape(running_title) + Markup("</div>")


# Page numbers are the page's margin box (templates/layout.html): CSS, not
# HTML, so the message's words become CSS strings between the counters.
_PAGE_COUNTERS = {"page": "counter(page)", "pages": "counter(pages)"}
_COUNTER_FIELD = re.compile(r"\{(page|pages)\}")


def page_numbers() -> Markup:
    """The footer's "Page N of M" as a CSS `content` value, in the run's language."""
    parts = _COUNTER_FIELD.split(i18n._("Page {page} of {pages}"))      # text, field, text, field, ..., text
    return Markup(" ").join(Markup(_PAGE_COUNTERS[part]) if i % 2 else _css_string(part)
                            for i, part in enumerate(parts) if i % 2 or part)


def _css_string(text: str) -> Markup:
    """`text` as a quoted CSS string that cannot end the string or the <style> element."""
    escaped = "".join(f"\\{ord(ch):x} " if ch in '"\\<>&' or ord(ch) < 32 else ch for ch in text)
    return Markup(f'"{escaped}"')


def icon_svg(name: str, alt: str) -> Markup:
    """Inline an icon's SVG (shipped files under templates/icons only) with
    `alt`, what it means, as its <title>: a tagged PDF's Figure takes its
    alternative text from there, and a screen reader reads that instead."""
    svg = _read_icon(name)
    opened = svg.index(">") + 1
    return Markup(svg[:opened]) + Markup("<title>{}</title>").format(alt) + Markup(svg[opened:])


@lru_cache(maxsize=None)
def _read_icon(name: str) -> str:
    path = TEMPLATES_DIR / "icons" / f"{name}.svg"
    return path.read_text(encoding="utf-8").strip()


# A template message's placeholder, `%(name)s`; the checks of a catalogue
# (core/i18n.placeholders) know it.
_TEMPLATE_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _in_language(number_filter: Callable[..., str]) -> Callable[..., str]:
    """A number filter Jinja may not work out when it compiles a template:
    `{{ 1 | percent(0) }}` would be folded to text once, in the language of
    whichever run compiled the template first (one environment serves every
    language). A filter that takes the render's context is never folded."""
    @pass_context
    def in_language(_context: object, value: object, *args: object) -> str:
        return number_filter(value, *args)
    return in_language


def _words(markdown: bool) -> tuple:
    """The catalogue's functions as templates call them: `_("Hit points")`,
    `_("%(n)s sixes", n=3)`, `ngettext("%(num)s die", "%(num)s dice", n)`
    (`num` is `n`). A translation is text, never markup: the game may
    bring its own catalogue, so the message is escaped as the values are
    (`md_text` in a site page, HTML escaping in a PDF), then filled in."""
    quote = md_text if markdown else escape

    def fill(text: str, values: dict[str, object]) -> Markup:
        if not values:
            return Markup(quote(text))
        parts = _TEMPLATE_PLACEHOLDER.split(text)     # text, name, text, name, ..., text
        return Markup("").join(quote(part) if i % 2 == 0 else quote(values[part]) for i, part in enumerate(parts))

    def gettext(message: str, **values: object) -> Markup:
        return fill(i18n._(message), values)

    def ngettext(singular: str, plural: str, n: int, **values: object) -> Markup:
        return fill(i18n.ngettext(singular, plural, n), {"num": n, **values})

    def pgettext(context: str, message: str, **values: object) -> Markup:
        return fill(i18n.pgettext(context, message), values)

    def translated(text: str) -> Markup:
        """A text of the tool's own data (a ruling), translated by the catalogue
        it was extracted into (scripts/extract-messages reads rulings.yaml)."""
        return fill(i18n._(text), {})

    return gettext, ngettext, pgettext, translated


def box_css(sheet: str) -> Markup:
    """The declared boxes' rules of one stylesheet (render/fit/boxes.py), for
    a template's <style> right after that sheet's link: the HTML carries them,
    so a PDF's cache key covers every number of a declared box."""
    return Markup(stylesheet(sheet))


def badge_stock_name(paper: str) -> str:
    """What the manifest calls a paper's badge stock (render/fit/boxes.py BADGE_STOCK), in the run's language."""
    from ..core.i18n import _, ngettext
    stock = BADGE_STOCK[paper]
    size = _("{width} x {height} in").format(width=stock.inches[0], height=stock.inches[1]) if stock.inches \
        else _("{width} x {height} mm").format(width=f"{stock.width_mm:g}", height=f"{stock.height_mm:g}")
    return ngettext("{count} badge a sheet, {columns} x {rows}, {size} ({model} or alike)",
                    "{count} badges a sheet, {columns} x {rows}, {size} ({model} or alike)",
                    stock.per_sheet).format(count=stock.per_sheet, columns=stock.columns, rows=stock.rows,
                                            size=size, model=stock.model)


def environment(templates: Path = TEMPLATES_DIR, ink_saver: bool = False, markdown: bool = False) -> Environment:
    """One environment per ink mode: under ink saver its chart builders draw
    outlines, for every template and macro it loads (a print stylesheet cannot
    restyle inline SVG). With `markdown`, the twin for site pages: the same
    filters and globals, and every printed value is Markdown text (`md_text`),
    in macros it imports from HTML templates too."""
    return _environment(templates, ink_saver, markdown)


@lru_cache(maxsize=None)
def _environment(templates: Path, ink_saver: bool, markdown: bool = False) -> Environment:
    """Templates are compiled in memory, once per process: compiled code is
    never written to or read back from disk (nothing read back may run)."""
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        finalize=_markdown_finalize if markdown else None,
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(never=never, md_cell=md_cell, md_text=md_text, paragraphs=paragraphs,
                       percent=_in_language(percent), fixed=_in_language(fixed), prose=prose)
    # The site's pages get the charts' phone-sized drawing (charts.SCREEN); the PDFs, the printed one.
    gettext, ngettext, pgettext, translated = _words(markdown)
    env.globals.update(_=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, translated=translated,
                       language=lambda: i18n.current().language)
    env.globals.update(icon_svg=icon_svg, page_numbers=page_numbers, new_part=new_part, label_name_pt=name_pt,
                       label_lines=label_lines, stamp_text=stamp_text, box_css=box_css, fit_face=fit_face,
                       sealed_card_size=SEALED_CARD_SIZE,
                       badge_stock=BADGE_STOCK.__getitem__, badge_stock_name=badge_stock_name,
                       bar_chart=partial(bar_chart, ink_saver=ink_saver, screen=markdown),
                       line_chart=partial(line_chart, ink_saver=ink_saver, screen=markdown), Bar=Bar, Line=Line)
    return env


def render_template(name: str, context: dict, ink_saver: bool = False) -> str:
    """Render a PDF's HTML template, or a site page's Markdown one (`*.md.j2`)."""
    env = environment(ink_saver=ink_saver, markdown=name.endswith(MARKDOWN_SUFFIX))
    return env.get_template(name).render(**context)


# A link the writer makes from slugs: a relative path and nothing else.
LOCAL_HREF = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")


def local_href(path: str) -> Markup:
    """A link target built from slugs, checked and then printed as it is (the
    templates would escape its characters as text)."""
    if not LOCAL_HREF.fullmatch(path):
        raise ValueError(f"not a plain relative link: {path!r}")
    return Markup(path)


def front_matter(title: str) -> str:
    """The page's title for MkDocs and the theme: HTML-escaped, so the theme
    prints it (and the search index holds it) as text. It is never read as
    Markdown, so Markdown's characters stay as they are. JSON is YAML."""
    return f"---\ntitle: {json.dumps(str(escape(title)))}\n---\n\n"
