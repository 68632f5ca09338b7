"""The build cache: a PDF is rendered again only when its inputs change.

Edge layer. A document's key is a hash of everything that decides its PDF:
the final HTML (so data and Jinja templates are already in it), the paper,
the print variant, the static files the HTML may load (CSS, fonts, icons
under templates/, and the data folder's non-YAML files such as portraits),
and the code version (the WeasyPrint version and our PDF adapter and lint).
Editing one character changes the HTML of its own sheet and of what lists
it (the GM cheat sheet, a roster), so only those are rendered again.

Cached PDFs live in the user's cache folder ($SIXES_CACHE_DIR, else
$XDG_CACHE_HOME/sixes-press or ~/.cache/sixes-press), one sub-folder per
output folder, so the output folder holds only what the build writes. They
are hard-linked into the staging folder where the file system allows (a hit
then costs no copy). Only a build that passed writes to the cache.

Beside the PDFs: the results of slow derivations a build used (memo.pickle,
see generator/memo.py; dropped when the package's code changes), the site's
input and output keys, compiled templates (jinja/, shared by all output
folders), and the record of the last build (last-build.json), which lets a
`sixes build` with nothing changed stop before it loads anything.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import time
from functools import lru_cache
from pathlib import Path

from ..paths import TEMPLATES_DIR

CACHE_DIR = "sixes-press"
# Templates are rendered into the HTML, which is hashed itself.
_TEMPLATE_SOURCES = {".html", ".j2", ".md"}
_DATA_SOURCES = {".yaml", ".yml"}
# Unused entries older than this are removed after a build.
KEEP_UNUSED_SECONDS = 7 * 24 * 3600


def _tree_hash(root: Path, skip_suffixes: set[str]) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix not in skip_suffixes):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def cache_base() -> Path:
    """The user's cache folder for this tool."""
    base = os.environ.get("SIXES_CACHE_DIR")
    if not base:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / CACHE_DIR
    return Path(base)


def cache_root(out_dir: Path) -> Path:
    """This output folder's cache folder."""
    return cache_base() / hashlib.sha256(str(Path(out_dir).resolve()).encode()).hexdigest()[:20]


@lru_cache(maxsize=1)
def code_version() -> str:
    """What turns the same HTML into a different PDF: WeasyPrint and our adapter.
    (The version from the package metadata: importing WeasyPrint costs 0.4 s.)"""
    from importlib.metadata import version
    here = Path(__file__).parent
    digest = hashlib.sha256(version("weasyprint").encode())
    for name in ("pdf.py", "lint.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


class RenderCache:
    def __init__(self, out_dir: Path, data_dir: Path):
        self.root = cache_root(out_dir) / "pdf"   # created by the first store
        self.index_path = self.root / "index.json"
        try:
            self.index: dict[str, int] = json.loads(self.index_path.read_text())
        except (OSError, ValueError):
            self.index = {}
        self.static = hashlib.sha256((code_version() + _tree_hash(TEMPLATES_DIR, _TEMPLATE_SOURCES)
                                      + _tree_hash(Path(data_dir), _DATA_SOURCES)).encode()).hexdigest()
        self.used: set[str] = set()

    def key(self, job) -> str:
        digest = hashlib.sha256(self.static.encode())
        for part in (job.paper, str(job.landscape), "|".join(job.stylesheets), str(job.pdf_variant), str(job.pdf_forms), job.html):
            digest.update(part.encode() + b"\0")
        return digest.hexdigest()

    def fetch(self, key: str, target: Path) -> int | None:
        """Link the cached PDF to `target`; its page count, or None on a miss."""
        cached = self.root / f"{key}.pdf"
        if key not in self.index or not cached.is_file():
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(cached, target)
        except OSError:
            shutil.copy2(cached, target)
        os.utime(cached)
        self.used.add(key)
        return self.index[key]

    def store(self, key: str, source: Path, pages: int) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        cached = self.root / f"{key}.pdf"
        if not cached.exists():
            partial = cached.with_suffix(f".{os.getpid()}.part")
            shutil.copy2(source, partial)
            os.replace(partial, cached)
        self.index[key] = pages
        self.used.add(key)

    def save(self) -> None:
        """Write the index, forgetting entries unused for a week."""
        now = time.time()
        for key in list(self.index):
            path = self.root / f"{key}.pdf"
            if key not in self.used and (not path.exists() or now - path.stat().st_mtime > KEEP_UNUSED_SECONDS):
                self.index.pop(key)
                path.unlink(missing_ok=True)
        self.root.mkdir(parents=True, exist_ok=True)
        partial = self.index_path.with_suffix(".part")
        partial.write_text(json.dumps(self.index))
        os.replace(partial, self.index_path)


MEMO_FILE = "memo.pickle"


@lru_cache(maxsize=1)
def package_version() -> str:
    """A hash of the package's own code: remembered results (generator/memo.py)
    are only as good as the code that computed them."""
    from ..paths import PROJECT_ROOT
    return _tree_hash(PROJECT_ROOT / "generator", {".pyc"})


def load_memo(out_dir: Path) -> dict:
    """Results an earlier build of this output folder remembered, if the code is
    the same; anything unreadable counts as nothing remembered."""
    try:
        with open(cache_root(out_dir) / MEMO_FILE, "rb") as handle:
            version, entries = pickle.load(handle)
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, pickle.UnpicklingError):
        return {}
    return entries if version == package_version() else {}


