"""The I6 data files as typed models: what a valid file holds, and the JSON
Schema editors use.

Core layer: imports pydantic and the project's validation base only. Rules
that need more than one file (names that exist, the point budget) live in
dataset.py.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator

from ...core.privacy import Visibility, gm_notes_field, visibility_field
from ...core.validation import DataModel

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]
Rating = Annotated[int, Field(ge=1, le=5)]
Cost = Annotated[int, Field(ge=0, le=30)]

# Traits the rules themselves name; every setting's list must hold them.
RULE_TRAITS: dict[str, str] = {
    "Awareness": "added to the initiative roll",
    "Brawl": "unarmed attacks roll it; their SPD is 6 minus it",
    "Brawn": "taken off each hit's damage, and sets the healing TN",
    "Dodge": "the usual defence, the TN attackers roll against",
}


class GameInfo(DataModel):
    """game.yaml: the setting's frame: budget, wound boxes and its medical trait."""

    title: Text = Field(description="The setting's title, printed on every document.")
    blurb: Text = Field(description="A public pitch of the setting, one paragraph.")
    budget: int = Field(ge=1, le=200, description="Points each hero divides between traits, features and gear.")
    wound_boxes: int = Field(ge=1, le=30, description="Wound boxes every hero starts with, before features.")
    medical_trait: Text = Field(description="The trait rolled to patch up wounds (a name from traits.yaml).")


class Trait(DataModel):
    name: Text = Field(description="Unique name; heroes rate traits by this name.")
    description: Text = Field(description="What the trait covers, in one sentence.")


class TraitsFile(DataModel):
    """traits.yaml: the setting's list of traits."""

    traits: list[Trait] = Field(min_length=1)


class Feature(DataModel):
    name: Text = Field(description="Unique name; heroes list features by this name.")
    cost: Cost = Field(description="Points the feature costs.")
    rule: Text = Field(description="What the feature lets a hero do.")
    extra_wound_boxes: int = Field(default=0, ge=0, le=10,
                                   description="Wound boxes the feature adds to the hero's track.")


class FeaturesFile(DataModel):
    """features.yaml: the features a hero may buy."""

    features: list[Feature] = Field(default_factory=list)


class Weapon(DataModel):
    """What makes a piece of gear a weapon."""

    trait: Text = Field(description="The trait rolled to attack (and to parry, for melee weapons).")
    damage: int = Field(ge=1, le=20, description="Damage before the target's Brawn is taken off.")
    spd: int = Field(ge=1, le=12, description="Ticks to wait after attacking with it.")
    reach: Literal["melee", "ranged"] = Field(description="Melee weapons can parry; ranged ones gain from Aim.")


class Gear(DataModel):
    name: Text = Field(description="Unique name; heroes list gear by this name.")
    cost: Cost = Field(description="Points the gear costs.")
    description: Text = Field(description="What it is and what it is for.")
    weapon: Weapon | None = Field(default=None, description="Present when the gear is a weapon.")


class GearFile(DataModel):
    """gear.yaml: weapons, tools and other kit."""

    gear: list[Gear] = Field(default_factory=list)


class Action(DataModel):
    name: Text = Field(description="The action as printed.")
    spd: Text = Field(description="Its SPD as printed: a number, or how it is worked out.")
    rule: Text = Field(description="What the action does, in one or two sentences. At most 12 lines of the "
                                   "combat card: about 120 words.")


class ActionsFile(DataModel):
    """actions.yaml: the combat actions with their SPD."""

    actions: list[Action] = Field(min_length=1)


class Hero(DataModel):
    """heroes/<name>.yaml: one hero. `secret` is printed on the hero's own sheet only."""

    name: Text = Field(description="The hero's name; unique in the setting.")
    concept: Text = Field(description="Who the hero is, in a few words (public).")
    description: str = Field(default="", description="A public paragraph about the hero.")
    secret: str = Field(default="", description="Known to the player only: on their own sheet, never on the site.")
    visibility: Visibility = visibility_field("public", "hero", "A private hero is on their own sheet only.")
    gm_notes: str = gm_notes_field("hero")
    traits: dict[Text, Rating] = Field(
        default_factory=dict,
        description="Trait ratings 1 to 5 by trait name; a trait left out is rated 1 (and costs 1).")
    features: list[Text] = Field(default_factory=list, description="Names from features.yaml.")
    gear: list[Text] = Field(default_factory=list, description="Names from gear.yaml.")

    @field_validator("features", "gear")
    @classmethod
    def _no_repeats(cls, names: list[str]) -> list[str]:
        seen = set()
        for name in names:
            if name.casefold() in seen:
                raise ValueError(f"'{name}' is listed twice")
            seen.add(name.casefold())
        return names
