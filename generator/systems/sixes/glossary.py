"""Sixes' words for its own ideas (core/glossary.py): every sheet, card, site
page and the fight tracker print these, looked up by id.

Core layer: data only. Each term lists the words it was once also called,
which tests/test_glossary.py refuses in the example game's output.
"""
from __future__ import annotations

from ...core.glossary import Glossary, Term

GLOSSARY = Glossary({
    # The hand held up, 1 to 5: a column is headed Speed. "fingers" stays the
    # prose word for the gesture ("raise 1 to 5 fingers").
    "speed": Term("Speed", avoid=(r"\bFingers\b",)),
    "effect": Term("Effect"),
    # When a Speed's actions happen: "Acts 1st" (Speed 5) to "Acts 5th". A
    # Speed Slot is the moment itself, named by its Speed ("Speed 5"), never
    # by its place in the order, and never a column of its own.
    "acts": Term("Acts", avoid=(r"(?<!Speed )\bSlot\b",)),
    "acts_first": Term("Speed 5 acts first"),
    # What each defence does with its Effect: Defend Self takes it off the
    # hits on you, Defend Other takes the hits meant for your ally. Two
    # different things, so never one word for both.
    "defend_self_does": Term("blocks", avoid=(r"\bEither Defend\b", r"\bDefends? stops?\b")),
    "defend_other_does": Term("soaks"),
    # The documents, as a player or GM names them.
    "sheet": Term("character sheet"),
    "signal_cards": Term("hand-signal cards"),
    "speed_card": Term("Speed hand"),
    "rules_reference": Term("rules reference"),
    "cheat_sheet": Term("GM cheat sheet"),
})
