"""Items, ability cards, money and sealed inserts, resolved and checked.

Game layer: pure. packet_checks.check_game hands each game's section here;
everything comes back by character id, in cast order, with the place of
each text in packet.yaml (for `check`'s fit measurement, render/fit/
packet_fit.py), and every problem at its file:line:col, all at once: an
item number given twice, an item with no holder or two, a holder who is
not a character, an ability for an unknown group, a purse the notes cannot
make up, a sealed insert naming an item or ability that does not exist or
an item that starts with someone else.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import Problem, did_you_mean
from ..core.loading import Key, YamlDocument, format_loc
from .packet_stuff_models import Ability, Item, Money, Sealed
from .packet_models import PacketGame

Where = tuple[str, "int | None", "int | None", str]     # file, line, column, field


@dataclass(frozen=True)
class ItemEntry:
    number: int
    name: str
    text: str
    gm_notes: str
    holder: str | None              # a character's id, or None for a place
    place: str
    at: Where                       # the card's text in packet.yaml
    sealed: bool = False            # its card is inside its holder's sealed insert
    loc: Key = ()                   # the item in packet.yaml (its card's data-field)
    places: tuple[tuple[str, Where], ...] = ()      # each text field's place, for check's fit measure


@dataclass(frozen=True)
class AbilityEntry:
    name: str
    text: str
    say: str
    holders: tuple[str, ...]        # in cast order, groups' members included
    at: Where
    sealed_for: tuple[str, ...] = ()    # holders whose card is inside a sealed insert
    loc: Key = ()                       # the ability in packet.yaml
    places: tuple[tuple[str, Where], ...] = ()


@dataclass(frozen=True)
class SealedEntry:
    number: int                     # 1-based, in file order: "sealed insert 2"
    holder: str
    trigger: str
    time: str
    text: str
    items: tuple[int, ...]
    abilities: tuple[str, ...]
    form: str | None                # insert or fold; None: the pack's choice (--sealed-form), else insert
    at: Where                       # the inside text
    places: tuple[tuple[str, Where], ...] = ()


@dataclass(frozen=True)
class Purse:
    amount: int
    bills: tuple[tuple[int, int], ...]      # (note, how many), largest note first


@dataclass(frozen=True)
class Stuff:
    """What a game's envelopes hold besides paper."""

    items: tuple[ItemEntry, ...] = ()
    abilities: tuple[AbilityEntry, ...] = ()
    currency: str = ""
    notes: tuple[int, ...] = ()
    purses: dict[str, Purse] = field(default_factory=dict)
    sealed: tuple[SealedEntry, ...] = ()
    badges: bool = False
    badge_players: bool = False
    badges_at: Where = ("", None, None, "")
    money_at: Where = ("", None, None, "")      # the currency's name (printed on every note)
    currency_one: str = ""                      # its name for exactly 1 (money.one), else `currency`

    @property
    def empty(self) -> bool:
        return not (self.items or self.abilities or self.purses or self.sealed or self.badges)

    def money_name(self, amount: int) -> str:
        """The currency's name for `amount`: money.one for exactly 1, where given."""
        return self.currency_one if amount == 1 and self.currency_one else self.currency

    def items_of(self, who: str) -> list[ItemEntry]:
        """Items whose cards go into `who`'s envelope from the card run (not sealed)."""
        return [i for i in self.items if i.holder == who and not i.sealed]

    def abilities_of(self, who: str) -> list[AbilityEntry]:
        return [a for a in self.abilities if who in a.holders and who not in a.sealed_for]

    def sealed_of(self, who: str) -> list[SealedEntry]:
        return [s for s in self.sealed if s.holder == who]

    def item(self, number: int) -> ItemEntry:
        return next(i for i in self.items if i.number == number)

    def ability(self, name: str) -> AbilityEntry:
        return next(a for a in self.abilities if a.name == name)

    def bank(self) -> tuple[tuple[int, int], ...]:
        """Every note the game prints, by value (largest first): the bank's total."""
        total: dict[int, int] = {}
        for purse in self.purses.values():
            for note, count in purse.bills:
                total[note] = total.get(note, 0) + count
        return tuple(sorted(total.items(), reverse=True))


Unknown = Callable[[Key, str, bool], Problem]


