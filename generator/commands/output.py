"""The one writer of an output folder: what `build` and `pack` put on disk
goes through here, and this is where "never lose a user's file" lives.

Edge layer, standard library only. An `OutputFolder`:

- refuses a folder that overlaps the data, the templates, the site sources
  or the cache, or that is `/`, a home folder or a system folder, before
  anything is written (`refuse_unsafe`);
- holds a lock on the folder, so two runs never write it at once;
- stages everything in a hidden folder inside the output folder, and cleans
  what an interrupted or killed run left there (its staging folder, a swap
  it did not finish), also first thing in a run that then writes nothing
  (`recover`);
- replaces only entries it made itself: each entry's files are listed in
  `.sixes-press.json`; a file or folder it did not make is never replaced,
  and a file a user added inside one of its folders (`site/CNAME`) is
  carried into the new copy;
- swaps each finished entry in with one atomic exchange where the file
  system allows (Linux `renameat2`), else with two renames recorded in a
  journal the next run replays, so the folder always holds a whole entry.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterable

from ..core.errors import UserError

RECORD = ".sixes-press.json"
JOURNAL = ".sixes-press-swap.json"
STAGING_PREFIX = ".sixes-staging-"
# Staging folders of earlier releases, cleaned the same way.
_OLD_STAGING_PREFIXES = (".sixes-build-", ".sixes-pack-")
# Folders no build should ever write into, whatever is asked.
_SYSTEM_FOLDERS = ("/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/media", "/mnt", "/opt", "/proc",
                   "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var")


class OutputError(UserError):
    """The output folder cannot be used as asked; the message says why, in one line."""

    multiline = True


def refuse_unsafe(out_dir: Path, protected: Iterable[tuple[str, Path]]) -> None:
    """Refuse an output folder that is, holds or lies inside one of the
    `protected` (label, folder) pairs, or that is the root, a home folder or
    a system folder. Nothing has been written when this raises."""
    out = Path(out_dir).resolve()
    special = {Path("/"), Path.home().resolve(), *(Path(p) for p in _SYSTEM_FOLDERS)}
    if out in special:
        raise OutputError(f"refusing to write into {out}: choose a folder of its own, e.g. {out / 'sixes-output'}"
                          if out != Path("/") else "refusing to write into / : choose a folder of its own")
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} is a file, not a folder: choose another --out")
    for label, folder in protected:
        folder = Path(folder).resolve()
        if out == folder or out.is_relative_to(folder) or folder.is_relative_to(out):
            where = "is" if out == folder else "is inside" if out.is_relative_to(folder) else "holds"
            raise OutputError(f"refusing to write into {out}: it {where} the {label} ({folder}); "
                              "choose an output folder apart from it")


def recover(out_dir: Path) -> None:
    """Finish what a killed run left in `out_dir` (undo a half swap, remove
    its staging folders, which may hold secret sheets) before a command
    takes any shortcut, such as a build that finds nothing changed. Under
    the lock, so a live run's staging is never touched; a missing folder is
    left missing."""
    root = Path(out_dir).resolve()
    if not root.is_dir() or root.is_symlink():
        return
    folder = OutputFolder(root)
    folder._take_lock()
    try:
        folder._recover()
    except OSError as exc:
        raise OutputError(f"cannot write to {root}: {exc.strerror}") from None
    finally:
        folder._release()


class OutputFolder:
    """Use as a context manager; stage files under `.staging`, then `commit`
    the entries (paths relative to the output folder) that are finished."""

    def __init__(self, out_dir: Path, protected: Iterable[tuple[str, Path]] = (), entries: Iterable[str] = ()):
        self.root = Path(out_dir).resolve()
        self.protected = tuple(protected)
        self.entries = tuple(entries)   # what this run means to replace: checked before anything is written
        self._staging: Path | None = None   # made on entering the with block
        self.kept: list[str] = []       # users' files carried into new entries
        self._lock: int | None = None   # the folder's descriptor while this run holds it
        self._claims: set[str] = set()  # every path a writer of this run has claimed (claim)

    @property
    def staging(self) -> Path:
        """Where this run writes before `commit`: there only inside the with block."""
        if self._staging is None:
            raise RuntimeError("an OutputFolder stages files only inside its with block")
        return self._staging

    def __enter__(self) -> "OutputFolder":
        refuse_unsafe(self.root, self.protected)
        self.check_replaceable(self.entries)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write to {self.root}: {exc.strerror}") from None
        self._take_lock()
        try:
            self._recover()
            self._staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.root))
        except OSError as exc:
            self._release()
            raise OutputError(f"cannot write to {self.root}: {exc.strerror}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
        self._release()

    def _take_lock(self) -> None:
        """The folder itself is the lock: two runs never write it at once."""
        try:
            self._lock = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise OutputError(f"cannot write to {self.root}: {exc.strerror}") from None
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._release()
            raise OutputError(f"another sixes command is writing to {self.root}; wait for it to finish") from None

    def _release(self) -> None:
        if self._lock is not None:
            os.close(self._lock)    # closing drops the lock
            self._lock = None

    def claim(self, path: Path) -> None:
        """Refuse a second write to one path in this run, even spelt in
        another case (a file system that ignores case would keep only the
        last): one document must never quietly replace another."""
        path = Path(path)
        key = str(path).casefold()
        if key in self._claims:
            staging = self._staging
            shown = path.relative_to(staging) if staging and path.is_relative_to(staging) else path
            raise OutputError(f"two documents would both write {shown.as_posix()}")
        self._claims.add(key)

    # -- what is ours -------------------------------------------------------

    def record(self) -> dict[str, list[str]]:
        """Every entry this tool made here, with its files ('' for an entry that is a file)."""
        try:
            data = json.loads((self.root / RECORD).read_text(encoding="utf-8"))
            entries = data["entries"]
            if isinstance(entries, dict) and all(isinstance(v, list) for v in entries.values()):
                return {str(k): [str(f) for f in v] for k, v in entries.items() if _plain_entry(str(k))}
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return {}

    def _write_record(self, entries: dict[str, list[str]]) -> None:
        partial = self.root / f"{RECORD}.part"
        partial.write_text(json.dumps({"tool": "sixes-press", "entries": entries}, indent=1), encoding="utf-8")
        os.replace(partial, self.root / RECORD)

    def owned(self, entry: str) -> bool:
        return entry in self.record()

    def check_replaceable(self, entries: Iterable[str]) -> None:
        """Refuse, before any work, to replace an entry this tool did not make."""
        made = self.record()
        for entry in entries:
            current = self.root / entry
            for parent in list(current.relative_to(self.root).parents)[-2::-1]:
                folder = self.root / parent
                if folder.is_symlink() or folder.exists() and not folder.is_dir():
                    raise OutputError(f"{folder} is not a folder Sixes Press can write into, so it is left alone "
                                      "and nothing was written; move it away or choose another --out")
            if (current.exists() or current.is_symlink()) and entry not in made:
                raise OutputError(f"{current} was not made by Sixes Press, so it is left alone and nothing was "
                                  f"written; move it away or choose another --out")

    # -- swapping in --------------------------------------------------------

    def commit(self, entries: Iterable[str], retire: Iterable[str] = ()) -> None:
        """Move each staged entry (staging/<entry>) over the current one and
        remove the `retire` entries (ours only). Every check runs before the
        first move, so a refusal leaves the folder as it was."""
        entries = [e for e in entries if (self.staging / e).exists()]
        self.check_replaceable(entries)
        made = self.record()
        # An entry to retire is named by the record, which a game folder may ship in its output/:
        # one with a link on its way would remove a file elsewhere, so it is checked like the rest.
        gone = [e for e in retire if e in made and e not in entries]
        self.check_replaceable(gone)
        for entry in entries:
            self._carry_users_files(entry, made.get(entry, []))
        new = {entry: _files(self.staging / entry) for entry in entries}
        # While swapping, the record claims old and new files alike, so a crash
        # in between never makes our own files look like a user's.
        self._write_record({**made, **{e: sorted(set(made.get(e, [])) | set(new[e])) for e in entries}})
        for entry in entries:
            self._swap(entry)
        for entry in gone:
            _remove(self.root / entry)
        self._write_record({**{e: f for e, f in made.items() if e not in gone}, **new})

    def _carry_users_files(self, entry: str, ours: list[str]) -> None:
        """Files a user put inside one of our folders go into the new copy: regular files only."""
        current = self.root / entry
        if not current.is_dir() or current.is_symlink():
            return
        known = set(ours)
        staged = self.staging / entry
        for name in _files(current):
            if name in known:
                continue
            target = staged / name
            source = current / name
            # A link is not carried either: the output folder may come with a game folder (its output/),
            # and a link kept in the site would publish whatever it points to (a deploy copies the file).
            if not stat.S_ISREG(source.lstat().st_mode):
                raise OutputError(f"{source} was not made by Sixes Press and is not a regular file (a link, a pipe "
                                  "or a device), so it cannot be carried into the new output; move it away (nothing "
                                  "was written)")
            if target.exists() or target.is_symlink():
                raise OutputError(f"{current / name} was not made by Sixes Press, and the new output has a file "
                                  f"of that name; move it away (nothing was written)")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(current / name, target, follow_symlinks=False)
            self.kept.append(str(Path(entry) / name))

    def _swap(self, entry: str) -> None:
        new, current = self.staging / entry, self.root / entry
        current.parent.mkdir(parents=True, exist_ok=True)
        if not (current.exists() or current.is_symlink()) or new.is_file() and current.is_file():
            os.replace(new, current)
            return
        if _exchange(new, current):
            _remove(new)        # the old copy, now in staging
            return
        retired = self.staging / f".retired-{len(os.listdir(self.staging))}"
        (self.root / JOURNAL).write_text(json.dumps([[str(retired), str(current)]]), encoding="utf-8")
        os.replace(current, retired)
        os.replace(new, current)
        (self.root / JOURNAL).unlink()

    def _recover(self) -> None:
        """Undo a two-rename swap a crash cut in half, then remove staging
        folders no live run owns (we hold the lock, so none does)."""
        journal = self.root / JOURNAL
        if journal.is_file():
            try:
                moves = json.loads(journal.read_text(encoding="utf-8"))
                for retired, current in moves:
                    retired, current = Path(retired), Path(current)
                    if self._journalled(retired, current) and not current.exists() and retired.exists():
                        os.replace(retired, current)
            except (ValueError, TypeError):
                pass
            journal.unlink()
        for path in self.root.iterdir():
            if path.name.startswith((STAGING_PREFIX, *_OLD_STAGING_PREFIXES)) and path.is_dir() \
                    and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
        (self.root / f"{RECORD}.part").unlink(missing_ok=True)

    def _journalled(self, retired: Path, current: Path) -> bool:
        """Whether a journal's move is one `_swap` could have written: an old
        copy directly inside one of our staging folders back to an entry of
        this folder. A journal is read from the folder, which a game folder
        may ship (its `output/`), so a path is judged as written, never by
        a prefix: `..` or a link on the way (or a link moved in) would lead
        out, to publish a file from elsewhere on the machine or to plant one
        there."""
        staging = retired.parent
        if staging.parent != self.root or not staging.name.startswith((STAGING_PREFIX, *_OLD_STAGING_PREFIXES)) \
                or retired.name in ("", ".", "..") or staging.is_symlink() or retired.is_symlink():
            return False
        if not current.is_relative_to(self.root):
            return False
        entry = current.relative_to(self.root).as_posix()
        return _plain_entry(entry) and not any((self.root / parent).is_symlink()
                                               for parent in PurePosixPath(entry).parents if parent.parts)


def _plain_entry(entry: str) -> bool:
    """A record's entry names a path inside the output folder and nothing
    else (a hand-edited record cannot point the writer anywhere)."""
    parts = PurePosixPath(entry).parts
    return bool(parts) and not PurePosixPath(entry).is_absolute() and not any(p in ("..", ".", "") for p in parts) \
        and "\\" not in entry


def _files(root: Path) -> list[str]:
    """Every file (and symlink) under `root`, relative; [''] for a file."""
    if root.is_file() or root.is_symlink():
        return [""]
    found = []
    for folder, dirs, names in os.walk(root):
        for name in names + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            found.append(str((Path(folder) / name).relative_to(root)))
    return sorted(found)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where the
    system or file system cannot, and the caller falls back."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    if ctypes.get_errno() in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(b))


def write_whole(path: Path, text: str, *, replace: bool = False) -> None:
    """One file a command writes beside the data (`sixes cast`'s casting.yaml),
    whole or not at all: a temporary file beside it, renamed over it. Never
    through a link, never over a folder, and over an existing file only when
    `replace` (the user's --force), so a casting edited by hand is not lost."""
    path = Path(path)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise OutputError(f"{path} is {'a link' if path.is_symlink() else 'not a file'}; only a plain file is "
                          "replaced: remove it or choose another file")
    if path.exists() and not replace:
        raise OutputError(f"{path} exists already: pass --force to replace it, or choose another file with --to")
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(part, "x", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(part, path)
        else:
            os.link(part, path)         # made only if absent, even against a file appearing meanwhile
    except FileExistsError:
        raise OutputError(f"{path} exists already: pass --force to replace it, or choose another file with --to") \
            from None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        part.unlink(missing_ok=True)
