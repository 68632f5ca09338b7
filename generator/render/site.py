"""The site writer: stage Markdown sources, then build them with MkDocs.

Hand-written pages come from site/; the game's own pages (its settings'
`site.pages` folder), the home page, generated pages, icons and the public
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

import html
import json
import logging
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from markupsafe import Markup, escape

from ..core.errors import DataError, Problem, allowed_hint
from ..core.layout import DOWNLOADS_FOLDER, DocumentPdf
from ..core.paper import Paper
from ..core.paths import ICONS_DIR, MKDOCS_CONFIG, SITE_SOURCES_DIR
from ..core.naming import slug as name_slug
from ..core.privacy import VISIBILITIES
from ..systems.base import CastEntry, Document, Page, System
from .html import md_text, render_template
from .publish import publish_image

# In the home page (or a game's own page) this line becomes the list of the
# games the data holds, so the site never links a section that was not built.
GAMES_MARKER = "<!-- games -->"
# site/ holds these besides the systems' folders: the credits page (the only
# hand-written top-level page), the shared assets, and Material's template
# overrides (the theme's custom_dir; mkdocs.yml excludes it from the pages).
CREDITS_PAGE = "credits.md"
THEME_FOLDER = "overrides"
# In the theme folder: appended to Material's search worker (stem_typed_words).
STEMMING_PATCH = "search-stemming.js"
# The optional cast list (settings.site.cast_list) in each system's section,
# and the folder beside it its raster portraits are copied to.
CAST_LIST = "cast-list.md"
CAST_LIST_TITLE = "Cast list"
CAST_LIST_TEMPLATE = "site/cast_list.md.j2"
PORTRAITS = "portraits"
# A link the writer makes from slugs: a relative path and nothing else.
LOCAL_HREF = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")

# A game's own pages: Markdown pages and the images they show. Names become
# addresses, so they stay plain; the site's own top-level names are taken.
OWN_PAGE_SUFFIX = ".md"
OWN_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
OWN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
MAX_OWN_PAGE_BYTES = 256 * 1024
SITE_NAMES = frozenset({"assets", DOWNLOADS_FOLDER, "search", THEME_FOLDER, CREDITS_PAGE, "404.md", "404.html",
                        "sitemap.xml", "sitemap.xml.gz", "objects.inv"})


class SiteBuildError(Exception):
    """MkDocs reported warnings or errors; the messages say which."""


@dataclass(frozen=True)
class SiteSection:
    system: System
    pages: list[Page]
    public_documents: dict[str, Document]
    cast: tuple[CastEntry, ...] | None = None    # the public cast, when the site lists it (settings.site.cast_list)


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


@dataclass(frozen=True)
class OwnPage:
    """One of the game's own Markdown pages: where it goes in the site, its
    title (plain text) and its Markdown without any front matter."""

    path: str
    title: str
    markdown: str


@dataclass(frozen=True)
class OwnFiles:
    """The game's own pages and the images beside them (site path, file)."""

    pages: tuple[OwnPage, ...] = ()
    images: tuple[tuple[str, Path], ...] = ()

    def page(self, path: str) -> OwnPage | None:
        return next((p for p in self.pages if p.path == path), None)


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
        publish_image(source, staging / rel, rel)
    if own.page("index.md") is None:
        (staging / "index.md").write_text(home_page(look, [p for p in own.pages]), encoding="utf-8")
    _list_games(staging, sections, own)
    nav: list = ["index.md", *(p.path for p in own.pages if p.path != "index.md")]
    for section in sections:
        slug = section.system.slug
        for doc in section.public_documents.values():
            for paper in papers:
                pdf = DocumentPdf(paper, slug, doc.folder, doc.slug)
                target = staging / pdf.download
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(built / pdf.path, target)
        entries = [f"{slug}/{name}" for name in section.system.hand_written
                   if (staging / slug / name).exists()]
        for page in section.pages:
            downloads = [_download(section, s, p, f"{slug}/{page.path}") for s in page.downloads for p in papers]
            title = page_title(section.system, page)
            text = front_matter(title) + render_template(page.template, {**page.context, "page_title": title,
                                                                         "downloads": downloads})
            target = staging / slug / page.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            entries.append(f"{slug}/{page.path}")
        if section.cast is not None:
            entries.append(write_cast_list(staging, section))
        nav.append({str(escape(section.system.title)): entries})
    return nav


