"""The site writer: stage Markdown sources, then build them with MkDocs.

Hand-written pages come from site/; the game's own pages (its settings'
`site.pages` folder, read and checked by the gather: game/pages.py), the home page, generated pages, icons and the public
PDFs are added to a staging copy, so the repository's site/ folder never
holds generated files. Only documents whose audience is `public` are copied.
The site is the game's: its name, home page and own pages come from the game
folder; the tool appears only as a credit in the footer and the credits page.

Data is text here too: the page templates escape it (render/html.py), and
each generated page names its title in front matter, already escaped. MkDocs
would otherwise take the title from the page's first heading, strip its tags
and let the theme unescape it into <title>, where `</title><script>` in a
game's title would run.

A game's own pages are the GM's words, in Markdown with raw HTML allowed, but
a game folder is passed around like any data, so they are not trusted either:
after MkDocs has turned them into HTML, `clean_html` keeps only plain
document markup (text, headings, lists, tables, links, images, details) and
drops scripts, styles, frames, forms, event handlers and every attribute but
a few. Links may go to pages, anchors, http(s) and mailto; images only to
files beside the pages, so the site still loads nothing from the network.
"""
from __future__ import annotations

import base64
import html
import json
import logging
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from ..core.assets import asset_bytes
from ..core.layout import DocumentPdf
from ..core.paper import Paper
from ..core.paths import ICONS_DIR, MKDOCS_CONFIG, SITE_SOURCES_DIR
from ..core.naming import slug as name_slug
from ..game.pages import CREDITS_PAGE, THEME_FOLDER, OwnFiles
from ..systems.base import CastEntry, Document, Page, System
from .home import GAMES_MARKER, games_block, home_page, short_title, unlink
from .html import front_matter, local_href, render_template

# site/ holds, besides the systems' folders, the credits page (the only
# hand-written top-level page), the shared assets, and Material's template
# overrides (the theme's custom_dir; mkdocs.yml excludes it from the pages):
# game/pages.py names them, since a game's own page may not take those names.
# In the theme folder: appended to Material's search worker (stem_typed_words).
STEMMING_PATCH = "search-stemming.js"
# The optional cast list (settings.site.cast_list) in each system's section,
# and the folder beside it its raster portraits are copied to.
CAST_LIST = "cast-list.md"
CAST_LIST_TITLE = "Cast list"
CAST_LIST_TEMPLATE = "site/cast_list.md.j2"
PORTRAITS = "portraits"

class SiteBuildError(Exception):
    """MkDocs reported warnings or errors; the messages say which."""


@dataclass(frozen=True)
class SiteSection:
    system: System
    pages: list[Page]
    public_documents: dict[str, Document]
    cast: tuple[CastEntry, ...] | None = None    # the public cast, when the site lists it (settings.site.cast_list)
    game_title: str = ""                        # the game's own title (game.yaml), which the home page leads with
    pitch: str = ""                             # the game's public pitch (its blurb), or nothing


@dataclass(frozen=True)
class SiteLook:
    """What the game's settings say about its site (settings.SiteSettings),
    with the name already decided (the settings' name, else the game's title)."""

    name: str = "Sixes Press"
    description: str | None = None
    url: str | None = None
    language: str = "en"
    primary: str = "blue grey"
    accent: str = "deep orange"
    logo: Path | None = None


def stage_sources(staging: Path, sections: list[SiteSection], built: Path, papers: tuple[Paper, ...],
                  look: SiteLook = SiteLook(), own: OwnFiles = OwnFiles()) -> list:
    """Copy site/, the game's own pages and the generated pages into
    `staging`; return the nav: the home page and the game's own pages first
    (one tab each), then one section (a tab) per system. The public PDFs are
    taken from `built`, a folder laid out as the output (core/layout.py)."""
    shutil.copytree(SITE_SOURCES_DIR, staging)
    _drop_absent_systems(staging, sections)
    shutil.copytree(ICONS_DIR, staging / "assets" / "icons", ignore=shutil.ignore_patterns("*.md"))
    for page in own.pages:
        target = staging / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(front_matter(page.title) + page.markdown, encoding="utf-8")
    for rel, source in own.images:
        target = staging / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(asset_bytes(source))
    if own.page("index.md") is None:
        (staging / "index.md").write_text(home_page(look, [p for p in own.pages]), encoding="utf-8")
    _list_games(staging, sections, own, papers, look.name)
    nav: list = ["index.md", *(p.path for p in own.pages if p.path != "index.md")]
    for section in sections:
        slug = section.system.slug
        _unlink_empty_pages(staging / slug, section)
        for doc in section.public_documents.values():
            for paper in papers:
                pdf = DocumentPdf(paper, slug, doc.folder, doc.slug)
                target = staging / pdf.download
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(built / pdf.path, target)
        entries = [_hand_written_entry(staging, section.system, name) for name in section.system.hand_written
                   if (staging / slug / name).exists()]
        for page in (p for p in section.pages if p.shown):
            downloads = [_download(section, s, p, f"{slug}/{page.path}") for s in page.downloads for p in papers]
            title = page_title(section.system, page)
            text = front_matter(title) + render_template(page.template, {**page.context, "page_title": title,
                                                                         "downloads": downloads})
            target = staging / slug / page.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            entries.append({nav_title(page.title): f"{slug}/{page.path}"})
        if section.cast:
            entries.append({nav_title(CAST_LIST_TITLE): write_cast_list(staging, section)})
        nav.append({str(escape(section.system.title)): entries})
    return nav


