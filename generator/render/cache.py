"""The build cache: a PDF is rendered again only when its inputs change.

Edge layer. This module is the one answer to "why didn't my edit show?":
everything a build remembers between runs is here, in the user's cache
folder ($SIXES_CACHE_DIR, else $XDG_CACHE_HOME/sixes-press or
~/.cache/sixes-press), one private sub-folder per output folder:

  pdf/<key>.pdf, pdf/index.json   rendered PDFs by a hash of everything that
                                  decides them, with page count and checksum
  memo.json                       results of slow derivations (generator/core/memo.py)
  site.inputs, site.key           what the site was last built from
  last-build.json                 the last build's inputs key and output files,
                                  so a build with nothing changed stops early
  .sixes-press-cache              the marker saying the tool made this folder
                                  (cache_marker.py): `sixes clean` removes no other

A document's key is a hash of the final HTML (so data and Jinja templates
are already in it), the paper, the print variant, the static files the HTML
may load (CSS, fonts, icons, the data folder's non-YAML files) and the code
version. Only a build that passed writes here. `sixes clean` forgets it
all (`clear`), and `--no-cache` builds without reading or writing it.

Nothing read back can run code: everything is JSON or a PDF checked against
its recorded checksum, and a file that does not decode as expected is a miss.
The folders are created private (0700) and a folder that is not a folder,
is someone else's or is writable by others is not used. PDFs are copied out,
never hard-linked, so editing an output file cannot change the cache. Any
trouble with the cache (a full disk, a read-only home) is a warning and the
build goes on without it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import re
import shutil
import stat
import time
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from ..core.paths import TEMPLATES_DIR
from .cache_marker import claim, marked

CACHE_DIR = "sixes-press"
# Templates are rendered into the HTML, which is hashed itself.
_TEMPLATE_SOURCES = {".html", ".j2", ".md"}
_DATA_SOURCES = {".yaml", ".yml"}
# Unused entries older than this are removed after a build.
KEEP_UNUSED_SECONDS = 7 * 24 * 3600


def _tree_hash(root: Path, skip_suffixes: set[str]) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if _regular(p) and p.suffix not in skip_suffixes):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        with open(path, "rb") as handle:      # streamed: a large portrait is not read into memory whole
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()


def _game_hash(data_dir: Path, skip_suffixes: set[str]) -> str:
    """A hash of what a game folder's outputs are made from (build.game_inputs:
    its settings and systems' folders, never its output folder)."""
    from ..game.settings import game_inputs
    digest = hashlib.sha256()
    for path in game_inputs(data_dir):
        digest.update(path.name.encode() + b"\0")
        if path.is_dir():
            digest.update(_tree_hash(path, skip_suffixes).encode())
        elif _regular(path) and path.suffix not in skip_suffixes:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _regular(path: Path) -> bool:
    """A regular file (following links): never a FIFO or device, which would block or never end."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


_warnings: list[str] = []


def warn(message: str) -> None:
    """Cache trouble is said once per build and never stops it."""
    if message not in _warnings:
        _warnings.append(message)


def take_warnings() -> list[str]:
    found = list(_warnings)
    _warnings.clear()
    return found


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
    base = os.environ.get("SIXES_CACHE_DIR")
    if not base:
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / CACHE_DIR
    return Path(base)


def cache_root(out_dir: Path) -> Path:
    """This output folder's cache folder (a path; `usable_root` makes and checks it)."""
    return cache_base() / hashlib.sha256(str(Path(out_dir).resolve()).encode()).hexdigest()[:20]


_CACHE_NAME = re.compile(r"[0-9a-f]{20}")


def clear(out_dir: Path | None = None) -> list[Path]:
    """Forget what builds remembered (`sixes clean`): this output folder's
    cache folder, or with no `out_dir` every output folder's. Only folders
    this tool made (named by a hash, private to this user, and carrying its
    marker: cache_marker.py) are removed; nothing else there, nor a link, is
    followed or touched. Returns the folders removed."""
    base = private_folder(cache_base(), create=False)
    if base is None:
        return []
    if out_dir is not None:
        candidates = [cache_root(out_dir)]
    else:
        candidates = sorted(p for p in base.iterdir() if _CACHE_NAME.fullmatch(p.name))
    removed = []
    for folder in candidates:
        if private_folder(folder, create=False) is not None and marked(folder):
            shutil.rmtree(folder)
            removed.append(folder)
    return removed


def usable_root(out_dir: Path, create: bool = False) -> Path | None:
    """This output folder's cache folder, private and marked as the tool's,
    or None. Only writing creates (and marks) it: a build that fails leaves
    no cache behind."""
    if private_folder(cache_base(), create) is None:
        return None
    root = cache_root(out_dir)
    made_now = create and not (root.exists() or root.is_symlink())
    if private_folder(root, create) is None:
        return None
    try:
        if create:
            claim(root, made_now)
        if marked(root):
            return root
    except OSError as exc:
        warn(f"cache folder {root} cannot be used ({exc.strerror}); building without the cache")
        return None
    if create:      # reading only, an older release's folder is adopted at the first write
        warn(f"cache folder {root} was not made by Sixes Press; building without the cache")
    return None


