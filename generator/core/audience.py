"""Who may read a field's text, said in the model that holds it.

Core layer: standard library only. A field of the packet's models (groups,
relationships, plots: game/packet_models.py) carries its audience as
`Annotated` metadata, `Annotated[str, SeenBy("members")]`, so the pack's
routing (game/packet_route.py) and the read-back privacy tests ask the model
who may see a text rather than keep a list beside it. A field without one is
public: the site, the cast list and every envelope may print it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Reader = Literal["members", "side", "gm"]


@dataclass(frozen=True)
class SeenBy:
    """`members`: the members of the group or plot it belongs to (and the GM);
    `side`: the one character a relationship's side belongs to (and the GM);
    `gm`: the GM's documents only."""

    who: Reader


MEMBERS = SeenBy("members")
SIDE = SeenBy("side")
GM = SeenBy("gm")


def audience_of(metadata: list[Any]) -> Reader | None:
    """The audience a field's metadata names, or None for a public field."""
    found = [m.who for m in metadata if isinstance(m, SeenBy)]
    return found[0] if found else None
