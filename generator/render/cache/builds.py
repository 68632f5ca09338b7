"""One run's view of the cache: the object its BuildContext holds.

Edge layer; imports core (memo), game (dates) and the cache's own
modules. A run (commands/context.py) asks it what it needs and tells it
what it made; it keeps the keys (keys.py) and the files (storage.py):

- `last_build()`: what the last build made, when nothing it was made from
  changed and every file it left is as it was; the build then stops before
  loading anything;
- `site_unchanged()` before the site is staged, `staged_site_unchanged()`
  after: whether the site in the output folder is the one this run would make;
  `previous_site()`: else the site the last build left there, and the staged
  pages it was made from, when it was made with the same navigation and look;
- `load()` and `keep_memo()`: remembered results in and out of the memo table
  (codec.py), and the documents' HTML by their inputs (`documents`,
  documents.py); `pdfs`, the rendered PDFs (pdfs.py);
- `record()`, after the output is swapped in: what this build made.

With no cache asked for (`--no-cache`) every answer is "not known" and
nothing is read or written. Only a run that passed writes: the site's keys
and the build's record wait for `record`.
"""
from __future__ import annotations

import hashlib
import json
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...core import memo
from ...core.paths import MKDOCS_CONFIG
from ...game.dates import given_date
from .codec import load_memo, save_memo
from .documents import DocumentCache
from .keys import build_inputs_key, site_inputs_key, site_key, staged_pages
from .pdfs import RenderCache
from .storage import read_text, write_text

if TYPE_CHECKING:
    from ...core.paper import Paper

BUILD_RECORD = "last-build.json"
SITE_INPUTS, SITE_KEY, SITE_PAGES = "site.inputs", "site.key", "site.pages"


class CachedRun(Protocol):
    """What the cache needs to know of a run (commands/context.BuildConfig is one)."""

    @property
    def data_dir(self) -> Path: ...
    @property
    def out_dir(self) -> Path: ...
    @property
    def papers(self) -> tuple[Paper, ...]: ...
    @property
    def options(self) -> object: ...
    @property
    def settings(self) -> object: ...
    @property
    def site(self) -> bool: ...
    @property
    def strict(self) -> bool: ...
    @property
    def cache(self) -> bool: ...