def read_text(out_dir: Path, name: str) -> str | None:
    """A small text file from this output folder's cache, or None."""
    root = usable_root(out_dir)
    try:
        path = root / name if root else None
        return path.read_text(encoding="utf-8") if path and _regular(path) else None
    except (OSError, UnicodeDecodeError):
        return None


def sweep_partial_files(folder: Path) -> None:
    """Remove `*.<pid>.part` files whose writer is gone (killed mid-write)."""
    for path in folder.glob("*.part"):
        try:
            pid = int(path.name.split(".")[-2])
            os.kill(pid, 0)
        except ProcessLookupError:
            path.unlink(missing_ok=True)
        except (ValueError, IndexError, PermissionError, OSError):
            continue


def write_text(out_dir: Path, name: str, text: str) -> None:
    """Write a cache file whole (a partial file never has the real name)."""
    root = usable_root(out_dir, create=True)
    if root is None:
        return
    partial = root / f"{name}.{os.getpid()}.part"
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, root / name)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        warn(f"could not save to the cache ({exc.strerror}); the next build may do more work")


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
    """PDFs by key. The index maps each key to [page count, sha256 of the
    PDF]; a cached file whose checksum differs is a miss."""

    def __init__(self, out_dir: Path, data_dir: Path):
        self.out_dir = out_dir
        root = usable_root(out_dir)
        self.root = private_folder(root / "pdf", create=False) if root else None
        self.writable = True
        self.index: dict[str, list] = {}
        if self.root is not None:
            try:
                index = json.loads((self.root / "index.json").read_text(encoding="utf-8"))
                self.index = {k: v for k, v in index.items() if isinstance(k, str) and isinstance(v, list)
                              and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], str)}
            except (OSError, ValueError, AttributeError):
                self.index = {}
        self.static = hashlib.sha256((code_version() + _tree_hash(TEMPLATES_DIR, _TEMPLATE_SOURCES)
                                      + _game_hash(data_dir, _DATA_SOURCES)).encode()).hexdigest()
        self.used: set[str] = set()

    def key(self, job) -> str:
        digest = hashlib.sha256(self.static.encode())
        for part in (job.paper.css_size, str(job.landscape), "|".join(job.stylesheets), str(job.pdf_variant),
                     str(job.pdf_forms), str(job.date), job.html):
            digest.update(part.encode() + b"\0")
        return digest.hexdigest()

    def fetch(self, key: str, target: Path) -> int | None:
        """Copy the cached PDF to `target`; its page count, or None on a miss."""
        if self.root is None or key not in self.index:
            return None
        pages, checksum = self.index[key]
        cached = self.root / f"{key}.pdf"
        try:
            body = cached.read_bytes() if _regular(cached) else None
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
        self.index[key] = [pages, hashlib.sha256(body).hexdigest()]
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
            os.replace(partial, self.root / "index.json")
        except OSError as exc:
            warn(f"could not save the cache index ({exc.strerror})")


MEMO_FILE = "memo.json"


@lru_cache(maxsize=1)
def package_version() -> str:
    """A hash of the package's own code: remembered results (generator/core/memo.py)
    are only as good as the code that computed them."""
    from ..core.paths import PACKAGE_DIR
    return _tree_hash(PACKAGE_DIR, {".pyc"})


def load_memo(out_dir: Path) -> dict:
    """Results an earlier build of this output folder remembered, if the code
    is the same; an entry that does not decode is simply not remembered."""
    text = read_text(out_dir, MEMO_FILE)
    try:
        stored = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(stored, dict) or stored.get("version") != package_version():
        return {}
    entries = {}
    for key, value in (stored.get("entries") or {}).items():
        try:
            entries[key] = decode(value)
        except (ValueError, TypeError, KeyError, AttributeError, ImportError):
            continue
    return entries


def save_memo(out_dir: Path, entries: dict) -> None:
    """Only values `encode` knows are saved; the rest are worked out again."""
    encoded = {}
    for key, value in entries.items():
        try:
            encoded[key] = encode(value)
        except TypeError:
            continue
    write_text(out_dir, MEMO_FILE, json.dumps({"version": package_version(), "entries": encoded}))


# Remembered values are plain data: numbers, strings, exact fractions, lists,
# tuples, mappings and frozen dataclasses of the project's own packages.
# Decoding builds only those; a class is looked up only inside `generator`.
_PACKAGE = __name__.split(".")[0]


