"""The D6xD6 data files as typed models: what a valid file holds, and the
JSON Schema editors use.

Core layer: imports pydantic and the project's validation base only. The
six damage levels and the three attack categories are fixed keys (the rules
engine counts on them); their names, penalties and examples are data, so a
setting can rename "Kill" to "Flatline" without touching code.
"""
from __future__ import annotations

from typing import Annotated, Literal, Self, TypeGuard, get_args

from pydantic import Field, PrivateAttr, StringConstraints, ValidationInfo, field_validator, model_validator

from ...core.i18n import N_, _
from ...core.privacy import Visibility, gm_notes_field, visibility_field
from ...core.validation import DataModel

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]

LevelKey = Literal["graze", "stun", "hit", "wound", "knockout", "kill"]
LEVEL_KEYS: tuple[str, ...] = get_args(LevelKey)
CategoryKey = Literal["brawling", "throwing", "shooting"]
CATEGORY_KEYS: tuple[str, ...] = get_args(CategoryKey)
# The five combat distances, nearest first; a weapon's range band is one of the first three.
BandKey = Literal["brawling", "throwing", "shooting", "viewing", "lost"]
BAND_KEYS: tuple[str, ...] = get_args(BandKey)
AttackBand = Literal["brawling", "throwing", "shooting"]
# The attributes the rules roll by id (second wind: a will or brawn roll), with
# the tool's word for each (a message), printed where the game names them no other way.
AttributeKey = Literal["brawn", "will"]
RULE_ATTRIBUTES: dict[str, str] = {"brawn": N_("Brawn"), "will": N_("Will")}


def _is_attack_band(band: str) -> TypeGuard[AttackBand]:
    """Whether `band` is one a weapon can attack at (a key of damage_by_band)."""
    return band in get_args(AttackBand)


def reach(category: str) -> tuple[str, ...]:
    """The bands a category's weapons can attack at: every band out to the
    category's own (ruling weapon-ranges). Brawling weapons work only at
    Brawl; throwing ones at Brawl and Throw; shooting ones out to Shoot.
    No weapon of the table reaches View or Lost."""
    if category not in CATEGORY_KEYS:
        raise ValueError(f"no weapon category '{category}'; the categories are " + ", ".join(CATEGORY_KEYS))
    return BAND_KEYS[: BAND_KEYS.index(category) + 1]


class GameInfo(DataModel):
    """game.yaml: what the game is."""

    title: Text = Field(description="The game's title, printed on every document.")
    blurb: Text = Field(description="A public pitch of the game or setting, one paragraph.")
    attributes: dict[AttributeKey, Text] = Field(default_factory=dict, description=(
        "The game's names for the attributes the rules roll by id (brawn, will: a second wind is a will or "
        "brawn roll), e.g. {brawn: Kraft, will: Wille}; one left out prints the tool's word in the game's "
        "language."))


class DamageLevel(DataModel):
    """One rung of the damage ladder."""

    key: LevelKey = Field(description="Which rung this is; the six keys come in ladder order.")
    name: Text = Field(description="The name printed on cards, e.g. 'Graze'.")
    penalty: int | None = Field(default=None, ge=1, le=5,
                                description="Points taken off every roll at this level (graze 1 ... wound 4).")
    effect: str = Field(default="", description="What else the level means, in a few words, e.g. 'Unconscious.'")
    description: Text = Field(description="What such an injury looks like, in the setting's words.")


OVERKILL_WORD = N_("Overkill")


class Overkill(DataModel):
    name: Text | None = Field(default=None, description=(
        "The name printed for being pushed past the last level; left out, the tool's word in the game's "
        "language (Overkill)."))
    effect: Text = Field(description="What being pushed past the last level means, in a few words for the card.")
    description: str = Field(default="", description="A longer explanation for the site.")

    def word(self) -> str:
        """The name printed: the data's, else the tool's word in the game's language."""
        return self.name if self.name is not None else _(OVERKILL_WORD)


