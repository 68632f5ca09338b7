"""The packet's checks: each entry against the cast, both sides of every
relationship, and no secret group named where players read.

Game layer: pure. Everything is reported at its file:line:col, all at once:
an unknown or misspelt character (did-you-mean), a character listed twice,
a relationship whose other side is missing or which is written twice, a
group with no members, a faction made secret, a secret group's name in
public text (a character's public description, a relationship's public
line, an open group's description or sheet); and as warnings a character
in no plot, a plot of one member, a cast character in no group.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from ..core import naming
from ..core.errors import Problem
from ..core.loading import Key, YamlDocument, format_loc, load_yaml, reading_game
from .casting import CastingCheck
from .packet import GroupEntry, Packet, Person, PlotEntry, Tie, member_hint
from .packet_models import Group, PacketGame, Plot, Relationship
from .packet_stuff import check_stuff


def check_game(doc: YamlDocument, slug: str, model: PacketGame, people: tuple[Person, ...]
               ) -> tuple[Packet, list[Problem]]:
    """One game's section, resolved against its characters."""
    known = {p.id for p in people}
    problems: list[Problem] = []
    groups = _groups(doc, slug, model.groups, people, known, problems)
    ties = _ties(doc, slug, model.relationships, people, known, problems)
    plots = _plots(doc, slug, model.plots, people, known, problems)
    stuff, found = check_stuff(doc, slug, model, known, {g.name: g.members for g in groups},
                               lambda ids: _in_cast_order(ids, people),
                               lambda loc, who, key: _unknown(doc, loc, who, people, key))
    problems += found
    packet = Packet(slug, people, groups, ties, plots, stuff)
    if plots:
        in_plots = {who for plot in plots for who, _ in plot.members}
        problems += [doc.problem((slug, "plots"), f"{p.name} ({p.id}) is in no plot", key=True, severity="warning",
                                 hint="give them a snippet in a plot, or a plot of their own")
                     for p in people if p.id not in in_plots]
    return packet, problems


def _unknown(doc: YamlDocument, loc: Key, found: str, people: tuple[Person, ...], key: bool = False) -> Problem:
    return doc.problem(loc, f"no character with the id '{found}'", key=key, hint=member_hint(found, people))


def _ids(doc: YamlDocument, loc: Key, ids: list[str], people: tuple[Person, ...], known: set[str],
         problems: list[Problem], key: bool = False) -> list[str]:
    """The known ids of a list (or a mapping's keys), each once; problems for the rest."""
    seen: dict[str, int] = {}
    kept = []
    for j, who in enumerate(ids):
        at = (*loc, who) if key else (*loc, j)
        if who not in known:
            problems.append(_unknown(doc, at, who, people, key))
        elif who in seen:
            problems.append(doc.problem(at, f"'{who}' is listed twice (first on line {seen[who]})", key=key,
                                        hint="name each character once"))
        else:
            seen[who] = doc.position(at, key=key)[0]
            kept.append(who)
    return kept


def _in_cast_order(ids: list[str], people: tuple[Person, ...]) -> tuple[str, ...]:
    wanted = set(ids)
    return tuple(p.id for p in people if p.id in wanted)


def _named_once(doc: YamlDocument, loc: tuple, kind: str, name: str, first: dict[str, int],
                problems: list[Problem], hint: str) -> str | None:
    """The key of the entry named `name` at `loc` (naming.slug), or None
    (and a problem) when an earlier entry in `first` has that name."""
    key = naming.slug(name)
    if key in first:
        problems.append(doc.problem((*loc, "name"), f"the {kind} '{name}' is given twice (first on line "
                                    f"{first[key]})", hint=hint))
        return None
    first[key] = doc.position((*loc, "name"))[0]
    return key


