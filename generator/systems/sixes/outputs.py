"""The documents and site pages the Sixes system contributes, as data.

Core layer: builds template contexts from a loaded game and the pure rules;
it never renders. Which audience a document has decides whether the site may
link it: only `public` documents carry no secrets.
"""
from __future__ import annotations

from .balance import cast_balance, example_fights
from .dataset import SixesGame
from .effects import describe, handled
from .simulate import DEFAULT_MAX_ROUNDS, POLICY_NOTES
from .rules import (ACTION_POINTS, PHASES, RECOVER_HIT_POINTS, SPEEDS, STATUSES, effect_for_speed,
                    hits_to_rattle_table, slot_table)
from ..base import CARD_SHEET, Card, Document, Page

HAND_SIGNAL_CARDS = "hand-signal-cards"
RULES_REFERENCE = "rules-reference"
GM_CHEAT_SHEET = "gm-cheat-sheet"
BALANCE_REPORT = "balance-report"
# Each hand-signal sheet holds this many players' sets of three cards.
SETS_PER_SHEET = 3
SIGNAL_CARDS = (Card("Actions", "sixes/cards/actions.html"),
                Card("Speed hand", "sixes/cards/speed.html"),
                Card("Statuses", "sixes/cards/statuses.html"))


def _common(game: SixesGame) -> dict:
    """What every document and page may show. Nothing secret: no GM notes,
    backgrounds or secret specials; documents add those explicitly."""
    return {
        "title": game.game.title,
        "blurb": game.game.blurb,
        "players": game.game.players,
        "actions": game.actions,
        "speeds": [(speed, effect_for_speed(speed)) for speed in SPEEDS],
        "statuses": STATUSES,
        "action_points": ACTION_POINTS,
        "recover_hit_points": RECOVER_HIT_POINTS,
    }


def documents(game: SixesGame) -> list[Document]:
    public = _common(game)
    # Only player and GM documents see the whole game (with its GM notes).
    private = {**public, "game": game.game}
    library = game.library
    docs = [
        Document(HAND_SIGNAL_CARDS, f"{game.game.title}: hand-signal cards", CARD_SHEET,
                 "public", {**public, "card_css": "sixes/cards.css"}, max_pages=1,
                 cards=SIGNAL_CARDS * SETS_PER_SHEET),
        Document(RULES_REFERENCE, f"{game.game.title}: rules reference", "sixes/rules_reference.html",
                 "public", {**public, "hits": hits_to_rattle_table()}, max_pages=2),
        Document(GM_CHEAT_SHEET, f"{game.game.title}: GM cheat sheet", "sixes/gm_cheat_sheet.html",
                 "gm", {**private, "phases": PHASES, "library": library,
                        "resolver_notes": {name: describe(s) for name, s in library.items()},
                        "cast": [(m, slot_table(m.character, library)) for m in game.cast]},
                 max_pages=cheat_sheet_budget(len(game.cast))),
    ]
    docs.append(balance_document(game, private))
    for member in game.cast:
        docs.append(Document(
            member.slug, f"{game.game.title}: {member.character.name}",
            "sixes/character_sheet.html", "player",
            {**private, "member": member, "character": member.character,
             "specials": [library[name] for name in member.character.specials],
             "slots": slot_table(member.character, library)},
            max_pages=2))
    return docs


def balance_document(game: SixesGame, context: dict) -> Document:
    """The GM's balance report: cast duels and faction brawls, simulated with fixed seeds."""
    balance = cast_balance([m.character for m in game.cast], game.library)
    by_threat = sorted(balance.fighters, key=lambda f: (-f.threat, f.name))
    by_survival = sorted(balance.fighters, key=lambda f: (-f.survivability, f.name))
    return Document(
        BALANCE_REPORT, f"{game.game.title}: fight balance report", "sixes/balance_report.html", "gm",
        {**context, "balance": balance, "max_rounds": DEFAULT_MAX_ROUNDS, "policy_notes": POLICY_NOTES,
         "by_threat": by_threat, "by_survival": by_survival,
         "gm_specials": sorted({n for m in game.cast for n in m.character.specials
                                if not handled(game.library[n])})},
        max_pages=balance_budget(len(game.cast)))


def balance_budget(cast_size: int) -> int:
    """The report lists every character three times (table and two charts):
    two pages for a small cast, one more per 20 characters."""
    return 2 + -(-cast_size // 20)


def cheat_sheet_budget(cast_size: int) -> int:
    """The cheat sheet's cast pages grow by about a page per 60 characters."""
    return 6 + cast_size // 60


def pages(game: SixesGame) -> list[Page]:
    common = _common(game)
    return [
        Page("game.md", game.game.title, "sixes/site/game.md.j2", common,
             downloads=(HAND_SIGNAL_CARDS, RULES_REFERENCE)),
        Page("actions.md", "Actions and hand signals", "sixes/site/actions.md.j2", common,
             downloads=(HAND_SIGNAL_CARDS,)),
        Page("speed-slots.md", "Speed slots and damage", "sixes/site/speed_slots.md.j2",
             {**common, "hits": hits_to_rattle_table()}, downloads=(RULES_REFERENCE,)),
        Page("specials.md", "Specials", "sixes/site/specials.md.j2",
             {**common, "specials": game.public_specials}),
        Page("fights.md", "How fights play out", "sixes/site/fights.md.j2",
             {**common, "example": example_fights(), "max_rounds": DEFAULT_MAX_ROUNDS}),
        Page("rulings.md", "Rulings", "sixes/site/rulings.md.j2", {**common, "rulings": game.rulings}),
    ]
