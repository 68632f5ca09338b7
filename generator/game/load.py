"""Loading every system a game folder holds, all problems at once.

Game layer: pure. It reads the folder's data through each system's loader
(systems/) and the shared core; it renders nothing and writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..core.errors import DataError, Problem, errors_in
from ..systems.base import System


@dataclass
class Loaded:
    system: System
    game: Any


def load_all(data_dir: Path, strict: bool = False, systems: Iterable[str] | None = None
             ) -> tuple[list[Loaded], list[Problem]]:
    """Load every system present in `data_dir` (or only `systems`, the
    settings' list). Raises DataError listing every problem when anything is
    invalid (warnings too, when `strict`). Text the printed fonts cannot show
    is refused here, at its line, not by the renderer later."""
    loaded, problems = load_each(data_dir, systems)
    blocking = problems if strict else errors_in(problems)
    if blocking:
        raise DataError(problems)
    return loaded, problems


def load_each(data_dir: Path, systems: Iterable[str] | None = None) -> tuple[list[Loaded], list[Problem]]:
    """Every system present, each on its own: the games whose data has no
    error, and every problem of every game (the gather goes on to check the
    casting against the games that loaded). Raises DataError only when there
    is no game to load at all. Files are read inside `data_dir` only
    (core/loading.reading_game)."""
    from .. import systems as registry
    from ..core.datafiles import unknown_system_folders
    from ..core.glyphs import check_glyphs
    from ..core.loading import reading_game
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise DataError([Problem(str(data_dir), None, None, "data folder not found",
                                 hint="pass --data DIR, or create one with `sixes new DIR`")])
    wanted = list(registry.SLUGS if systems is None else systems)
    present = [registry.system(slug) for slug in registry.SLUGS if slug in wanted and (data_dir / slug).is_dir()]
    display_root = data_dir.parent if data_dir.parent != data_dir else data_dir
    problems = unknown_system_folders(data_dir, registry.SLUGS, display_root)
    if not present:
        raise DataError(problems + [Problem(str(data_dir), None, None, "no game data in this folder",
                                            hint="expected a sub-folder named " + " or ".join(wanted))])
    loaded = []
    with reading_game(data_dir):
        for system in present:
            game, found = system.load(data_dir / system.slug, display_root)
            found = found + check_glyphs(data_dir / system.slug, display_root)     # every problem at once
            problems.extend(found)
            if game is not None and not errors_in(found):
                loaded.append(Loaded(system, game))
    return loaded, problems
