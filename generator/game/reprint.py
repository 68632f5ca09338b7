"""What to reprint: two pack records compared, envelope by envelope.

Game layer: pure, from two records (game/pack_record.py) to the GM's list:
for each envelope of the new pack, the parts to take out and throw away,
the parts to print and put in, each with what changed in words; the
envelopes of characters cut from the game, to set aside. An envelope is
matched by its character (by its number in a game without sheets), so a
character whose envelope moved keeps its sheet: only what shows the number
(cover, label) is printed again. A cover or label whose only change is the
count of envelopes ("Envelope 3 of 16") is kept, and the list says so.

Nothing here reads a text of the game: only field names, titles and names
the manifest already prints, so the list never shows a sealed insert's inside.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..core.i18n import N_, _, pgettext

# Parts printed in the envelope's own pages; cards, labels and badges go on their stock.
PAGES = ("cover", "sheet", "page", "summary", "handout", "stamp")
# Fields a reader knows by these words (a character's own fields keep their names).
# A field of the data (a character's `background`) keeps its own name: the writer knows it by that.
_FIELD_WORDS = {"player": N_("player"), "character": N_("character"), "faction": N_("faction"),
                "contents": N_("contents"), "cards": N_("cards"), "title": N_("game title"), "label": N_("name"),
                "card": N_("text"), "name": N_("name"), "description": N_("description"), "mark": N_("group mark"),
                "file": N_("file name")}


@dataclass(frozen=True)
class PartChange:
    kind: str
    ident: str
    title: str
    action: str             # "print": print it and put it in; "remove": take it out; "keep": leave it
    why: str                # what changed, in words
    pages: int = 1          # pages it may take (a document's plan), for the paper it needs
    old: bool = False       # an old copy is in the envelope: take it out and throw it away


@dataclass(frozen=True)
class Step:
    """One envelope's share of the reprint."""

    number: int | None          # in the new pack; None: set aside
    was: int | None             # in the earlier pack; None: a new envelope
    player: str
    character: str
    file: str
    changes: tuple[PartChange, ...] = ()

    @property
    def label(self) -> str:
        return self.player or self.character or _("Player {number}").format(number=self.number or self.was)

    @property
    def printed(self) -> tuple[PartChange, ...]:
        return tuple(c for c in self.changes if c.action == "print")


@dataclass(frozen=True)
class Reprint:
    steps: tuple[Step, ...]
    options: tuple[str, ...] = ()       # print options that differ (every page may look different)
    envelopes: int = 0
    since: str = ""                     # the earlier record, as the user named it

    @property
    def nothing(self) -> bool:
        return not any(s.changes or s.number is None or s.was is None for s in self.steps)

    def count(self, kind: str) -> int:
        return sum(1 for s in self.steps for c in s.printed if c.kind == kind)

    def printed(self, kind: str | None = None) -> list[tuple[Step, PartChange]]:
        return [(s, c) for s in self.steps for c in s.printed if kind is None or c.kind == kind]


@dataclass(frozen=True)
class Stock:
    """How many of each thing one sheet holds, for the paper a reprint takes."""

    cards: int = 9
    labels: int = 21
    badges: int = 8
    duplex: bool = True
    half_covers: bool = False


@dataclass
class Sheets:
    """Sheets of paper and of card a reprint takes."""

    paper: int = 0
    cards: int = 0
    labels: int = 0
    badges: int = 0
    handouts: int = 0       # handouts to print from the GM's own files (their pages are not counted)
    totals: dict[str, int] = field(default_factory=dict)


def sheets_of(reprint: Reprint, stock: Stock) -> Sheets:
    """Each printed part starts on a fresh sheet, as in the pack; cards,
    labels and badges are imposed together, as few sheets as their stock allows."""
    found = Sheets()
    for _step, change in reprint.printed():
        if change.kind == "handout":
            found.handouts += 1
        elif change.kind == "cover" and stock.half_covers:
            continue
        elif change.kind in PAGES:
            found.paper += math.ceil(change.pages / 2) if stock.duplex else change.pages
    if stock.half_covers:
        found.paper += math.ceil(reprint.count("cover") / 2)
    found.cards = math.ceil(reprint.count("card") / stock.cards) if stock.cards else 0
    found.labels = math.ceil(reprint.count("label") / stock.labels) if stock.labels else 0
    found.badges = math.ceil(reprint.count("badge") / stock.badges) if stock.badges else 0
    return found


