"""`sixes catalogue LANGUAGE`: the game folder's own catalogue of the tool's words, to translate.

Commands floor. Writes `locales/<language>.po` in the game folder: every
message the tool prints, with the translation the folder's file already
had, else the shipped one, else empty, so a group playing in a language the
tool does not ship translates what is left, and `check` then lists what is
still missing (game/catalogue.py). The file is written whole (a temporary
file renamed over it), so an interrupted run leaves the old one.
"""
from __future__ import annotations

import os
import re
from io import BytesIO
from pathlib import Path

import click
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from ..core.errors import visible
from ..game.settings import LANGUAGE_PATTERN
from .failures import Failed
from .locate import locate

LANGUAGE = re.compile(LANGUAGE_PATTERN)        # what the settings accept as `language`


def run(language: str, data_dir: Path | None) -> None:
    from ..game.catalogue import CATALOGUE_FOLDER, catalogue_path, read_own_catalogue, template_catalogue
    if not LANGUAGE.fullmatch(language):
        raise Failed(f"'{visible(language)}' is not a language code; e.g. pl, cs, pt-BR")
    game = locate(data_dir, needs_out=False)
    if game.settings.game_dir is None:
        raise Failed(f"{visible(game.shown)} has no settings file (sixes.yaml), so no folder to keep a catalogue in")
    own = read_own_catalogue(game.settings.game_dir, language)
    if own.catalogue is None and own.problems:
        raise Failed(f"{own.problems[0]}; fix or remove the file first (nothing was changed)")
    path = write_catalogue(catalogue_path(game.settings.game_dir, language),
                           template_catalogue(language, own.catalogue), game.settings.game_dir)
    left = sum(1 for message in template_catalogue(language, own.catalogue) if message.id and not message.string)
    click.echo(f"Wrote {visible(CATALOGUE_FOLDER)}/{visible(path.name)}: {visible(str(left))} message(s) to translate. "
               f"Set `language: {visible(language)}` in sixes.yaml; `sixes check` lists what is still missing.")


def write_catalogue(path: Path, catalogue: Catalog, game_dir: Path) -> Path:
    """`catalogue` as a .po file at `path`, replaced whole; never through a
    link (the folder or the file) and never anywhere but a folder of its
    own inside `game_dir`."""
    from ..core.loading import leads_outside
    shown = f"{path.parent.name}/{path.name}"
    if leads_outside(path.parent, game_dir):
        raise Failed(f"{visible(path.parent.name)}/ is a link leading outside the game folder; sixes catalogue "
                     "writes only inside it: make it a folder of its own (nothing was changed)")
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise Failed(f"{visible(shown)} is {'a link' if path.is_symlink() else 'not a file'}; sixes catalogue "
                     "replaces only a file of its own: remove it or make it a plain file (nothing was changed)")
    if path.parent.exists() and not path.parent.is_dir():
        raise Failed(f"{visible(path.parent.name)} is not a folder; it holds the game's catalogues: rename it "
                     "(nothing was changed)")
    buffer = BytesIO()
    write_po(buffer, catalogue, width=100, omit_header=False, include_lineno=False)
    path.parent.mkdir(exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        part.write_bytes(buffer.getvalue())
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return path
