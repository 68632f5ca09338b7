"""The pack plan's share of the packet's things: each envelope's own cards
for the card run, its cover and manifest lines, and the badge sheets.

Game layer: pure; pack_plan.plan_pack calls it. Kept apart so the plan
stays one screenful per concern: what is counted here (packet_cards.py's
`counted`) is what covers, the manifest and the GM's index print.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

from ..core.paper import Paper
from ..systems.base import Card, Document
from .packet import Packet
from .packet_cards import badge_sheet, counted, envelope_cards, stuff_lines


def _who(envelope: Any) -> str | None:
    return envelope.sheet.slug if envelope.sheet is not None else None


def own_cards(envelopes: list[Any], packet: Packet | None) -> dict[int, tuple[Card, ...]]:
    """Each envelope's item, ability and note cards, by envelope number."""
    if packet is None:
        return {}
    return {e.number: envelope_cards(packet.stuff, _who(e)) for e in envelopes}


def with_things(envelopes: list[Any], packet: Packet | None) -> list[Any]:
    """Each envelope with its packet things counted (`things`: its cover's and manifest's lines)."""
    if packet is None or packet.stuff.empty:
        return envelopes
    return [dataclasses.replace(e, things=tuple(stuff_lines(counted(packet.stuff, _who(e)), packet.stuff.money_name)))
            for e in envelopes]


def badges_of(packet: Packet | None, envelopes: list[Any], papers: tuple[Paper, ...],
              per_sheet: Callable[[Paper], int] | None, title: str) -> Mapping[Paper, Document]:
    """A sheet of name badges per paper, when the packet asks for badges."""
    if packet is None or not packet.stuff.badges or per_sheet is None:
        return {}
    found = {paper: badge_sheet(packet, envelopes, paper, per_sheet(paper), title) for paper in papers}
    return {paper: doc for paper, doc in found.items() if doc is not None}


def deck_set(decks: tuple[Document, ...], _number: int) -> tuple[Card, ...]:
    """An envelope's set of public decks on the card run: the same for every envelope."""
    return tuple(card for deck in decks for card in deck.cards)


def own_set(own: Mapping[int, tuple[Card, ...]], number: int) -> tuple[Card, ...]:
    """An envelope's own cards on the card run (own_cards)."""
    return own.get(number, ())