def check_stuff(doc: YamlDocument, slug: str, model: PacketGame, known: set[str], groups: dict[str, tuple[str, ...]],
                cast_order: Callable[[list[str]], tuple[str, ...]], unknown: Unknown) -> tuple[Stuff, list[Problem]]:
    """One game's items, abilities, money and sealed inserts. `groups`: each
    group's name (as written) -> its members; `unknown` makes the problem for
    an id that is no character's."""
    problems: list[Problem] = []

    def where(loc: Key) -> Where:
        return (doc.display, *doc.position(loc), format_loc(loc))
    items = _items(doc, slug, model.items, known, unknown, problems, where)
    abilities = _abilities(doc, slug, model.abilities, known, groups, cast_order, unknown, problems, where)
    currency, notes, purses = _money(doc, slug, model.money, known, unknown, problems)
    sealed, items, abilities = _sealed(doc, slug, model.sealed, items, abilities, known, unknown, problems, where)
    badges = model.badges
    stuff = Stuff(items, abilities, currency, notes, purses, sealed, badges is not None,
                  bool(badges and badges.player), where((slug, "badges")), where((slug, "money", "currency")),
                  model.money.one or "" if model.money is not None else "")
    return stuff, problems


def _items(doc: YamlDocument, slug: str, items: list[Item], known: set[str], unknown: Unknown,
           problems: list[Problem], where: Callable[[Key], Where]) -> tuple[ItemEntry, ...]:
    first: dict[int, int] = {}
    found = []
    for i, item in enumerate(items):
        loc = (slug, "items", i)
        if item.number in first:
            problems.append(doc.problem((*loc, "number"), f"item number {item.number} is given twice (first on line "
                                        f"{first[item.number]})", hint="give each item a number of its own"))
            continue
        first[item.number] = doc.position((*loc, "number"))[0]
        if item.holder is None and not item.place.strip():
            problems.append(doc.problem(loc, f"item {item.number} ({item.name}) has no holder",
                                        hint="give `holder: <character id>` or `place: <where it starts>`"))
            continue
        if item.holder is not None and item.place.strip():
            problems.append(doc.problem((*loc, "place"), f"item {item.number} ({item.name}) has two holders: "
                                        f"{item.holder} and the place '{item.place}'",
                                        hint="an item starts in one envelope or one place: drop one"))
            continue
        if item.holder is not None and item.holder not in known:
            problems.append(unknown((*loc, "holder"), item.holder, False))
            continue
        found.append(ItemEntry(item.number, item.name, item.text, item.gm_notes, item.holder, item.place.strip(),
                               where((*loc, "text") if item.text else (*loc, "name")), loc=loc,
                               places=_places(where, loc, item, ("name", "text"))))
    return tuple(found)


def _abilities(doc: YamlDocument, slug: str, abilities: list[Ability], known: set[str],
               groups: dict[str, tuple[str, ...]], cast_order: Callable[[list[str]], tuple[str, ...]],
               unknown: Unknown, problems: list[Problem], where: Callable[[Key], Where]) -> tuple[AbilityEntry, ...]:
    first: dict[str, int] = {}
    found = []
    for i, ability in enumerate(abilities):
        loc = (slug, "abilities", i)
        if ability.name.casefold() in first:
            problems.append(doc.problem((*loc, "name"), f"the ability '{ability.name}' is given twice (first on "
                                        f"line {first[ability.name.casefold()]})",
                                        hint="one entry per ability: list all its holders there"))
            continue
        first[ability.name.casefold()] = doc.position((*loc, "name"))[0]
        holders = []
        for j, who in enumerate(ability.holders):
            if who in known:
                holders.append(who)
            else:
                problems.append(unknown((*loc, "holders", j), who, False))
        for j, group in enumerate(ability.groups):
            if group in groups:
                holders += groups[group]
            else:
                problems.append(doc.problem((*loc, "groups", j), f"no group called '{group}'",
                                            hint=did_you_mean(group, list(groups)) or "name a group of packet.yaml"))
        if not ability.holders and not ability.groups:
            problems.append(doc.problem(loc, f"the ability '{ability.name}' has no holders",
                                        hint="list `holders:` by character id, or `groups:` by name"))
        found.append(AbilityEntry(ability.name, ability.text, ability.say, cast_order(holders),
                                  where((*loc, "text") if ability.text else (*loc, "name")), loc=loc,
                                  places=_places(where, loc, ability, ("name", "text", "say"))))
    return tuple(found)


