"""Building again only the site's pages whose text changed.

Render layer; imports jinja2, and MkDocs's plugin base inside a function.
MkDocs builds every page: one description reworded in a 24-character game
of two systems changes one page (the cast list), yet Markdown, the theme's
templates and the search index were made for all of them, about 2.7 s.

A build whose staged sources differ from the last build's only in the text
of some pages (the same files, every page's front matter the same: titles,
so the navigation is; the same navigation, look, date and configuration:
cache/builds.previous_site) starts from a copy of the last site and lets
MkDocs make those pages alone (its `dirty` build: `PartialSite` says which
file it may write). Every other page is only read for its front matter,
which the navigation and the footer's links print. Material's search
plugin indexes the pages it made, so their entries take the place of the
old ones in the last index, where those were: the site is byte for byte
the one a whole build makes (tests/test_site_partial.py). Anything else
builds the whole site.

A process that builds again (`--watch`, `serve`) also keeps the theme's
templates compiled (`THEME_CODE`) and its files listed (`warm_environment`):
MkDocs makes a new Jinja environment for each build, and compiling
Material's templates again cost about a second. Only in memory: nothing
the cache folder holds is run as code.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader
from jinja2.bccache import Bucket, BytecodeCache

# MkDocs warns that a dirty build may leave the navigation wrong; ours reads
# every page's title first, so the warning is not one about this site.
DIRTY_WARNING = "A 'dirty' build is being performed"


class NotPartial(Exception):
    """A page the last search index did not hold came to have entries: build the whole site."""


@dataclass(frozen=True)
class PartialSite:
    """The last build's site, and the staged pages (paths) whose text changed since."""

    site: Path
    pages: frozenset[str]


def partial_site(previous: tuple[Path, dict[str, list[str]], dict[str, list[str]]] | None) -> PartialSite | None:
    """What may be built alone (cache/builds.previous_site gives the last
    site, its staged pages and this run's), or None: build it all."""
    if previous is None:
        return None
    site, last, now = previous
    if set(last) != set(now) or not (site / "search" / "search_index.json").is_file():
        return None
    changed = {path for path in now if last[path] != now[path]}
    if any(not path.endswith(".md") or last[path][0] != now[path][0] or now[path][0] == _NO_HEAD
           for path in changed):
        return None
    return PartialSite(site, frozenset(changed))


_NO_HEAD = hashlib.sha256(b"").hexdigest()        # a page without front matter: its title is in its text


class CompiledTemplates(BytecodeCache):
    """Compiled Jinja templates kept in memory from one build to the next,
    by name and checked against their source (the staged theme folder
    moves with every build, so its path is no part of the key)."""

    def __init__(self) -> None:
        self.code: dict[str, tuple[str, Any]] = {}

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return name

    def load_bytecode(self, bucket: Bucket) -> None:
        found = self.code.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = (bucket.checksum, bucket.code)


THEME_CODE = CompiledTemplates()
_LISTED: dict[str, list[str]] = {}      # an installed theme folder's files, by the folder


def warm_environment(env: Any, staged: Path) -> Any:
    """A Jinja environment MkDocs made for the theme, with what this process
    kept from the last build: the compiled templates, and the list of the
    installed themes' files (MkDocs lists them all to copy the theme's
    assets: 14,500 names, most of them Material's icons under `.icons`,
    which it then filters out; 0.4 s a build). Folders under `staged` (the
    game's theme overrides) are listed afresh. Hidden files are left out of
    the kept lists: MkDocs's filter drops them, and templates are loaded by
    name, never from the list."""
    env.bytecode_cache = THEME_CODE
    loader = env.loader
    folders = [str(folder) for folder in loader.searchpath]

    def list_templates() -> list[str]:
        names: set[str] = set()
        for folder in folders:
            if Path(folder).is_relative_to(staged):
                names.update(FileSystemLoader(folder).list_templates())
                continue
            if folder not in _LISTED:
                _LISTED[folder] = [name for name in FileSystemLoader(folder).list_templates()
                                   if not any(part.startswith(".") for part in name.split("/"))]
            names.update(_LISTED[folder])
        return sorted(names)

    loader.list_templates = list_templates
    return env


def only_changed(files: Any, partial: PartialSite) -> set[str]:
    """Let MkDocs's dirty build write only the changed pages (nothing else
    is copied: the last site's files are in place); their URLs."""
    for file in files:
        file.is_modified = (lambda changed: lambda: changed)(file.src_uri in partial.pages)
    return {file.url for file in files.documentation_pages() if file.src_uri in partial.pages}


def read_titles(files: Any, config: Any, partial: PartialSite) -> None:
    """Read each page not made again for its front matter: its title is in the navigation of those that are."""
    for file in files.documentation_pages():
        if file.src_uri not in partial.pages and file.page is not None:
            file.page.read_source(config)


def merge_search_index(site_dir: Path, last: str, urls: set[str]) -> None:
    """The search index of the whole site: the last one, the entries of the
    pages made again (at `urls`) in the place of theirs; written as
    Material writes it."""
    path = site_dir / "search" / "search_index.json"
    made = json.loads(path.read_text(encoding="utf-8"))
    fresh: dict[str, list[Any]] = {}
    for entry in made["docs"]:
        fresh.setdefault(entry["location"].split("#")[0], []).append(entry)
    docs, placed = [], set()
    for entry in json.loads(last)["docs"]:
        url = entry["location"].split("#")[0]
        if url not in urls:
            docs.append(entry)
        elif url not in placed:
            docs += fresh.get(url, [])
            placed.add(url)
    if set(fresh) - placed:
        raise NotPartial(f"search entries for {sorted(set(fresh) - placed)} had no place")
    path.write_text(json.dumps({"config": made["config"], "docs": docs}, separators=(",", ":"), default=str),
                    encoding="utf-8")
