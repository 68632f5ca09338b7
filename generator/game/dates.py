"""The one date a run writes into its files, so unchanged input gives
unchanged bytes (https://reproducible-builds.org/specs/source-date-epoch/).

Edge layer like the rest of game/: reads the game folder (and asks git about
it), renders nothing. The order of answers:

1. `SOURCE_DATE_EPOCH`, when set: the user (or a packager) decides.
2. The date of the game's last commit, when its inputs sit in a git work tree
   with nothing uncommitted: a fresh clone gets the same date as the original,
   though checking out gives every file a new time.
3. Otherwise the newest modification time among the game's input files.

A zip cannot hold a date before 1980, so none is earlier. The libraries that
date files themselves (MkDocs's sitemap, fontTools' font stamps) read only the
environment variable: `stamped` hands them the date for the length of a call.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..core.programs import ProgramError, run_program
from .folder import GameError
from .settings import game_inputs

SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"
EARLIEST = 315532800            # 1980-01-01T00:00:00Z, the first date a zip can hold
_GIT_SECONDS = 30               # asking git about one folder takes milliseconds


def given_date() -> int | None:
    """SOURCE_DATE_EPOCH as a number of seconds, None when unset."""
    value = os.environ.get(SOURCE_DATE_EPOCH)
    if value is None:
        return None
    if not value.strip().isdigit():
        raise GameError(f"{SOURCE_DATE_EPOCH} is {value!r}: it must be a whole number of seconds since "
                        "1970-01-01 UTC (for example `git log -1 --format=%ct`), or unset")
    return max(int(value), EARLIEST)


def source_date(data_dir: Path) -> int:
    """The date written into a run's files (see the module's docstring)."""
    given = given_date()
    if given is not None:
        return given
    inputs = game_inputs(data_dir)
    committed = _commit_date(Path(data_dir), inputs)
    if committed is not None:
        return max(committed, EARLIEST)
    return max([_newest_time(path) for path in inputs] + [EARLIEST])


def _git(folder: Path, command: tuple[str, ...], paths: list[str]) -> str | None:
    """git's answer about the game's `paths` (operands, after `--`), or None
    when there is no git, no repository or no answer in time."""
    try:
        return run_program(("git", "-C", str(folder), *command), paths, cwd=folder, timeout=_GIT_SECONDS,
                           env={"GIT_OPTIONAL_LOCKS": "0"})
    except ProgramError:
        return None


def _commit_date(folder: Path, inputs: list[Path]) -> int | None:
    """The last commit's date when every input is committed as it is; None
    outside git, before the first commit, or with uncommitted changes."""
    if not inputs or not folder.is_dir():
        return None
    paths = [str(path) for path in inputs]
    status = _git(folder, ("status", "--porcelain", "--untracked-files=all"), paths)
    if status is None or status.strip():
        return None
    stamp = _git(folder, ("log", "-1", "--format=%ct"), paths)
    return int(stamp) if stamp and stamp.strip().isdigit() else None


def _newest_time(path: Path) -> int:
    """The newest modification time of a file, or of any file below a folder."""
    if path.is_file():
        return int(path.stat().st_mtime)
    times = [int(p.stat().st_mtime) for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return max(times, default=EARLIEST)


@contextmanager
def stamped(seconds: int) -> Iterator[None]:
    """SOURCE_DATE_EPOCH set to `seconds` for the block, as it was afterwards."""
    before = os.environ.get(SOURCE_DATE_EPOCH)
    os.environ[SOURCE_DATE_EPOCH] = str(seconds)
    try:
        yield
    finally:
        if before is None:
            del os.environ[SOURCE_DATE_EPOCH]
        else:
            os.environ[SOURCE_DATE_EPOCH] = before
