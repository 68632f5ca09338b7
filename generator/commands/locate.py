"""Where a command works, and the run it asks for.

Commands floor. Every command starts here: `locate` finds the game folder,
its settings, the output folder and the papers (game/folder.py), and
`config_for` makes the frozen BuildConfig of a building command from them.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .failures import converted

if TYPE_CHECKING:
    from ..game.folder import Game
    from .context import BuildConfig


def locate(data_dir: Path | None, out_dir: Path | None = None, paper: str | None = None, *,
           needs_out: bool = True) -> Game:
    """Where a command works: the game folder (from --data, else found from
    the current folder upwards), its settings, the output folder and papers.
    A problem here ends the command with status 1 before anything is at
    stake, so it says nothing of what was written."""
    from ..game.folder import locate_game
    with converted(None):
        return locate_game(data_dir, out_dir, paper, needs_out=needs_out)


def config_for(game: Game, **asked: Any) -> BuildConfig:
    """The run a command asks for, as one frozen BuildConfig: the game
    folder's settings and whatever the command line said."""
    from .context import BuildConfig
    assert game.out_dir is not None     # a building command locates with needs_out=True
    return BuildConfig(game.data_dir, game.out_dir, game.papers, settings=game.settings, **asked)