def encode(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Fraction):
        return {"$fraction": [value.numerator, value.denominator]}
    if isinstance(value, tuple):
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return {"$list": [encode(v) for v in value]}
    if isinstance(value, (frozenset, set)):
        return {"$set": [encode(v) for v in sorted(value, key=repr)]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if not cls.__module__.startswith(_PACKAGE + "."):
            raise TypeError(f"not a {_PACKAGE} dataclass: {cls!r}")
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
        return {"$data": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}
    if hasattr(value, "items"):
        return {"$map": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"cannot store {type(value).__name__}")


def decode(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if not isinstance(value, dict):
        raise ValueError("not an encoded value")
    if "$data" in value:
        return _dataclass(value["$data"], value["fields"])
    if len(value) != 1:
        raise ValueError("not an encoded value")
    (tag, body), = value.items()
    if tag == "$fraction":
        numerator, denominator = body
        if not isinstance(numerator, int) or not isinstance(denominator, int):
            raise ValueError("fraction of non-integers")
        return Fraction(numerator, denominator)
    if tag == "$tuple":
        return tuple(decode(v) for v in body)
    if tag == "$list":
        return [decode(v) for v in body]
    if tag == "$set":
        return frozenset(decode(v) for v in body)
    if tag == "$map":
        return {_hashable(decode(k)): decode(v) for k, v in body}
    raise ValueError(f"unknown tag {tag!r}")


def _hashable(key):
    if isinstance(key, list):
        raise ValueError("a list cannot be a key")
    return key


def _dataclass(name: str, fields: dict):
    module_name, _, qualname = str(name).partition(":")
    if not module_name.startswith(_PACKAGE + ".") or not qualname.isidentifier():
        raise ValueError(f"not one of our classes: {name!r}")
    cls = getattr(importlib.import_module(module_name), qualname)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise ValueError(f"not a dataclass: {name!r}")
    allowed = {f.name for f in dataclasses.fields(cls) if f.init}
    if not isinstance(fields, dict) or set(fields) != allowed:
        raise ValueError(f"fields of {name!r} do not match")
    return cls(**{k: decode(v) for k, v in fields.items()})


def site_key(staged_sources: Path, config: Path) -> str:
    """The site is rebuilt only when its staged Markdown, assets, downloads or
    configuration change."""
    return hashlib.sha256((_tree_hash(staged_sources, set()) + config.read_text(encoding="utf-8")).encode()
                          ).hexdigest()


def site_inputs_key(data_dir: Path, papers: list[str], options: object, settings: object = None) -> str:
    """Everything the site is made from: the data, templates, hand-written
    pages, configuration, the package's code and the print options (the
    downloads are PDFs). When this is unchanged the site's pages need not even
    be derived, which saves the seconds exact odds tables take."""
    from ..core.paths import MKDOCS_CONFIG, SITE_SOURCES_DIR
    parts = [_game_hash(data_dir, set()), _tree_hash(TEMPLATES_DIR, set()),
             _tree_hash(SITE_SOURCES_DIR, set()), package_version(),
             MKDOCS_CONFIG.read_text(encoding="utf-8"), code_version(), ",".join(papers), repr(options),
             repr(settings)]
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
    parts = [site_inputs, f"site={site}", f"strict={strict}",
             *(f"{name}={version(name)}" for name in _OUTPUT_LIBRARIES)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _output_files(out_dir: Path, entries: tuple[str, ...]) -> dict[str, list[int]]:
    found = {}
    for name in entries:
        for path in (out_dir / name).rglob("*"):
            if path.is_file():
                info = path.stat()
                found[str(path.relative_to(out_dir))] = [info.st_size, info.st_mtime_ns]
    return found


def record_build(out_dir: Path, key: str, entries: tuple[str, ...], summary: dict) -> None:
    """After a build passed: its inputs key, every file it left in the output
    folder (size and time), and what the command printed about it."""
    write_text(out_dir, BUILD_RECORD, json.dumps({"key": key, "entries": list(entries),
                                                  "files": _output_files(out_dir, entries), "summary": summary}))


def unchanged_build(out_dir: Path, key: str) -> dict | None:
    """The last build's summary when its inputs key is `key` and every file it
    left is still there untouched; else None (build). Costs a hash of the
    inputs and a look at each output file, not a load of the data."""
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
        return summary
    except (OSError, ValueError, KeyError, TypeError):
        return None


SITE_INPUTS, SITE_KEY = "site.inputs", "site.key"


def site_unchanged(out_dir: Path, name: str, key: str) -> bool:
    """Whether the site was last built from `key` (SITE_INPUTS or SITE_KEY)
    and is still in the output folder."""
    return read_text(out_dir, name) == key and (Path(out_dir) / "site").is_dir()


def remember_site(out_dir: Path, inputs: str, key: str) -> None:
    write_text(out_dir, SITE_KEY, key)
    write_text(out_dir, SITE_INPUTS, inputs)