def _download(section: SiteSection, slug: str, paper: Paper, page: str) -> dict:
    """A page's link to one of its system's public PDFs on one paper."""
    doc = section.public_documents[slug]
    pdf = DocumentPdf(paper, section.system.slug, doc.folder, doc.slug)
    return {"title": doc.title, "paper": paper.label, "href": local_href(pdf.href(page))}


def write_cast_list(staging: Path, section: SiteSection) -> str:
    """The section's cast list: what the system gave (public characters,
    their public fields), as Markdown text. Portraits go beside the page
    through the publishing gate (re-encoded, an SVG rewritten from its
    allow-list). Returns the page's nav entry."""
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
    rel = f"{PORTRAITS}/{name_slug(entry.name)}{entry.portrait.suffix.lower()}"
    publish_image(entry.portrait, folder / rel, entry.portrait.name)
    return local_href(rel)


def page_title(system: System, page: Page) -> str:
    """A generated page's title names its game, so five "Rulings" pages are
    told apart in browser tabs, the navigation and search results (which
    take the page's first heading: the templates print this title there)."""
    return f"{system.title}: {page.title}"


def home_page(look: SiteLook, own: list[OwnPage]) -> str:
    """The site's front page when the game has none of its own (an index.md
    in its pages folder): the site's name and description, its games and its
    own pages."""
    parts = [front_matter(look.name) + f"# {md_text(look.name)}\n"]
    if look.description:
        parts.append(f"{md_text(look.description)}\n")
    parts.append(f"## Rules and printables\n\n{GAMES_MARKER}\n")
    if own:
        parts.append("## More from the organisers\n\n"
                     + "\n".join(f"- [{md_text(p.title)}]({local_href(p.path)})" for p in own) + "\n")
    return "\n".join(parts)


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


def _drop_absent_systems(staging: Path, sections: list[SiteSection]) -> None:
    """A data folder may hold only some systems: the hand-written pages of the
    others link to generated pages that will not exist, so leave them out."""
    from ..systems import SYSTEMS

    present = [section.system for section in sections]
    for system in SYSTEMS:
        if system not in present and (staging / system.slug).is_dir():
            shutil.rmtree(staging / system.slug)


def _list_games(staging: Path, sections: list[SiteSection], own: OwnFiles) -> None:
    """Where the home page (or a game's own page) asks for it, list the games
    the site holds."""
    games = "\n".join(f"- [{md_text(s.system.title)}]({local_href(s.system.slug + '/index.md')})"
                      + (f": {md_text(s.system.summary)}" if s.system.summary else "") for s in sections)
    for rel in ["index.md", *(p.path for p in own.pages)]:
        page = staging / rel
        text = page.read_text(encoding="utf-8")
        if GAMES_MARKER in text:
            depth = "../" * rel.count("/")
            listed = games if not depth else games.replace("](", "](" + depth)
            page.write_text(text.replace(GAMES_MARKER, listed), encoding="utf-8")


# --- the game's own pages ---------------------------------------------------

