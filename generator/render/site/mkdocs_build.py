"""Driving MkDocs: the site's configuration, our page plugin, and what is patched and pruned after.

Render layer. writer.py stages the Markdown sources; `build_site` runs MkDocs
(Material) over them in strict mode, so any warning fails the build, with:

- the configuration from the game's settings (`config_overrides`), its text
  HTML-escaped, since the theme's templates print it unescaped;
- our plugin (`_page_plugin`), after Markdown and before the search index
  and the theme read a page: the game's own pages are cleaned by the HTML
  gate (clean_html.py) and every table's bold first column becomes real
  row headers (`row_headers`, a scan, never a backtracking pattern);
- the search patch (`stem_typed_words`) and the pruning of what Material
  ships and no reader loads (`prune_site`: source maps, other languages).
"""
from __future__ import annotations

import json
import logging
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import escape

from ...core.errors import UserError
from ...core.i18n import N_, _
from ...core.naming import anchor
from ...core.paths import MKDOCS_CONFIG
from ...game.language import theme_language
from ...game.pages import CREDITS_PAGE, THEME_FOLDER
from .clean_html import UnsafeHtml, clean_html, plain_toc
from .publish import publish_image
from .partial import DIRTY_WARNING, NotPartial, PartialSite, merge_search_index, only_changed, read_titles, \
    warm_environment

# In the theme folder: appended to Material's search worker (stem_typed_words).
STEMMING_PATCH = "search-stemming.js"
# The palette toggles' names as mkdocs.yml writes them, marked for the catalogue.
TOGGLE_NAMES = (N_("Dark mode"), N_("Light mode"))
PERMALINK_TITLE = N_("Permanent link")        # Python-Markdown's toc default, which mkdocs.yml keeps
FOOTER_WORDS = {"made_with": N_("Made with Sixes Press"), "credits": N_("Credits and licences")}


class SiteBuildError(UserError):
    """MkDocs reported warnings or errors; the messages say which, one a line."""

    multiline = True


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


