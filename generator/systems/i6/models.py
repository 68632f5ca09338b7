"""The I6 data files as typed models: what a valid file holds, and the JSON
Schema editors use.

Core layer: imports pydantic and the project's validation base only. Rules
that need more than one file (names that exist, the point budget) live in
dataset.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, StringConstraints, field_validator, model_validator

from ...core.i18n import N_, _
from ...core.privacy import Visibility, gm_notes_field, visibility_field
from ...core.validation import DataModel

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]
Rating = Annotated[int, Field(ge=1, le=5)]
Cost = Annotated[int, Field(ge=0, le=30)]

# Traits the rules themselves use, by id; every setting's list must hold them.
TraitId = Literal["awareness", "brawl", "brawn", "dodge"]
TRAIT_IDS: tuple[str, ...] = get_args(TraitId)


@dataclass(frozen=True)
class RuleTrait:
    """A trait the rules use: the tool's word for it (a message, printed in
    the game's language when the data names it no other way) and what the
    rules do with it, for the check's message."""

    word: str
    use: str


RULE_TRAITS: dict[str, RuleTrait] = {
    "awareness": RuleTrait(N_("Awareness"), "added to the initiative roll"),
    "brawl": RuleTrait(N_("Brawl"), "unarmed attacks roll it; their SPD is 6 minus it"),
    "brawn": RuleTrait(N_("Brawn"), "taken off each hit's damage, and sets the healing TN"),
    "dodge": RuleTrait(N_("Dodge"), "the usual defence, the TN attackers roll against"),
}


class GameInfo(DataModel):
    """game.yaml: the setting's frame: budget, wound boxes and its medical trait."""

    title: Text = Field(description="The setting's title, printed on every document.")
    blurb: Text = Field(description="A public pitch of the setting, one paragraph.")
    budget: int = Field(ge=1, le=200, description="Points each hero divides between traits, features and gear.")
    wound_boxes: int = Field(ge=1, le=30, description="Wound boxes every hero starts with, before features.")
    medical_trait: Text = Field(description="The trait rolled to patch up wounds (a name or id from traits.yaml).")


class Trait(DataModel):
    """One trait. A trait the rules use carries their id; its name is the
    game's word for it. A file written before ids (`name: Brawn`) still
    loads: a trait named by a rule trait's English word is that trait, and
    prints the tool's word in the game's language."""

    id: TraitId | None = Field(default=None, description=(
        "Which trait of the rules this is: awareness (initiative), brawl (unarmed attacks), brawn (soaks "
        "damage, sets the healing TN), dodge (the usual defence). The rules find it by this id, whatever "
        "its name."))
    name: Text | None = Field(default=None, description=(
        "The name printed, in the game's language; heroes rate traits by this name (or by the id). A trait "
        "with an id may leave it out: the tool's word for it is printed, in the game's language."))
    description: Text = Field(description="What the trait covers, in one sentence.")

    @model_validator(mode="before")
    @classmethod
    def _named_by_its_english_word(cls, data: Any) -> Any:
        if isinstance(data, dict) and "id" not in data and isinstance(data.get("name"), str):
            name = data["name"].strip().casefold()
            found = next((i for i, rule in RULE_TRAITS.items() if rule.word.casefold() == name), None)
            if found is not None:
                return {**{k: v for k, v in data.items() if k != "name"}, "id": found}
        return data

    @model_validator(mode="after")
    def _named(self) -> Trait:
        if self.id is None and self.name is None:
            raise ValueError("a trait needs a name (or the id of a trait the rules use: "
                             + ", ".join(TRAIT_IDS) + ")")
        return self

    @property
    def key(self) -> str:
        """What the game knows the trait by: its rules id, else its name."""
        return self.id or self.name or ""

    def word(self) -> str:
        """The name printed: the data's, else the tool's word in the game's language."""
        if self.name is not None:
            return self.name
        assert self.id is not None       # _named holds one of the two
        return _(RULE_TRAITS[self.id].word)


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

    trait: Text = Field(description="The trait rolled to attack (and to parry, for melee weapons): a name or id "
                                   "from traits.yaml.")
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
        description="Trait ratings 1 to 5 by trait name (or id); a trait left out is rated 1 (and costs 1).")
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
