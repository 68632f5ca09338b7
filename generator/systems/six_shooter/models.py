"""The Six Shooter data files as typed models: what a valid file holds, and
the JSON Schema editors use.

Core layer: imports pydantic and the project's validation base only.
"""
from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field, PlainValidator, StringConstraints, WithJsonSchema, field_validator

from ...core.privacy import GM_ONLY, Visibility, gm_notes_field, visibility_field
from ...core.validation import DataModel, needs_every

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]

DescriptorName = Literal["Dangerous", "Sharp", "Sly", "Charming"]
Suit = Literal["clubs", "diamonds", "spades", "hearts"]
Method = Literal["danger", "sharpness", "slyness", "charm"]
METHODS: tuple[str, ...] = get_args(Method)
DESCRIPTORS: tuple[str, ...] = get_args(DescriptorName)
CardRank = Literal["2-10", "jack", "queen", "king", "ace"]
CARD_RANKS: tuple[str, ...] = get_args(CardRank)
# Where the guide describes each Critical Number; "0" stands for 0 or lower.
GuideKey = Literal["0", "1", "2", "3", "4", "5", "6", "7", "impossible"]
GUIDE_KEYS: tuple[str, ...] = get_args(GuideKey)

CriticalNumber = Annotated[int, Field(ge=1, le=7)]
IMPOSSIBLE = "impossible"


def _method_number(value: object) -> int | str:
    """One plain message for either kind of mistake, instead of pydantic's
    two (one per branch of the union)."""
    if value == IMPOSSIBLE or (type(value) is int and 1 <= value <= 7):
        return value
    found = f"'{value}'" if isinstance(value, str) else repr(value).lower()
    hint = ""
    if isinstance(value, str) and value.strip().lower().startswith("imp"):
        hint = "; did you mean 'impossible'?"
    elif isinstance(value, str) and value.strip().isdigit():
        hint = "; write the number without quotes"
    raise ValueError(f"found {found}; a Critical Number is a whole number from 1 to 7, or impossible{hint}")


# A challenge's number for one method: 1 to 7, or the word impossible.
MethodNumber = Annotated[int | str, PlainValidator(_method_number), WithJsonSchema(
    {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 7}, {"const": IMPOSSIBLE}],
     "description": "1 to 7, or impossible"})]
# The values a Lucky Number may take (a card's value, 2 to 10): nine, so nine is also the most one may hold.
LUCKY_VALUES = tuple(range(2, 11))
LuckyNumber = Annotated[int, Field(ge=LUCKY_VALUES[0], le=LUCKY_VALUES[-1])]


class GameInfo(DataModel):
    """game.yaml: the adventure; `gm_notes` is for the GM only."""

    title: Text = Field(description="The adventure's title, printed on every document.")
    blurb: Text = Field(description="A public pitch, one paragraph.")
    gm_notes: str = Field(default="", json_schema_extra=GM_ONLY,
                          description="GM-only notes: on GM documents, never on the site.")
    lucky_number_cap: int = Field(default=9, ge=1, le=9,
                                  description="Most Lucky Numbers an Operator may hold (the rules allow up to 9).")
    jokers: bool = Field(default=False, description="Whether the deck includes the two jokers.")
    visibility: Visibility = visibility_field(
        "public", "adventure", "A private adventure keeps its pitch, crew and challenges off the site.")


class Descriptor(DataModel):
    """One of the four descriptors, its suit and its way of solving problems."""

    name: DescriptorName
    suit: Suit
    method: Method
    method_name: Text = Field(description="The method as printed, e.g. Danger.")
    covers: Text = Field(description="What this descriptor is good at, in a sentence or two.")


class CardValue(DataModel):
    """How far a used card lowers the Critical Number."""

    rank: CardRank
    reduction: Annotated[int, Field(ge=1, le=6)]


class GuideEntry(DataModel):
    """What a Critical Number means at the table, for the GM."""

    critical_number: GuideKey = Field(description="0 (meaning 0 or lower), 1 to 7, or impossible.")
    label: Text = Field(description="A short name, e.g. Even odds.")
    description: Text = Field(description="What a GM should expect at this number. At most 12 lines of the "
                                          "Critical Number sheet: about 60 words.")


class RulesFile(DataModel):
    """rules.yaml: descriptors, card values and the Critical Number guide."""

    descriptors: list[Descriptor] = Field(min_length=4, max_length=4)
    card_values: Annotated[list[CardValue], needs_every("every card rank needs a reduction", CARD_RANKS,
                                                        lambda value: value.rank)] = Field(min_length=5, max_length=5)
    guide: Annotated[list[GuideEntry], needs_every("the guide needs an entry for every Critical Number", GUIDE_KEYS,
                                                   lambda entry: entry.critical_number)] = Field(min_length=9,
                                                                                                 max_length=9)

    @field_validator("descriptors")
    @classmethod
    def _each_descriptor_once(cls, items: list[Descriptor]) -> list[Descriptor]:
        for attr in ("name", "suit", "method"):
            values = [getattr(d, attr) for d in items]
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ValueError(f"each descriptor needs its own {attr}; repeated: " + ", ".join(twice))
        return items



class Operator(DataModel):
    """One player character. The first Lucky Number is the one they started
    with, unless they have given one up: an Operator taken out by three
    Strikes may lose a Lucky Number to come back, down to none (v0.03)."""

    name: Text = Field(description="The Operator's name; unique at the table.")
    descriptor: DescriptorName
    archetype: Text = Field(description="A word or short phrase: who they are in this setting.")
    lucky_numbers: list[LuckyNumber] = Field(
        max_length=9,
        description="2 to 10, no repeats; the first is the starting one, unique at the table. "
                    "Empty only for an Operator who has lost Lucky Numbers.")
    lost_lucky_numbers: int = Field(
        default=0, ge=0, le=9,
        description="Lucky Numbers given up to come back after three Strikes; the table's checks count them.")
    player: str = Field(default="", description="Who plays the Operator (optional).")
    visibility: Visibility = visibility_field("public", "Operator")
    gm_notes: str = gm_notes_field("Operator")


class OperatorsFile(DataModel):
    """operators.yaml: the Operators at the table."""

    operators: list[Operator] = Field(min_length=1)


class Challenge(DataModel):
    """One obstacle, with a Critical Number (or impossible) for every method."""

    name: Text = Field(description="Unique name, printed on the challenge card.")
    description: Text = Field(description="What the Operators face, as the GM would describe it. A poker card holds "
                                          "about 60 words of it beside as many GM notes (`sixes check` measures it).")
    critical_numbers: Annotated[dict[Method, MethodNumber],
                                needs_every("every method needs a Critical Number or impossible", METHODS)] = Field(
        json_schema_extra={"required": list(METHODS)},
        description="danger, sharpness, slyness and charm: each 1 to 7 or impossible.")
    stages: int = Field(default=1, ge=1, le=12, description="Successful rolls needed to overcome it.")
    gm_notes: str = Field(default="", json_schema_extra=GM_ONLY,
                          description="GM-only notes: on the GM's cards, never on the site. About 60 "
                          "words share a poker card with the description; longer notes get a card of their own "
                          "(up to about 190 words).")
    # The cards carry the Critical Numbers, so a challenge is the GM's unless marked public (README's ruling).
    visibility: Visibility = visibility_field("private", "challenge")

    @field_validator("critical_numbers")
    @classmethod
    def _in_method_order(cls, numbers: dict) -> dict:
        return {m: numbers[m] for m in METHODS}


class ChallengesFile(DataModel):
    """challenges.yaml: the adventure's challenges, in play order."""

    challenges: list[Challenge] = Field(min_length=1)
