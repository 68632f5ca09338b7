"""Six Shooter, the card-and-die universal RPG (source: six-shooter.txt,
v0.03 over v0.02). Core layer."""
from ..base import System
from . import dataset, outputs
from .glossary import GLOSSARY
from .models import ChallengesFile, GameInfo, OperatorsFile, RulesFile

SYSTEM = System.of_package(
    dataset, outputs, glossary=GLOSSARY, slug="six-shooter", title="Six Shooter",
    summary="a card-and-die game of operators and heists, with the exact odds of every Critical Number.",
    schemas={"game": GameInfo, "rules": RulesFile, "operators": OperatorsFile, "challenges": ChallengesFile})
