"""Where the packet's papers go: each envelope's own page and group sheets,
and the GM's map, plot index and groups.

Game layer: pure (the pack plan, pack_plan.py, calls it). Who may read a
text is the model's word (packet_models.py, core/audience.py), and this is
where it is kept: a character's page holds only the sides of relationships
that are theirs and their own plot snippets; a group's sheet goes into its
members' envelopes only, and the GM pack has every one; the GM's documents
hold everything. A secret group's name is on its sheet and on its members'
pages, never on a cover or the manifest: those call it "a secret group's
sheet" (covers may lie on a table, the manifest goes to whoever stuffs).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from ..core.i18n import _
from ..core.measure import line_count
from ..systems.base import Deferred, Document
from .packet import GroupEntry, Packet

# A page of a packet document as base.css lays it out on the smaller of the
# papers: A4's width less the margins, Letter's height less them, 10 pt text.
TEXT_WIDTH_MM = 210 - 24
LINES_PER_PAGE = 46
MEMBER_PREFIX = "known--"           # a slug no character's can be (naming.slug never doubles a hyphen)
GROUP_PREFIX = "group--"
MAP_SLUG = "packet--relationship-map"
PLOTS_SLUG = "packet--plot-index"


class HasSheet(Protocol):
    """What routing needs of an envelope: its sheet (pack_plan.Envelope)."""

    @property
    def sheet(self) -> Document | None: ...


@dataclass(frozen=True)
class PacketPapers:
    """The packet's documents: by envelope (its own page, then its group
    sheets), and the GM pack's own (the map, the plot index, every group
    sheet); the GM pack has each character's page after their sheet."""

    by_sheet: dict[str, tuple[Document, ...]]
    gm: tuple[Document, ...]


def packet_papers(packet: Packet | None, title: str, draw: Callable[[str], str] | None = None,
                  sealed_form: str | None = None) -> PacketPapers:
    """Every packet document of one game; `draw` turns a Graphviz source
    into the map's image (the render floor's), None when nothing renders;
    `sealed_form`: a sealed insert's form where the data gives none."""
    if packet is None or packet.empty:
        return PacketPapers({}, ())
    from .packet_cards import sealed_by_person
    sheets = {g.slug: group_sheet(g, packet, title) for g in packet.groups if g.has_sheet}
    sealed = sealed_by_person(packet, title, sealed_form)
    by_sheet: dict[str, tuple[Document, ...]] = {}
    for person in packet.people:
        own = member_page(packet, person.id, title)
        groups = tuple(sheets[g.slug] for g in packet.groups_of(person.id) if g.slug in sheets)
        by_sheet[person.id] = ((own,) if own is not None else ()) + groups + sealed.get(person.id, ())
    gm = (relationship_map(packet, title, draw), plot_index(packet, title)) if \
        (packet.groups or packet.ties or packet.plots) else ()
    return PacketPapers(by_sheet, gm + tuple(sheets.values()) + tuple(d for docs in sealed.values() for d in docs))


def member_page(packet: Packet, who: str, title: str) -> Document | None:
    """One character's page: their groups, the people they know (in cast
    order, each with a public line and their own side), their plots."""
    person = packet.person(who)
    groups = [{"name": g.name, "secret": g.membership == "secret", "sheet": g.has_sheet}
              for g in packet.groups_of(who)]
    people = [{"name": other.name, "description": other.description, "public": tie.public,
               "text": tie.sides.get(who, "")} for other, tie in packet.known_by(who)]
    plots = [{"name": plot.name, "snippet": snippet} for plot, snippet in packet.plots_of(who)]
    from .packet_cards import start_lines
    start = start_lines(packet, who)
    if not (groups or people or plots or any(start.values())):
        return None
    texts = [str(g["name"]) for g in groups] + [t for p in people for t in p.values()] + \
        [t for p in plots for t in p.values()] + [str(i["name"]) for i in start["items"]] + start["abilities"]
    return Document(MEMBER_PREFIX + who,
                    _("{title}: {name}: people, groups and plots").format(title=title, name=person.name),
                    "packet/member.html", "player",
                    {"title": title, "name": person.name, "groups": groups, "people": people, "plots": plots,
                     "start": start}, max_pages=pages_for(texts, headings=4 + len(people) + len(plots)))