def _download(section: SiteSection, slug: str, paper: Paper, page: str) -> dict:
    """A page's link to one of its system's public PDFs on one paper."""
    doc = section.public_documents[slug]
    pdf = DocumentPdf(paper, section.system.slug, doc.folder, doc.slug)
    return {"title": short_title(doc.title, section.game_title), "paper": paper.label,
            "href": local_href(pdf.href(page))}


def write_cast_list(staging: Path, section: SiteSection) -> str:
    """The section's cast list: what the system gave (public characters,
    their public fields), as Markdown text. Raster portraits are copied
    beside the page; an SVG one is shown from a data: URL, so a script in it
    can never run as a page of the site. Returns the page's nav entry."""
    folder = staging / section.system.slug
    cast = [{"name": c.name, "faction": c.faction, "description": c.description,
             "portrait": _portrait_src(folder, c)} for c in section.cast or ()]
    title = page_title(section.system, Page(CAST_LIST, CAST_LIST_TITLE, CAST_LIST_TEMPLATE, {}))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CAST_LIST).write_text(front_matter(title) + render_template(
        CAST_LIST_TEMPLATE, {"cast": cast, "page_title": title}), encoding="utf-8")
    return f"{section.system.slug}/{CAST_LIST}"


def _portrait_src(folder: Path, entry: CastEntry) -> Markup | None:
    if entry.portrait is None:
        return None
    suffix = entry.portrait.suffix.lower()
    if suffix == ".svg":
        return Markup("data:image/svg+xml;base64," + base64.b64encode(asset_bytes(entry.portrait)).decode("ascii"))
    rel = f"{PORTRAITS}/{name_slug(entry.name)}{suffix}"
    (folder / PORTRAITS).mkdir(parents=True, exist_ok=True)
    (folder / rel).write_bytes(asset_bytes(entry.portrait))
    return local_href(rel)


def page_title(system: System, page: Page) -> str:
    """A generated page's title names its game, so five "Rulings" pages are
    told apart in browser tabs (the theme prints the front matter's title
    there) and on the page itself. The navigation, already inside the
    game's section, gives the page's own title (`nav_title`)."""
    return f"{system.title}: {page.title}"


def nav_title(title: str) -> str:
    """A navigation entry's title: Material prints it without escaping."""
    return str(escape(title))


def _hand_written_entry(staging: Path, system: System, name: str) -> dict[str, str]:
    """A hand-written page's navigation entry: its first heading without the
    system's name in front ("Sixes: the rules" is "The rules" in the Sixes
    section). The whole heading becomes the staged page's title, which the
    browser tab shows."""
    rel = f"{system.slug}/{name}"
    text = (staging / rel).read_text(encoding="utf-8")
    heading = re.search(r"^# (.+)$", text, re.M)
    title = heading.group(1).strip() if heading else system.title
    if not text.startswith("---"):
        (staging / rel).write_text(front_matter(title) + text, encoding="utf-8")
    prefix = f"{system.title}: "
    if title.startswith(prefix):
        title = title[len(prefix)].upper() + title[len(prefix) + 1:]
    return {nav_title(title): rel}


def _unlink_empty_pages(folder: Path, section: SiteSection) -> None:
    """A generated page with nothing to show (no public challenge, special or
    hero) is left off the site: the section's hand-written pages lose their
    links to it, so no reader follows one to an empty page."""
    for page in section.pages:
        if page.shown:
            continue
        for path in sorted(folder.glob("*.md")):
            text = path.read_text(encoding="utf-8")
            kept = unlink(text, page.path)
            if kept != text:
                path.write_text(kept, encoding="utf-8")


def _drop_absent_systems(staging: Path, sections: list[SiteSection]) -> None:
    """A data folder may hold only some systems: the hand-written pages of the
    others link to generated pages that will not exist, so leave them out."""
    from ..systems import SYSTEMS

    present = [section.system for section in sections]
    for system in SYSTEMS:
        if system not in present and (staging / system.slug).is_dir():
            shutil.rmtree(staging / system.slug)


