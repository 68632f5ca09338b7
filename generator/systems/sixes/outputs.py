"""The documents and site pages the Sixes system contributes, as data.

Core layer: builds template contexts from a loaded game and the pure rules;
it never renders. Which audience a document has decides whether the site may
link it: only `public` documents carry no secrets.
"""
from __future__ import annotations

from typing import Sequence, TypeVar

from .balance import FENCE_IQRS, brawl_works, cast_balance, example_fights
from .dataset import SixesGame
from .effects import describe, handled
from .glossary import GLOSSARY
from .models import CONDITION_WORDS, GM_CONDITIONS
from .simulate import DEFAULT_MAX_ROUNDS, ENDINGS_NOTE, POLICY_NOTES, conditions_note
from .rules import (ACTION_POINTS, PHASES, RECOVER_HIT_POINTS, SPEEDS, STATUSES, effect_for_speed,
                    hits_to_rattle_table, slot_table)
from ..base import CARD_SHEET, Card, CastEntry, Deferred, Document, Page
from ...core.i18n import N_, _
from ...core.memo import Work
from ...core.privacy import public_only

HAND_SIGNAL_CARDS = "hand-signal-cards"
RULES_REFERENCE = "rules-reference"
GM_CHEAT_SHEET = "gm-cheat-sheet"
BALANCE_REPORT = "balance-report"
# Rows of a cast table in one part of a GM document: a page, or two when long
# names wrap.
ROWS_PER_PART = 30
# The balance report lists this many outliers on its first page, furthest
# from the median first; the cast table flags every one. A full list would
# reorder after any edit, and a long cast's list runs to pages.
OUTLIERS_LISTED = 12
T = TypeVar("T")
# The Acts column, Speed 5 to Speed 1: messages, so each language writes its
# own order words ("1er", "1.").
ACTS_ORDER = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"))
# Each hand-signal sheet holds this many players' sets of three cards.
SETS_PER_SHEET = 3
def signal_cards() -> tuple[Card, ...]:
    """One player's three cards, named in the run's language (a set's cards
    are listed by name on its envelope's cover)."""
    return (Card(_("Actions"), "sixes/cards/actions.html"), Card(GLOSSARY["speed_card"], "sixes/cards/speed.html"),
            Card(_("Statuses"), "sixes/cards/statuses.html"))


def _common(game: SixesGame) -> dict:
    """What every document and page may show. Nothing secret: no GM notes,
    backgrounds or secret specials; documents add those explicitly."""
    return {
        "title": game.info.title,
        "blurb": game.info.blurb,
        "players": game.info.players,
        "actions": game.actions,
        "speeds": [(speed, effect_for_speed(speed)) for speed in SPEEDS],
        "acts_order": ACTS_ORDER,
        "statuses": STATUSES,
        "action_points": ACTION_POINTS,
        "recover_hit_points": RECOVER_HIT_POINTS,
        "glossary": GLOSSARY,
    }


def titled(game: SixesGame, document: str) -> str:
    """A document's title: the game's, then what the document is, in the run's language."""
    return _("{game}: {document}").format(game=game.info.title, document=document)


def documents(game: SixesGame) -> list[Document]:
    public = _common(game)
    # Only player and GM documents see the whole game (with its GM notes).
    private = {**public, "info": game.info}
    library = game.library
    docs = [
        Document(HAND_SIGNAL_CARDS, titled(game, GLOSSARY["signal_cards"]), CARD_SHEET,
                 "public", {**public, "card_css": "sixes/cards.css"}, max_pages=1,
                 cards=signal_cards() * SETS_PER_SHEET),
        Document(RULES_REFERENCE, titled(game, GLOSSARY["rules_reference"]), "sixes/rules_reference.html",
                 "public", {**public, "hits": hits_to_rattle_table()}, max_pages=2),
        Document(GM_CHEAT_SHEET, titled(game, GLOSSARY["cheat_sheet"]), "sixes/gm_cheat_sheet.html",
                 "gm", {**private, "phases": PHASES, "library": library,
                        "resolver_notes": {name: describe(s) for name, s in library.items()},
                        "cast": [(m, slot_table(m.character, library)) for m in game.cast],
                        "roster_parts": runs_of([(m, slot_table(m.character, library)) for m in game.cast]),
                        "character_notes": [(m.character.name, m.character.gm_notes) for m in game.cast
                                            if m.character.gm_notes.strip()],
                        "in_parts": rendered_in_parts(len(game.cast))},
                 max_pages=cheat_sheet_budget(len(game.cast))),
    ]
    docs.append(balance_document(game, private))
    for member in game.cast:
        docs.append(Document(
            member.slug, titled(game, member.character.name),
            "sixes/character_sheet.html", "player",
            {**private, "member": member, "character": member.character,
             "specials": [library[name] for name in member.character.specials],
             "slots": slot_table(member.character, library)},
            max_pages=2, handouts=member.handout_files))
    return docs


