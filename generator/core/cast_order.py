"""Cast order, defined once: every roster, balance table, tracker list, cast
list and pack lists a game's characters in it.

- With a casting file for the game, its envelope order comes first; the
  characters nobody plays follow in the data's order (game/gather.py applies
  it through each system's `recast`).
- Otherwise the data's order: the order of the list in a file that holds
  every character (D6xD6, Six Shooter), and for a folder of one file per
  character (Sixes, The Sixes System, I6) the characters' names as printed,
  alphabetically, ignoring case and accents. A file name is not printed, so
  "anton-kral.yaml" holding "Big Anton Kral" sorts under B.

Core layer: pure.
"""
from __future__ import annotations

import unicodedata
from typing import Callable, Iterable, Sequence, TypeVar

Entry = TypeVar("Entry")


def name_key(name: str) -> tuple[str, str]:
    """Alphabetical as a reader sorts: accents and case set aside first, the
    exact name only to break a tie."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in folded if not unicodedata.combining(ch)), name


def by_name(entries: Iterable[Entry], name_of: Callable[[Entry], str]) -> list[Entry]:
    """The data's order of a one-file-per-character folder."""
    return sorted(entries, key=lambda entry: name_key(name_of(entry)))


def casting_first(entries: Sequence[Entry], slug_of: Callable[[Entry], str], slugs: Sequence[str]) -> list[Entry]:
    """The casting file's order (`slugs`, its characters' sheet slugs), then
    everyone it does not name in the order they had."""
    rank = {slug: i for i, slug in reversed(list(enumerate(slugs)))}
    return sorted(entries, key=lambda entry: rank.get(slug_of(entry), len(rank)))