def _list_games(staging: Path, sections: list[SiteSection], own: OwnFiles, papers: tuple[Paper, ...],
                site_name: str) -> None:
    """Where the home page (or a game's own page) asks for it, list the games
    the site holds, each with its pitch, its rules, cast and printables."""
    for rel in ["index.md", *(p.path for p in own.pages)]:
        page = staging / rel
        text = page.read_text(encoding="utf-8")
        if GAMES_MARKER in text:
            listed = games_block(sections, papers, rel, site_name, CAST_LIST)
            page.write_text(text.replace(GAMES_MARKER, listed), encoding="utf-8")


# --- HTML from the game's own pages: plain document markup only -------------

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
    first = _clean_once(fragment)
    if _clean_once(first) != first:
        raise SiteBuildError(f"{page or 'a page of the game'}: its HTML could not be made safe; "
                             "simplify the raw HTML in it")
    return first


def _clean_once(fragment: str) -> str:
    from tinyhtml5.parser import HTMLParser

    tree = HTMLParser(namespace_html_elements=False).parse_fragment(fragment, container="div")
    out: list[str] = []
    _write_children(tree, out)
    return "".join(out)


def _write_children(element, out: list[str]) -> None:
    if element.text:
        out.append(html.escape(element.text, quote=False))
    for child in element:
        _write_element(child, out)
        if child.tail:
            out.append(html.escape(child.tail, quote=False))


def _write_element(element, out: list[str]) -> None:
    tag = element.tag if isinstance(element.tag, str) else None
    if tag not in _KEPT_TAGS:
        return
    attrs = _kept_attributes(tag, element.attrib)
    if attrs is None:
        return
    out.append(f"<{tag}" + "".join(f' {name}="{html.escape(value)}"' for name, value in attrs) + ">")
    if tag in _VOID_TAGS:
        return
    _write_children(element, out)
    out.append(f"</{tag}>")


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


def _plain_toc(items) -> None:
    """A table of contents' titles as text: MkDocs takes them from the
    headings, and Material prints them without escaping."""
    for item in items:
        item.title = str(escape(html.unescape(re.sub(r"<[^>]*>", "", item.title))))
        _plain_toc(item.children)


# --- every page: row headers -------------------------------------------------

_TABLE = re.compile(r"<table>.*?</table>", re.S)
_BODY = re.compile(r"<tbody>(.*?)</tbody>", re.S)
_FIRST_CELL = re.compile(r"(<tr>\s*)<td((?: style=\"[^\"]*\")?)><strong>((?:(?!</?strong>|</?td).)*)</strong></td>", re.S)


def row_headers(page_html: str) -> str:
    """A table whose every body row starts with a wholly bold cell (the
    Markdown way of saying "this column names the rows": HP, CN, Now) gets
    real row headers, `<th scope="row">`, which screen readers announce
    with each cell of the row."""
    def table(match: re.Match) -> str:
        text = match.group(0)
        body = _BODY.search(text)
        if body is None:
            return text
        rows = body.group(1).count("<tr>")
        if rows == 0 or len(_FIRST_CELL.findall(body.group(1))) != rows:
            return text
        cells = _FIRST_CELL.sub(lambda m: f'{m.group(1)}<th scope="row"{m.group(2)}>{m.group(3)}</th>', body.group(1))
        return text[:body.start(1)] + cells + text[body.end(1):]
    return _TABLE.sub(table, page_html)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def config_overrides(look: SiteLook, docs_dir: Path) -> dict:
    """MkDocs settings from the game's: MkDocs's theme templates print them
    without escaping, so text is HTML-escaped here (the URL and language are
    checked against patterns when the settings are loaded). A logo is copied
    into the staged sources; the theme's overrides are read from there too."""
    import yaml
    theme = yaml.safe_load(MKDOCS_CONFIG.read_text(encoding="utf-8"))["theme"]
    theme["custom_dir"] = str(docs_dir / THEME_FOLDER)
    theme["language"] = look.language
    for scheme in theme.get("palette", []):
        scheme["primary"], scheme["accent"] = look.primary, look.accent
    if look.logo is not None:
        target = docs_dir / "assets" / f"logo{look.logo.suffix.lower()}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(asset_bytes(look.logo))
        theme["logo"] = theme["favicon"] = target.relative_to(docs_dir).as_posix()
    overrides = {"site_name": str(escape(look.name)), "theme": theme}
    if look.description:
        overrides["site_description"] = str(escape(look.description))
    if look.url:
        overrides["site_url"] = look.url
    return overrides


