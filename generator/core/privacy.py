"""Who may see an entity: the one `visibility` word every system's models use.

Core layer: pydantic only. An entity is `public` or `private`. A private one
reaches the GM's documents and its owner's, never the site (its pages, its
search index or the PDFs it offers for download). Each model picks its
default once: what the site showed before the word existed stays public,
except a Six Shooter challenge, which is the GM's (ruling challenges-are-private).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, TypeVar, get_args

from pydantic import Field

Visibility = Literal["public", "private"]
VISIBILITIES: tuple[str, ...] = get_args(Visibility)
T = TypeVar("T")


def visibility_field(default: Visibility, what: str, private_means: str = "") -> Any:
    """The field itself, with a description editors show beside it."""
    private_means = private_means or (f"A private {what} is printed for the GM (and its owner) "
                                      "but never shown on the site.")
    return Field(default=default, description=f"public or private (default {default}). {private_means}")


def public_only(items: Iterable[T], entity: Callable[[T], Any] = lambda item: item) -> tuple[T, ...]:
    """The items whose entity (the item itself, or what `entity` picks from
    it) is public, in their order."""
    return tuple(item for item in items if entity(item).visibility == "public")


def private_only(items: Iterable[T], entity: Callable[[T], Any] = lambda item: item) -> tuple[T, ...]:
    """The rest: the items the GM's own documents print instead."""
    return tuple(item for item in items if entity(item).visibility != "public")
