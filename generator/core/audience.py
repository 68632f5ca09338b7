"""Who may read a field's text, said in the model that holds it.

Core layer: standard library only. A field of the packet's models (groups,
relationships, plots, items, abilities, sealed inserts: game/packet_models.py
and game/packet_stuff_models.py) carries its audience as
`Annotated` metadata, `Annotated[str, SeenBy("members")]`, so the pack's
routing (game/packet_route.py) and the read-back privacy tests ask the model
who may see a text rather than keep a list beside it. A field without one is
public: the site, the cast list and every envelope may print it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Reader = Literal["members", "owner", "holder", "sealed", "gm"]


@dataclass(frozen=True)
class SeenBy:
    """`members`: the members of the group or plot it belongs to (and the GM);
    `owner`: the one character its mapping key names (a relationship's side,
    a plot member's snippet), and the GM;
    `holder`: whoever starts with the thing it is on (an item's or an
    ability's card, a sealed insert's outside): the card run for stuffing,
    the holder's envelope, and the GM;
    `sealed`: the inside of a sealed "open when..." insert: that insert's
    inside page in its holder's envelope, and the GM, nothing else;
    `gm`: the GM's documents only."""

    who: Reader


MEMBERS = SeenBy("members")
OWNER = SeenBy("owner")
HOLDER = SeenBy("holder")
SEALED = SeenBy("sealed")
GM = SeenBy("gm")


def audience_of(metadata: list[Any]) -> Reader | None:
    """The audience a field's metadata names, or None for a public field."""
    found = [m.who for m in metadata if isinstance(m, SeenBy)]
    return found[0] if found else None


def secret_fields(model: Any) -> dict[str, tuple[Reader, bool]]:
    """A model's fields that are not public: name -> (who reads it, whether
    it is a mapping keyed by the character it belongs to)."""
    from typing import Annotated, get_args, get_origin
    found: dict[str, tuple[Reader, bool]] = {}
    for name, field in model.model_fields.items():
        reader = audience_of(list(field.metadata))
        if reader is not None:
            found[name] = (reader, False)
        elif get_origin(field.annotation) is dict:
            value = get_args(field.annotation)[1]
            if get_origin(value) is Annotated and (reader := audience_of(list(get_args(value)[1:]))) is not None:
                found[name] = (reader, True)
    return found