def _groups(doc: YamlDocument, slug: str, groups: list[Group], people: tuple[Person, ...], known: set[str],
            problems: list[Problem]) -> tuple[GroupEntry, ...]:
    """The groups of the file, then each faction no group describes."""
    factions: dict[str, list[str]] = {}
    for p in people:
        if p.faction:
            factions.setdefault(naming.slug(p.faction), []).append(p.id)
    first: dict[str, int] = {}
    found: list[GroupEntry] = []
    for i, group in enumerate(groups):
        loc = (slug, "groups", i)
        key = _named_once(doc, loc, "group", group.name, first, problems,
                          "describe each group once; give it all its members")
        if key is None:
            continue
        members = _ids(doc, (*loc, "members"), group.members, people, known, problems)
        faction = factions.pop(key, [])
        if faction and group.membership != "open":
            problems.append(doc.problem((*loc, "membership"), f"'{group.name}' is a faction of the characters' "
                                        "files, which the roster, the cast list and the tracker print",
                                        hint="make it open, or take it off the characters' `faction`"))
        if group.membership == "gm-only" and group.sheet:
            problems.append(doc.problem((*loc, "sheet"), f"the GM-only group '{group.name}' has a members' sheet, "
                                        "which no member would get", hint="make it open or secret, or move the "
                                                                          "text to its gm_notes"))
        if not members and not faction:
            problems.append(doc.problem((*loc, "members"), f"the group '{group.name}' has no members",
                                        hint="list its members by character id, or drop the group"))
        found.append(GroupEntry(key, group.name, group.description, group.sheet, group.membership,
                                _in_cast_order(members + faction, people), group.gm_notes, bool(faction),
                                group.mark if group.membership == "open" else ""))
    names = {naming.slug(p.faction): p.faction for p in people if p.faction}
    found += [GroupEntry(key, names[key], "", "", "open", _in_cast_order(ids, people), faction=True)
              for key, ids in factions.items()]
    return tuple(found)


def _ties(doc: YamlDocument, slug: str, entries: list[Relationship], people: tuple[Person, ...],
          known: set[str], problems: list[Problem]) -> tuple[Tie, ...]:
    """Each relationship with both its sides (or the one it is known to)."""
    names = {p.id: p.name for p in people}
    pairs: dict[frozenset[str], int] = {}
    ties = []
    for i, entry in enumerate(entries):
        loc = (slug, "relationships", i)
        before = len(problems)
        between = _ids(doc, (*loc, "between"), entry.between, people, known, problems)
        for who in entry.sides:
            if who not in entry.between:
                problems.append(doc.problem((*loc, "sides", who), f"'{who}' is not one of the two in `between`",
                                            key=True, hint="give a text for each of: " + ", ".join(entry.between)))
        if entry.known_to is not None and entry.known_to not in entry.between:
            problems.append(doc.problem((*loc, "known_to"), f"'{entry.known_to}' is not one of the two in `between`",
                                        hint="name one of: " + ", ".join(entry.between)))
        if len(problems) > before or len(between) != 2:
            continue
        pair = frozenset(between)
        if pair in pairs:
            problems.append(doc.problem((*loc, "between"), f"the relationship of {names[between[0]]} and "
                                        f"{names[between[1]]} is written twice (first on line {pairs[pair]})",
                                        hint="one entry per pair: put both sides' texts in the first"))
            continue
        pairs[pair] = doc.position((*loc, "between"))[0]
        problems += _sides(doc, loc, entry, names)
        ties.append(Tie((between[0], between[1]), dict(entry.sides), entry.public, entry.known_to))
    return tuple(ties)


def _sides(doc: YamlDocument, loc: Key, entry: Relationship, names: dict[str, str]) -> Iterator[Problem]:
    """A side's text missing, or given to a side that does not know."""
    first, second = entry.between
    for who, other in ((first, second), (second, first)):
        text = entry.sides.get(who, "").strip()
        if entry.known_to is None and not text:
            yield doc.problem((*loc, "sides"), f"the other side is missing: what does {names[who]} know of "
                              f"{names[other]}?", hint=f"add `{who}: ...` under sides, or, if {names[other]} "
                              f"alone knows of it, `known_to: {other}`")
        elif entry.known_to == other and text:
            yield doc.problem((*loc, "sides", who), f"the relationship is known to {names[other]} only, yet "
                              f"{names[who]} has a text", key=True,
                              hint="drop `known_to` to print both sides, or drop this text")
        elif entry.known_to == who and not text:
            yield doc.problem((*loc, "sides"), f"{names[who]} alone knows of it, but has no text",
                              hint=f"add `{who}: ...` under sides")


def _plots(doc: YamlDocument, slug: str, plots: list[Plot], people: tuple[Person, ...], known: set[str],
           problems: list[Problem]) -> tuple[PlotEntry, ...]:
    found = []
    first: dict[str, int] = {}
    for i, plot in enumerate(plots):
        loc = (slug, "plots", i)
        key = _named_once(doc, loc, "plot", plot.name, first, problems, "give each plot a name of its own")
        if key is None:
            continue
        members = _ids(doc, (*loc, "members"), list(plot.members), people, known, problems, key=True)
        if len(plot.members) < 2:
            problems.append(doc.problem((*loc, "members"), f"the plot '{plot.name}' has "
                                        f"{'one member' if plot.members else 'no members'}", severity="warning",
                                        hint="a plot ties characters together: add the others it touches"))
        ordered = _in_cast_order(members, people)
        found.append(PlotEntry(key, plot.name, plot.summary, tuple((who, plot.members[who]) for who in ordered)))
    return tuple(found)


