"""Each document's HTML by its inputs (keys.document_key), so a build skips
making the HTML of a document nothing it is made from changed.

Edge layer; imports keys, fingerprint and storage. Making a document's
HTML (its template, and the measures that plan its pages) was most of a
one-character rebuild at 300 characters: every document was made again
only to be found in the render cache by its HTML (keys.pdf_key). Now a
document whose key was seen by the last build of this output folder takes
the HTML (and its page budget and print settings: what render/pdf/jobs.Prepared
holds) that build made, and is looked up by pdf_key as before.

Entries live in this output folder's cache folder, `html/<key>.json`, one
file each, written whole; only a build that passed writes them
(`save`), and it removes the entries it did not use. An entry that does
not read back as what `store` wrote is a miss.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ...core import i18n
from .fingerprint import Fingerprints, Unknown
from .keys import document_key, html_inputs, words_key
from .storage import regular_file, sweep_partial_files, usable_root, warn, write_whole

FOLDER = "html"
# The entries the last build of this process used, by key: a process that
# builds again (`--watch`, `serve`) reads none of them from disk. A key is
# everything an entry is made from, so one kept for another output folder
# is as good.
_kept: dict[str, dict[str, Any]] = {}
_KEY = re.compile(r"[0-9a-f]{64}")
# What an entry holds, and the type of each.
_FIELDS: dict[str, tuple[type, ...]] = {"html": (str,), "pages": (int,), "flowing": (bool,), "landscape": (bool,),
                                        "stylesheets": (list,), "pdf_variant": (str, type(None)),
                                        "pdf_forms": (bool,)}


class DocumentCache:
    """One build's view of the HTML its output folder's last build made."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.inputs = html_inputs()
        self.fingerprints = Fingerprints()
        self._words: dict[int, tuple[object, str]] = {}
        self._fresh: dict[str, dict[str, Any]] = {}
        self._used: set[str] = set()
        self._keys: dict[int, tuple[object, object, str, str | None]] = {}   # by id: (it, options, words, key)

    def key(self, document: object, options: object) -> str | None:
        """The document's key in the run's language, or None when it holds
        a value with no fingerprint (then it is made every build)."""
        words = self._words_key()
        known = self._keys.get(id(document))
        if known is not None and known[0] is document and known[1:3] == (options, words):
            return known[3]
        try:
            key: str | None = document_key(self.inputs, self.fingerprints.of(document), options, words)
        except Unknown:
            key = None
        self._keys[id(document)] = (document, options, words, key)
        return key

    def holds(self, document: object, options: object) -> bool:
        """Whether the last build left the document's HTML (by its key), without reading it."""
        key = self.key(document, options)
        if key is None:
            return False
        if key in _kept:
            return True
        root = usable_root(self.out_dir)
        return root is not None and regular_file(root / FOLDER / f"{key}.json")

    def _words_key(self) -> str:
        words = i18n.current()
        found = self._words.get(id(words))
        if found is None or found[0] is not words:
            found = (words, words_key(words.language, getattr(words.translations, "_catalog", None) or {}))
            self._words[id(words)] = found
        return found[1]

    def fetch(self, key: str) -> dict[str, Any] | None:
        """What the last build stored under `key`, or None."""
        if key in _kept:
            self._used.add(key)
            self._fresh.setdefault(key, _kept[key])
            return _kept[key]
        root = usable_root(self.out_dir)
        path = root / FOLDER / f"{key}.json" if root is not None else None
        try:
            entry = json.loads(path.read_text(encoding="utf-8")) if path and regular_file(path) else None
        except (OSError, ValueError):
            return None
        if not (isinstance(entry, dict) and entry.keys() == _FIELDS.keys()
                and all(isinstance(entry[name], kinds) for name, kinds in _FIELDS.items())
                and all(isinstance(sheet, str) for sheet in entry["stylesheets"])):
            return None
        self._used.add(key)
        self._fresh.setdefault(key, entry)
        return entry

    def store(self, key: str, entry: dict[str, Any]) -> None:
        """Keep `entry` (the fields of _FIELDS) for `save`. (`_fresh` holds
        every entry this build used, found or made; `save` writes those the
        folder does not hold yet.)"""
        self._fresh[key] = entry
        self._used.add(key)

    def save(self) -> None:
        """After a build passed: write what it made, remove what it did not
        use, and keep in memory what it used."""
        if not self._used:
            return
        _kept.clear()
        _kept.update(self._fresh)
        root = usable_root(self.out_dir, create=True)
        if root is None:
            return
        folder = root / FOLDER
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            sweep_partial_files(folder)
            for key, entry in self._fresh.items():
                if (folder / f"{key}.json").exists():
                    continue
                write_whole(folder / f"{key}.json", json.dumps(entry).encode("utf-8"))
            for path in folder.iterdir():
                stem, _, suffix = path.name.partition(".")
                if suffix == "json" and _KEY.fullmatch(stem) and stem not in self._used:
                    path.unlink(missing_ok=True)
        except OSError as exc:
            warn(f"could not save documents' HTML to the cache ({exc.strerror}); the next build makes them again")
