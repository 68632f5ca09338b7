"""I6, a point-buy dice-pool game with exploding sixes (source: i6.txt). Core layer."""
from ..base import System
from . import dataset, outputs
from .glossary import GLOSSARY
from .models import ActionsFile, FeaturesFile, GameInfo, GearFile, Hero, TraitsFile

SYSTEM = System.of_package(
    dataset, outputs, glossary=GLOSSARY, slug="i6", title="I6",
    summary="hero point-buy, exploding dice pools with their exact odds, and hero sheets.",
    schemas={"game": GameInfo, "traits": TraitsFile, "features": FeaturesFile, "gear": GearFile,
             "actions": ActionsFile, "hero": Hero})
