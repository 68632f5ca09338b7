"""What a pack holds, part by part, so a later pack can say what changed.

Game layer: pure. A pack's record names its game, its paper and the options
it was packed with, then each envelope in order with its parts (cover, sheet,
the packet's pages, summaries, handouts, cards, label, name stamp, badge),
each with a fingerprint of what it shows and, for the words of a reprint, a
fingerprint per field ("facets"). What it shows is given by `Shows` (the
render floor's render/pack/record.py hashes a document's HTML, never its
PDF's bytes): a new commit or a new date changes no fingerprint, and the same
page packed again matches. A checksum over the record refuses one edited by
hand; it is no seal against a forger, who could compute it again.

The record holds titles, names and numbers the manifest already prints, and
hashes; never a text itself, so it may go to the print shop with the pack.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Protocol

from ..core.i18n import _
from ..core.paper import Paper
from ..systems.base import Card, Document
from .casting import short_title
from .pack_plan import Envelope, PackPlan, sheet_word
from .packet_route import part_name

RECORD_FILE = "pack-record.json"
RECORD_FORMAT = "sixes-pack-record/1"
# Kinds of part, in the order an envelope's file holds them; the last four are
# printed apart (the card run, the label sheet, the stamps, the badge sheet).
KINDS = ("cover", "sheet", "page", "summary", "handout", "card", "label", "stamp", "badge")


class Shows(Protocol):
    """Fingerprints of what a part shows (render/pack/record.py)."""

    def document(self, doc: Document) -> str: ...

    def card(self, run: Document, card: Card) -> str: ...

    def file(self, path: Path) -> str: ...


def digest(value: Any) -> str:
    """A short fingerprint of a JSON-able value: 64 bits of SHA-256 are
    plenty to tell two versions of one part apart."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def checksum(record: Mapping[str, Any]) -> str:
    """The record's checksum: over everything but itself."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def part_title(doc: Document, plan: PackPlan) -> str:
    """A document as the manifest names it (a secret group's sheet by no name)."""
    return part_name(doc, plan.title) or (sheet_word(plan.system) if doc.audience == "player"
                                          else short_title(doc, plan.title))


# Fields that say where a thing was read from (a character's file), not what a page shows.
_NOT_SHOWN = frozenset({"source", "path", "file"})


def plain(value: Any) -> Any:
    """A model's value as JSON can hold it, for a field's fingerprint: a
    pydantic model by its fields, a mapping or a sequence item by item, a
    path by its name (where the game folder lies is no part of a page)."""
    if hasattr(value, "model_dump"):
        return {k: plain(getattr(value, k)) for k in type(value).model_fields if k not in _NOT_SHOWN}
    if hasattr(value, "__dataclass_fields__"):
        return {k: plain(getattr(value, k)) for k in value.__dataclass_fields__ if k not in _NOT_SHOWN}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Path):
        return value.name
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return type(value).__name__     # an object without a stable value (a glossary): its kind only


def facets(context: Mapping[str, Any]) -> dict[str, str]:
    """A fingerprint per field of what a page shows: a model in its context
    (the character) by each of its fields, named `character.background`,
    anything else by its key."""
    found: dict[str, str] = {}
    for key, value in context.items():
        if hasattr(value, "model_dump") and key in ("character", "group", "insert", "item"):
            found.update({f"{key}.{name}": digest(plain(getattr(value, name))) for name in type(value).model_fields})
        else:
            found[key] = digest(plain(value))
    return found


@dataclass
class RecordMaker:
    """One paper's record from the plan (record_of)."""

    plan: PackPlan
    paper: Paper
    shows: Shows
    options: Mapping[str, Any]
    label_doc: Document | None = None

    def part(self, kind: str, ident: str, title: str, shows: str, fields: Mapping[str, str] | None = None,
             pages: int = 0) -> dict[str, Any]:
        """A part's entry; `pages`: what the plan lays it out for, for the paper a reprint takes."""
        return {"kind": kind, "id": ident, "title": title, "print": shows, "facets": dict(fields or {}),
                "pages": pages}

    def doc_part(self, kind: str, doc: Document, envelope: Envelope) -> dict[str, Any]:
        shows = self.shows.document(doc)
        if kind == "sheet" and self.plan.choices.name_sheets and envelope.player:    # its name is laid over it
            shows = digest([shows, envelope.player])
        sealed = doc.slug.startswith("sealed--")
        fields = {} if sealed else facets(doc.context)       # a sealed insert's inside: not even which field
        return self.part(kind, doc_id(doc), part_title(doc, self.plan), shows, fields,
                         doc.max_pages)

    def cover(self, k: int, envelope: Envelope) -> dict[str, Any]:
        page = self.plan.covers.context["pages"][k]
        values = {"player": envelope.player or "", "character": envelope.character or "",
                  "faction": envelope.faction, "number": envelope.number, "count": len(self.plan.envelopes),
                  "contents": list(page["inside"]), "cards": page["cards"] or "", "file": envelope.stem,
                  "title": self.plan.title}
        fields = {name: digest(value) for name, value in values.items()}
        return self.part("cover", "cover", _("cover"), digest(values), fields, 1)

    def outside(self, envelope: Envelope) -> list[dict[str, Any]]:
        """Its label, name stamp and badge: printed apart, one each."""
        parts = []
        if self.label_doc is not None:
            values = {"label": envelope.label, "number": envelope.number, "count": len(self.plan.envelopes),
                      "title": self.plan.title}
            parts.append(self.part("label", "label", _("label"), digest(values),
                                   {name: digest(value) for name, value in values.items()}))
        if self.plan.stamps is not None and envelope.player:
            parts.append(self.part("stamp", "stamp", _("name stamp"), digest([envelope.player, envelope.number]),
                                   {"player": digest(envelope.player)}, 1))
        badge = badge_of(self.plan.badge_docs.get(self.paper), envelope)
        if badge is not None:
            parts.append(self.part("badge", "badge", _("name badge"), digest(plain(badge)),
                                   {name: digest(plain(value)) for name, value in badge.items()}))
        return parts

    def envelope(self, k: int, envelope: Envelope, cards: list[tuple[Document, Card]]) -> dict[str, Any]:
        parts = [self.cover(k, envelope)]
        if envelope.sheet is not None:
            parts.append(self.doc_part("sheet", envelope.sheet, envelope))
        parts += [self.doc_part("page", doc, envelope) for doc in envelope.extra]
        parts += [self.doc_part("summary", doc, envelope) for doc in self.plan.docs.summaries]
        parts += [self.part("handout", str(path.name), _("Handout: {name}").format(name=name),
                            self.shows.file(path), pages=1) for path, name in envelope.titled_handouts()]
        for ident, (run_doc, card) in zip(card_ids(cards), cards, strict=True):
            parts.append(self.part("card", ident, card_title(card), self.shows.card(run_doc, card),
                                   {"card": digest(plain(card.context))}))
        parts += self.outside(envelope)
        return {"number": envelope.number, "key": envelope_key(envelope), "player": envelope.player or "",
                "character": envelope.character or "", "file": f"envelopes/{envelope.stem}.pdf", "parts": parts}


