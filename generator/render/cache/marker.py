"""The mark a cache folder this tool made carries, so `sixes clean` removes
only what the tool made.

Edge layer, standard library only. Cache folders are named by a hash
(cache/storage.cache_root), but a name is no proof: SIXES_CACHE_DIR may point at a
folder the user also keeps their own things in, one of them named like a
cache folder. So the tool writes MARKER into each cache folder as it makes
it, holding that folder's own name, and cleaning checks it (a regular file,
not a link, with exactly that text) before removing anything.

Only a folder the tool made is marked: it is made under a partial name with
its marker already inside and renamed into place (`make_marked`), so no
folder that was there before, not even an empty one the user made, is ever
marked (and later cleaned with what they put in it).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path

MARKER = ".sixes-press-cache"
# What a cache folder of a release before the marker could hold (render/cache/'s
# files, `*.part` files a killed write left); such a folder is adopted.
_OWN_NAMES = re.compile(r"pdf|memo\.json|site\.inputs|site\.key|last-build\.json|.*\.\d+\.part")
_LIMIT = 200        # bytes: the marker is one short line


def _text(folder: Path | str) -> str:
    name = folder if isinstance(folder, str) else folder.name
    return json.dumps({"tool": "sixes-press", "cache folder": name}) + "\n"


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


def mark(folder: Path, name: str | None = None) -> None:
    """Write the marker for `name` (the folder's own by default) whole: a
    partial file never has its name."""
    partial = folder / f"{MARKER}.{os.getpid()}.part"
    try:
        partial.write_text(_text(name or folder), encoding="utf-8")
        os.replace(partial, folder / MARKER)
    except OSError:
        partial.unlink(missing_ok=True)
        raise


def partial_name(folder: Path) -> str:
    """The name a folder is made under before it is renamed into place
    (`.<name>.<pid>.part`, beside it)."""
    return f".{folder.name}.{os.getpid()}.part"


def make_marked(folder: Path) -> bool:
    """Make `folder` (private to this user) with its marker already in it,
    or do nothing when the name is taken (by a user's folder, or by another
    build that made it first): False then. OSError when it cannot be made."""
    partial = folder.with_name(partial_name(folder))
    os.mkdir(partial, 0o700)
    try:
        mark(partial, folder.name)
        if os.path.lexists(folder):
            return False
        try:
            # A non-empty folder cannot be renamed over; one made in the instant since the check could,
            # but then it holds nothing of anyone's.
            os.rename(partial, folder)
        except (FileExistsError, OSError) as exc:
            if os.path.lexists(folder):
                return False
            raise exc
        return True
    finally:
        if os.path.lexists(partial):
            shutil.rmtree(partial, ignore_errors=True)


def claim(folder: Path) -> None:
    """Mark a cache folder an older release made, before markers (it holds
    some of the cache's own names and nothing else); any other unmarked
    folder, an empty one too, is left unmarked, so cleaning never removes
    it. OSError when the marker cannot be written."""
    if marked(folder):
        return
    entries = list(folder.iterdir())
    if entries and all(_OWN_NAMES.fullmatch(entry.name) for entry in entries):
        mark(folder)
