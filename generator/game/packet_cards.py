"""Where the packet's things go: item, ability and note cards into the card
run, sealed inserts into their holder's envelope, the GM's item and trigger
index, and name badges.

Game layer: pure (the pack plan, pack_plan.py, calls it). Who may read a
text is the model's word (packet_stuff_models.py): an item's or ability's
card goes into the card run, set by envelope, and never names its holder
(a card changes hands; the holder's own page lists what they start with);
a sealed insert goes into its holder's envelope only, its trigger outside
and everything else inside, and the cards it holds are printed inside it,
not in the card run; covers and the manifest count what goes in, naming no
item, trigger or inside (covers lie on tables; the manifest goes to
whoever stuffs). The GM's index has all of it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from ..core.i18n import _, ngettext
from ..systems.base import Card, Document
from .packet import Packet
from .packet_stuff import AbilityEntry, ItemEntry, SealedEntry, Stuff

ITEM_FACE = "packet/cards/item.html"
ABILITY_FACE = "packet/cards/ability.html"
NOTE_FACE = "packet/cards/note.html"
CARD_CSS = "packet/cards.css"
SEALED_PREFIX = "sealed--"
INDEX_SLUG = "packet--items-and-triggers"
BADGES_SLUG = "badges"


def item_card(item: ItemEntry) -> Card:
    return Card(_("Item {number}").format(number=item.number), ITEM_FACE,
                {"kind": "item", "number": item.number, "name": item.name, "text": item.text, "loc": item.loc})


def ability_card(ability: AbilityEntry) -> Card:
    return Card(_("Ability: {name}").format(name=ability.name), ABILITY_FACE,
                {"kind": "ability", "name": ability.name, "text": ability.text, "say": ability.say, "loc": ability.loc})


def note_card(value: int, currency: str) -> Card:
    return Card(_("{value} {currency}").format(value=value, currency=currency), NOTE_FACE,
                {"kind": "note", "name": str(value), "value": value, "currency": currency})


def envelope_cards(stuff: Stuff, who: str | None) -> tuple[Card, ...]:
    """One envelope's own cards for the card run: its items (not sealed),
    its abilities, then its money in the fewest notes."""
    if who is None:
        return ()
    cards = [item_card(i) for i in stuff.items_of(who)] + [ability_card(a) for a in stuff.abilities_of(who)]
    purse = stuff.purses.get(who)
    if purse is not None:
        cards += [note_card(note, stuff.money_name(note)) for note, count in purse.bills for _n in range(count)]
    return tuple(cards)


def packet_card_context(title: str) -> dict[str, Any]:
    """The context the packet's cards share on the card run (their stylesheet, the game's title)."""
    return {"card_css": CARD_CSS, "title": title}


@dataclass(frozen=True)
class Counted:
    """What one envelope holds of the packet's things, counted for its cover and the manifest."""

    items: int = 0
    abilities: int = 0
    notes: int = 0
    money: int = 0
    sealed: int = 0
    badge: bool = False

    @property
    def cards(self) -> int:
        return self.items + self.abilities + self.notes


def counted(stuff: Stuff, who: str | None) -> Counted:
    if who is None:
        return Counted()
    purse = stuff.purses.get(who)
    return Counted(len(stuff.items_of(who)), len(stuff.abilities_of(who)),
                   sum(c for _n, c in purse.bills) if purse else 0, purse.amount if purse else 0,
                   len(stuff.sealed_of(who)), stuff.badges)


def stuff_lines(count: Counted, money_name: Callable[[int], str]) -> list[str]:
    """A cover's and the manifest's lines for the packet's things: counts, no names."""
    lines = []
    if count.items:
        lines.append(ngettext("{count} item card", "{count} item cards", count.items).format(count=count.items))
    if count.abilities:
        lines.append(ngettext("{count} ability card", "{count} ability cards", count.abilities).format(
            count=count.abilities))
    if count.notes:
        lines.append(ngettext("Money: {amount} {currency} in {count} note",
                              "Money: {amount} {currency} in {count} notes", count.notes).format(
            amount=count.money, currency=money_name(count.money), count=count.notes))
    if count.sealed:
        lines.append(ngettext("{count} sealed envelope (seal it before it goes in)",
                              "{count} sealed envelopes (seal each before it goes in)", count.sealed).format(
            count=count.sealed))
    if count.badge:
        lines.append(_("Name badge"))
    return lines


