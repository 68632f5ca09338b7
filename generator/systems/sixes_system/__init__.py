"""The Sixes System (Campaign Mastery, part 7: attacks, cover, damage,
healing). Core layer."""
from ..base import System
from . import dataset, outputs
from .glossary import GLOSSARY
from .models import Combatant, GameInfo, HealingFile, ModesFile

SYSTEM = System.of_package(
    dataset, outputs, glossary=GLOSSARY, slug="sixes-system", title="The Sixes System",
    summary="Campaign Mastery's attack-by-defence matrix, target numbers, damage dice and pool odds.",
    schemas={"game": GameInfo, "modes": ModesFile, "healing": HealingFile, "combatant": Combatant})
