"""The one date a run writes into its files, so unchanged input gives
unchanged bytes (https://reproducible-builds.org/specs/source-date-epoch/).

Edge layer like the rest of game/: reads the game folder (and asks git about
it), renders nothing. The order of answers:

1. `SOURCE_DATE_EPOCH`, when set: the user (or a packager) decides.
2. The date of the game's last commit, when its inputs sit in a git work tree
   with nothing uncommitted: a fresh clone gets the same date as the original,
   though checking out gives every file a new time.
3. Otherwise the newest modification time among the game's input files.

Every date read from outside (the variable, git's answer, a file's time) is
an input and goes through `bounded`, the one place its range is held: the
files the tool writes can carry 1980-01-01 (a zip's first date) to
2106-02-07 (the last a gzip header's 32 bits hold). An earlier date is a real
date they cannot say, so it becomes 1980-01-01; a later one is a mistake (a
typo, a clock set wrong), so it is refused in one line that says what was
found, the range, and where it came from. The libraries that date files
themselves (MkDocs's sitemap, fontTools' font stamps) read only the
environment variable: `stamped` hands them the date for the length of a call.
"""
from __future__ import annotations

import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..core.programs import ProgramError, run_git
from .folder import GameError
from .settings import game_inputs

SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"
EARLIEST = 315532800            # 1980-01-01T00:00:00Z, the first date a zip can hold
LATEST = 2**32 - 1              # 2106-02-07T06:28:15Z, the last a gzip header (the site's sitemap) can hold
_RANGE = ("the files Sixes Press writes (a pack's zip, the site's gzip files) can be dated from 1980-01-01 "
          "(an earlier date is written as 1980-01-01) to 2106-02-07 06:28:15 UTC")
_DIGITS = re.compile(r"[0-9]+")        # ASCII digits only: '²' is a digit to str.isdigit, not to int()
_GIT_SECONDS = 30               # asking git about one folder takes milliseconds


def given_date() -> int | None:
    """SOURCE_DATE_EPOCH as a number of seconds, None when unset."""
    value = os.environ.get(SOURCE_DATE_EPOCH)
    if value is None:
        return None
    remedy = "set it to a date in that range (for example `git log -1 --format=%ct`), or unset it"
    digits = value.strip()
    if not _DIGITS.fullmatch(digits):
        raise GameError(f"{SOURCE_DATE_EPOCH} is {_shown(value)}: it must be a whole "
                        f"number of seconds since 1970-01-01 UTC; {_RANGE}; {remedy}")
    # More digits than any date has: int() of thousands of them is refused by Python itself.
    return bounded(int(digits) if len(digits) <= 20 else 10**20,
                   SOURCE_DATE_EPOCH, remedy, found=_shown(value))


def bounded(seconds: int, source: str, remedy: str, found: str | None = None) -> int:
    """`seconds` as a date the tool can write: before 1980 becomes 1980-01-01,
    after LATEST is refused, naming `source`, what it held (`found`) and
    what to do (`remedy`)."""
    if seconds > LATEST:
        what = _day(seconds) if found is None else f"{found} ({_day(seconds)})"
        raise GameError(f"{source} is {what}: it is later than the last date the tool can write; {_RANGE}; "
                        f"{remedy}")
    return max(seconds, EARLIEST)


def _day(seconds: int) -> str:
    """A date for a message, even one past what the clock functions take."""
    if seconds > 253402300799:          # after 9999-12-31
        return "after the year 9999"
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(seconds))


def _shown(value: str) -> str:
    """The variable's value for a message, a long one cut short."""
    return repr(value) if len(value) <= 40 else f"{value[:40]!r}... ({len(value)} characters)"


def source_date(data_dir: Path) -> int:
    """The date written into a run's files (see the module's docstring)."""
    given = given_date()
    if given is not None:
        return given
    inputs = game_inputs(data_dir)
    committed = _commit_date(Path(data_dir), inputs)
    if committed is not None:
        return bounded(committed, f"The date of the last commit of the game in {data_dir}",
                       "fix the commit's date (git commit --amend --date=...), or set SOURCE_DATE_EPOCH")
    newest = max((_newest_file(path) for path in inputs), default=(EARLIEST, Path(data_dir)))
    return bounded(newest[0], f"The modification time of {newest[1]}",
                   f"give the file the right time (touch {newest[1].name}), or set SOURCE_DATE_EPOCH")


def _git(folder: Path, command: tuple[str, ...], paths: list[str]) -> str | None:
    """git's answer about the game's `paths` (operands, after `--`), or None
    when there is no git, no repository or no answer in time."""
    try:
        return run_git(command, paths, cwd=folder, timeout=_GIT_SECONDS)
    except ProgramError:
        return None


def _commit_date(folder: Path, inputs: list[Path]) -> int | None:
    """The last commit's date when every input is committed as it is; None
    outside git, before the first commit, or with uncommitted changes."""
    if not inputs or not folder.is_dir():
        return None
    paths = [str(path) for path in inputs]
    status = _git(folder, ("status", "--porcelain", "--untracked-files=all", "--ignore-submodules=all"), paths)
    if status is None or status.strip():
        return None
    stamp = _git(folder, ("log", "-1", "--format=%ct"), paths)
    return int(stamp) if stamp and _DIGITS.fullmatch(stamp.strip()) else None


def _newest_file(path: Path) -> tuple[int, Path]:
    """The newest modification time of a file, or of any file below a
    folder, with the file that has it."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return max(((int(p.stat().st_mtime), p) for p in files), default=(EARLIEST, path))


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