class BuildCache:
    """The cache as one run sees it; see the module's docstring."""

    def __init__(self, run: CachedRun) -> None:
        self.run = run
        self.on = run.cache
        self.pdfs: RenderCache | None = None
        self.documents: DocumentCache | None = None
        self._site: tuple[str, str] | None = None       # (inputs, staged key) of the site this run made
        self._pages: dict[str, Any] | None = None       # {"frame": ..., "pages": staged_pages} of that site

    @cached_property
    def inputs(self) -> str:
        """The site's inputs key, SOURCE_DATE_EPOCH in it. Worked out at the
        first question, which a build asks before it reads anything: an edit
        made while it runs is not taken for built."""
        run = self.run
        papers = [paper.name for paper in run.papers]
        return site_inputs_key(run.data_dir, papers, run.options, run.settings) + f"@{given_date()}"

    def last_build(self) -> dict[str, Any] | None:
        """The last build's summary (BuildReport.summary) when its inputs are
        this run's and every file it left is still there untouched; else None.
        Costs a hash of the inputs and a look at each output file."""
        if not (self.on and self.run.data_dir.is_dir()):
            return None
        return _unchanged_build(self.run.out_dir, build_inputs_key(self.inputs, self.run.site, self.run.strict))

    def load(self) -> None:
        """Read back what earlier runs remembered: results into the memo table,
        the documents' HTML and the PDFs' index."""
        if self.on:
            memo.restore(load_memo(self.run.out_dir))
            self.pdfs = RenderCache(self.run.out_dir)
            self.documents = DocumentCache(self.run.out_dir)

    def keep_memo(self) -> None:
        """Save the remembered results and documents' HTML this run used
        (before its output is swapped in)."""
        if self.on:
            save_memo(self.run.out_dir, memo.take_used())
        if self.documents is not None:
            self.documents.save()

    def site_unchanged(self) -> bool:
        """Whether the output folder's site was built from this run's inputs:
        then its pages need not even be derived."""
        return self.on and _site_there(self.run.out_dir, SITE_INPUTS, self.inputs)

    def staged_site_unchanged(self, sources: Path, *more: str) -> bool:
        """Whether the output folder's site was built from these staged
        `sources` and `more` (navigation, look, date); remembered for `record`
        either way, so the next run with these inputs need not stage."""
        if not self.on:
            return False
        key = site_key(sources, MKDOCS_CONFIG) + "".join(more)
        self._site = (self.inputs, key)
        frame = hashlib.sha256(("".join(more) + MKDOCS_CONFIG.read_text(encoding="utf-8")).encode()).hexdigest()
        self._pages = {"frame": frame, "pages": staged_pages(sources)}
        return _site_there(self.run.out_dir, SITE_KEY, key)

    def previous_site(self) -> tuple[Path, dict[str, list[str]], dict[str, list[str]]] | None:
        """After `staged_site_unchanged` said no: the site in the output
        folder, the staged pages it was made from and this run's, when it is
        as the last build left it and was made with this run's navigation,
        look, date and configuration; else None."""
        out_dir = self.run.out_dir
        if self._pages is None or not _site_there(out_dir, SITE_KEY, read_text(out_dir, SITE_KEY) or "-"):
            return None
        try:
            last = json.loads(read_text(out_dir, SITE_PAGES) or "null")
            if last["frame"] != self._pages["frame"] or not isinstance(last["pages"], dict):
                return None
        except (ValueError, KeyError, TypeError):
            return None
        return out_dir / "site", last["pages"], self._pages["pages"]

    def record(self, entries: tuple[str, ...], summary: dict[str, Any]) -> None:
        """After a build passed and its output was swapped in: its inputs key,
        every file it left in `entries` of the output folder (size and time),
        what the command said about it, and what its site was made from."""
        if not self.on:
            return
        out_dir = self.run.out_dir
        if self._site is not None:
            write_text(out_dir, SITE_KEY, self._site[1])
            write_text(out_dir, SITE_INPUTS, self._site[0])
            write_text(out_dir, SITE_PAGES, json.dumps(self._pages))
        key = build_inputs_key(self.inputs, self.run.site, self.run.strict)
        write_text(out_dir, BUILD_RECORD, json.dumps({"key": key, "entries": list(entries),
                                                      "files": _output_files(out_dir, entries), "summary": summary}))


def _site_there(out_dir: Path, name: str, key: str) -> bool:
    """Whether the site was last built from `key` (SITE_INPUTS or SITE_KEY)
    and is still in the output folder as the last build left it: every file
    the build record lists under site/, and no other, of the same size and
    time. A folder that is only there (an old site put back, another one
    planted in an output folder that came with the game) is built again."""
    if read_text(out_dir, name) != key:
        return False
    try:
        files = json.loads(read_text(out_dir, BUILD_RECORD) or "null")["files"]
        recorded = {path: found for path, found in files.items() if Path(path).parts[:1] == ("site",)}
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    return bool(recorded) and _output_files(Path(out_dir), ("site",)) == recorded


def _output_files(out_dir: Path, entries: tuple[str, ...]) -> dict[str, list[int]]:
    found = {}
    for name in entries:
        for path in (out_dir / name).rglob("*"):
            if path.is_file():
                info = path.stat()
                found[str(path.relative_to(out_dir))] = [info.st_size, info.st_mtime_ns]
    return found


def _unchanged_build(out_dir: Path, key: str) -> dict[str, Any] | None:
    """The recorded summary when the record's key is `key` and its files are as it left them."""
    try:
        record = json.loads(read_text(out_dir, BUILD_RECORD) or "null")
        if record["key"] != key or not all(isinstance(e, str) for e in record["entries"]):
            return None
        if _output_files(Path(out_dir), tuple(record["entries"])) != record["files"]:
            return None
        summary = record["summary"]
        if not isinstance(summary["site"], bool) or not all(isinstance(w, dict) and all(
                isinstance(k, str) for k in w) for w in summary["warnings"]):
            return None
        return summary if isinstance(summary, dict) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
