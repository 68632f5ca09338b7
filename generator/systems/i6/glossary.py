"""I6's words for its own ideas (core/glossary.py), looked up by id by its
documents and pages. Core layer: data only."""
from __future__ import annotations

from ...core.glossary import Glossary, Term

GLOSSARY = Glossary({
    # A player's sheet is a hero's.
    "sheet": Term("hero sheet", avoid=(r"(?i)\bcharacter sheets?\b",)),
    "odds_card": Term("odds card"),
    "combat_card": Term("combat card"),
})
