"""The site writer: stage the Markdown sources that MkDocs builds (mkdocs_build.py).

Render layer. Hand-written pages come from site/; the game's own pages
(its settings' `site.pages` folder, read and checked by the gather:
game/pages.py), the home page, generated pages, icons and the public PDFs
are added to a staging copy, so the repository's site/ folder never holds
generated files. Only documents whose audience is `public` are copied.
The site is the game's: its name, home page and own pages come from the game
folder; the tool appears only as a credit in the footer and the credits page.

Data is text here too: the page templates escape it (render/html.py), and
each generated page names its title in front matter, already escaped. MkDocs
would otherwise take the title from the page's first heading, strip its tags
and let the theme unescape it into <title>, where `</title><script>` in a
game's title would run.

A game's own pages are the GM's words, in Markdown with raw HTML allowed, but
a game folder is passed around like any data, so they are not trusted either:
after MkDocs has turned them into HTML, `clean_html` (render/site/clean_html.py,
called by mkdocs_build.py's page plugin) keeps only plain document markup.
Every file of the user's that the site shows (the logo, portraits, the
pages' images) goes through the publishing gate (render/site/publish.py).
Patterns over the user's text are linear or replaced by scans: a page's
text must never make the build slow.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from markupsafe import Markup, escape

from ...core import i18n
from ...core.i18n import N_, _
from ...core.layout import DocumentPdf
from ...core.paper import PAPERS, Paper
from ...core.paths import ICONS_DIR, SITE_SOURCES_DIR
from ...core.naming import slug as name_slug
from ...game.packet_site import PublicGroup
from ...game.pages import OwnFiles
from ...systems.base import CastEntry, Document, Page, System
from .home import GAMES_MARKER, games_block, home_page, short_title, unlink
from ..html import front_matter, local_href, render_template
from .publish import publish_image
from .mkdocs_build import PLAIN_LOOK, SiteLook

# site/ holds, besides the systems' folders, the credits page (the only
# hand-written top-level page), the shared assets, and Material's template
# overrides (the theme's custom_dir; mkdocs.yml excludes it from the pages):
# game/pages.py names them, since a game's own page may not take those names.

# The optional cast list (settings.site.cast_list) in each system's section,
# and the folder beside it its raster portraits are copied to.
CAST_LIST = "cast-list.md"
CAST_LIST_TITLE = N_("Cast list")
CAST_LIST_TEMPLATE = "site/cast_list.md.j2"
PORTRAITS = "portraits"


@dataclass(frozen=True)
class SiteSection:
    system: System
    pages: list[Page]
    public_documents: dict[str, Document]
    cast: tuple[CastEntry, ...] | None = None    # the public cast, when the site lists it (settings.site.cast_list)
    game_title: str = ""                        # the game's own title (game.yaml), which the home page leads with
    pitch: str = ""                             # the game's public pitch (its blurb), or nothing
    groups: tuple[PublicGroup, ...] = ()        # open groups with a public description (game/packet_site.py)


def stage_sources(staging: Path, sections: list[SiteSection], built: Path, papers: tuple[Paper, ...],
                  look: SiteLook = PLAIN_LOOK, own: OwnFiles = OwnFiles(),
                  earlier: Mapping[Paper, Path] | None = None) -> list[Any]:
    """Copy site/, the game's own pages and the generated pages into
    `staging`; return the nav: the home page and the game's own pages first
    (one tab each), then one section (a tab) per system. The public PDFs of
    `papers` are taken from `built`, a folder laid out as the output
    (core/layout.py); those of `earlier` papers (an earlier build's, still in
    the output folder) from the folder given for each, so the site offers
    every paper's downloads that exist, not only this run's."""
    sources = {**(earlier or {}), **{paper: built for paper in papers}}
    papers = tuple(paper for paper in PAPERS if paper in sources)
    shutil.copytree(SITE_SOURCES_DIR, staging)
    in_language(staging, i18n.current().language)
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
    nav: list[Any] = ["index.md", *(p.path for p in own.pages if p.path != "index.md")]
    for section in sections:
        slug = section.system.slug
        _unlink_empty_pages(staging / slug, section)
        for doc in section.public_documents.values():
            for paper in papers:
                pdf = DocumentPdf(paper, slug, doc.folder, doc.slug)
                target = staging / pdf.download
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(sources[paper] / pdf.path, target)
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


def _download(section: SiteSection, slug: str, paper: Paper, page: str) -> dict[str, Any]:
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
    groups = [g for g in section.groups if g.description]
    title = page_title(section.system, Page(CAST_LIST, CAST_LIST_TITLE, CAST_LIST_TEMPLATE, {}))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CAST_LIST).write_text(front_matter(title) + render_template(
        CAST_LIST_TEMPLATE, {"cast": cast, "groups": groups, "page_title": title}), encoding="utf-8")
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
    game's section, gives the page's own title (`nav_title`). Both in the
    game's language (a system may name its pages with `N_`)."""
    return _("{system}: {page}").format(system=system.title, page=_(page.title))


def nav_title(title: str) -> str:
    """A navigation entry's title, in the game's language: Material prints it without escaping."""
    return str(escape(_(title)))


# A hand-written page in another language: `index.fr.md` beside `index.md`.
_IN_LANGUAGE = re.compile(r"(?P<stem>.+)\.(?P<language>[a-z]{2,3})\.md")


def in_language(staging: Path, language: str) -> None:
    """The shipped hand-written pages in the run's language: `index.fr.md`
    takes the place of `index.md` in a French site (an English page stays
    where no translation ships), and no other language's copy is published."""
    base = language.split("-")[0]
    for path in sorted(staging.rglob("*.md")):
        match = _IN_LANGUAGE.fullmatch(path.name)
        if match is None:
            continue
        if match["language"] == base:
            path.replace(path.with_name(f"{match['stem']}.md"))
        else:
            path.unlink()


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
    from ...systems import SYSTEMS

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
