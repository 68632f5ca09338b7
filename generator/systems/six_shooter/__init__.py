"""Six Shooter, the card-and-die universal RPG (source: six-shooter.txt,
v0.03 over v0.02). Core layer."""
from pathlib import Path

from ..base import System
from .dataset import load_game
from .models import ChallengesFile, GameInfo, OperatorsFile, RulesFile
from .outputs import cast_list, documents, pages

SYSTEM = System(
    slug="six-shooter",
    title="Six Shooter",
    summary="a card-and-die game of operators and heists, with the exact odds of every Critical Number.",
    load=load_game,
    documents=documents,
    pages=pages,
    schemas={"game": GameInfo, "rules": RulesFile, "operators": OperatorsFile, "challenges": ChallengesFile},
    starter=Path(__file__).with_name("starter"),
    cast_list=cast_list,
)
