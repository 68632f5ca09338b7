"""The memo file (memo.json): remembered results as plain JSON, never code.

Edge layer; imports keys and storage. generator/core/memo.py fills a table in memory; a build saves
what it used here and reads it back next time, only while the package's
code is the same (keys.package_version). Remembered values are plain data:
numbers, strings, exact fractions, lists, tuples, sets, mappings and frozen
dataclasses of the project's own packages. Decoding builds only those: a
class is looked up only inside `generator`, must be a dataclass, and gets
exactly its fields; anything else does not decode and is worked out again.
Nothing read back runs code (no pickle).
"""
from __future__ import annotations

import dataclasses
import importlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from .keys import package_version
from .storage import read_text, write_text

MEMO_FILE = "memo.json"
_PACKAGE = __name__.split(".")[0]


def load_memo(out_dir: Path) -> dict[str, object]:
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


def save_memo(out_dir: Path, entries: dict[str, object]) -> None:
    """Only values `encode` knows are saved; the rest are worked out again."""
    encoded = {}
    for key, value in entries.items():
        try:
            encoded[key] = encode(value)
        except TypeError:
            continue
    write_text(out_dir, MEMO_FILE, json.dumps({"version": package_version(), "entries": encoded}))


def encode(value: Any) -> Any:
    """`value` as JSON-ready data; TypeError for anything `decode` would not build again."""
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


def decode(value: Any) -> Any:
    """What `encode` made, built again; ValueError (or TypeError, KeyError) for anything else."""
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


def _hashable(key: Any) -> Any:
    if isinstance(key, list):
        raise ValueError("a list cannot be a key")
    return key


def _dataclass(name: str, fields: dict[str, Any]) -> Any:
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
