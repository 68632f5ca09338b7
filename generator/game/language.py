"""The game's language, and what each part of the tool makes of it.

Game layer: the gather (gather.py) asks `language_problems` before anything
renders. Every reader of the language (tests/test_language_consumers.py
finds them in the code) takes any code the settings accept (`pl`, `pt-BR`,
`en-GB`, `tlh`), each falling back its own way:

- the tool's catalogues (core/i18n.language_folder): the code, its base
  language, else the English message ids;
- Babel's locale data for numbers (core/i18n._locale): the code, its base
  language, else English;
- Material for MkDocs' interface, and with it the site's search language
  (the theme's language partial names it): `theme_language`, the code
  Material ships a partial for, else its base language, else English, with
  a warning when the game's language is not one Material knows at all;
- `lang` on every page and PDF: the code as written (any BCP 47 tag);
- the printed fonts: a language whose letters a shipped font face lacks is
  refused at the line of the setting that names it, rather than printing
  boxes or another font's letters. A language with no known alphabet
  (core/alphabets.py) is not refused: the text check (core/glyphs.py) still
  names each character no face draws.

The language is `Settings.language` (the top-level `language`, else the
older `site.language`); errors point at whichever of the two says it.
"""
from __future__ import annotations

import importlib.util
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ..core.alphabets import known_languages, undrawn_letters
from ..core.errors import Problem
from .settings import Settings, setting_problem

def language_setting(settings: Settings) -> tuple[str, ...]:
    """Where the language is written in sixes.yaml (errors point at it)."""
    return ("language",) if settings.file.language or not settings.file.site.language else ("site", "language")


def game_language(settings: Settings) -> str:
    """The language the game is written and printed in, e.g. 'pl', 'pt-BR'."""
    return settings.language


@lru_cache(maxsize=1)
def theme_languages() -> dict[str, str]:
    """The languages of the installed Material for MkDocs' interface (one
    partials/languages/<code>.html each), by lower-case code; none when it
    is not installed. Read from its files, never imported: the game layer
    runs without the renderer."""
    spec = importlib.util.find_spec("material")
    folders = [Path(place) / "templates" / "partials" / "languages"
               for place in (spec.submodule_search_locations or [])] if spec else []
    return {path.stem.lower(): path.stem for folder in folders if folder.is_dir() for path in folder.glob("*.html")}


def theme_language(language: str) -> str:
    """The language the site's interface is shown in: `language` when
    Material ships it (`pt-BR`, `zh-Hant`), else its base language (`en-GB`
    is `en`, `de-CH` is `de`), else English (`tlh`)."""
    known = theme_languages()
    if not known:
        return language
    base = language.split("-")[0].lower()
    for code in (language.lower(), base, _SAME_AS.get(base, base)):
        if code in known:
            return known[code]
    return "en"


# A code Material knows under another: Norwegian is written Bokmål (as core/alphabets.py reads it).
_SAME_AS = {"no": "nb"}


def language_problems(data_dir: Path, settings: Settings) -> list[Problem]:
    """An error when the shipped fonts cannot draw every letter of the
    game's language, naming the letters; a warning when the site's
    interface cannot speak it (it then speaks English)."""
    language = game_language(settings)
    problems = _theme_problems(data_dir, settings, language)
    missing = undrawn_letters(language)
    if not missing:
        return problems
    covered = ", ".join(code for code in known_languages() if not undrawn_letters(code))
    letters = " ".join(missing)
    return problems + [setting_problem(
        data_dir, settings, language_setting(settings),
        f"the printed fonts cannot draw {len(missing)} letter{'s' if len(missing) > 1 else ''} of the "
        f"language '{language}': {letters}",
        f"the shipped fonts (Atkinson Hyperlegible, templates/fonts) write {covered}; a game in '{language}' "
        "would print those letters as empty boxes, so it cannot be printed yet (README: Languages)")]


def _theme_problems(data_dir: Path, settings: Settings, language: str) -> list[Problem]:
    """A warning when Material has no interface in the language nor its base language."""
    if not theme_languages() or theme_language(language) != "en" or language.split("-")[0].lower() == "en":
        return []
    problem = setting_problem(data_dir, settings, language_setting(settings),
                              f"the site's interface (Material for MkDocs' own words: search, navigation, "
                              f"the theme's labels) has no '{language}', so it is shown in English",
                              "the tool's words and your own print in the game's language all the same; "
                              "translate the tool's with `sixes catalogue` (README: Languages)")
    return [replace(problem, severity="warning")]
