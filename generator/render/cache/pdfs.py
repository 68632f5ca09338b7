"""Rendered PDFs by key (keys.pdf_key), in the cache folder's `pdf/`.

Edge layer; imports keys and storage. `pdf/index.json` maps each key to [page count, sha256 of the
PDF]; a cached file whose checksum differs, or that is not a regular file,
is a miss. A hit is copied out (never hard-linked: editing an output file
cannot change the cache). Only a build whose renders passed their checks
stores (render/jobs.render_checked), and `save` forgets what no build used
for a week.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .keys import pdf_key, static_key
from .storage import private_folder, regular_file, sweep_partial_files, usable_root, warn

if TYPE_CHECKING:
    from ..pdf import PdfJob

# Unused entries older than this are removed after a build.
KEEP_UNUSED_SECONDS = 7 * 24 * 3600
INDEX = "index.json"


class RenderCache:
    """PDFs by key. The index maps each key to [page count, sha256 of the
    PDF]; a cached file whose checksum differs is a miss."""

    def __init__(self, out_dir: Path, data_dir: Path):
        self.out_dir = out_dir
        root = usable_root(out_dir)
        self.root = private_folder(root / "pdf", create=False) if root else None
        self.writable = True
        self.index = _read_index(self.root) if self.root is not None else {}
        self.static = static_key(data_dir)
        self.used: set[str] = set()

    def key(self, job: PdfJob) -> str:
        return pdf_key(self.static, job)

    def fetch(self, key: str, target: Path) -> int | None:
        """Copy the cached PDF to `target`; its page count, or None on a miss."""
        if self.root is None or key not in self.index:
            return None
        pages, checksum = self.index[key]
        cached = self.root / f"{key}.pdf"
        try:
            body = cached.read_bytes() if regular_file(cached) else None
        except OSError:
            body = None
        if body is None or hashlib.sha256(body).hexdigest() != checksum:
            self.index.pop(key)
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        try:
            os.utime(cached)
        except OSError:
            pass
        self.used.add(key)
        return pages

    def _folder(self) -> Path | None:
        """The PDF folder, made on the first store (only a build that passed stores)."""
        if self.root is None and self.writable:
            root = usable_root(self.out_dir, create=True)
            self.root = private_folder(root / "pdf") if root else None
            self.writable = self.root is not None
        return self.root

    def store(self, key: str, source: Path, pages: int) -> None:
        folder = self._folder()
        if folder is None:
            return
        cached = folder / f"{key}.pdf"
        partial = cached.with_suffix(f".{os.getpid()}.part")
        try:
            body = source.read_bytes()
            partial.write_bytes(body)
            os.replace(partial, cached)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            warn(f"could not save rendered PDFs to the cache ({exc.strerror}); the next build renders them again")
            self.root, self.writable = None, False
            return
        self.index[key] = (pages, hashlib.sha256(body).hexdigest())
        self.used.add(key)

    def save(self) -> None:
        """Write the index, forgetting entries unused for a week."""
        if self.root is None or not self.writable:
            return
        now = time.time()
        try:
            sweep_partial_files(self.root)
            sweep_partial_files(self.root.parent)
            for path in self.root.glob("*.pdf"):
                key = path.stem
                if key not in self.used and (key not in self.index or now - path.stat().st_mtime > KEEP_UNUSED_SECONDS):
                    self.index.pop(key, None)
                    path.unlink(missing_ok=True)
            partial = self.root / f"index.{os.getpid()}.part"
            partial.write_text(json.dumps(self.index), encoding="utf-8")
            os.replace(partial, self.root / INDEX)
        except OSError as exc:
            warn(f"could not save the cache index ({exc.strerror})")


def _read_index(root: Path) -> dict[str, tuple[int, str]]:
    """The index's well-formed entries; an index that does not decode is empty."""
    try:
        index = json.loads((root / INDEX).read_text(encoding="utf-8"))
        return {k: (v[0], v[1]) for k, v in index.items() if isinstance(k, str) and isinstance(v, list)
                and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], str)}
    except (OSError, ValueError, AttributeError):
        return {}