class DamageFile(DataModel):
    """damage.yaml: the six levels, lightest first, and what lies past the last."""

    levels: list[DamageLevel] = Field(description="graze, stun, hit, wound, knockout, kill, in that order.")
    overkill: Overkill

    @field_validator("levels")
    @classmethod
    def _in_ladder_order(cls, levels: list[DamageLevel]) -> list[DamageLevel]:
        keys = tuple(level.key for level in levels)
        if keys != LEVEL_KEYS:
            raise ValueError("the levels must be exactly " + ", ".join(LEVEL_KEYS) + " in that order; found "
                             + (", ".join(keys) or "none"))
        for level in levels:
            if level.penalty is None and not level.effect.strip():
                raise ValueError(f"level '{level.key}' needs a penalty or an effect")
        penalties = [level.penalty for level in levels if level.penalty is not None]
        if penalties != sorted(penalties):
            raise ValueError("penalties must not shrink as damage grows; found " + ", ".join(map(str, penalties)))
        return levels


class RangePenalty(DataModel):
    band: AttackBand = Field(description="The range band where the penalty applies.")
    points: int = Field(ge=1, le=10, description="Points taken off the attack roll there.")


# Damage per range band (the shotgun).
BandDamage = dict[AttackBand, LevelKey]


class Weapon(DataModel):
    name: Text
    damage: LevelKey | None = Field(default=None, description="The weapon's damage level at every range band.")
    damage_by_band: BandDamage | None = Field(
        default=None, description="Damage that changes with range instead, e.g. {brawling: wound, throwing: hit}.")
    requires: list[Text] = Field(default_factory=list,
                                 description="Abilities needed to use it at all; any one of them will do.")
    unusable_at: list[AttackBand] = Field(default_factory=list, description="Range bands where it cannot attack.")
    penalties: list[RangePenalty] = Field(default_factory=list, description="Attack penalties by range band.")
    unfamiliar_ok: bool = Field(default=False, description="Anyone may use it as an Unfamiliar task.")
    comment: str = Field(default="", description="Anything else, in the setting's words. A row of a weapons card "
                         "holds about 65 words of it on a poker card (`sixes check` measures it).")

    @model_validator(mode="after")
    def _one_damage(self) -> Self:
        if (self.damage is None) == (self.damage_by_band is None):
            raise ValueError(f"'{self.name}' needs either damage (one level) or damage_by_band (a level per band)")
        if self.damage_by_band == {}:
            raise ValueError(f"'{self.name}': damage_by_band needs at least one band")
        return self

    # The category the weapon is listed under, set by `Category` (a weapon in
    # the data always sits under one). Not a field: the file says it once, by
    # the weapon's place, so it can never contradict itself.
    _category: str | None = PrivateAttr(default=None)

    @property
    def category(self) -> str | None:
        return self._category

    def reaches(self, band: str) -> bool:
        """Whether the weapon can attack at `band` at all: within its
        category's reach and not marked unusable there."""
        if band not in BAND_KEYS:
            raise ValueError(f"no range band '{band}'; the bands are " + ", ".join(BAND_KEYS))
        if self._category is None:
            raise ValueError(f"'{self.name}' is in no weapon category, so its reach is unknown")
        return band in reach(self._category) and band not in self.unusable_at

    def damage_at(self, band: str) -> str | None:
        """The damage level at a range band, or None where it cannot attack
        (beyond its category's reach, or unusable there)."""
        if not self.reaches(band):
            return None
        if self.damage_by_band is not None:
            return self.damage_by_band.get(band) if _is_attack_band(band) else None
        return self.damage

    def penalty_at(self, band: str) -> int:
        return sum(p.points for p in self.penalties if p.band == band)


class Category(DataModel):
    """One attack category of a weapon table, with who may attack and defend."""

    key: CategoryKey = Field(description="brawling, throwing or shooting; it sets the longest range band.")
    attack: list[Text] = Field(min_length=1, description="Abilities that make the attack roll a Focused one.")
    defence: list[Text] = Field(min_length=1, description="Abilities that give a reactive defence when Focused.")
    weapons: list[Weapon] = Field(min_length=1)

    @field_validator("weapons")
    @classmethod
    def _placed(cls, weapons: list[Weapon], info: ValidationInfo) -> list[Weapon]:
        """Each weapon learns its category, which sets its reach. Copies, so a
        weapon object listed under two categories keeps each one's reach."""
        key = info.data.get("key")
        if key is None:      # the key itself is invalid and reported
            return weapons
        placed = []
        for weapon in weapons:
            copy = weapon.model_copy()
            copy._category = key
            placed.append(copy)
        return placed