def card_ids(cards: list[tuple[Document, Card]]) -> list[str]:
    """Each of an envelope's cards by a fingerprint of its label (and, for a
    second card of one label, which one it is): a label may name what only
    its holder may know (an ability)."""
    seen: dict[str, int] = {}
    ids = []
    for _run, card in cards:
        seen[card.label] = seen.get(card.label, 0) + 1
        ids.append(digest([card.label, seen[card.label]]))
    return ids


def card_title(card: Card) -> str:
    """A card as covers and the manifest count it: a packet's item or ability
    card by its kind, never its name (whose it is shows nowhere but its
    holder's envelope and the GM's documents); a deck's card or a money note by its label."""
    kind = card.context.get("kind") if isinstance(card.context, Mapping) else None
    return {"item": _("item card"), "ability": _("ability card")}.get(str(kind), card.label)


def doc_id(doc: Document) -> str:
    """A document part's id: a fingerprint of its folder and slug, since a
    slug may spell what the record must not (a secret group's name)."""
    return f"{doc.folder}/{digest([doc.folder, doc.slug])}"


def envelope_key(envelope: Envelope) -> str:
    """What an envelope is, whatever its number: its character's sheet, else its number."""
    return f"sheet:{envelope.sheet.slug}" if envelope.sheet is not None else f"number:{envelope.number}"


def badge_of(doc: Document | None, envelope: Envelope) -> Mapping[str, Any] | None:
    """The envelope's badge on the paper's badge sheet (badges are by character name)."""
    if doc is None or not envelope.character:
        return None
    return next((b for sheet in doc.context["sheets"] for b in sheet if b.get("name") == envelope.character), None)


def run_cards(plan: PackPlan) -> dict[int, list[tuple[Document, Card]]]:
    """Each envelope's cards on the card run, with the run document each is
    imposed in: a deck group holds the same number of cards per envelope,
    the packet's own group (the last) each envelope's own (CardRun.own_cards)."""
    found: dict[int, list[tuple[Document, Card]]] = {e.number: [] for e in plan.envelopes}
    run = plan.run
    if run is None:
        return found
    numbers = [e.number for e in plan.envelopes]
    own = any(run.own_cards.values())
    for k, doc in enumerate(run.documents):
        if own and k == len(run.documents) - 1:
            counts = [run.own_cards.get(n, 0) for n in numbers]
        else:
            counts = [len(doc.cards) // len(numbers)] * len(numbers)
        start = 0
        for number, count in zip(numbers, counts, strict=True):
            found[number] += [(doc, card) for card in doc.cards[start:start + count]]
            start += count
    return found


def record_of(plan: PackPlan, paper: Paper, shows: Shows, options: Mapping[str, Any]) -> dict[str, Any]:
    """One paper's record of the pack the plan makes."""
    maker = RecordMaker(plan, paper, shows, options, plan.label_docs.get(paper))
    cards = run_cards(plan)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "game": {"system": plan.system.slug, "title": plan.title}, "paper": paper.name,
        "options": json.loads(json.dumps(dict(options), default=str)),     # as the file will hold them
        "envelopes": [maker.envelope(k, e, cards[e.number]) for k, e in enumerate(plan.envelopes)]}
    record["checksum"] = checksum(record)
    return record


def pack_options(plan: PackPlan, print_options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a record keeps: the pack's choices and the print options."""
    choices = plan.choices
    return {"duplex": choices.duplex, "labels": choices.labels, "name_sheets": choices.name_sheets,
            "covers": choices.covers, "sealed_form": choices.sealed_form, **print_options}


def record_text(record: Mapping[str, Any]) -> str:
    """The record as its file holds it: sorted keys, one value a line, so two records diff well."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False, indent=1) + "\n"