def sealed_insert(entry: SealedEntry, packet: Packet, title: str, form: str | None = None) -> Document:
    """A sealed insert: page 1 the outside (the trigger, the time, whose it
    is), page 2 the inside (the text and the cards it holds)."""
    stuff = packet.stuff
    items = [{"number": n, "name": stuff.item(n).name, "text": stuff.item(n).text} for n in entry.items]
    abilities = [{"name": a.name, "text": a.text, "say": a.say} for a in map(stuff.ability, entry.abilities)]
    return Document(f"{SEALED_PREFIX}{entry.number}",
                    _("{title}: sealed envelope for {name}").format(title=title, name=packet.person(entry.holder).name),
                    "packet/sealed.html", "player",
                    {"title": title, "name": packet.person(entry.holder).name, "trigger": entry.trigger,
                     "time": entry.time, "text": entry.text, "items": items, "abilities": abilities,
                     "form": entry.form or form or "insert"},
                    max_pages=2 + math.ceil((len(items) + len(abilities)) / 4), flowing=True)


def sealed_by_person(packet: Packet | None, title: str, form: str | None = None
                     ) -> dict[str, tuple[Document, ...]]:
    """Each holder's sealed inserts; `form`: the form of those the data gives none (pack --sealed-form)."""
    if packet is None:
        return {}
    return {p.id: tuple(sealed_insert(s, packet, title, form) for s in packet.stuff.sealed_of(p.id))
            for p in packet.people if packet.stuff.sealed_of(p.id)}


def start_lines(packet: Packet, who: str) -> dict[str, Any]:
    """What a character's own page says they start with (the owner's list: a card never says whose it is)."""
    stuff = packet.stuff
    purse = stuff.purses.get(who)
    return {"items": [{"number": i.number, "name": i.name} for i in stuff.items_of(who)],
            "abilities": [a.name for a in stuff.abilities_of(who)],
            "money": _("{amount} {currency}").format(amount=purse.amount, currency=stuff.money_name(purse.amount))
            if purse else "",
            "sealed": len(stuff.sealed_of(who))}


def stuff_index(packet: Packet, title: str, envelopes: list[Any]) -> Document | None:
    """The GM's index: every item and who or where it starts with, each
    ability and its holders, each purse and the bank to print, each sealed
    insert (who holds what to open when), and the game's totals."""
    stuff = packet.stuff
    if stuff.empty:
        return None
    name = {p.id: p.name for p in packet.people}
    items = [{"item": i, "holder": name.get(i.holder, "") if i.holder else "", "place": i.place} for i in stuff.items]
    abilities = [{"ability": a, "holders": [name[w] for w in a.holders]} for a in stuff.abilities]
    purses = [{"name": p.name, "purse": stuff.purses[p.id]} for p in packet.people if p.id in stuff.purses]
    sealed = [{"entry": s, "name": name[s.holder], "items": [stuff.item(n).name for n in s.items]}
              for s in stuff.sealed]
    counts = [counted(stuff, e.sheet.slug if e.sheet is not None else None) for e in envelopes]
    totals = {"cards": sum(c.cards for c in counts), "items": sum(c.items for c in counts),
              "abilities": sum(c.abilities for c in counts), "notes": sum(c.notes for c in counts),
              "sealed": len(stuff.sealed), "badges": len(packet.people) if stuff.badges else 0,
              "money": sum(p.amount for p in stuff.purses.values())}
    rows = len(items) + len(abilities) + len(purses) + len(sealed) * 3
    return Document(INDEX_SLUG, _("{title}: items, money and sealed envelopes").format(title=title),
                    "packet/items.html", "gm",
                    {"title": title, "items": items, "abilities": abilities, "purses": purses, "bank": stuff.bank(),
                     "currency": stuff.currency, "total_name": stuff.money_name(totals["money"]), "sealed": sealed,
                     "totals": totals},
                    max_pages=1 + (rows + len(items)) // 14)


def badge_sheet(packet: Packet, envelopes: list[Any], paper: Any, per_sheet: int, title: str) -> Document | None:
    """Name badges in cast order on the paper's badge stock: the character's
    name and public line, the player's when asked, an open group's mark."""
    stuff = packet.stuff
    if not stuff.badges:
        return None
    player = {e.sheet.slug: e.player for e in envelopes if e.sheet is not None and e.player}
    badges = []
    for person in packet.people:
        marks = [(g.mark, g.name) for g in packet.groups_of(person.id) if g.membership == "open" and g.mark]
        badges.append({"name": person.name, "description": person.description,
                       "player": player.get(person.id, "") if stuff.badge_players else "",
                       "mark": marks[0] if marks else None})
    sheets = [badges[k:k + per_sheet] for k in range(0, len(badges), per_sheet)]
    return Document(f"{BADGES_SLUG}-{paper.name}", _("{title}: name badges").format(title=title),
                    "packet/badges.html", "gm", {"title": title, "sheets": sheets, "paper": paper.name},
                    max_pages=len(sheets), flowing=False)
