"""The render workers' temporary files, kept where they can be swept.

Edge layer; imports core/pids alone. WeasyPrint copies a document's fonts into
a `weasyprint-*` folder of the system's temporary directory and removes it
when the font configuration is garbage collected, which a pool worker never
reaches: it ends with os._exit, or is killed on Ctrl-C, so every build left
its workers' folders of fonts behind in /tmp. Instead each worker, and a
command that renders in its own process (--jobs 1), makes its temporary
files inside a folder of its own, named by its pid, and removes it as it
ends; the folders of processes that were killed are swept by the process
that stopped them (batch.stop_pools), by the next pool to start and by the
next build.
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from multiprocessing import util
from pathlib import Path

from ...core.pids import gone

PREFIX = "sixes-press-render-"


def use_own_folder() -> None:
    """Send every temporary file of this process into a new private folder
    named by its pid, removed when the process ends normally (a process
    already in one keeps it). If it cannot be made, the process goes on
    with the system's folder."""
    if _own(Path(tempfile.gettempdir())):
        return
    try:
        folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    except OSError:
        return
    tempfile.tempdir = folder
    util.Finalize(None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=0)


def _own(folder: Path) -> bool:
    return folder.name.startswith(f"{PREFIX}{os.getpid()}-")


def sweep() -> None:
    """Remove the folders of processes that are gone: only folders (never a
    link) of this user's, named by a pid no process has any more."""
    base = Path(tempfile.gettempdir())
    if _own(base):          # this process renders in a folder of its own: look beside it
        base = base.parent
    try:
        candidates = list(base.glob(f"{PREFIX}*-*"))
    except OSError:
        return
    for path in candidates:
        pid = path.name[len(PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or not gone(int(pid)):
            continue
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid():
            shutil.rmtree(path, ignore_errors=True)