def _places(where: Callable[[Key], Where], loc: Key, entry: Any, fields: tuple[str, ...]
            ) -> tuple[tuple[str, Where], ...]:
    """Where each of an entry's text fields the data gives is written."""
    return tuple((name, where((*loc, name))) for name in fields if getattr(entry, name, ""))


MAX_PURSE = 100_000        # a purse's amount: the table of fewest notes up to it takes well under a second
MAX_NOTES = 200            # notes in one envelope: each is a card of the card run


def fewest_notes(amount: int, notes: tuple[int, ...]) -> tuple[tuple[int, int], ...] | None:
    """`amount` in the fewest notes (largest first), or None when the notes
    cannot make it up. Exact (a table over every sum up to the amount), so a
    set of notes where taking the largest first is not the fewest (1, 3, 4
    for 6) still gets two threes."""
    return bills_in(fewest_table(amount, notes), amount)


def fewest_table(limit: int, notes: tuple[int, ...]) -> list[int]:
    """For every sum up to `limit`, the last note of a fewest-notes way to make it (0: none)."""
    best = [0] + [-1] * limit
    last = [0] * (limit + 1)
    for total in range(1, limit + 1):
        for note in notes:
            if note <= total and best[total - note] >= 0 and (best[total] < 0 or best[total - note] + 1 < best[total]):
                best[total], last[total] = best[total - note] + 1, note
    return last


def bills_in(last: list[int], amount: int) -> tuple[tuple[int, int], ...] | None:
    """The notes of `amount` from a fewest_table, largest first; None when it cannot be made."""
    if amount and not last[amount]:
        return None
    counts: dict[int, int] = {}
    while amount:
        counts[last[amount]] = counts.get(last[amount], 0) + 1
        amount -= last[amount]
    return tuple(sorted(counts.items(), reverse=True))


def _money(doc: YamlDocument, slug: str, money: Money | None, known: set[str], unknown: Unknown,
           problems: list[Problem]) -> tuple[str, tuple[int, ...], dict[str, Purse]]:
    if money is None:
        return "", (), {}
    loc = (slug, "money")
    notes = tuple(sorted(set(money.notes), reverse=True))
    bad = [n for n in money.notes if n < 1 or n > 10_000]
    if bad or len(notes) != len(money.notes):
        problems.append(doc.problem((*loc, "notes"), f"the notes {money.notes} must be different whole numbers "
                                    "from 1 to 10000", hint="list each note's value once, e.g. [1, 5, 10]"))
        return money.currency, (), {}
    purses: dict[str, Purse] = {}
    amounts = [a for a in money.purses.values() if isinstance(a, int) and 0 <= a <= MAX_PURSE]
    table = fewest_table(max(amounts, default=0), notes)       # once for the game: every purse reads it
    for who, given in money.purses.items():
        at = (*loc, "purses", who)
        if who not in known:
            problems.append(unknown(at, who, True))
        elif isinstance(given, dict):
            problems += _given_bills(doc, at, given, notes, purses, who)
        elif given < 0 or given > MAX_PURSE:
            problems.append(doc.problem(at, f"a purse of {given} is out of range", hint=f"from 0 to {MAX_PURSE}"))
        elif (bills := bills_in(table, given)) is None:
            problems.append(doc.problem(at, f"{given} {money.currency} cannot be made up with notes of "
                                        f"{', '.join(map(str, notes))}", hint="add a smaller note, or change "
                                                                              "the purse"))
        elif sum(c for _n, c in bills) > MAX_NOTES:
            problems.append(_too_many(doc, at, sum(c for _n, c in bills)))
        elif given:
            purses[who] = Purse(given, bills)
    return money.currency, notes, purses


