"""packet.yaml as typed models: the groups, relationships and plots of a
game's characters, and the JSON Schema editors use.

Game layer: pydantic and the core's validation base only. Every text field
that is not public says who may read it (`core/audience.SeenBy`): the pack's
routing and the privacy tests ask these models, not a list.

    # packet.yaml, in the game folder: one section per game with characters
    sixes:
      groups:
        - name: The Free Traders
          description: Everyone knows the island runs brandy.    # public
          sheet: What every member knows.                        # members only
          membership: secret            # open (the default), secret or gm-only (no sheet)
          members: [judith-carrow, ned-tregarth]                 # characters by id (file name)
      relationships:
        - between: [absalom-quick, honoria-vane]
          sides:                                                 # each side's own text
            absalom-quick: Dr Vane holds your gambling debts.
            honoria-vane: You bought up Quick's debts.
          public: Mr Quick came as Dr Vane's guest.              # optional, what everyone knows
          known_to: absalom-quick       # optional: only this side knows; the other needs no text
      plots:
        - name: The wreck of the Charity
          summary: For the GM only.
          members:                                               # each member's snippet
            ned-tregarth: You hauled the strongbox ashore.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import ConfigDict, Field, StringConstraints, create_model

from ..core.audience import GM, MEMBERS, OWNER
from ..core.validation import DataModel
from .packet_stuff_models import MAX_ABILITIES, MAX_ITEMS, MAX_SEALED, Ability, Badges, Item, Money, Sealed

PACKET_FILE = "packet.yaml"
# Enough for a large convention game (60 characters, a few hundred ties); a file past these is a mistake.
MAX_GROUPS = 200
MAX_RELATIONSHIPS = 2000
MAX_PLOTS = 500

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]
CharacterId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Membership = Literal["open", "secret", "gm-only"]
MEMBERSHIPS: tuple[str, ...] = get_args(Membership)


class Group(DataModel):
    """A group of characters: a house, a crew, a secret society."""

    name: Text = Field(description="The group's name; unique in the game. A character's `faction` of the same "
                                   "name is this group.")
    description: str = Field(default="", description="Public: what everyone knows of the group (the site shows "
                                                     "an open group's).")
    sheet: Annotated[str, MEMBERS] = Field(default="", description=(
        "What every member knows: printed as the group's sheet into each member's envelope and the GM pack, "
        "nowhere else."))
    membership: Membership = Field(default="open", description=(
        "open: members are listed on the group's sheet and the site; secret: the group is named on no "
        "non-member's material, no cover, label or site page, and its sheet lists no members; gm-only: only the "
        "GM's documents know it (no sheet)."))
    members: list[CharacterId] = Field(default_factory=list, description="Its members, by character id (the "
                                                                        "character's file name without .yaml).")
    gm_notes: Annotated[str, GM] = Field(default="", description="For the GM's documents only.")
    mark: str = Field(default="", max_length=3, description=(
        "Optional: a short mark (a letter or two) printed on an open group's members' badges."))


class Relationship(DataModel):
    """Two characters who know each other: each side's own view."""

    between: list[CharacterId] = Field(min_length=2, max_length=2, description="The two characters, by id.")
    sides: dict[CharacterId, Annotated[str, OWNER]] = Field(default_factory=dict, description=(
        "What each side knows or thinks of the other, by the side's id: printed only on that side's sheet "
        "(and the GM's)."))
    public: str = Field(default="", description="Optional: what everyone knows of the two of them.")
    known_to: CharacterId | None = Field(default=None, description=(
        "Only this side knows of the relationship: the other side needs no text and does not see it."))


class Plot(DataModel):
    """A thread of the game and the characters caught up in it."""

    name: Text = Field(description="The plot's name, for the GM's plot index.")
    summary: Annotated[str, GM] = Field(default="", description="For the GM only: what the plot is.")
    members: dict[CharacterId, Annotated[str, OWNER]] = Field(default_factory=dict, description=(
        "Each member's snippet, by character id: printed on that member's packet page only (and the GM's)."))


class PacketGame(DataModel):
    """One game's groups, relationships and plots, and what else goes into
    the envelopes (packet_stuff_models.py)."""

    groups: list[Group] = Field(default_factory=list, max_length=MAX_GROUPS)
    relationships: list[Relationship] = Field(default_factory=list, max_length=MAX_RELATIONSHIPS)
    plots: list[Plot] = Field(default_factory=list, max_length=MAX_PLOTS)
    items: list[Item] = Field(default_factory=list, max_length=MAX_ITEMS)
    abilities: list[Ability] = Field(default_factory=list, max_length=MAX_ABILITIES)
    money: Money | None = None
    sealed: list[Sealed] = Field(default_factory=list, max_length=MAX_SEALED)
    badges: Badges | None = None


class _Sections(DataModel):
    """A section's field is named like Python (`six_shooter`), its key like the game's folder (`six-shooter`)."""

    model_config = ConfigDict(**DataModel.model_config, populate_by_name=True)


def _file_model() -> type[DataModel]:
    """packet.yaml's model for the JSON Schema: a section per game system
    (its folder name), each a `PacketGame`. The reader (game/packet_read.py)
    checks each section at its place, and refuses one for a game without
    characters or not in the folder."""
    from ..systems import SLUGS
    fields: dict[str, Any] = {slug.replace("-", "_"): (PacketGame | None, Field(default=None, alias=slug))
                              for slug in SLUGS}
    return create_model("PacketFile", __base__=_Sections, __doc__="packet.yaml: a section per game with "
                        "characters (its folder name: sixes, six-shooter, i6).", **fields)


PacketFile = _file_model()