# A site with no settings of its own.
PLAIN_LOOK = SiteLook()


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
    """Keeps what MkDocs logs at WARNING and above: in strict mode, each is a reason the build failed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def theme_words() -> dict[str, str]:
    """Our words in the theme's templates and Markdown's settings (English ->
    the run's language, HTML-escaped): not in any staged page, so the site's
    cache key takes them too (commands/build.py), or a new translation would
    not reach a built site."""
    return {text: str(escape(_(text))) for text in (*TOGGLE_NAMES, *FOOTER_WORDS.values(), PERMALINK_TITLE)}


def _translated_extensions(extensions: list[Any]) -> list[Any]:
    """mkdocs.yml's Markdown extensions, the headings' permalink titled in the
    game's language (Python-Markdown escapes it into the attribute itself)
    and their anchors made as every name's slug is (core/naming.anchor:
    'Sœur Bénédicte' is #soeur-benedicte, not Python-Markdown's #sur-benedicte)."""
    for extension in extensions:
        if isinstance(extension, dict) and isinstance(extension.get("toc"), dict):
            extension["toc"]["permalink_title"] = _(PERMALINK_TITLE)
            extension["toc"]["slugify"] = anchor
    return extensions


def config_overrides(look: SiteLook, docs_dir: Path) -> dict[str, Any]:
    """MkDocs settings from the game's: MkDocs's theme templates print them
    without escaping, so text is HTML-escaped here (the URL and language are
    checked against patterns when the settings are loaded). A logo is copied
    into the staged sources; the theme's overrides are read from there too."""
    import yaml
    config = yaml.safe_load(MKDOCS_CONFIG.read_text(encoding="utf-8"))
    theme, extra = config["theme"], config.get("extra", {})
    theme["custom_dir"] = str(docs_dir / THEME_FOLDER)
    theme["language"] = _theme_partial(look.language, docs_dir / THEME_FOLDER)
    words = theme_words()
    for scheme in theme.get("palette", []):
        scheme["primary"], scheme["accent"] = look.primary, look.accent
        if "toggle" in scheme:          # mkdocs.yml's English names (TOGGLE_NAMES), in the game's language
            scheme["toggle"]["name"] = words[scheme["toggle"]["name"]]
    # The footer's words (site/overrides/partials/copyright.html); Material's own come from theme.language.
    extra["sixes_words"] = {key: words[text] for key, text in FOOTER_WORDS.items()}
    if look.logo is not None:
        target = publish_image(look.logo, docs_dir / "assets" / f"logo{look.logo.suffix.lower()}",
                               f"the site's logo ({look.logo.name})")
        theme["logo"] = theme["favicon"] = target.relative_to(docs_dir).as_posix()
    overrides = {"site_name": str(escape(look.name)), "theme": theme, "extra": extra,
                 "markdown_extensions": _translated_extensions(config["markdown_extensions"])}
    if look.description:
        overrides["site_description"] = str(escape(look.description))
    if look.url:
        overrides["site_url"] = look.url
    return overrides


def _theme_partial(language: str, theme_dir: Path) -> str:
    """Material's `theme.language` for the game's: the code itself when
    Material ships it; else a partial of our own under that code, Material's
    nearest language (game/language.py: `en-GB` en, `tlh` English) in every
    word but the `lang` every page declares, which stays the game's. (The
    code is checked against the settings' pattern: letters, digits and one
    hyphen, so it is safe as a file name and in the template.)"""
    nearest = theme_language(language)
    if nearest == language or not re.fullmatch(r"[A-Za-z0-9-]{2,12}", language):
        return nearest
    partial = theme_dir / "partials" / "languages" / f"{language}.html"
    partial.parent.mkdir(parents=True, exist_ok=True)
    partial.write_text(f'{{% import "partials/languages/{nearest}.html" as nearest %}}\n'
                       f'{{% macro t(key) %}}{{{{ "{language}" if key == "language" else nearest.t(key) }}}}'
                       "{% endmacro %}\n", encoding="utf-8")
    return language


def build_site(docs_dir: Path, site_dir: Path, nav: list[Any], look: SiteLook = PLAIN_LOOK,
               partial: PartialSite | None = None) -> None:
    """Run MkDocs in strict mode (any warning fails the build), with our
    plugin (`_PagePlugin`) after Markdown, then drop what no reader loads.
    With `partial`, only the pages whose text changed are made, over a copy
    of the last site (partial.py); the whole site when that cannot be."""
    if partial is not None:
        shutil.copytree(partial.site, site_dir)
        try:
            _run_mkdocs(docs_dir, site_dir, nav, look, partial)
            return
        except NotPartial:
            shutil.rmtree(site_dir)
    _run_mkdocs(docs_dir, site_dir, nav, look, None)
    prune_site(Path(site_dir))
    stem_typed_words(Path(docs_dir), Path(site_dir))


def _run_mkdocs(docs_dir: Path, site_dir: Path, nav: list[Any], look: SiteLook, partial: PartialSite | None) -> None:
    """MkDocs over the staged sources, its warnings collected: any is a failure.
    A partial build is MkDocs's dirty one, which warns that it is (strict
    would fail it for that alone; our collector takes every other warning)."""
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
                             strict=partial is None, nav=nav, **config_overrides(look, docs_dir))
        config.plugins["sixes-pages"] = _page_plugin(partial)
        made_env = config.theme.get_env
        config.theme.get_env = lambda: warm_environment(made_env(), docs_dir)     # type: ignore[method-assign]
        build(config, dirty=partial is not None)
    except (Abort, MkDocsException) as exc:
        details = "\n".join(f"  {m}" for m in collector.messages) or f"  {exc}"
        raise SiteBuildError(f"the site did not build cleanly:\n{details}") from None
    finally:
        mkdocs_log.removeHandler(collector)
        mkdocs_log.setLevel(previous_level)
    warnings = [m for m in collector.messages if not (partial and m.startswith(DIRTY_WARNING))]
    if warnings:
        raise SiteBuildError("the site built with warnings:\n" + "\n".join(f"  {m}" for m in warnings))


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
    from ...systems import SLUGS
    return src_uri == CREDITS_PAGE or src_uri.split("/")[0] in SLUGS


def _page_plugin(partial: PartialSite | None = None) -> Any:
    """An MkDocs plugin, added to the configuration in code (it is no
    installed package): the game's own pages are cleaned and every page's
    row headers made real, after Markdown and before the search index and
    the theme read the page. A partial build makes only the changed pages
    and puts their search entries into the last index."""
    from mkdocs.plugins import BasePlugin, event_priority

    class PagePlugin(BasePlugin):
        urls: set[str] = set()
        last_index = ""

        def on_files(self, files: Any, config: Any) -> Any:
            if partial is not None:
                self.urls = only_changed(files, partial)
                self.last_index = (partial.site / "search" / "search_index.json").read_text(encoding="utf-8")
            return files

        def on_nav(self, nav: Any, config: Any, files: Any) -> Any:
            if partial is not None:
                read_titles(files, config, partial)
            return nav

        def on_page_content(self, page_html: str, page: Any, config: Any, files: Any) -> str:
            if not _trusted(page.file.src_uri):
                try:
                    page_html = clean_html(page_html, page.file.src_uri)
                except UnsafeHtml as exc:
                    raise SiteBuildError(str(exc)) from None
                plain_toc(page.toc)
            return row_headers(page_html)

        @event_priority(-50)        # after Material's search writes its index, before offline inlines it
        def on_post_build(self, config: Any) -> None:
            if partial is not None:
                merge_search_index(Path(config.site_dir), self.last_index, self.urls)

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
