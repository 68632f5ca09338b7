"""D6xD6, the die-times-die RPG's conflict and damage rules (source: d6xd6.txt). Core layer."""
from ..base import System
from . import dataset, outputs
from .glossary import GLOSSARY
from .models import ArmourFile, CharactersFile, CombatFile, DamageFile, GameInfo, WeaponTable

SYSTEM = System.of_package(
    dataset, outputs, glossary=GLOSSARY, slug="d6xd6", title="D6xD6",
    summary="the conflict-and-damage chapter: the damage ladder, weapon and armour tables, ladder cards.",
    schemas={"game": GameInfo, "damage": DamageFile, "weapons": WeaponTable, "armour": ArmourFile,
             "combat": CombatFile, "characters": CharactersFile})
