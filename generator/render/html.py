"""The one Jinja environment for PDFs (HTML) and site pages (Markdown).

Autoescape is on for both: text from the data can never inject markup into a
PDF or the site. StrictUndefined makes a misspelt variable fail the build
instead of printing nothing. Number formatting lives here, at the edge.
"""
from __future__ import annotations

from functools import lru_cache, partial
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from ..paths import TEMPLATES_DIR
from .charts import Bar, Line, bar_chart, line_chart, percent


def never(value: int | None, word: str = "never") -> str:
    """None means "cannot happen" in the rules tables."""
    return word if value is None else str(value)


def md_cell(value: object) -> Markup:
    """Escape text for a Markdown table cell: HTML-escaped, pipes and line
    breaks neutralised so a cell can never break the table."""
    text = str(escape(value))
    return Markup(" ".join(text.replace("|", "&#124;").split()))


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def paragraphs(value: str) -> list[str]:
    """Blank-line separated paragraphs of a YAML block string."""
    return [" ".join(p.split()) for p in value.split("\n\n") if p.strip()]


# Where a long document may be cut into separately rendered parts (render/parts.py).
PART_MARK = "<!--sixes:part-->"


def new_part(running_title: str) -> Markup:
    """Start a part of a long document on a new page. The part repeats the
    running title (the page footer's text), since each part may be rendered
    on its own; the footer's page numbers are stamped after joining."""
    return Markup(PART_MARK + '<div class="game-title running-title">') + escape(running_title) + Markup("</div>")


def icon_svg(name: str) -> Markup:
    """Inline an icon's SVG (shipped files under templates/icons only)."""
    return Markup(_read_icon(name))


@lru_cache(maxsize=None)
def _read_icon(name: str) -> str:
    path = TEMPLATES_DIR / "icons" / f"{name}.svg"
    return path.read_text(encoding="utf-8").strip()


class _QuietBytecodeCache(FileSystemBytecodeCache):
    """A cache folder that has gone (a cleaned cache, a test's folder) only
    costs a compile, never the build."""

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache() -> FileSystemBytecodeCache | None:
    """Compiled templates kept in the user's cache folder: compiling the
    templates anew cost a no-change build about a second. Jinja checks each
    template's modification time, so an edited template is compiled again."""
    from .cache import cache_base
    folder = cache_base() / "jinja"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None     # a read-only home: compile every time
    return _QuietBytecodeCache(str(folder))


def environment(templates: Path = TEMPLATES_DIR, ink_saver: bool = False) -> Environment:
    """One environment per ink mode: under ink saver its chart builders draw
    outlines, for every template and macro it loads (a print stylesheet cannot
    restyle inline SVG)."""
    return _environment(templates, ink_saver)


@lru_cache(maxsize=None)
def _environment(templates: Path, ink_saver: bool) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        bytecode_cache=_bytecode_cache(),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(never=never, md_cell=md_cell, paragraphs=paragraphs, ordinal=ordinal, percent=percent)
    env.globals.update(icon_svg=icon_svg, new_part=new_part, bar_chart=partial(bar_chart, ink_saver=ink_saver),
                       line_chart=partial(line_chart, ink_saver=ink_saver), Bar=Bar, Line=Line)
    return env


def render_template(name: str, context: dict, ink_saver: bool = False) -> str:
    return environment(ink_saver=ink_saver).get_template(name).render(**context)


def document_html(doc, options=None) -> str:
    """The HTML of one `Document`: its template, or the shared card sheet for a
    deck (laid out by `options`, a PrintOptions; defaults when None)."""
    if doc.cards:
        from .cards import render_card_sheet
        return render_card_sheet(doc, options) if options else render_card_sheet(doc)
    return render_template(doc.template, {**doc.context, "doc_title": doc.title},
                           ink_saver=bool(options and options.ink_saver))