def build_site(docs_dir: Path, site_dir: Path, nav: list, look: SiteLook = SiteLook()) -> None:
    """Run MkDocs in strict mode (any warning fails the build), with our
    plugin (`_PagePlugin`) after Markdown, then drop what no reader loads."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, MkDocsException

    collector = _Collect()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collector)
    previous_level = mkdocs_log.level
    mkdocs_log.setLevel(logging.WARNING)
    try:
        config = load_config(str(MKDOCS_CONFIG), docs_dir=str(docs_dir), site_dir=str(site_dir),
                             strict=True, nav=nav, **config_overrides(look, docs_dir))
        config.plugins["sixes-pages"] = _page_plugin()
        build(config)
    except (Abort, MkDocsException) as exc:
        details = "\n".join(f"  {m}" for m in collector.messages) or f"  {exc}"
        raise SiteBuildError(f"the site did not build cleanly:\n{details}") from None
    finally:
        mkdocs_log.removeHandler(collector)
        mkdocs_log.setLevel(previous_level)
    if collector.messages:
        raise SiteBuildError("the site built with warnings:\n" + "\n".join(f"  {m}" for m in collector.messages))
    prune_site(Path(site_dir))
    stem_typed_words(Path(docs_dir), Path(site_dir))


def stem_typed_words(docs_dir: Path, site_dir: Path) -> None:
    """Make the stemmer work on what the reader types: Material's search
    puts a wildcard after every word, and lunr stems no word with a wildcard,
    so a stemmed index would match only words typed in their stemmed form.
    The remedy (site/overrides/search-stemming.js, which says how) is
    appended to the search worker; MkDocs published it as a theme file too,
    where nothing loads it, so that copy goes."""
    patch = (docs_dir / THEME_FOLDER / STEMMING_PATCH).read_text(encoding="utf-8")
    workers = list(site_dir.glob("assets/javascripts/workers/search.*.js"))
    if len(workers) != 1:
        raise SiteBuildError(f"expected one search worker in the theme, found {len(workers)}: "
                             "the search stemming patch needs review for this Material version")
    with open(workers[0], "a", encoding="utf-8") as worker:
        worker.write("\n" + patch)
    (site_dir / STEMMING_PATCH).unlink(missing_ok=True)


def _trusted(src_uri: str) -> bool:
    """Pages the tool writes or ships: the systems' sections and the credits.
    Every other page is the game's own (the home page too, when the game
    writes it) and is cleaned; cleaning the generated home page costs nothing."""
    from ..systems import SLUGS
    return src_uri == CREDITS_PAGE or src_uri.split("/")[0] in SLUGS


def _page_plugin():
    """An MkDocs plugin, added to the configuration in code (it is no
    installed package): the game's own pages are cleaned and every page's
    row headers made real, after Markdown and before the search index and
    the theme read the page."""
    from mkdocs.plugins import BasePlugin

    class PagePlugin(BasePlugin):
        def on_page_content(self, page_html, page, config, files):
            if not _trusted(page.file.src_uri):
                page_html = clean_html(page_html, page.file.src_uri)
                _plain_toc(page.toc)
            return row_headers(page_html)

    return PagePlugin()


_SOURCE_MAP_COMMENT = re.compile(r"\n?(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^*]*\*/)\s*\Z")


def prune_site(site_dir: Path) -> None:
    """Remove what Material ships and no reader of this site loads: source
    maps (and the comments naming them) and the search languages other than
    the site's (the search worker loads only those its configuration names)."""
    for path in site_dir.rglob("*.map"):
        path.unlink()
    for path in (*site_dir.glob("assets/**/*.js"), *site_dir.glob("assets/**/*.css")):
        text = path.read_text(encoding="utf-8")
        trimmed = _SOURCE_MAP_COMMENT.sub("\n", text)
        if trimmed != text:
            path.write_text(trimmed, encoding="utf-8")
    lunr = site_dir / "assets" / "javascripts" / "lunr"
    if not lunr.is_dir():
        return
    keep = search_language_files(search_languages(site_dir))
    for path in sorted(lunr.rglob("*"), reverse=True):
        rel = path.relative_to(lunr).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if not any(lunr.iterdir()):
        lunr.rmdir()


def search_languages(site_dir: Path) -> list[str]:
    """The languages the built search index is for (Material's search plugin
    decides them from the theme's language)."""
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    return list(index["config"]["lang"])


def search_language_files(languages: list[str]) -> set[str]:
    """The files under assets/javascripts/lunr that Material's search worker
    imports for `languages` (its setup: English needs none; every other
    language its own file and the stemmer support; several, the multi-language
    file; Japanese, Hindi and Thai a word splitter)."""
    files: set[str] = set()
    for lang in languages:
        if lang == "en":
            continue
        files |= {"min/lunr.stemmer.support.min.js", f"min/lunr.{lang}.min.js"}
        if lang == "ja":
            files.add("tinyseg.js")
        if lang in ("hi", "th"):
            files.add("wordcut.js")
    if len(languages) > 1:
        files |= {"min/lunr.stemmer.support.min.js", "min/lunr.multi.min.js"}
    return files
