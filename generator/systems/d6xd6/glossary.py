"""D6xD6's words for its own ideas (core/glossary.py), looked up by id by its
documents and pages. Core layer: data only."""
from __future__ import annotations

from ...core.glossary import Glossary, Term

GLOSSARY = Glossary({
    "ladder_cards": Term("damage-ladder cards"),
    "reference_cards": Term("weapon, armour and turn cards"),
})
