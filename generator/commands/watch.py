"""`sixes build --watch` and `sixes serve`: rebuild whenever the data, templates or site sources change.

Commands floor. Polls modification times and sizes (no new dependency,
works on every file system); each rebuild goes through the build cache, so
it renders only what changed. A failed rebuild is reported and the watch
goes on (`survive`); only Ctrl-C or SIGTERM ends it (`watch_game`).
"""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

import click

from ..core.errors import visible
from .failures import BUILD, converted

if TYPE_CHECKING:
    from ..game.folder import Game

Snapshot = dict[str, tuple[int, int]]


def snapshot(roots: Iterable[Path]) -> Snapshot:
    """(mtime in ns, size) of every regular file under the roots. Files that
    vanish while we look (an editor's temporary files) are skipped, never fatal."""
    state: Snapshot = {}
    for root in roots:
        try:
            paths = [Path(root)] if Path(root).is_file() else list(Path(root).rglob("*"))
        except OSError:     # a folder vanished mid-walk: the next poll sees the settled state
            continue
        for path in paths:
            try:
                info = path.stat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                state[str(path)] = (info.st_mtime_ns, info.st_size)
    return state


def watch(roots: list[Path], rebuild: Callable[[list[str]], None], *, interval: float = 1.0,
          sleep: Callable[[float], None] = time.sleep, polls: int | None = None, first: bool = True) -> int:
    """Build once (unless `first` is False), then again after each change (a
    burst of saves settles for half an interval first); `rebuild` is given
    the files that changed ([] the first time). Returns the number of builds;
    runs until interrupted, or for `polls` polls (tests)."""
    builds, before, count = 0, snapshot(roots), 0     # before building: an edit made during it counts
    if first:
        rebuild([])
        builds = 1
    while polls is None or count < polls:
        sleep(interval)
        count += 1
        now = snapshot(roots)
        if now != before:
            sleep(interval / 2)          # let an editor finish writing
            now = snapshot(roots)
            changed = sorted(path for path in now.keys() | before.keys() if now.get(path) != before.get(path))
            before = now
            rebuild(changed)
            builds += 1
    return builds


def watch_game(game: Game, build_once: Callable[[], None], after: Callable[[bool], None] = lambda passed: None,
               first: bool = True) -> None:
    """Build, then build again after every change to the game's data, the
    templates or the site sources, saying what changed and how long the
    rebuild took; any failure is printed and the watch goes on (survive).
    `after` is told whether each build passed (serve reloads its pages)."""
    from ..core.paths import SITE_SOURCES_DIR, TEMPLATES_DIR

    def once(changed: Sequence[str] = ()) -> None:
        if changed:
            names = [os.path.relpath(c) if c.startswith(os.getcwd()) else c for c in changed]
            click.echo(f"Changed: {visible(', '.join(names[:3]))}"
                       + (f" and {len(names) - 3:d} more" if len(names) > 3 else ""), err=True)
        started = time.monotonic()
        passed = survive(build_once)
        after(passed)
        click.echo(f"{'Rebuilt' if changed else 'Built'} in {time.monotonic() - started:.1f} s. "
                   f"Watching {visible(game.shown)} and the templates; Ctrl-C to stop.", err=True)
    roots = [*game.watched, TEMPLATES_DIR, SITE_SOURCES_DIR]
    try:
        # The watch survives what the file system throws at it (each build's
        # own failures stop in `survive`; `snapshot` skips a file that vanishes).
        while True:
            try:
                watch(roots, once, first=first)
                return
            except OSError as exc:
                click.secho(f"error: watching failed ({visible(exc)}); watching again", fg="red", err=True)
                first = False
    except KeyboardInterrupt:
        pass
    finally:
        from ..render.pdf.batch import stop_pools
        stop_pools()


def survive(build_once: Callable[[], None]) -> bool:
    """One build of a long-running command (--watch, serve): whatever goes
    wrong is printed and the command keeps running with the last good
    output; only Ctrl-C (or SIGTERM) ends it. Returns whether the build passed."""
    try:
        with converted(BUILD):
            build_once()
        return True
    except click.ClickException as exc:
        exc.show()
        if exc.exit_code == 130:
            raise KeyboardInterrupt from None
        return False
    except SystemExit as exc:
        if exc.code == 130:
            raise KeyboardInterrupt from None
        return exc.code in (0, None)
    except Exception as exc:    # a bug of ours must not end a watch either
        click.secho(f"error: the build failed unexpectedly ({visible(type(exc).__name__)}: {visible(exc)}); "
                    "the previous output is unchanged", fg="red", err=True)
        return False
