"""The Sixes System's words for its own ideas (core/glossary.py), looked up
by id by its documents and pages. Core layer: data only."""
from __future__ import annotations

from ...core.glossary import Glossary, Term

GLOSSARY = Glossary({
    "matrix_card": Term("GM matrix card"),
    "odds_card": Term("target numbers and odds"),
    "damage_card": Term("damage card"),
    "healing_card": Term("healing card"),
})
