"""What the site may show of the packet: open groups, with what everyone knows.

Game layer: pure. The cast list (render/site/writer.py, with settings'
`site.cast_list`) gets each open group that has a public description, and
of its members only the characters the cast list itself shows (a private
character stays off the site). A secret or GM-only group, a members' sheet,
a relationship and a plot never reach here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .packet import Packet


@dataclass(frozen=True)
class PublicGroup:
    name: str
    description: str
    members: tuple[str, ...]        # public characters' names, in cast order


def public_groups(packet: Packet | None, shown: Iterable[str]) -> tuple[PublicGroup, ...]:
    """The open groups with a public description; `shown`: the names the cast list prints."""
    if packet is None:
        return ()
    public = set(shown)
    return tuple(PublicGroup(g.name, g.description, tuple(n for who in g.members
                                                          if (n := packet.person(who).name) in public))
                 for g in packet.groups if g.membership == "open" and g.description)
