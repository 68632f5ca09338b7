"""The one rule for a path a game's files name: relative to the game folder.

Core layer: standard library only. A portrait or a handout in a character
file, a handout in casting.yaml, the logo in sixes.yaml: each is written
relative to the game folder (the one holding sixes.yaml), wherever the file
naming it lies, and may be anywhere inside that folder: 'handouts/map.pdf',
'sixes/portraits/mara.png', 'sixes/characters/../portraits/mara.png'. Never
a URL, an absolute path, or a way out of the folder. The file is then read
through the one gate (loading.open_regular, under reading_game), which
also refuses a link that leads out.

Before this rule a character file's paths started from its system's folder
(`portraits/mara.png` for sixes/portraits/mara.png); `moved_from` finds such
a path, so the loader can keep reading it and say how to write it now.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import NamedTuple

RULE = "paths are relative to the game folder (the one holding sixes.yaml)"


class PathFault(NamedTuple):
    message: str
    hint: str


def game_path(raw: str, game_folder: Path, example: str) -> Path | PathFault:
    """Where the path `raw` leads, by the one rule, or why it may not be
    read. `example` is a path of the right kind, for the hint."""
    if "://" in raw or raw.startswith(("data:", "file:")):
        return PathFault(f"found a URL '{raw}'", f"name a file inside the game folder; {RULE}, e.g. {example}")
    relative = PurePosixPath(raw.replace("\\", "/"))
    root = Path(os.path.normpath(game_folder))
    target = Path(os.path.normpath(root / relative))
    if relative.is_absolute() or raw.startswith("~") or target == root or not target.is_relative_to(root):
        return PathFault(f"'{raw}' is outside the game folder",
                         f"{RULE}, e.g. {example}; copy the file into the game folder")
    if not target.resolve().is_relative_to(root.resolve()):
        return PathFault(f"'{raw}' leads outside the game folder",
                         "copy the file into the game folder: nothing outside it is read")
    return target


def moved_from(raw: str, old_base: Path, game_folder: Path) -> Path | None:
    """The file `raw` named by the rule before this one (relative to
    `old_base`, a system's folder, with no '..'), when it is there and not
    by the rule; None otherwise."""
    relative = PurePosixPath(raw.replace("\\", "/"))
    if relative.is_absolute() or ".." in relative.parts or "://" in raw:
        return None
    old = old_base / relative
    if not old.exists() or not old.resolve().is_relative_to(Path(game_folder).resolve()):
        return None
    return old


def written_now(path: Path, game_folder: Path) -> str:
    """How a path to `path` is written by the rule."""
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(game_folder))).as_posix()
