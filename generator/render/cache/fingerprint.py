"""A stable digest of the values a document is made from, so a build can
tell a document unchanged without rendering its HTML (keys.document_key).

Edge layer; imports systems/base (Deferred) alone. A document's context is
plain data (text, numbers, exact fractions, lists, mappings), frozen
dataclasses and pydantic models of the game, and a few module-level
functions the templates call. Each is digested by what it holds: a
dataclass by its class and every field, a model by its class, its fields,
its extra and private values, a mapping by its class and its items in
order (templates iterate in that order). Code is named, not read (a
function by its module and name, a bound method by that and its object):
keys.package_version holds what the code does. Anything else, a closure,
a context worked out later (systems/base.Deferred) or an object of a kind
not listed here, has no digest (`Unknown`), and its document is made as
before: a miss costs time, never a wrong PDF.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import types
from collections.abc import Mapping
from fractions import Fraction
from pathlib import PurePath
from typing import Any

from ...systems.base import Deferred


class Unknown(Exception):
    """A value this module cannot digest: its document is not keyed by its inputs."""


_SCALARS = (type(None), bool, int, float, str, bytes, Fraction, PurePath)
_SCALAR_TYPES = frozenset(_SCALARS)


class Fingerprints:
    """Digests of values, each object digested once per instance (a game's
    library or glossary is shared by hundreds of documents). Keep one for a
    build: it holds the objects it digested, so no id is reused meanwhile."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[object, str]] = {}
        self._fields: dict[type, tuple[str, ...]] = {}

    def of(self, value: Any) -> str:
        """The hex digest of `value`; Unknown when it holds something not digestible."""
        if type(value) in _SCALAR_TYPES or isinstance(value, _SCALARS):
            return f"{type(value).__name__}:{value!r}"
        found = self._known.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        cls = type(value)
        text = hashlib.sha256("\0".join((cls.__module__, cls.__qualname__, *self._parts(value))).encode()
                              ).hexdigest()
        self._known[id(value)] = (value, text)
        return text

    def _parts(self, value: Any) -> list[str]:
        of = self.of
        if isinstance(value, (list, tuple)):
            return [of(v) for v in value]
        if isinstance(value, dict):
            return [of(k) + ":" + of(v) for k, v in value.items()]
        names = self._fields.get(type(value))
        if names is not None:
            return [name + "=" + of(getattr(value, name)) for name in names]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            self._fields[type(value)] = tuple(f.name for f in dataclasses.fields(value))
            return self._parts(value)
        if isinstance(value, enum.Enum):
            return [of(value.value)]
        if isinstance(value, (set, frozenset)):
            return sorted(of(v) for v in value)
        if hasattr(type(value), "model_fields") and hasattr(value, "__pydantic_private__"):
            return self._model(value)
        if isinstance(value, Deferred):
            raise Unknown("a context worked out when first read")
        if isinstance(value, types.MappingProxyType):
            return [of(k) + ":" + of(v) for k, v in value.items()]
        if isinstance(value, Mapping):      # what a template reads (its items) and what it is made of
            return [of(dict(value.items())), of(dict(getattr(value, "__dict__", {})))]
        return self._code(value)

    def _model(self, value: Any) -> list[str]:
        parts = [name + "=" + self.of(getattr(value, name)) for name in type(value).model_fields]
        parts.append(self.of(dict(value.__pydantic_extra__ or {})))
        parts.append(self.of(dict(value.__pydantic_private__ or {})))
        return parts

    def _code(self, value: Any) -> list[str]:
        if isinstance(value, types.FunctionType) and value.__closure__ is None:
            return [value.__module__, value.__qualname__]
        if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType):
            return [self.of(value.__func__), self.of(value.__self__)]
        if isinstance(value, functools.partial):
            return [self.of(value.func), self.of(value.args), self.of(dict(value.keywords))]
        raise Unknown(f"{type(value).__module__}.{type(value).__qualname__}")