# --- secret groups in public text ------------------------------------------------

def secret_names(doc: YamlDocument, packet: Packet, data_dir: Path) -> list[Problem]:
    """A secret (or GM-only) group's name in any text a non-member may read."""
    hidden = [g for g in packet.groups if g.membership != "open"]
    if not hidden:
        return []
    patterns = [(g, re.compile(r"(?<!\w)" + re.escape(g.name) + r"(?!\w)", re.IGNORECASE)) for g in hidden]
    problems = []
    for text, where in _public_texts(doc, packet):
        for group, pattern in patterns:
            if pattern.search(text):
                problems.append(_named(where(data_dir), group))
    return problems


def _named(where: tuple[str, int | None, int | None, str, str], group: GroupEntry) -> Problem:
    display, line, column, what, field = where
    return Problem(display, line, column, f"{what} names the {group.membership} group '{group.name}', which "
                   "players who are not its members must not read", field=field,
                   hint="keep the group's name to its members' sheet, or make the group open")


def _public_texts(doc: YamlDocument, packet: Packet) -> Iterator[tuple[str, Any]]:
    """(text, where) for each public text: `where(data_dir)` gives its place, worked out only on a find."""
    slug = packet.system
    for person in packet.people:
        if person.description:
            yield person.description, lambda data_dir, p=person: _description_at(p, slug, data_dir)
    for i, tie in enumerate(doc.data.get(slug, {}).get("relationships", []) if isinstance(doc.data, dict) else []):
        if isinstance(tie, dict) and isinstance(tie.get("public"), str):
            at = (slug, "relationships", i, "public")
            yield tie["public"], lambda _d, at=at: (doc.display, *doc.position(at), "a relationship's public line",
                                                    format_loc(at))
    open_groups = {g.slug for g in packet.groups if g.membership == "open"}
    for i, group in enumerate(doc.data.get(slug, {}).get("groups", []) if isinstance(doc.data, dict) else []):
        if not isinstance(group, dict) or naming.slug(str(group.get("name", ""))) not in open_groups:
            continue
        for part in ("description", "sheet"):
            if isinstance(group.get(part), str):
                at = (slug, "groups", i, part)
                yield group[part], lambda _d, at=at, name=group["name"]: (
                    doc.display, *doc.position(at), f"the open group '{name}' ({at[-1]})", format_loc(at))


def _description_at(person: Person, system: str, data_dir: Path) -> tuple[str, int | None, int | None, str, str]:
    """Where a character's public description is written."""
    return text_at(person, system, data_dir, person.description, f"{person.name}'s public description")


def text_at(person: Person, system: str, data_dir: Path, text: str, what: str
            ) -> tuple[str, int | None, int | None, str, str]:
    """Where a text of a character is written (their public description,
    their name): its file (the character's own, else the game's file that
    holds the text) at its line, read again only on a find."""
    root = Path(data_dir)
    files = [root.parent / person.source] if person.source else sorted((root / system).rglob("*.yaml"))
    with reading_game(data_dir):
        for path in files:
            shown = person.source or path.relative_to(root.parent).as_posix()
            found, _ = load_yaml(path, shown) if path.is_file() else (None, [])
            at = _where_text(found.data, (), text) if found is not None else None
            if found is not None and at is not None:
                return (shown, *found.position(at), what, format_loc(at))
    return (person.source or person.id, None, None, what, "")


def _where_text(data: Any, loc: Key, text: str) -> Key | None:
    """The place of the first string value equal to `text` (stripped) in a file's data."""
    if isinstance(data, str):
        return loc if data.strip() == text else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        if (found := _where_text(value, (*loc, key), text)) is not None:
            return found
    return None


def unplaced_cast(doc: YamlDocument, packet: Packet, casting: CastingCheck | None) -> list[Problem]:
    """A character the casting file casts who is in no group they know of, when the game has groups."""
    if casting is None or casting.system != packet.system or not packet.groups:
        return []
    grouped = {who for g in packet.groups if g.membership != "gm-only" for who in g.members}
    names = {p.id: p.name for p in packet.people}
    return [Problem(*role.at, f"{names.get(role.slug, role.slug)} is cast but in no group of {doc.display}",
                    hint="add them to a group's members (or give them a faction)", severity="warning")
            for role in casting.roles if role.slug is not None and role.slug not in grouped]
