"""`sixes build --watch`: rebuild whenever the data, templates or site sources change.

Edge layer. Polls modification times and sizes (no new dependency, works on
every file system); each rebuild goes through the build cache, so it renders
only what changed. A failed rebuild is reported and the watch goes on.
"""
from __future__ import annotations

import stat
import time
from pathlib import Path
from typing import Callable, Iterable

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
