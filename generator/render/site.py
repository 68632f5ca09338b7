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
after MkDocs has turned them into HTML, `clean_html` (render/clean_html.py)
keeps only plain document markup. Every file of the user's that the site
shows (the logo, portraits, the pages' images) goes through the publishing
gate (render/publish.py). Patterns over the user's text are linear or
replaced by scans: a page's text must never make the build slow.
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
from .clean_html import UnsafeHtml, clean_html, plain_toc, strip_tags
from .html import md_text, render_template
from .nesting import MAX_PAGE_NESTING, bracket_work, too_deep
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
# A key's line: its value is stripped in code (a lazy value before optional
# spaces at the end of a line backtracks over every run of spaces).
_TITLE_LINE = re.compile(r"^title:(.*)$", re.M)
_VISIBILITY_LINE = re.compile(r"^visibility:(.*)$", re.M)
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
    deep = too_deep(text, MAX_PAGE_NESTING)
    if deep is not None:
        return Problem(where, deep.line, deep.column, f"the page nests {deep.depth} {deep.what} deep here; "
                       f"a page may nest at most {MAX_PAGE_NESTING}",
                       hint="flatten the lists, quotes or HTML blocks; a page this deep cannot be built safely")
    slow = bracket_work(text)
    if slow is not None:
        return Problem(where, slow[0], None, "this paragraph has so many '[' that never close (or nest so deep) "
                       "that Markdown would take minutes over it",
                       hint="write a bracket that opens no link as \\[, or close it")
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
    raw = found.group(1)
    value = raw.strip(" \t").strip("'\"")
    if value not in VISIBILITIES:
        line = text[:match.start(1) + found.start()].count("\n") + 1
        column = found.start(1) - found.start() + len(raw) - len(raw.lstrip(" \t")) + 1
        return Problem(where, line, column, f"found '{value}'", field="visibility",
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
        value = line.group(1).strip(" \t") if line else ""
        if value.strip("'\" "):
            title = value.strip().strip("'\"").strip()
    if title is None:
        title = _first_heading(text)
    if not title:
        stem = PurePosixPath(rel).stem if PurePosixPath(rel).stem != "index" else PurePosixPath(rel).parent.name
        title = (stem or "Home").replace("-", " ").replace("_", " ")
        title = title[:1].upper() + title[1:]
    return OwnPage(rel, " ".join(title.split())[:200], calm_headings(text))


_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BLANKS = re.compile(r"[ \t]+")


def calm_headings(text: str) -> str:
    """`text` with every run of spaces and tabs in a heading made one space
    (a browser shows them so anyway). Python-Markdown's attr_list looks for
    `{...}` at a heading's end with a pattern that goes back over a run of
    spaces from each of its spaces: a 250 KB heading of spaces took minutes."""
    lines = text.split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (_is_atx(line) or (i + 1 < len(lines) and line.strip()
                                                and _SETEXT_UNDERLINE.match(lines[i + 1]))):
            lines[i] = _BLANKS.sub(" ", line)
    return "\n".join(lines)


def _is_atx(line: str) -> bool:
    """Whether `line` is an ATX heading of any level."""
    text = line.lstrip(" ")
    marks = len(text) - len(text.lstrip("#"))
    return len(line) - len(text) <= 3 and 1 <= marks <= 6 and text[marks:marks + 1] in ("", " ", "\t")


def _first_heading(text: str) -> str | None:
    fenced = False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found = _atx_heading(line)
        if found is None and line.strip() and i + 1 < len(lines) and _SETEXT_H1.match(lines[i + 1]):
            found = line.strip()
        if found is not None:
            heading = _link_texts(_drop_attribute_list(found))
            heading = _EMPHASIS.sub("", strip_tags(heading))
            return html.unescape(heading).strip() or None
    return None


# The heading's text is read by scans, not patterns with a lazy or repeated
# part before an anchor: on a long line those go back over the rest of the
# line from every place they could start (a 250 KB line took minutes).
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")


def _atx_heading(line: str) -> str | None:
    """The text of a level-one ATX heading (`# Title`, up to three spaces
    before, an optional closing run of `#` after a space), or None. A
    heading of blanks is one (its text is empty): the first heading is it."""
    text = line.lstrip(" ")
    if len(line) - len(text) > 3 or text[:1] != "#" or text[1:2] not in (" ", "\t") or len(text) < 3:
        return None
    content = text[1:].strip(" \t")
    unclosed = content.rstrip("#")
    if unclosed != content and unclosed[-1:] in (" ", "\t"):
        content = unclosed.rstrip(" \t")
    return content


def _drop_attribute_list(text: str) -> str:
    """`text` without an attribute list at its end (`Title {#id .class}`)."""
    end = len(text.rstrip())
    if not end or text[end - 1] != "}":
        return text
    opening = text.find("{", text.rfind("}", 0, end - 1) + 1, end - 1)
    return text if opening == -1 else text[:opening].rstrip()


def _link_texts(text: str) -> str:
    """Each Markdown link or image, `[text](target)` or `![text](target)`,
    replaced by its text, in one scan."""
    out, i = [], 0
    while True:
        start = text.find("[", i)
        close = text.find("]", start + 1) if start != -1 else -1
        if close == -1:
            break
        if text[close + 1:close + 2] != "(":
            out.append(text[i:close + 1])
            i = close + 1
            continue
        end = text.find(")", close + 2)
        if end == -1:
            break
        begin = start - 1 if start > i and text[start - 1] == "!" else start
        out += [text[i:begin], text[start + 1:close]]
        i = end + 1
    out.append(text[i:])
    return "".join(out)


# --- every page: row headers -------------------------------------------------

_FIRST_CELL = re.compile(r"(<tr>\s*)<td((?: style=\"[^\"]*\")?)><strong>((?:(?!</?strong>|</?td).)*)</strong></td>", re.S)


def row_headers(page_html: str) -> str:
    """A table whose every body row starts with a wholly bold cell (the
    Markdown way of saying "this column names the rows": HP, CN, Now) gets
    real row headers, `<th scope="row">`, which screen readers announce
    with each cell of the row. Tables and bodies are found by scanning
    for their tags: a lazy pattern from each `<table>` that is never closed
    would read the rest of the page again."""
    out, i = [], 0
    while True:
        start = page_html.find("<table>", i)
        end = page_html.find("</table>", start) if start != -1 else -1
        if end == -1:
            break
        end += len("</table>")
        out += [page_html[i:start], _row_headers_in(page_html[start:end])]
        i = end
    out.append(page_html[i:])
    return "".join(out)


def _row_headers_in(table: str) -> str:
    """One table, its first body's bold first cells made row headers."""
    start = table.find("<tbody>")
    end = table.find("</tbody>", start) if start != -1 else -1
    if end == -1:
        return table
    body = table[start + len("<tbody>"):end]
    rows = body.count("<tr>")
    if rows == 0 or len(_FIRST_CELL.findall(body)) != rows:
        return table
    cells = _FIRST_CELL.sub(lambda m: f'{m.group(1)}<th scope="row"{m.group(2)}>{m.group(3)}</th>', body)
    return table[:start + len("<tbody>")] + cells + table[end:]


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
                try:
                    page_html = clean_html(page_html, page.file.src_uri)
                except UnsafeHtml as exc:
                    raise SiteBuildError(str(exc)) from None
                plain_toc(page.toc)
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
