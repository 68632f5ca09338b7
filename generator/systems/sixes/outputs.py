"""The documents and site pages the Sixes system contributes, as data.

Core layer: builds template contexts from a loaded game and the pure rules;
it never renders. Which audience a document has decides whether the site may
link it: only `public` documents carry no secrets.
"""
from __future__ import annotations

from .dataset import SixesGame
from .rules import (ACTION_POINTS, PHASES, RECOVER_HIT_POINTS, SPEEDS, STATUSES, effect_for_speed,
                    hits_to_rattle_table, slot_table)
from ..base import Card, Document, Page

HAND_SIGNAL_CARDS = "hand-signal-cards"
RULES_REFERENCE = "rules-reference"
GM_CHEAT_SHEET = "gm-cheat-sheet"
# Each hand-signal sheet holds this many players' sets of three cards.
SETS_PER_SHEET = 3
SIGNAL_CARDS = (Card("Actions", "sixes/cards/actions.html"),
                Card("Speed hand", "sixes/cards/speed.html"),
                Card("Statuses", "sixes/cards/statuses.html"))
# The shared N-up sheet every card deck is laid out on (render/cards.py).
CARD_SHEET = "cards/sheet.html"


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
                        "cast": [(m, slot_table(m.character, library)) for m in game.cast]},
                 max_pages=6),
    ]
    for member in game.cast:
        docs.append(Document(
            member.slug, f"{game.game.title}: {member.character.name}",
            "sixes/character_sheet.html", "player",
            {**private, "member": member, "character": member.character,
             "specials": [library[name] for name in member.character.specials],
             "slots": slot_table(member.character, library)},
            max_pages=2))
    return docs


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
        Page("rulings.md", "Rulings", "sixes/site/rulings.md.j2", {**common, "rulings": game.rulings}),
    ]
