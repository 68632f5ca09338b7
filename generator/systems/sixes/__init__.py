"""Sixes, the LARP combat system (source: sixes-larp.txt). Core layer."""
from ..base import System
from . import dataset, outputs
from .glossary import GLOSSARY
from .models import ActionsFile, Character, GameInfo, SpecialsFile

SYSTEM = System.of_package(
    dataset, outputs, glossary=GLOSSARY, slug="sixes", title="Sixes",
    summary="combat for theatre LARPs, where a whole brawl settles in minutes with hand signals.",
    schemas={"game": GameInfo, "specials": SpecialsFile, "actions": ActionsFile, "character": Character})
