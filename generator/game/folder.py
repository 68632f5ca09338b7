"""Where a command works: the game folder, its settings, output and papers.

Edge layer (reads the file system, no rendering). Every command asks
`locate_game` once, so "which data, which output, which paper" has one
answer: the command line first, then the game folder's sixes.yaml, then the
defaults. Run inside a game folder (or below it) a command needs no flags.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import DataError, Problem, UserError

from ..core.paper import Paper, papers_for
from .settings import SETTINGS_FILE, Settings, find_game, game_input_paths, load_settings


class GameError(UserError):
    """No game folder could be found or used; the message says what to do.
    Raised while a command finds its game, before anything is at stake."""

    tells_unchanged = False


@dataclass(frozen=True)
class Game:
    data_dir: Path                  # the game folder: one sub-folder per system
    settings: Settings
    out_dir: Path | None            # None only for commands that write nothing
    papers: tuple[Paper, ...]
    shown: str                      # the folder as the user named it (or as found from where they stand)

    @property
    def watched(self) -> list[Path]:
        """What a rebuild is made from in the game folder (settings.game_input_paths:
        the settings, each system's folder and the site's own pages, never the
        output, which may sit inside it), watched even before they exist."""
        return game_input_paths(self.data_dir, self.settings.pages_dir)


def locate_game(data_dir: Path | None, out_dir: Path | None = None, paper: str | None = None, *,
                needs_out: bool = True, start: Path | None = None) -> Game:
    """--data, else the nearest folder at or above `start` (the current
    folder) holding sixes.yaml. The output is --out, else the settings'
    output folder; a data folder without settings needs --out."""
    if data_dir is None:
        found = find_game(start or Path.cwd())
        if found is None:
            raise GameError(f"no {SETTINGS_FILE} in {start or Path.cwd()} or any folder above it: run this inside a "
                            "game folder, make one with `sixes new mygame`, or name a data folder with --data DIR")
        shown = os.path.relpath(found) if found.is_relative_to(Path.cwd()) else str(found)
        data_dir = found
    else:
        shown = str(data_dir)
    data_dir = Path(data_dir).resolve()
    if not data_dir.is_dir():
        raise DataError([Problem(shown, None, None, "data folder not found",
                                 hint=f"make a game with `sixes new {data_dir.name}`, or pass --data DIR")])
    settings = load_settings(data_dir, Path.cwd()) if (data_dir / SETTINGS_FILE).is_file() else Settings()
    if out_dir is None:
        out_dir = settings.out_dir
    if out_dir is None and needs_out:
        raise GameError(f"{shown} has no {SETTINGS_FILE}, so say where the output goes with --out DIR "
                        f"(or add a {SETTINGS_FILE} with `output: output`)")
    papers = settings.papers if paper is None else papers_for(paper)
    return Game(data_dir, settings, Path(out_dir).resolve() if out_dir else None, papers, shown)
