"""Whether the process that left a file behind is still there.

Core layer, standard library only. Files a process writes while it runs are
named by its pid (a cache file's `<name>.<pid>.part`, a render worker's
temporary folder); whoever finds one removes it only when that process is
gone, so a live writer's file is never pulled from under it.
"""
from __future__ import annotations

import os
from pathlib import Path


def gone(pid: int) -> bool:
    """Whether no running process has `pid`. A zombie (killed, not yet reaped
    by its parent) is gone: it will never write again. Someone else's process,
    or one whose state cannot be read, counts as running."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state == "Z"
