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
from pydantic.json_schema import JsonDict

Visibility = Literal["public", "private"]
VISIBILITIES: tuple[str, ...] = get_args(Visibility)
T = TypeVar("T")


def visibility_field(default: Visibility, what: str, private_means: str = "") -> Any:
    """The field itself, with a description editors show beside it."""
    private_means = private_means or (f"A private {what} is printed for the GM (and its owner) "
                                      "but never shown on the site.")
    return Field(default=default, description=f"public or private (default {default}). {private_means}")


# The mark a field for the GM's eyes only carries in its model (and its JSON
# Schema): the privacy tests find the secret fields by it, not from a list.
GM_ONLY: JsonDict = {"gm_only": True}


def gm_notes_field(what: str) -> Any:
    """A `gm_notes` field on a `what` (a character, an Operator...): printed
    on the GM's documents only, never on a player's copy, never on the site."""
    return Field(default="", json_schema_extra=GM_ONLY,
                 description=f"Notes on this {what} for the GM: on the GM's documents only (the GM pack), never on "
                             "a player's copy of a sheet, never on the site.")


def public_only(items: Iterable[T], entity: Callable[[T], Any] = lambda item: item) -> tuple[T, ...]:
    """The items whose entity (the item itself, or what `entity` picks from
    it) is public, in their order."""
    return tuple(item for item in items if entity(item).visibility == "public")


def private_only(items: Iterable[T], entity: Callable[[T], Any] = lambda item: item) -> tuple[T, ...]:
    """The rest: the items the GM's own documents print instead."""
    return tuple(item for item in items if entity(item).visibility != "public")
