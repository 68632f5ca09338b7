"""The site writer: stage Markdown sources, then build them with MkDocs.

Hand-written pages come from site/; generated pages, icons and the public PDFs
are added to a staging copy, so the repository's site/ folder never holds
generated files. Only documents whose audience is `public` are copied.

Data is text here too: the page templates escape it (render/html.py), and
each generated page names its title in front matter, already escaped. MkDocs
would otherwise take the title from the page's first heading, strip its tags
and let the theme unescape it into <title>, where `</title><script>` in a
game's title would run.
"""
from __future__ import annotations

import json
import logging
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from ..paths import ICONS_DIR, MKDOCS_CONFIG, SITE_SOURCES_DIR
from ..systems.base import Document, Page, System
from .html import md_text, render_template

# In a hand-written top-level page this line becomes the list of the games
# the data holds, so the landing page never links a section that was not built.
GAMES_MARKER = "<!-- games -->"
# Top-level hand-written pages that lead the navigation, in this order; any
# other top-level page follows the system sections alphabetically.
LEADING_PAGES = ("index.md", "getting-started.md")
PAPER_LABELS = {"a4": "A4", "letter": "US Letter"}
# A link the writer makes from slugs: a relative path and nothing else.
LOCAL_HREF = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")


class SiteBuildError(Exception):
    """MkDocs reported warnings or errors; the messages say which."""


@dataclass(frozen=True)
class SiteSection:
    system: System
    pages: list[Page]
    public_documents: dict[str, Document]


def stage_sources(staging: Path, sections: list[SiteSection], pdf_root: Path, papers: list[str]) -> list:
    """Copy site/ and write generated pages into `staging`; return the nav."""
    shutil.copytree(SITE_SOURCES_DIR, staging)
    _drop_absent_systems(staging, sections)
    shutil.copytree(ICONS_DIR, staging / "assets" / "icons", ignore=shutil.ignore_patterns("*.md"))
    nav: list = [name for name in LEADING_PAGES if (staging / name).exists()]
    for section in sections:
        slug = section.system.slug
        for doc in section.public_documents.values():
            for paper in papers:
                source = pdf_root / paper / slug / doc.folder / f"{doc.slug}.pdf"
                target = staging / "downloads" / paper / slug / f"{doc.slug}.pdf"
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        entries = [f"{slug}/{name}" for name in section.system.hand_written
                   if (staging / slug / name).exists()]
        for page in section.pages:
            downloads = [
                {"title": section.public_documents[s].title, "paper": PAPER_LABELS[p],
                 "href": local_href("../" * (page.path.count("/") + 1) + f"downloads/{p}/{slug}/{s}.pdf")}
                for s in page.downloads for p in papers]
            text = render_template(page.template, {**page.context, "page_title": page.title,
                                                   "downloads": downloads})
            text = front_matter(page.title) + text
            target = staging / slug / page.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            entries.append(f"{slug}/{page.path}")
        nav.append({section.system.title: entries})
    nav.extend(sorted(p.name for p in staging.glob("*.md") if p.name not in LEADING_PAGES))
    return nav


def local_href(path: str) -> Markup:
    """A link target built from slugs, checked and then printed as it is (the
    templates would escape its characters as text)."""
    if not LOCAL_HREF.fullmatch(path):
        raise ValueError(f"not a plain relative link: {path!r}")
    return Markup(path)


def front_matter(title: str) -> str:
    """The page's title for MkDocs and the theme: escaped like any text, so
    the theme prints it (and the search index holds it) as text. JSON is YAML."""
    return f"---\ntitle: {json.dumps(str(md_text(title)))}\n---\n\n"


def _drop_absent_systems(staging: Path, sections: list[SiteSection]) -> None:
    """A data folder may hold only some systems: the hand-written pages of the
    others link to generated pages that will not exist, so leave them out, and
    list only the present games where a top-level page asks for them."""
    from ..systems import SYSTEMS

    present = [section.system for section in sections]
    for system in SYSTEMS:
        if system not in present and (staging / system.slug).is_dir():
            shutil.rmtree(staging / system.slug)
    games = "\n".join(f"- [{md_text(s.title)}]({local_href(s.slug + '/index.md')})"
                      + (f": {md_text(s.summary)}" if s.summary else "") for s in present)
    for page in staging.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        if GAMES_MARKER in text:
            page.write_text(text.replace(GAMES_MARKER, games), encoding="utf-8")


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


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


def config_overrides(look: SiteLook, docs_dir: Path) -> dict:
    """MkDocs settings from the game's: MkDocs's theme templates print them
    without escaping, so text is HTML-escaped here (the URL and language are
    checked against patterns when the settings are loaded). A logo is copied
    into the staged sources."""
    import yaml
    theme = yaml.safe_load(MKDOCS_CONFIG.read_text(encoding="utf-8"))["theme"]
    theme["language"] = look.language
    for scheme in theme.get("palette", []):
        scheme["primary"], scheme["accent"] = look.primary, look.accent
    if look.logo is not None:
        target = docs_dir / "assets" / f"logo{look.logo.suffix.lower()}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(look.logo, target)
        theme["logo"] = theme["favicon"] = target.relative_to(docs_dir).as_posix()
    overrides = {"site_name": str(escape(look.name)), "theme": theme}
    if look.description:
        overrides["site_description"] = str(escape(look.description))
    if look.url:
        overrides["site_url"] = look.url
    return overrides


def build_site(docs_dir: Path, site_dir: Path, nav: list, look: SiteLook = SiteLook()) -> None:
    """Run MkDocs in strict mode: any warning fails the build."""
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
        build(config)
    except (Abort, MkDocsException) as exc:
        details = "\n".join(f"  {m}" for m in collector.messages) or f"  {exc}"
        raise SiteBuildError(f"the site did not build cleanly:\n{details}") from None
    finally:
        mkdocs_log.removeHandler(collector)
        mkdocs_log.setLevel(previous_level)
    if collector.messages:
        raise SiteBuildError("the site built with warnings:\n" + "\n".join(f"  {m}" for m in collector.messages))
