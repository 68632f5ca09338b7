"""Every part of the tool that reads the game's language takes every code
the settings accept (game/language.py says how each falls back). The
readers are found in the code, not listed by hand: a new one fails
`test_every_reader_of_the_language_is_known` until it is added to READERS
with a check that it copes with every code in CODES."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import systems
from generator.core import i18n
from generator.core.alphabets import undrawn_letters
from generator.core.paths import TEMPLATES_DIR
from generator.game.language import theme_language, theme_languages
from generator.game.settings import LANGUAGE_PATTERN
from generator.render.site.writer import _IN_LANGUAGE
from generator.render.site.tracker import TRACKER_DOMAIN
from generator.systems.base import starter_in

ROOT = Path(__file__).resolve().parent.parent
# Codes the settings accept, of every kind docs/pages/guide/languages.md names:
# shipped, regions, ISO 639-3, scripts, YAML's booleans.
CODES = ("en", "fr", "de", "pl", "en-GB", "fr-CA", "de-CH", "pt-BR", "pt-PT", "tlh", "no", "nb", "yes", "zh-Hant",
         "sr-Latn", "ku-IQ", "vi", "xx")
# Where the code reads the language: the setting, the run's Words, the site's look, a template's language().
READS = re.compile(r"settings\.language\b|file\.language\b|current\(\)\.language\b|look\.language\b|\blanguage\(\)|"
                   r"words\.language\b|self\.language\b|def run\(.*language: str")


def _readers() -> set[tuple[str, str]]:
    """(file, function) of each place that reads the game's language (a template: its file)."""
    found = set()
    for path in sorted([*(ROOT / "generator").rglob("*.py"), *TEMPLATES_DIR.rglob("*.html")]):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if not READS.search(line) or line.lstrip().startswith("#"):
                continue
            above = [re.match(r"\s*def (\w+)", lines[i]) for i in range(number, -1, -1)]
            owner = next((m.group(1) for m in above if m), path.name) if path.suffix == ".py" else path.name
            found.add((path.relative_to(ROOT).as_posix(), owner))
    return found


def _starters(code: str) -> bool:
    return all(starter_in(system, code).is_dir() for system in systems.SYSTEMS)


def _theme(code: str) -> bool:
    return not theme_languages() or theme_language(code) in theme_languages().values()


def _tracker(code: str) -> bool:
    with i18n.speaking(i18n.words_for(code)):
        return isinstance(i18n.script_catalogue(TRACKER_DOMAIN)["messages"], list)


def _words(code: str) -> bool:
    words = i18n.words_for(code)
    with i18n.speaking(words):
        return bool(i18n.percent_text(i18n.Decimal("56.3"), 1)) and words.locale is not None


def _hand_written(code: str) -> bool:   # the shipped pages' translations (index.fr.md): by the base language
    return _IN_LANGUAGE.fullmatch(f"index.{code.split('-')[0]}.md") is not None or len(code.split("-")[0]) > 3


def _hyphenation(code: str) -> bool:    # check's line count: Pyphen's dictionary for the code, or none (no hyphens)
    from generator.core.measure import dictionary_for
    return dictionary_for(code) is not None or code.split("-")[0] not in ("en", "fr", "de")


def _lang_attribute(code: str) -> bool:      # `lang` on a page and /Lang on a PDF: the code as written
    return re.fullmatch(LANGUAGE_PATTERN, code) is not None


# How each reader copes with any accepted code.
READERS = {
    ("generator/game/settings.py", "language"): _lang_attribute,
    ("generator/game/language.py", "game_language"): lambda code: isinstance(undrawn_letters(code), str),
    ("generator/game/gather.py", "gather"): _words,                         # the game's catalogue and Words
    ("generator/core/i18n.py", "locale"): _words,                           # Babel's numbers
    ("generator/game/language.py", "language_setting"): _lang_attribute,     # where an error points
    ("generator/render/site/writer.py", "stage_sources"): _hand_written,
    ("generator/render/pdf/parts.py", "declared_language"): _lang_attribute,
    ("generator/render/pdf/parts.py", "joined_result"): _lang_attribute,        # /Lang of a joined GM document
    ("generator/core/measure.py", "line_count"): _hyphenation,               # hyphenation, as check counts lines
    ("generator/core/measure.py", "fewest_lines"): _hyphenation,             # its floor: the same dictionary
    ("generator/render/cache/documents.py", "_words_key"): _words,           # the language keys a document's HTML
    ("generator/render/site/mkdocs_build.py", "config_overrides"): _theme,          # Material's interface and search
    ("generator/render/html.py", "_environment"): _lang_attribute,
    ("generator/commands/build.py", "site_look"): _theme,
    ("generator/commands/new.py", "run"): _starters,
    ("generator/commands/catalogue.py", "run"): lambda code: i18n.language_folder(code) in (None, "fr", "de"),
    ("templates/layout.html", "layout.html"): _lang_attribute,
    ("templates/sixes/tracker/tracker.html", "tracker.html"): _tracker,
}


def test_every_reader_of_the_language_is_known():
    found = _readers()
    assert found, "no reader of the language found: READS no longer matches the code"
    assert found - set(READERS) == set(), "a new reader of the game's language: add it to READERS with its check"
    assert set(READERS) - found == set(), "READERS names a place that no longer reads the language"


@pytest.mark.parametrize("code", CODES)
def test_every_reader_takes_every_accepted_code(code):
    assert re.fullmatch(LANGUAGE_PATTERN, code)
    refused = [where for where, copes in READERS.items() if not copes(code)]
    assert refused == []


@pytest.mark.parametrize("code, shown", [("en-GB", "en"), ("fr-CA", "fr"), ("de-CH", "de"), ("pt-BR", "pt-BR"),
                                         ("PT-br", "pt-BR"), ("tlh", "en"), ("zh-Hant", "zh-Hant"), ("no", "nb")])
def test_the_site_interface_speaks_the_nearest_language_material_ships(code, shown):
    if not theme_languages():
        pytest.skip("Material for MkDocs is not installed")
    assert theme_language(code) == shown


@pytest.mark.parametrize("code, words, search", [("tlh", "en", "en"), ("en-GB", "en", "en"), ("de-CH", "de", "de"),
                                                 ("fr", "fr", "fr")])
def test_material_renders_every_accepted_code_and_each_page_declares_it(tmp_path, code, words, search):
    """Material's own language partial, loaded as MkDocs loads it (our theme
    folder first): it finds a partial for the code, speaks the nearest
    language's words and search language, and declares the game's code."""
    if not theme_languages():
        pytest.skip("Material for MkDocs is not installed")
    import jinja2
    import material

    from generator.render.site.mkdocs_build import config_overrides, SiteLook

    theme = config_overrides(SiteLook(language=code), tmp_path)["theme"]
    loader = jinja2.FileSystemLoader([theme["custom_dir"], str(Path(material.__file__).parent / "templates")])
    env = jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined)
    page = env.from_string('{% import "partials/language.html" as lang with context %}{{ lang.t("language") }}|'
                           '{{ lang.t("search.config.lang") }}|{{ lang.t("search.placeholder") }}')
    declared, lunr, placeholder = page.render(config={"theme": theme}).split("|")
    nearest = env.from_string('{% import "partials/languages/' + words + '.html" as w %}'
                              '{{ w.t("search.placeholder") }}')
    assert declared == code and lunr == search and placeholder == nearest.render()