def group_sheet(group: GroupEntry, packet: Packet, title: str) -> Document:
    """A group's sheet: its members (when the membership is open) and what every member knows."""
    members = [packet.person(who).name for who in group.members] if group.membership == "open" else []
    name = group.name if group.membership == "open" else _("a secret group")
    return Document(GROUP_PREFIX + group.slug, _("{title}: {group}: group sheet").format(title=title, group=name),
                    "packet/group.html", "player",
                    {"title": title, "group": group, "members": members, "secret": group.membership == "secret"},
                    max_pages=pages_for([group.description, group.sheet, ", ".join(members)], headings=2))


def relationship_map(packet: Packet, title: str, draw: Callable[[str], str] | None) -> Document:
    """The GM's picture of the web (Graphviz, drawn by `draw`) and its matrix."""
    from .packet_graph import dot_source, legend, matrix, matrix_blocks
    source = dot_source(packet)
    rows = matrix(packet)
    blocks = matrix_blocks(len(rows))
    context: dict[str, Any] = {"title": title, "rows": rows, "blocks": blocks, "ties": len(packet.ties),
                               "legend": legend(packet)}
    return Document(MAP_SLUG, _("{title}: relationship map").format(title=title), "packet/map.html", "gm",
                    Deferred(lambda: {**context, "image": draw(source) if draw is not None else None}),
                    max_pages=1 + len(blocks) * math.ceil(len(rows) / 40))


def plot_index(packet: Packet, title: str) -> Document:
    """Who is in what: every plot with its summary and members' snippets, and
    every group with its membership, members and notes."""
    plots: list[dict[str, Any]] = [{"name": p.name, "summary": p.summary,
                                    "members": [(packet.person(who).name, snippet) for who, snippet in p.members]}
                                   for p in packet.plots]
    groups = [{"group": g, "members": [packet.person(who).name for who in g.members]} for g in packet.groups]
    by_person = [(p.name, [plot.name for plot, _s in packet.plots_of(p.id)]) for p in packet.people]
    texts = [p["summary"] for p in plots] + [s for p in plots for _n, s in p["members"]] + \
        [g.gm_notes + g.description for g in packet.groups]
    return Document(PLOTS_SLUG, _("{title}: plot index").format(title=title), "packet/plots.html", "gm",
                    {"title": title, "plots": plots, "groups": groups, "by_person": by_person},
                    max_pages=pages_for(texts, headings=len(plots) + len(groups) + len(by_person) // 2 + 4))


def pages_for(texts: Iterable[str], headings: int = 0) -> int:
    """Pages a flowing packet document plans for: its texts' lines at 10 pt
    across the page (core/measure), a line between paragraphs, two lines a
    heading. It flows on past them with a warning (render/jobs.Budget)."""
    lines = sum(line_count(t, TEXT_WIDTH_MM, 10) + 1 for t in texts if t) + 2 * headings
    return max(1, math.ceil(lines / LINES_PER_PAGE))


def with_papers(envelopes: list[Any], papers: PacketPapers) -> list[Any]:
    """Each envelope with its packet documents (`extra`), after its sheet."""
    return [dataclasses.replace(e, extra=papers.by_sheet.get(e.sheet.slug, ()) if e.sheet is not None else ())
            for e in envelopes]


def own_pages(extra: tuple[Document, ...]) -> tuple[Document, ...]:
    """Of an envelope's packet papers, the character's own page (not the group sheets)."""
    return tuple(d for d in extra if d.slug.startswith(MEMBER_PREFIX))


def cover_lines(envelope_extra: tuple[Document, ...], title: str) -> list[str]:
    """What a cover lists of the packet: a secret group's sheet by no name,
    a sealed envelope by no trigger."""
    from .casting import short_title
    from .packet_cards import SEALED_PREFIX
    return [_("Your people, groups and plots") if d.slug.startswith(MEMBER_PREFIX) else short_title(d, title)
            for d in envelope_extra if not d.slug.startswith(SEALED_PREFIX)]


def part_name(doc: Document, title: str) -> str | None:
    """The manifest's name for a packet document (None: not one)."""
    from .casting import short_title
    from .packet_cards import INDEX_SLUG, SEALED_PREFIX
    if doc.slug.startswith(SEALED_PREFIX):
        return _("sealed envelope")
    if doc.slug.startswith((MEMBER_PREFIX, GROUP_PREFIX)) or doc.slug in (MAP_SLUG, PLOTS_SLUG, INDEX_SLUG):
        return short_title(doc, title)
    return None
