"""The packet: a game's groups, relationships and plots, read and resolved.

Game layer: pure reading and checking (core/, systems/, game/). What the
gather (gather.py, through packet_read.read_packets) hands on: one `Packet`
per game with characters, every entry by id and in cast order; the checks
are packet_checks.py's.

packet.yaml names characters by id, the character's file name without
`.yaml` (its sheet's slug), so renaming a character changes nothing here.
A character's `faction` (Sixes) is read as an open group of that name: a
group in packet.yaml with the same name describes it (its description and
members' sheet), and its members are the faction's plus any it lists.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..core import naming
from ..core.errors import did_you_mean
from .casting import character_name, game_title
from .load import Loaded
from .packet_stuff import Stuff

# Where a person's public line is found on a sheet's context, by the systems' words for a character.
_ENTITY_KEYS = ("character", "hero", "operator")


@dataclass(frozen=True)
class Person:
    """A character as the packet sees it: id (sheet slug), name, public line."""

    id: str
    name: str
    description: str = ""
    faction: str = ""
    source: str | None = None           # the character's own file, when it has one


@dataclass(frozen=True)
class GroupEntry:
    slug: str
    name: str
    description: str
    sheet: str
    membership: str                     # open, secret or gm-only
    members: tuple[str, ...]            # ids, in cast order
    gm_notes: str = ""
    faction: bool = False               # a faction of the characters' files
    mark: str = ""                      # an open group's mark on its members' badges

    @property
    def has_sheet(self) -> bool:
        """Whether members get a sheet: not GM-only, and something to print."""
        return self.membership != "gm-only" and bool(self.sheet or self.description)


@dataclass(frozen=True)
class Tie:
    """One relationship: the two ids, each side's text, the public line."""

    between: tuple[str, str]
    sides: Mapping[str, str]
    public: str = ""
    known_to: str | None = None

    def seen_by(self, who: str) -> bool:
        return who in self.between and (self.known_to is None or self.known_to == who)

    def other(self, who: str) -> str:
        return self.between[1] if self.between[0] == who else self.between[0]


@dataclass(frozen=True)
class PlotEntry:
    slug: str
    name: str
    summary: str
    members: tuple[tuple[str, str], ...]     # (id, snippet), in cast order


@dataclass(frozen=True)
class Packet:
    """One game's packet, resolved: everything by id, in cast order."""

    system: str
    people: tuple[Person, ...]
    groups: tuple[GroupEntry, ...] = ()
    ties: tuple[Tie, ...] = ()
    plots: tuple[PlotEntry, ...] = ()
    stuff: Stuff = Stuff()          # items, abilities, money, sealed inserts, badges (packet_stuff.py)
    _index: dict[str, Person] = field(default_factory=dict, compare=False, repr=False)

    def person(self, who: str) -> Person:
        if not self._index:
            self._index.update({p.id: p for p in self.people})
        return self._index[who]

    def groups_of(self, who: str) -> list[GroupEntry]:
        """The groups a character knows it is in (not the GM-only ones)."""
        return [g for g in self.groups if who in g.members and g.membership != "gm-only"]

    def known_by(self, who: str) -> list[tuple[Person, Tie]]:
        """The people `who` knows, in cast order, with the tie."""
        ties = {t.other(who): t for t in self.ties if t.seen_by(who)}
        return [(p, ties[p.id]) for p in self.people if p.id in ties]

    def plots_of(self, who: str) -> list[tuple[PlotEntry, str]]:
        return [(plot, snippet) for plot in self.plots for member, snippet in plot.members if member == who]

    @property
    def empty(self) -> bool:
        return not (self.groups or self.ties or self.plots) and self.stuff.empty


def people_of(item: Loaded) -> tuple[Person, ...]:
    """A game's characters, in its cast order, from its character sheets."""
    documents = item.system.documents(item.game)
    title = game_title(documents, item.system)
    people = []
    for doc in documents:
        if doc.audience != "player":
            continue
        entity = next((doc.context[k] for k in _ENTITY_KEYS if doc.context.get(k) is not None), None)
        member = doc.context.get("member")
        source = getattr(member, "source", None)
        faction = getattr(entity, "faction", "")
        people.append(Person(doc.slug, character_name(doc, title), _public_line(entity),
                             faction if isinstance(faction, str) else "",
                             source if isinstance(source, str) else None))
    return tuple(people)


def _public_line(entity: Any) -> str:
    """The public description a system gives a character (a model, or the dict a sheet prints)."""
    for name in ("description", "archetype", "concept"):
        value = entity.get(name, "") if isinstance(entity, dict) else getattr(entity, name, "")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def member_hint(found: str, people: tuple[Person, ...]) -> str:
    """Did-you-mean over the ids, or the id of a character named `found`."""
    by_name = {naming.slug(p.name): p.id for p in people}
    if naming.slug(found) in by_name:
        return f"characters are named by id: write {by_name[naming.slug(found)]}"
    return did_you_mean(found, [p.id for p in people]) or \
        "a character's id is its file name without .yaml: " + ", ".join(p.id for p in people[:6]) + \
        (", ..." if len(people) > 6 else "")
