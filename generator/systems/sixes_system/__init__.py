"""The Sixes System (Campaign Mastery, part 7: attacks, cover, damage,
healing). Core layer."""
from pathlib import Path

from ..base import System
from .dataset import load_game
from .models import Combatant, GameInfo, HealingFile, ModesFile
from .outputs import cast_list, documents, pages

SYSTEM = System(
    slug="sixes-system",
    title="The Sixes System",
    summary="Campaign Mastery's attack-by-defence matrix, target numbers, damage dice and pool odds.",
    load=load_game,
    documents=documents,
    pages=pages,
    schemas={"game": GameInfo, "modes": ModesFile, "healing": HealingFile, "combatant": Combatant},
    starter=Path(__file__).with_name("starter"),
    cast_list=cast_list,
)