def _words(names: list[str]) -> str:
    return pgettext("between the parts of a list", ", ").join(
        _(_FIELD_WORDS[n]) if n in _FIELD_WORDS else n.replace("_", " ") for n in names)


def _why(new: Mapping[str, Any], old: Mapping[str, Any], was: int, now: int) -> tuple[str, bool]:
    """What changed in a part, and whether it is worth printing (a cover
    or label whose only change is the count of envelopes is not)."""
    before, after = old.get("facets", {}), new.get("facets", {})
    names = sorted({n for n in after if before.get(n) != after[n]} | {n for n in before if n not in after},
                   key=lambda n: (n not in ("player", "character"), n))     # who first, then by name
    moved = "number" in names or (was != now and new["kind"] in ("stamp",))
    names = [n for n in names if n not in ("number", "count")]
    fields = [n.split(".", 1)[1] for n in names if "." in n]
    names = fields or names         # a model's own fields say it better than the mapping that holds it
    words = []
    if moved and was != now:
        words.append(_("moved from envelope {was} to envelope {now}").format(was=was, now=now))
    if names:
        words.append(_("changed: {fields}").format(fields=_words(names)))
    if not words:
        if set(n for n in after if before.get(n) != after[n]) == {"count"}:
            return _("only the count of envelopes differs: keep it"), False
        words.append(_("its wording or layout"))
    return pgettext("between the parts of a list", "; ").join(words), True


def compare_envelope(new: Mapping[str, Any], old: Mapping[str, Any]) -> tuple[PartChange, ...]:
    """An envelope in both packs: the parts that differ, in the new pack's order, then those gone."""
    before = {(p["kind"], p["id"]): p for p in old["parts"]}
    changes = []
    for part in new["parts"]:
        previous = before.pop((part["kind"], part["id"]), None)
        pages = int(part.get("pages", 1))
        if previous is None:
            changes.append(PartChange(part["kind"], part["id"], part["title"], "print", _("new in this envelope"),
                                      pages))
        elif previous["print"] != part["print"]:
            why, worth = _why(part, previous, old["number"], new["number"])
            changes.append(PartChange(part["kind"], part["id"], part["title"], "print" if worth else "keep", why,
                                      pages, old=worth))
    changes += [PartChange(p["kind"], p["id"], p["title"], "remove", _("no longer in this envelope"), 0, old=True)
                for p in before.values()]
    return tuple(changes)


def reprint_of(old: Mapping[str, Any], new: Mapping[str, Any], since: str = "") -> Reprint:
    """The reprint that turns the earlier pack into the new one."""
    earlier = {e["key"]: e for e in old["envelopes"]}
    steps = []
    for envelope in new["envelopes"]:
        previous = earlier.pop(envelope["key"], None)
        if previous is None:
            changes = tuple(PartChange(p["kind"], p["id"], p["title"], "print", _("a new envelope"),
                                       int(p.get("pages", 1))) for p in envelope["parts"])
            steps.append(Step(envelope["number"], None, envelope["player"], envelope["character"], envelope["file"],
                              changes))
        else:
            steps.append(Step(envelope["number"], previous["number"], envelope["player"], envelope["character"],
                              envelope["file"], compare_envelope(envelope, previous)))
    steps += [Step(None, e["number"], e["player"], e["character"], e["file"]) for e in earlier.values()]
    options = tuple(sorted(k for k in {*old["options"], *new["options"]}
                           if old["options"].get(k) != new["options"].get(k)))
    return Reprint(tuple(steps), options, len(new["envelopes"]), since)


def step_lines(step: Step) -> list[str]:
    """One envelope's instructions, a line each: what to take out, what to put in."""
    if step.number is None:
        if step.player and step.character:
            return [_("Set envelope {number} aside: {character} ({player}) is no longer in the game.").format(
                number=step.was, character=step.character, player=step.player)]
        return [_("Set envelope {number} aside: {label} is no longer in the game.").format(
            number=step.was, label=step.label)]
    lines = []
    if step.was is None:
        lines.append(_("A new envelope: print and fill it whole."))
    elif step.was != step.number:
        lines.append(_("This was envelope {was}.").format(was=step.was))
    for change in step.changes:
        if change.action == "print" and step.was is not None:
            said = _("Replace {part}: {why}") if change.old else _("Put in {part}: {why}")
            lines.append(said.format(part=change.title, why=change.why))
        elif change.action == "remove":
            lines.append(_("Take out and throw away: {part}.").format(part=change.title))
        elif change.action == "keep":
            lines.append(_("Keep {part}: {why}").format(part=change.title, why=change.why))
    return lines