def _given_bills(doc: YamlDocument, at: Key, given: dict[str, int], notes: tuple[int, ...],
                 purses: dict[str, Purse], who: str) -> list[Problem]:
    """A purse given as its notes (note -> how many): each a note of the game, MAX_NOTES in all."""
    wrong = [key for key in given if not key.strip().isdigit() or int(key) not in notes]
    if wrong:
        return [doc.problem((*at, wrong[0]), f"{wrong[0]} is not one of the game's notes", key=True,
                            hint="the notes: " + ", ".join(map(str, notes)))]
    if any(c < 0 for c in given.values()):
        return [doc.problem(at, "a count of notes is below 0", hint="give how many of each note, 0 or more")]
    if sum(given.values()) > MAX_NOTES:
        return [_too_many(doc, at, sum(given.values()))]
    bills = tuple(sorted(((int(n), c) for n, c in given.items() if c), reverse=True))
    if bills:
        purses[who] = Purse(sum(n * c for n, c in bills), bills)
    return []


def _too_many(doc: YamlDocument, at: Key, count: int) -> Problem:
    return doc.problem(at, f"this purse takes {count} notes, and each is a card to print and stuff",
                       hint=f"at most {MAX_NOTES} a purse: add a larger note to the game's `notes`")


def _sealed(doc: YamlDocument, slug: str, entries: list[Sealed], items: tuple[ItemEntry, ...],
            abilities: tuple[AbilityEntry, ...], known: set[str], unknown: Unknown, problems: list[Problem],
            where: Callable[[Key], Where]) -> tuple[tuple[SealedEntry, ...], tuple[ItemEntry, ...],
                                                    tuple[AbilityEntry, ...]]:
    """The inserts, and the items and abilities whose cards they hold marked so."""
    by_number = {i.number: i for i in items}
    by_name = {a.name: a for a in abilities}
    sealed_items: dict[int, int] = {}
    sealed_for: dict[str, list[str]] = {}
    found = []
    for k, entry in enumerate(entries):
        loc = (slug, "sealed", k)
        if entry.holder not in known:
            problems.append(unknown((*loc, "holder"), entry.holder, False))
            continue
        before = len(problems)
        for j, number in enumerate(entry.items):
            problems += _sealed_item(doc, (*loc, "items", j), number, entry.holder, by_number, sealed_items)
        for j, name in enumerate(entry.abilities):
            if name not in by_name:
                problems.append(doc.problem((*loc, "abilities", j), f"no ability called '{name}'",
                                            hint=did_you_mean(name, list(by_name)) or "name an ability of the "
                                                                                      "packet's `abilities`"))
        if not (entry.text.strip() or entry.items or entry.abilities):
            problems.append(doc.problem(loc, "this sealed insert has nothing inside",
                                        hint="give it a `text`, `items` or `abilities`"))
        if len(problems) > before:
            continue
        sealed_items.update({n: doc.position((*loc, "items"))[0] for n in entry.items})
        for name in entry.abilities:
            sealed_for.setdefault(name, []).append(entry.holder)
        found.append(SealedEntry(k + 1, entry.holder, entry.trigger, entry.time, entry.text, tuple(entry.items),
                                 tuple(entry.abilities), entry.form,
                                 where((*loc, "text") if entry.text else (*loc, "trigger")),
                                 _places(where, loc, entry, ("trigger", "text"))))
    items = tuple(_replace(i, sealed=i.number in sealed_items) for i in items)
    abilities = tuple(_replace(a, holders=tuple(dict.fromkeys(a.holders + tuple(sealed_for.get(a.name, ())))),
                               sealed_for=tuple(sealed_for.get(a.name, ()))) for a in abilities)
    return tuple(found), items, abilities


def _sealed_item(doc: YamlDocument, loc: Key, number: int, holder: str, by_number: dict[int, ItemEntry],
                 sealed_items: dict[int, int]) -> list[Problem]:
    item = by_number.get(number)
    if item is None:
        return [doc.problem(loc, f"no item numbered {number}",
                            hint="items by number: " + (", ".join(str(n) for n in sorted(by_number)[:12])
                                                        or "the packet has no `items`"))]
    if number in sealed_items:
        return [doc.problem(loc, f"item {number} is already inside another sealed insert (line "
                            f"{sealed_items[number]})", hint="an item's card is in one place")]
    if item.holder != holder:
        return [doc.problem(loc, f"item {number} ({item.name}) starts with "
                            f"{item.holder or 'the place ' + repr(item.place)}, not with this insert's holder",
                            hint=f"give the item `holder: {holder}`, or take it out of this insert")]
    return []


def _replace(entry: Any, **changes: Any) -> Any:
    import dataclasses
    return dataclasses.replace(entry, **changes)
