"""Sixes, the LARP combat system (source: sixes-larp.txt). Core layer."""
from pathlib import Path

from ..base import System
from .dataset import load_game
from .models import ActionsFile, Character, GameInfo, SpecialsFile
from .outputs import cast_list, documents, pages, simulations

SYSTEM = System(
    slug="sixes",
    title="Sixes",
    summary="combat for theatre LARPs, where a whole brawl settles in minutes with hand signals.",
    load=load_game,
    documents=documents,
    pages=pages,
    simulations=simulations,
    schemas={"game": GameInfo, "specials": SpecialsFile, "actions": ActionsFile, "character": Character},
    starter=Path(__file__).with_name("starter"),
    cast_list=cast_list,
)
