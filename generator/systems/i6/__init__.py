"""I6, a point-buy dice-pool game with exploding sixes (source: i6.txt). Core layer."""
from pathlib import Path

from ..base import System
from .dataset import load_game
from .models import ActionsFile, FeaturesFile, GameInfo, GearFile, Hero, TraitsFile
from .outputs import cast_list, documents, pages

SYSTEM = System(
    slug="i6",
    title="I6",
    summary="hero point-buy, exploding dice pools with their exact odds, and hero sheets.",
    load=load_game,
    documents=documents,
    pages=pages,
    schemas={"game": GameInfo, "traits": TraitsFile, "features": FeaturesFile, "gear": GearFile,
             "actions": ActionsFile, "hero": Hero},
    starter=Path(__file__).with_name("starter"),
    cast_list=cast_list,
)
