"""Results of slow pure computations (fight simulations), kept by a digest of
everything they depend on.

Core layer: an in-memory table that the rules fill and read; it never touches
files. The build (edge layer) restores it from the cache folder before
deriving documents and saves what this build used afterwards, so a later
build in a new process, or after editing one character, simulates only what
changed. A key must name every input of the computation; the build also
throws the whole table away when the package's code changes.

A computation may also be described as `Work` (a key and a plain function
call), so the build can start it in another process before anything asks
for it and `promise` its result here; `remember` then waits for it.
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypeVar

T = TypeVar("T")

_table: dict[str, object] = {}
_used: set[str] = set()


def key_of(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


class _Promised:
    """A result being computed elsewhere: `wait()` returns it."""

    def __init__(self, wait: Callable[[], object]):
        self.wait = wait


def remember(key: str, compute: Callable[[], T]) -> T:
    """The stored result for `key` (waiting for a promised one), computing
    and storing it on a miss."""
    _used.add(key)
    if key not in _table:
        _table[key] = compute()
    elif isinstance(found := _table[key], _Promised):
        _table[key] = found.wait()
    return _table[key]  # type: ignore[return-value]


@dataclass(frozen=True)
class Work:
    """A remembered computation as data: `function(*args, **kwargs)` stored
    under `key`. The function is a module-level one and the arguments plain
    values, so the call can be sent to another process."""

    key: str
    function: Callable[..., Any]
    args: tuple = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    def run(self) -> Any:
        return self.function(*self.args, **self.kwargs)

    def result(self) -> Any:
        return remember(self.key, self.run)


def known(key: str) -> bool:
    """Whether `key` is stored or promised already."""
    return key in _table


def promise(key: str, wait: Callable[[], object]) -> None:
    """`key`'s result is on its way: `wait()` will return it."""
    _table.setdefault(key, _Promised(wait))


def drop_promises() -> None:
    """Forget results that were promised and never waited for (a failed
    build's), so a long watch session never waits on a dead computation."""
    for key in [k for k, v in _table.items() if isinstance(v, _Promised)]:
        del _table[key]


def remembered(name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator for a pure function of plain values (numbers, strings,
    Fractions, tuples, frozen dataclasses of those), whose repr names them
    exactly: its results are remembered by `name` and that repr."""
    def wrap(function: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(function)
        def remembered_call(*args: Any, **kwargs: Any) -> T:
            key = key_of(name, repr(args), repr(sorted(kwargs.items())))
            return remember(key, lambda: function(*args, **kwargs))
        return remembered_call
    return wrap


def restore(entries: dict[str, object]) -> None:
    """Add results saved by an earlier build (those already here win)."""
    for key, value in entries.items():
        _table.setdefault(key, value)


def take_used() -> dict[str, object]:
    """The results used since the last call, to be saved; the rest are
    forgotten, so a long watch session does not grow without bound."""
    global _table
    kept = {key: _table[key] for key in _used if key in _table}
    _table = dict(kept)
    _used.clear()
    return kept


def clear() -> None:
    _table.clear()
    _used.clear()
