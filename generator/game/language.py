"""The game's language, and whether the printed fonts can write it.

Game layer: the gather (gather.py) asks `language_problems` before anything
renders, so `sixes check` (and every command) refuses a game in a language
whose letters a shipped font face lacks, at the line of the setting that
names the language, rather than printing boxes or another font's letters.
A language with no known alphabet (core/alphabets.py) is not refused: the
text check (core/glyphs.py) still names each character no face draws.

The language is `Settings.language` (the top-level `language`, else the
older `site.language`); errors point at whichever of the two says it.
"""
from __future__ import annotations

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


def language_problems(data_dir: Path, settings: Settings) -> list[Problem]:
    """One error when the shipped fonts cannot draw every letter of the
    game's language, naming the letters; none otherwise."""
    language = game_language(settings)
    missing = undrawn_letters(language)
    if not missing:
        return []
    covered = ", ".join(code for code in known_languages() if not undrawn_letters(code))
    letters = " ".join(missing)
    return [setting_problem(
        data_dir, settings, language_setting(settings),
        f"the printed fonts cannot draw {len(missing)} letter{'s' if len(missing) > 1 else ''} of the "
        f"language '{language}': {letters}",
        f"the shipped fonts (Atkinson Hyperlegible, templates/fonts) write {covered}; a game in '{language}' "
        "would print those letters as empty boxes, so it cannot be printed yet (README: Languages)")]
