"""Rendered PDFs by key (keys.pdf_key), shared by every output folder.

Edge layer; imports keys and storage. A key is a hash of everything that
decides a PDF (its HTML and the game files it names), so the same key from
another output folder or another game is the same PDF: a pack into a second
folder, a game built to `--out` elsewhere, a copy of a game, take what any
build already rendered. The
shared folder (storage.shared_pdfs_root) holds `<key>.pdf` and `<key>.json`
([page count, sha256 of the PDF]); each is written whole and alone, so
builds running at once never share a file they rewrite. A cached file whose
checksum differs, or that is not a regular file, is a miss. A hit is copied
out (never hard-linked: editing an output file cannot change the cache).
Only a build whose renders passed their checks stores
(render/jobs.render_checked), and `save` forgets what no build used for a
week. Each output folder's cache folder keeps the keys its builds used
(USED), so `sixes clean` forgets those PDFs with the rest of that folder.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .keys import pdf_key, static_key
from .storage import (regular_file, shared_pdfs_root, sweep_partial_files, usable_folder, usable_root,
                      warn, write_text, write_whole)

if TYPE_CHECKING:
    from ..pdf.weasy import PdfJob

# Unused entries older than this are removed after a build.
KEEP_UNUSED_SECONDS = 7 * 24 * 3600
# The keys an output folder's builds used, in its own cache folder.
USED = "pdf-keys.json"
# What a key looks like (keys.pdf_key: a sha256 in hex); any other name in the folder is not ours.
_KEY = re.compile(r"[0-9a-f]{64}")
# Where a release before the shared folder kept each output folder's PDFs.
_OLD_FOLDER = "pdf"


class RenderCache:
    """PDFs by key, for one build into `out_dir`: fetched from and stored
    into the shared folder, and the keys used remembered for that output
    folder."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.root = usable_folder(shared_pdfs_root())
        self.writable = True
        self.static = static_key()
        self.named: dict[Path, str] = {}      # the hash of each game file a document names, read once a run
        self.used: set[str] = set()
        self.tidied = False             # the folders are swept once a run (a pack saves after each render)

    def key(self, job: PdfJob) -> str:
        return pdf_key(self.static, job, self.named)

    def fetch(self, key: str, target: Path) -> int | None:
        """Copy the cached PDF to `target`; its page count, or None on a miss."""
        if self.root is None:
            return None
        entry = _read_entry(self.root, key)
        if entry is None:
            return None
        pages, checksum = entry
        cached = self.root / f"{key}.pdf"
        try:
            body = cached.read_bytes() if regular_file(cached) else None
        except OSError:
            body = None
        if body is None or hashlib.sha256(body).hexdigest() != checksum:
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        for path in (cached, self.root / f"{key}.json"):     # used now: kept another week
            try:
                os.utime(path)
            except OSError:
                pass
        self.used.add(key)
        return pages

    def _folder(self) -> Path | None:
        """The shared folder, made on the first store (only a build that passed stores)."""
        if self.root is None and self.writable:
            self.root = usable_folder(shared_pdfs_root(), create=True)
            self.writable = self.root is not None
        return self.root

    def store(self, key: str, source: Path, pages: int) -> None:
        folder = self._folder()
        if folder is None:
            return
        try:
            body = source.read_bytes()
            write_whole(folder / f"{key}.pdf", body)
            write_whole(folder / f"{key}.json", json.dumps([pages, hashlib.sha256(body).hexdigest()]).encode())
        except OSError as exc:
            warn(f"could not save rendered PDFs to the cache ({exc.strerror}); the next build renders them again")
            self.root, self.writable = None, False
            return
        self.used.add(key)

    def save(self) -> None:
        """Remember the keys this output folder used; on the run's first
        save, also forget the shared entries that no build used for a week
        and sweep what a killed run left."""
        if self.root is None or not self.writable:
            return
        own = usable_root(self.out_dir)
        kept = {key for key in _used_keys(own) if (self.root / f"{key}.json").exists()}
        write_text(self.out_dir, USED, json.dumps(sorted(self.used | kept)))
        if self.tidied:
            return
        self.tidied = True
        if own is not None:
            sweep_partial_files(own)
        _remove_old_folder(own)
        now = time.time()
        try:
            sweep_partial_files(self.root)
            for path in self.root.iterdir():
                key, _, suffix = path.name.partition(".")
                if (_KEY.fullmatch(key) and suffix in ("pdf", "json") and key not in self.used
                        and now - path.lstat().st_mtime > KEEP_UNUSED_SECONDS):
                    path.unlink(missing_ok=True)
        except OSError as exc:
            warn(f"could not tidy the cache of rendered PDFs ({exc.strerror})")


def forget_used(own: Path) -> None:
    """Remove from the shared folder the PDFs this output folder's cache
    folder (`own`) says its builds used (`sixes clean`)."""
    shared = usable_folder(shared_pdfs_root())
    if shared is None:
        return
    for key in _used_keys(own):
        for suffix in (".json", ".pdf"):
            (shared / f"{key}{suffix}").unlink(missing_ok=True)


def _used_keys(own: Path | None) -> set[str]:
    """The keys an output folder's cache folder records; anything else in the record is ignored."""
    if own is None:
        return set()
    try:
        path = own / USED
        keys = json.loads(path.read_text(encoding="utf-8")) if regular_file(path) else []
    except (OSError, ValueError):
        return set()
    return {k for k in keys if isinstance(k, str) and _KEY.fullmatch(k)} if isinstance(keys, list) else set()


def _read_entry(root: Path, key: str) -> tuple[int, str] | None:
    """(pages, checksum) of a key, or None when its record is missing or malformed."""
    path = root / f"{key}.json"
    try:
        entry = json.loads(path.read_text(encoding="utf-8")) if regular_file(path) else None
    except (OSError, ValueError):
        return None
    if (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and not isinstance(entry[0], bool)
            and isinstance(entry[1], str)):
        return entry[0], entry[1]
    return None


def _remove_old_folder(own: Path | None) -> None:
    """An output folder's own `pdf/` from a release before the shared folder:
    nothing reads it now (a real folder only; a link is left alone)."""
    if own is None:
        return
    old = own / _OLD_FOLDER
    try:
        if stat.S_ISDIR(old.lstat().st_mode):
            shutil.rmtree(old)
    except OSError:
        pass