_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?-{3}[ \t]*\n(.*?\n)?(?:-{3}|\.{3})[ \t]*(?:\n|\Z)", re.S)
_TITLE_LINE = re.compile(r"^title:[ \t]*(.*?)[ \t]*$", re.M)
_VISIBILITY_LINE = re.compile(r"^visibility:[ \t]*(.*?)[ \t]*$", re.M)
_ATX_H1 = re.compile(r"^ {0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT_H1 = re.compile(r"^ {0,3}=+[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def read_own_pages(folder: Path | None, display_root: Path | None = None) -> OwnFiles:
    """The game's own pages and images from `folder` (absent: none), each
    checked: a plain name not used by the site itself, a Markdown page of
    UTF-8 text or an image that decodes, a regular file inside the folder.
    Raises DataError listing every problem."""
    from ..core.assets import raster_fault

    if folder is None or not folder.exists():
        return OwnFiles()
    root = display_root or folder.parent

    def shown(path: Path) -> str:
        return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)

    if not folder.is_dir():
        raise DataError([Problem(shown(folder), None, None, "the site's pages folder is not a folder",
                                 hint="site.pages in sixes.yaml names a folder of Markdown pages")])
    base = folder.resolve()
    problems: list[Problem] = []
    pages: list[OwnPage] = []
    images: list[tuple[str, Path]] = []
    seen: dict[str, str] = {}           # the names taken so far, by their case-folded form
    for rel, path in _own_files(folder):
        where = shown(path)
        fault = _own_file_fault(rel, path, base, seen)
        if fault is not None:
            problems.append(Problem(where, None, None, fault[0], hint=fault[1]))
            continue
        seen[rel.casefold()] = rel
        if path.suffix.lower() in OWN_IMAGE_SUFFIXES:
            bad = raster_fault(path, where)
            if bad is None:
                images.append((rel, path))
            else:
                problems.append(Problem(where, None, None, bad.message, hint=bad.hint))
            continue
        page = _read_own_page(rel, path, where)
        if page is not None:        # None: a private page, which stays off the site
            (problems if isinstance(page, Problem) else pages).append(page)
    if problems:
        raise DataError(problems)
    pages.sort(key=lambda p: (p.path != "index.md", p.path.count("/"), p.path))
    return OwnFiles(tuple(pages), tuple(images))


def _own_files(folder: Path) -> list[tuple[str, Path]]:
    """Every file in the pages folder as (name in the site, path), in a
    stable order, hidden names left out; a link to a folder is listed (to
    be refused, never followed)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted([*files, *(d for d in dirs if os.path.islink(os.path.join(root, d)))]):
            if not name.startswith("."):
                path = Path(root) / name
                found.append((path.relative_to(folder).as_posix(), path))
    return found


def _own_file_fault(rel: str, path: Path, base: Path, seen: dict[str, str]) -> tuple[str, str] | None:
    """What keeps a file out of the site, as (message, hint): its name, a
    name that clashes but for case, a place outside the folder, its kind."""
    fault = _own_name_fault(rel)
    if fault is None and rel.casefold() in seen:
        fault = (f"'{rel}' and '{seen[rel.casefold()]}' differ only in case",
                 "a web server or another computer may not tell them apart: rename one")
    if fault is None and not path.resolve().is_relative_to(base):
        fault = ("a link to something outside the pages folder",
                 "copy the file into the pages folder; the site publishes only what is inside it")
    suffix = path.suffix.lower()
    if fault is None and suffix != OWN_PAGE_SUFFIX and suffix not in OWN_IMAGE_SUFFIXES:
        fault = (f"the site takes Markdown pages ({OWN_PAGE_SUFFIX}) and PNG, JPEG, GIF or WebP images "
                 "from the pages folder", "move this file elsewhere or convert it")
    return fault


def _read_own_page(rel: str, path: Path, where: str) -> OwnPage | Problem | None:
    """A Markdown page read as UTF-8 text (a leading byte-order mark
    dropped), or why it cannot be; None for a page marked private."""
    from ..core.loading import UnreadableFile, read_limited
    try:
        text = read_limited(path, MAX_OWN_PAGE_BYTES, "a page").decode("utf-8")
    except UnreadableFile as exc:
        return Problem(where, None, None, exc.message, hint=exc.hint)
    except UnicodeDecodeError as exc:
        return Problem(where, None, None, f"not UTF-8 text (byte {exc.start + 1})", hint="save the page as UTF-8")
    text = text.removeprefix("\ufeff")
    private = _private_page(text, where)
    if private:
        return private if isinstance(private, Problem) else None
    return _own_page(rel, text)


def _private_page(text: str, where: str) -> bool | Problem:
    """Whether the page's front matter says `visibility: private`, the word
    the data uses: the page then stays off the site (a draft, notes for the
    GM). Any other value than public or private is refused at its line."""
    match = _FRONT_MATTER.match(text)
    found = _VISIBILITY_LINE.search(match.group(1) or "") if match else None
    if found is None:
        return False
    value = found.group(1).strip("'\"")
    if value not in VISIBILITIES:
        line = text[:match.start(1) + found.start()].count("\n") + 1
        return Problem(where, line, found.start(1) - found.start() + 1, f"found '{value}'", field="visibility",
                       hint=allowed_hint(value, VISIBILITIES))
    return value == "private"


def _own_name_fault(rel: str) -> tuple[str, str] | None:
    parts = rel.split("/")
    if not all(OWN_NAME.fullmatch(part) for part in parts):
        return (f"'{rel}' cannot be an address on the site",
                "name pages and images with letters, digits, '-', '_' and '.', e.g. house-rules.md")
    from ..systems import SLUGS
    top = parts[0].casefold()
    if top in SITE_NAMES or top in SLUGS or (len(parts) == 1 and top != "index.md" and top.endswith(".md")
                                             and top[:-3] in SLUGS):
        return (f"'{parts[0]}' is a name the site uses itself", "rename it, e.g. house-rules.md")
    return None


def _own_page(rel: str, text: str) -> OwnPage:
    """The page's title (its front matter's `title`, else its first level-one
    heading, else its file name) and its Markdown without front matter: only
    the title is taken from front matter, the rest (a template, hidden parts)
    is the site's business, not the page's."""
    title = None
    match = _FRONT_MATTER.match(text)
    if match:
        text = text[match.end():]
        line = _TITLE_LINE.search(match.group(1) or "")
        if line and line.group(1).strip("'\" "):
            title = line.group(1).strip().strip("'\"").strip()
    if title is None:
        title = _first_heading(text)
    if not title:
        stem = PurePosixPath(rel).stem if PurePosixPath(rel).stem != "index" else PurePosixPath(rel).parent.name
        title = (stem or "Home").replace("-", " ").replace("_", " ")
        title = title[:1].upper() + title[1:]
    return OwnPage(rel, " ".join(title.split())[:200], text)


def _first_heading(text: str) -> str | None:
    fenced = False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found = _ATX_H1.match(line)
        if not found and line.strip() and i + 1 < len(lines) and _SETEXT_H1.match(lines[i + 1]):
            found = re.match(r"\s*(.+?)\s*$", line)
        if found:
            heading = re.sub(r"\s*\{[^}]*\}\s*$", "", found.group(1))           # an attribute list
            heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)        # a link: its text
            heading = re.sub(r"<[^>]*>", "", heading)                           # raw HTML tags
            heading = re.sub(r"(\*\*|__|\*|`)", "", heading)
            return html.unescape(heading).strip() or None
    return None


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
    checked against patterns when the settings are loaded). A logo goes into
    the staged sources through the publishing gate; the theme's overrides are read from there too."""
    import yaml
    theme = yaml.safe_load(MKDOCS_CONFIG.read_text(encoding="utf-8"))["theme"]
    theme["custom_dir"] = str(docs_dir / THEME_FOLDER)
    theme["language"] = look.language
    for scheme in theme.get("palette", []):
        scheme["primary"], scheme["accent"] = look.primary, look.accent
    if look.logo is not None:
        target = publish_image(look.logo, docs_dir / "assets" / f"logo{look.logo.suffix.lower()}",
                               f"the site's logo ({look.logo.name})")
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
