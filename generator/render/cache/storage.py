"""Where the cache lives and how a file gets into it and out again.

Edge layer; imports the standard library, core/pids and render/cache_marker alone.
The user's cache folder ($SIXES_CACHE_DIR, else
$XDG_CACHE_HOME/sixes-press or ~/.cache/sixes-press) holds one sub-folder
per output folder, named by a hash of its path, and `pdf/`, the rendered
PDFs every output folder shares (pdfs.py). A folder is used only if it
is this user's and only they may write it, and (once written) carries the
tool's marker (render/cache/marker.py), which `clear` checks before removing
anything. Files are written whole (`<name>.<pid>.part`, then renamed), so a
killed writer leaves a `.part` file that the next build sweeps, never half a
file under its real name. Any trouble is a warning (`warn`) and the build
goes on without the cache.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Callable

from ...core.pids import gone
from .marker import claim, make_marked, marked

CACHE_DIR = "sixes-press"
# Where the cache lives when set (tests point it at their own folders).
CACHE_VARIABLE = "SIXES_CACHE_DIR"
_CACHE_NAME = re.compile(r"[0-9a-f]{20}")
# The folder of rendered PDFs, shared by every output folder (a PDF's key is
# its content's: the same key in another game is the same PDF).
SHARED_PDFS = "pdf"

_warnings: list[str] = []


def warn(message: str) -> None:
    """Cache trouble is said once per build and never stops it."""
    if message not in _warnings:
        _warnings.append(message)


def take_warnings() -> list[str]:
    """The warnings since the last call, which forgets them."""
    found = list(_warnings)
    _warnings.clear()
    return found


def regular_file(path: Path) -> bool:
    """A regular file (following links): never a FIFO or device, which would block or never end."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def private_folder(path: Path, create: bool = True) -> Path | None:
    """`path` if it is a folder of this user's that only they may write
    (created so when missing and `create`); None otherwise, with a warning
    unless it is simply not there yet."""
    try:
        if create:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        warn(f"cache folder {path} cannot be used ({exc.strerror}); building without the cache")
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
        warn(f"cache folder {path} is not a private folder of this user's; building without the cache")
        return None
    return path


def cache_base() -> Path:
    """The user's cache folder for this tool."""
    base = os.environ.get(CACHE_VARIABLE)
    if not base:
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / CACHE_DIR
    return Path(base)


def cache_root(out_dir: Path) -> Path:
    """This output folder's cache folder (a path; `usable_root` makes and checks it)."""
    return cache_base() / hashlib.sha256(str(Path(out_dir).resolve()).encode()).hexdigest()[:20]


def clear(out_dir: Path | None = None, forget: Callable[[Path], None] | None = None) -> list[Path]:
    """Forget what builds remembered (`sixes clean`): this output folder's
    cache folder (after `forget(folder)` has let go of what it used of the
    shared folders), or with no `out_dir` every output folder's and the
    shared PDFs. Only folders this tool made (named by a hash or SHARED_PDFS,
    private to this user, and carrying its marker: marker.py) are
    removed; nothing else there, nor a link, is followed or touched.
    Returns the folders removed."""
    base = private_folder(cache_base(), create=False)
    if base is None:
        return []
    if out_dir is not None:
        candidates = [cache_root(out_dir)]
    else:
        candidates = sorted(p for p in base.iterdir() if _CACHE_NAME.fullmatch(p.name) or p.name == SHARED_PDFS)
    removed = []
    for folder in candidates:
        if private_folder(folder, create=False) is not None and marked(folder):
            if forget is not None:
                forget(folder)
            shutil.rmtree(folder)
            removed.append(folder)
    return removed


def shared_pdfs_root() -> Path:
    """The folder of rendered PDFs every output folder shares (a path; `usable_folder` makes and checks it)."""
    return cache_base() / SHARED_PDFS


def usable_root(out_dir: Path, create: bool = False) -> Path | None:
    """This output folder's cache folder, private and marked as the tool's,
    or None. Only writing creates (and marks) it: a build that fails leaves
    no cache behind."""
    return usable_folder(cache_root(out_dir), create)


def usable_folder(root: Path, create: bool = False) -> Path | None:
    """`root`, a folder of the cache folder, when it is private and marked as
    the tool's (made and marked when `create`); else None. A folder already
    there is never marked, unless an older release made it (cache_marker.claim)."""
    if private_folder(cache_base(), create) is None:
        return None
    try:
        if create and not os.path.lexists(root):
            _sweep_partial_folders(root)
            make_marked(root)
        if private_folder(root, create=False) is None:
            return None
        if create:
            claim(root)
        if marked(root):
            return root
    except OSError as exc:
        warn(f"cache folder {root} cannot be used ({exc.strerror}); building without the cache")
        return None
    if create:      # reading only, an older release's folder is adopted at the first write
        warn(f"cache folder {root} was not made by Sixes Press; building without the cache")
    return None


def _sweep_partial_folders(root: Path) -> None:
    """Remove the half-made copies of `root` (cache_marker.partial_name) whose maker is gone."""
    for path in root.parent.glob(f".{root.name}.*.part"):
        pid = path.name.split(".")[-2]
        if pid.isdigit() and gone(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def read_text(out_dir: Path, name: str) -> str | None:
    """A small text file from this output folder's cache, or None."""
    root = usable_root(out_dir)
    try:
        path = root / name if root else None
        return path.read_text(encoding="utf-8") if path and regular_file(path) else None
    except (OSError, UnicodeDecodeError):
        return None


def write_text(out_dir: Path, name: str, text: str) -> None:
    """Write a cache file whole (a partial file never has the real name)."""
    root = usable_root(out_dir, create=True)
    if root is None:
        return
    try:
        write_whole(root / name, text.encode("utf-8"))
    except OSError as exc:
        warn(f"could not save to the cache ({exc.strerror}); the next build may do more work")


def write_whole(path: Path, body: bytes) -> None:
    """Write a file under a partial name (`*.<pid>.part`, which
    `sweep_partial_files` removes once its writer is gone), then rename it:
    a reader never sees half of it. OSError when it cannot be written."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        partial.write_bytes(body)
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)
        raise


def sweep_partial_files(folder: Path) -> None:
    """Remove `*.<pid>.part` files whose writer is gone (killed mid-write)."""
    for path in folder.glob("*.part"):
        pid = path.name.split(".")[-2] if path.name.count(".") >= 2 else ""
        if pid.isdigit() and gone(int(pid)):
            path.unlink(missing_ok=True)
