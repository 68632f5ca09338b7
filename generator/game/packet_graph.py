"""The relationship web as Graphviz source and as a matrix, for the GM.

Game layer: pure text. Names from the data become DOT quoted strings (a
backslash and a quote escaped, so no name can end a string, start an
attribute or use Graphviz's own escapes); node ids are the tool's (`p0`,
`p1`...). The render floor (render/pdf/relationship_map.py) runs Graphviz on it
through the one gate that starts programs and cleans the SVG it draws.
"""
from __future__ import annotations

from .packet import Packet

FONT = "Atkinson Hyperlegible"
# Shades that stay apart in greyscale, the first white: one per open group.
GREYS = ("#ffffff", "#d4d4d4", "#a8a8a8", "#ebebeb", "#bebebe", "#f5f5f5", "#c9c9c9")


def quoted(text: str) -> str:
    """A DOT string holding `text` as it is (new lines as spaces; `&` as
    an entity, since Graphviz reads entities in a label)."""
    return '"' + " ".join(text.split()).replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;") + '"'


def dot_source(packet: Packet) -> str:
    """Characters as boxes, a line for each relationship both sides know,
    an arrow from the one who knows for a one-sided one; an open group's
    members share a shade of grey (it prints in greyscale)."""
    ids = {p.id: f"p{k}" for k, p in enumerate(packet.people)}
    known = {who for tie in packet.ties for who in tie.between}
    shade = _shades(packet)
    lines = ["graph relationships {",
             f"  graph [overlap=false, splines=true, sep=\"+8\", fontname={quoted(FONT)}, ratio=fill, "
             "size=\"7.3,9.2\"];",
             f"  node [shape=box, style=\"rounded,filled\", fontname={quoted(FONT)}, fontsize=17, penwidth=1.4, "
             "margin=\"0.12,0.06\"];",
             f"  edge [fontname={quoted(FONT)}, penwidth=1.1];"]
    for person in packet.people:
        if person.id in known:
            grey = shade.get(person.id, ("", GREYS[0]))[1]
            lines.append(f"  {ids[person.id]} [label={quoted(person.name)}, fillcolor=\"{grey}\"];")
    for tie in packet.ties:
        a, b = tie.between
        if tie.known_to is None:
            lines.append(f"  {ids[a]} -- {ids[b]};")
        else:
            other = tie.other(tie.known_to)
            lines.append(f"  {ids[tie.known_to]} -- {ids[other]} [dir=forward, style=dashed, arrowsize=0.8];")
    lines.append("}")
    return "\n".join(lines) + "\n"




def _shades(packet: Packet) -> dict[str, tuple[str, str]]:
    """Each character's (group, grey): the first open group they are in,
    factions first (a character has one), each group its own grey."""
    shaded = sorted((g for g in packet.groups if g.membership == "open"), key=lambda g: not g.faction)
    shade: dict[str, tuple[str, str]] = {}
    for k, group in enumerate(shaded):
        for who in group.members:
            shade.setdefault(who, (group.name, GREYS[k % len(GREYS)]))
    return shade


def legend(packet: Packet) -> list[tuple[str, str]]:
    """(open group, its grey) for each group that shades someone: the map's key."""
    used = dict(_shades(packet).values())
    return [(g.name, used[g.name]) for g in packet.groups if g.name in used]


# Columns of the matrix a table holds: with the names' column, each cell keeps room for a three-digit number
# at the matrix's size on A4 and Letter alike; a longer cast continues in another table of the next columns.
MATRIX_COLUMNS = 25


def matrix_blocks(count: int) -> list[range]:
    """The columns of each table of a matrix of `count` characters, MATRIX_COLUMNS at most each."""
    return [range(start, min(start + MATRIX_COLUMNS, count)) for start in range(0, count, MATRIX_COLUMNS)]


def matrix(packet: Packet) -> list[dict[str, object]]:
    """A row per character: who they know, as one cell per character of the
    cast ('both', 'knows' for a one-sided tie this side knows, 'known' for
    one the other side alone knows, '' for none)."""
    rows = []
    for person in packet.people:
        cells = {}
        for tie in packet.ties:
            if person.id in tie.between:
                other = tie.other(person.id)
                cells[other] = "both" if tie.known_to is None else ("knows" if tie.known_to == person.id
                                                                     else "known")
        rows.append({"name": person.name, "cells": [cells.get(p.id, "") for p in packet.people],
                     "count": sum(1 for v in cells.values() if v in ("both", "knows"))})
    return rows
