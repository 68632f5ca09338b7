"""The mark a cache folder this tool made carries, so `sixes clean` removes
only what the tool made.

Edge layer, standard library only. Cache folders are named by a hash
(cache/storage.cache_root), but a name is no proof: SIXES_CACHE_DIR may point at a
folder the user also keeps their own things in, one of them named like a
cache folder. So the tool writes MARKER into each cache folder as it makes
it, holding that folder's own name, and cleaning checks it (a regular file,
not a link, with exactly that text) before removing anything.
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

MARKER = ".sixes-press-cache"
# What a cache folder of a release before the marker could hold (render/cache/'s
# files, `*.part` files a killed write left); such a folder is adopted.
_OWN_NAMES = re.compile(r"pdf|memo\.json|site\.inputs|site\.key|last-build\.json|.*\.\d+\.part")
_LIMIT = 200        # bytes: the marker is one short line


def _text(folder: Path) -> str:
    return json.dumps({"tool": "sixes-press", "cache folder": folder.name}) + "\n"


def marked(folder: Path) -> bool:
    """Whether `folder` carries this tool's marker for itself."""
    path = folder / MARKER
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return False
        return os.read(handle, _LIMIT + 1) == _text(folder).encode()
    finally:
        os.close(handle)


def mark(folder: Path) -> None:
    """Write the marker whole (a partial file never has its name)."""
    partial = folder / f"{MARKER}.{os.getpid()}.part"
    try:
        partial.write_text(_text(folder), encoding="utf-8")
        os.replace(partial, folder / MARKER)
    except OSError:
        partial.unlink(missing_ok=True)
        raise


def claim(folder: Path, made_now: bool) -> None:
    """Mark a cache folder just made, or one an older release made (it holds
    only the cache's own names); any other unmarked folder is left unmarked,
    so cleaning never removes it. OSError when the marker cannot be written."""
    if marked(folder):
        return
    if made_now or all(_OWN_NAMES.fullmatch(entry.name) for entry in folder.iterdir()):
        mark(folder)
