"""`sixes new`: a new game folder with settings, starter data and schemas.

Commands floor. The folder must be new or empty, so nothing is ever
overwritten; the starter games are the systems' own `starter/` folders.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import click

from ..core.errors import visible
from .failures import Failed


def run(directory: Path, language: str = "en") -> None:
    """Write sixes.yaml (named after the folder, in `language`), one starter
    folder per system and the schemas the starter files point their editors
    at; for a language the tool does not ship, its catalogue to translate."""
    from ..core.i18n import language_folder
    from .catalogue import LANGUAGE
    from ..game.settings import SETTINGS_FILE, STARTER_SETTINGS
    from ..systems import SLUGS, SYSTEMS
    from ..systems.base import starter_in
    from .build import export_schemas
    if not LANGUAGE.fullmatch(language):
        raise Failed(f"'{visible(language)}' is not a language code; e.g. en, fr, de, pl, pt-BR "
                     "(nothing was changed)")
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise Failed(f"{directory} is not empty; choose a new folder (nothing was changed)")
    directory.mkdir(parents=True, exist_ok=True)
    settings = STARTER_SETTINGS.format(name=json_string(site_name(directory.resolve().name, language)),
                                       language=yaml_scalar(language))
    (directory / SETTINGS_FILE).write_text(settings, encoding="utf-8")
    for system in SYSTEMS:
        shutil.copytree(starter_in(system, language), directory / system.slug)
    # The starter files' `yaml-language-server` lines point here.
    export_schemas(directory / "schemas")
    if language != "en" and language_folder(language) is None:
        from ..game.catalogue import catalogue_path, template_catalogue
        from .catalogue import write_catalogue
        write_catalogue(catalogue_path(directory, language), template_catalogue(language, None), directory)
        click.echo(f"The tool's words are not shipped in '{visible(language)}': translate "
                   f"locales/{visible(language)}.po (until then they print in English).")
    click.echo(f"Wrote a new game folder {visible(directory)}: {SETTINGS_FILE} (the game's settings), one folder "
               f"per game system ({visible(', '.join(SLUGS))}), and schemas/ for your editor.")
    click.echo(f"Next: cd {visible(directory)}, edit the YAML files (remove the systems you do not play), then run "
               "`sixes check`, `sixes build` (into output/) or `sixes serve`.")


def site_name(folder: str, language: str) -> str:
    """The site's name `new` derives from the folder's: its words in the
    case the language titles with (`folder_title`), without what `check`
    refuses in a name (a control, a letter the printed fonts cannot draw),
    and cut at a word to the settings' limit after title-casing (which makes
    two letters of one, `ﬁ` "Fi", `ß` "Ss"); "My Game" when nothing is left."""
    from ..core.glyphs import undrawn
    from ..core.text import refused
    from ..game.settings import SiteSettings
    most = next(rule.max_length for rule in SiteSettings.model_fields["name"].metadata if hasattr(rule, "max_length"))
    titled = folder_title("".join(c for c in folder if not refused(c, "name")), language)
    missing = set(undrawn(titled))
    words = "".join(c for c in titled if c not in missing).split()
    name = ""
    for word in words:
        if len(f"{name} {word}".strip()) > most:
            break
        name = f"{name} {word}".strip()
    return name or (words[0][:most] if words else "My Game")


def folder_title(folder: str, language: str) -> str:
    """The game's name from its folder's: words as written, in the case the
    language sets a title in. English capitalises each word ('lantern-fair'
    is 'Lantern Fair'); French, German and the rest capitalise the first
    letter only ('la-nuit-des-masques' is 'La nuit des masques', never 'La
    Nuit Des Masques'), German nouns keeping the capitals they were given."""
    words = folder.replace("-", " ").replace("_", " ").split()
    if not words:
        return "My Game"
    if language.split("-")[0].lower() == "en":
        return " ".join(word[:1].upper() + word[1:] for word in words)
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def yaml_scalar(text: str) -> str:
    """`text` as written when YAML reads it back as that very string (`fr`),
    else quoted (`"no"`, which YAML would read as false; `"1e3"`, a number)."""
    import yaml
    try:
        plain = yaml.safe_load(text) == text
    except yaml.YAMLError:
        plain = False
    return text if plain else json_string(text)


def json_string(text: str) -> str:
    """A YAML-safe quoted scalar (JSON strings are YAML)."""
    return json.dumps(text, ensure_ascii=False)