def save_memo(out_dir: Path, entries: dict) -> None:
    """Only our own build writes this file, in the user's own cache folder."""
    path = cache_root(out_dir) / MEMO_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    with open(partial, "wb") as handle:
        pickle.dump((package_version(), entries), handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)


def site_key(staged_sources: Path, config: Path) -> str:
    """The site is rebuilt only when its staged Markdown, assets, downloads or
    configuration change."""
    return hashlib.sha256((_tree_hash(staged_sources, set()) + config.read_text(encoding="utf-8")).encode()
                          ).hexdigest()


def site_inputs_key(data_dir: Path, papers: list[str], options: object) -> str:
    """Everything the site is made from: the data, templates, hand-written
    pages, configuration, the package's code and the print options (the
    downloads are PDFs). When this is unchanged the site's pages need not even
    be derived, which saves the seconds exact odds tables take."""
    from ..paths import MKDOCS_CONFIG, SITE_SOURCES_DIR
    parts = [_tree_hash(Path(data_dir), set()), _tree_hash(TEMPLATES_DIR, set()),
             _tree_hash(SITE_SOURCES_DIR, set()), package_version(),
             MKDOCS_CONFIG.read_text(encoding="utf-8"), code_version(), ",".join(papers), repr(options)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


BUILD_RECORD = "last-build.json"
# Libraries whose upgrade may change the output without changing our code.
_OUTPUT_LIBRARIES = ("weasyprint", "mkdocs", "mkdocs-material", "jinja2", "pydantic", "pypdf")


def build_inputs_key(site_inputs: str, site: bool, strict: bool) -> str:
    """Everything a whole build is made from: the site's inputs (data,
    templates, hand-written pages, code, papers, print options; see
    site_inputs_key), whether the site and strict checks were asked for, and
    the versions of the libraries that make the files."""
    from importlib.metadata import version
    parts = [site_inputs, f"site={site}", f"strict={strict}", *(f"{name}={version(name)}" for name in _OUTPUT_LIBRARIES)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _output_files(out_dir: Path, entries: tuple[str, ...]) -> dict[str, list[int]]:
    found = {}
    for name in entries:
        for path in (out_dir / name).rglob("*"):
            if path.is_file():
                stat = path.stat()
                found[str(path.relative_to(out_dir))] = [stat.st_size, stat.st_mtime_ns]
    return found


def record_build(out_dir: Path, key: str, entries: tuple[str, ...], summary: dict) -> None:
    """After a build passed: its inputs key, every file it left in the output
    folder (size and time), and what the command printed about it."""
    path = cache_root(out_dir) / BUILD_RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_text(json.dumps({"key": key, "entries": list(entries), "files": _output_files(out_dir, entries),
                                   "summary": summary}))
    os.replace(partial, path)


def unchanged_build(out_dir: Path, key: str) -> dict | None:
    """The last build's summary when its inputs key is `key` and every file it
    left is still there untouched; else None (build). Costs a hash of the
    inputs and a look at each output file, not a load of the data."""
    try:
        record = json.loads((cache_root(out_dir) / BUILD_RECORD).read_text())
        if record["key"] != key:
            return None
        if _output_files(Path(out_dir), tuple(record["entries"])) != record["files"]:
            return None
        return record["summary"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