class WeaponTable(DataModel):
    """weapons/<name>.yaml: one weapon table (the core one, or a setting's own)."""

    title: Text = Field(description="The table's title, e.g. 'Core weapons'.")
    note: str = Field(default="", description="A line printed under the title.")
    categories: list[Category] = Field(min_length=1)

    @field_validator("categories")
    @classmethod
    def _one_of_each(cls, categories: list[Category]) -> list[Category]:
        keys = [c.key for c in categories]
        doubled = sorted({k for k in keys if keys.count(k) > 1})
        if doubled:
            raise ValueError("each category may appear once; repeated: " + ", ".join(doubled))
        return categories


class Armour(DataModel):
    name: Text = Field(description="The category's name, e.g. 'Light'.")
    steps: int = Field(ge=1, le=5,
                       description="Damage levels it takes off a hit; also the penalty to its wearer's rolls.")
    examples: list[Text] = Field(min_length=1)


class ArmourFile(DataModel):
    """armour.yaml: the armour categories, lightest first."""

    armour: list[Armour] = Field(min_length=1)

    @field_validator("armour")
    @classmethod
    def _ascending(cls, armour: list[Armour]) -> list[Armour]:
        steps = [a.steps for a in armour]
        if steps != sorted(set(steps)):
            raise ValueError("list the armour lightest first, each with more steps than the one before; found steps "
                             + ", ".join(map(str, steps)))
        return armour


class Distance(DataModel):
    key: BandKey
    name: Text
    metres: int | None = Field(default=None, ge=1, description="Upper limit in metres; none for the last band.")
    yards: int | None = Field(default=None, ge=1, description="Upper limit where yards are used.")
    miles: int | None = Field(default=None, ge=1, description="Upper limit in miles, instead of yards.")
    note: Text = Field(description="What can be done at this distance. A row of the distances card holds "
                                   "about 90 words on a poker card (`sixes check` measures it).")

    @model_validator(mode="after")
    def _one_imperial(self) -> Self:
        if self.yards is not None and self.miles is not None:
            raise ValueError("give yards or miles, not both")
        return self


class CombatFile(DataModel):
    """combat.yaml: the length of a turn, the turn sequence and the distances."""

    turn_seconds: int = Field(ge=1, le=60, description="Seconds of game time in one combat turn.")
    free_move_metres: int = Field(ge=0, description="Distance a character may move and still act.")
    turn_sequence: list[Text] = Field(min_length=1, description="The steps of a round, in order.")
    distances: list[Distance]

    @field_validator("distances")
    @classmethod
    def _all_bands(cls, distances: list[Distance]) -> list[Distance]:
        keys = tuple(d.key for d in distances)
        if keys != BAND_KEYS:
            raise ValueError("the distances must be exactly " + ", ".join(BAND_KEYS) + " in that order")
        limits = [d.metres for d in distances[:-1] if d.metres is not None]
        if len(limits) < len(distances) - 1 or limits != sorted(limits) or distances[-1].metres is not None:
            raise ValueError("every band but 'lost' needs metres, growing outwards; 'lost' has none")
        return distances


class Character(DataModel):
    """One character who gets a damage-ladder card."""

    name: Text
    armour: str | None = Field(default=None, description="An armour name from armour.yaml, or none.")
    focused: list[Text] = Field(default_factory=list,
                                description="Focused abilities, for reactive defence and attacks.")
    drama_points: int = Field(default=0, ge=0, le=20)
    note: str = Field(default="", description="A short public line printed on the card.")
    visibility: Visibility = visibility_field(
        "public", "character", "A private character's cards are in the GM's deck, not the public one.")
    gm_notes: str = gm_notes_field("character")


class CharactersFile(DataModel):
    """characters.yaml: the characters who get a ladder card."""

    characters: list[Character] = Field(default_factory=list)