def balance_document(game: SixesGame, context: dict) -> Document:
    """The GM's balance report: duels against the typical fighter and faction
    brawls, simulated with fixed seeds when the build first reads it."""
    def derive() -> dict:
        balance = cast_balance([m.character for m in game.cast], game.library)
        held = sorted({n for m in game.cast for n in m.character.specials})
        return {**context, "balance": balance, "max_rounds": DEFAULT_MAX_ROUNDS, "policy_notes": POLICY_NOTES,
                "fence_iqrs": FENCE_IQRS,
                "fighter_parts": runs_of(balance.fighters), "outliers_listed": balance.outliers[:OUTLIERS_LISTED],
                "in_parts": rendered_in_parts(len(game.cast)),
                "endings_note": ENDINGS_NOTE, "conditions_note": conditions_note(),
                "conditional_specials": [(n, CONDITION_WORDS[when], when not in GM_CONDITIONS)
                                         for n in held if (when := game.library[n].when) is not None],
                "gm_specials": [n for n in held if not handled(game.library[n])]}
    return Document(BALANCE_REPORT, titled(game, _("fight balance report")), "sixes/balance_report.html", "gm",
                    Deferred(derive), max_pages=balance_budget(len(game.cast)))


def simulations(game: SixesGame) -> tuple[Work, ...]:
    """The balance report's brawls, for the build to start early."""
    return brawl_works([m.character for m in game.cast], game.library)


def runs_of(rows: Sequence[T]) -> list[Sequence[T]]:
    """Cast tables in runs of ROWS_PER_PART, each run starting its own page,
    so editing one character re-renders one run of a long GM document."""
    return [rows[i:i + ROWS_PER_PART] for i in range(0, len(rows), ROWS_PER_PART)] or [rows]


def rendered_in_parts(cast_size: int) -> bool:
    """A cast of more than one run makes its GM documents in parts; a small
    one keeps them whole, flowing onto fewer pages."""
    return cast_size > ROWS_PER_PART


def balance_budget(cast_size: int) -> int:
    """Two pages for the introduction and the outliers, two for the brawls,
    and two per run of the cast table."""
    return 4 + 2 * len(runs_of(range(cast_size)))


def cheat_sheet_budget(cast_size: int) -> int:
    """The rules (two pages), two pages per run of the roster, and the specials
    library and GM notes (up to four)."""
    return 6 + 2 * len(runs_of(range(cast_size)))


def cast_list(game: SixesGame) -> list[CastEntry]:
    """The public characters for the site's cast list: name, faction, public
    description and portrait; never the background."""
    return [CastEntry(m.character.name, m.character.faction, m.character.description, m.portrait_file)
            for m in public_only(game.cast, lambda member: member.character)]


def pages(game: SixesGame) -> list[Page]:
    common = _common(game)
    return [
        Page("game.md", game.info.title, "sixes/site/game.md.j2", common,
             downloads=(HAND_SIGNAL_CARDS, RULES_REFERENCE)),
        Page("actions.md", _("Actions and hand signals"), "sixes/site/actions.md.j2", common,
             downloads=(HAND_SIGNAL_CARDS,)),
        Page("speed-slots.md", _("Speed slots and damage"), "sixes/site/speed_slots.md.j2",
             {**common, "hits": hits_to_rattle_table()}, downloads=(RULES_REFERENCE,)),
        Page("specials.md", _("Specials"), "sixes/site/specials.md.j2",
             {**common, "specials": game.public_specials}, shown=bool(game.public_specials)),
        Page("fights.md", _("How fights play out"), "sixes/site/fights.md.j2",
             {**common, "example": example_fights(), "max_rounds": DEFAULT_MAX_ROUNDS, "endings_note": ENDINGS_NOTE}),
        Page("rulings.md", _("Rulings"), "sixes/site/rulings.md.j2", {**common, "rulings": game.rulings}),
    ]
