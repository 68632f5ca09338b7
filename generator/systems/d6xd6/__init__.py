"""D6xD6, the die-times-die RPG's conflict and damage rules (source: d6xd6.txt). Core layer."""
from pathlib import Path

from ..base import System
from .dataset import load_game
from .models import ArmourFile, CharactersFile, CombatFile, DamageFile, GameInfo, WeaponTable
from .outputs import cast_list, documents, pages

SYSTEM = System(
    slug="d6xd6",
    title="D6xD6",
    summary="the conflict-and-damage chapter: the damage ladder, weapon and armour tables, ladder cards.",
    load=load_game,
    documents=documents,
    pages=pages,
    schemas={"game": GameInfo, "damage": DamageFile, "weapons": WeaponTable, "armour": ArmourFile,
             "combat": CombatFile, "characters": CharactersFile},
    starter=Path(__file__).with_name("starter"),
    cast_list=cast_list,
)
