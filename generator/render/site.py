"""The site writer: stage Markdown sources, then build them with MkDocs.

Hand-written pages come from site/; the game's own pages (its settings'
`site.pages` folder, read and checked by the gather: game/pages.py), the home
page, generated pages, icons and the public PDFs are added to a staging copy, so the repository's site/ folder never
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

import json
import logging
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from ..core.errors import UserError
from ..core.layout import DocumentPdf
from ..core.paper import Paper
from ..core.paths import ICONS_DIR, MKDOCS_CONFIG, SITE_SOURCES_DIR
from ..core.naming import slug as name_slug
from ..game.pages import CREDITS_PAGE, THEME_FOLDER, OwnFiles
from ..systems.base import CastEntry, Document, Page, System
from .home import GAMES_MARKER, games_block, home_page, short_title, unlink
from .clean_html import UnsafeHtml, clean_html, plain_toc
from .html import front_matter, local_href, render_template
from .publish import publish_image

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

class SiteBuildError(UserError):
    """MkDocs reported warnings or errors; the messages say which, one a line."""

    multiline = True


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
    for own_page in own.pages:
        target = staging / own_page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(front_matter(own_page.title) + own_page.markdown, encoding="utf-8")
    for rel, source in own.images:
        publish_image(source, staging / rel, rel)
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


# --- every page: row headers -------------------------------------------------

_FIRST_CELL = re.compile(r"(<tr>\s*)<td((?: style=\"[^\"]*\")?)>"
                         r"<strong>((?:(?!</?strong>|</?td).)*)</strong></td>", re.S)


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
    checked against patterns when the settings are loaded). A logo is copied
    into the staged sources; the theme's overrides are read from there too."""
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
