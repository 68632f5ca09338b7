"""What goes into an envelope besides paper: items, ability cards, money,
sealed "open when..." inserts and name badges, as packet.yaml declares them.

Game layer: pydantic and the core's validation base only. Each text field
that is not public says who may read it (`core/audience.SeenBy`): an item's
card is read by whoever holds it (`holder`: never its owner's name, since
a card changes hands), a sealed insert's inside by no one until it is opened
(`sealed`), a GM note by the GM. The pack's routing and the privacy
read-back tests ask these annotations.

    sixes:
      items:
        - number: 1                              # unique in the game
          name: The Penhale strongbox
          text: Iron-bound, salt-stained, locked. # on the card
          gm_notes: The key is with Ned.         # GM only
          holder: lowenna-carrow                 # a character's id, or:
          # place: the crypt                     # a place (the GM puts it there)
      abilities:
        - name: Hear confession
          text: Once tonight, take someone aside.
          say: You cannot lie to me for a minute. # read to the target
          holders: [brother-anselm]              # characters, and/or
          groups: [The Island]                   # every member of these groups
      money:
        currency: shillings
        one: shilling                            # for an amount of 1 (else the currency's name)
        notes: [1, 5, 10]                        # the notes printed
        purses: {judith-carrow: 40, ned-tregarth: {5: 2}}   # an amount, or the notes themselves
      sealed:
        - holder: jacca-rowe
          trigger: Open when the chapel bell rings twice.
          time: "11 pm"                          # optional
          text: What the holder reads inside.
          items: [3]                             # item cards inside (held by the same character)
          abilities: [Hear confession]           # ability cards inside
          form: insert                           # insert (small envelope) or fold (fold and staple)
      badges:
        player: true                             # the player's name on the badge too
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from ..core.audience import GM, HOLDER, SEALED
from ..core.validation import DataModel

# A large convention game: a few items a character, 60 characters; a file past these is a mistake.
MAX_ITEMS = 2000
MAX_ABILITIES = 500
MAX_SEALED = 500
MAX_NOTE_VALUE = 1_000_000
MAX_PURSE = 1_000_000

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120, pattern=r"\S")]
CharacterId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
SealedForm = Literal["insert", "fold"]


class Item(DataModel):
    """A thing a character starts with, or that starts in a place."""

    number: int = Field(ge=1, le=99999, description="The item's number, unique in the game: printed on its card.")
    name: Annotated[Name, HOLDER] = Field(description="What the card calls it.")
    text: Annotated[str, HOLDER] = Field(default="", description=(
        "What a holder may read: printed on the card, which never names its owner (it changes hands)."))
    gm_notes: Annotated[str, GM] = Field(default="", description="For the GM's item index only.")
    holder: CharacterId | None = Field(default=None, description=(
        "The character who starts with it, by id; its card goes into their envelope. Give this or `place`."))
    place: Annotated[str, GM] = Field(default="", max_length=120, description=(
        "Where it starts, when no character has it (the GM's index says where to put it). "
        "Give this or `holder`."))


class Ability(DataModel):
    """An ability card: what its holder may do, and what to say to the target."""

    name: Annotated[Name, HOLDER] = Field(description="The ability's name; unique in the game.")
    text: Annotated[str, HOLDER] = Field(default="", description="What the holder may do: on the card.")
    say: Annotated[str, HOLDER] = Field(default="", description=(
        "Optional: the line the holder reads to the target (\"You cannot lie to me for a minute\")."))
    holders: list[CharacterId] = Field(default_factory=list, description="Characters who get a card, by id.")
    groups: list[Name] = Field(default_factory=list, description="Groups whose every member gets a card.")


class Money(DataModel):
    """The game's money: its notes, and each character's starting purse."""

    currency: Name = Field(description="What the money is called on its notes (shillings, crowns).")
    one: Name | None = Field(default=None, description=(
        "What one of it is called, printed for an amount of exactly 1 (shilling, crown); default: `currency`."))
    notes: list[int] = Field(min_length=1, max_length=12, description=(
        "The values of the notes printed; each purse is made up with the fewest notes."))
    purses: dict[CharacterId, int | dict[str, int]] = Field(default_factory=dict, description=(
        "Each character's starting money, by id: an amount (made up with the fewest notes), or the notes "
        "themselves, note -> how many ({20: 1, 1: 5}). A character not listed starts with none."))


class Sealed(DataModel):
    """An "open when..." insert: a trigger outside, a secret inside."""

    holder: CharacterId = Field(description="Whose envelope it goes into, by character id.")
    trigger: Annotated[Name, HOLDER] = Field(description=(
        "When to open it, printed on the outside: \"Open when the bell rings twice\"."))
    time: Annotated[str, HOLDER] = Field(default="", max_length=40, description="Optional: a time to open it by.")
    text: Annotated[str, SEALED] = Field(default="", description=(
        "What the holder reads inside: printed inside only, and in the GM's trigger index."))
    items: list[int] = Field(default_factory=list, description=(
        "Items inside, by number: their cards go inside the insert, not the card run."))
    abilities: list[Name] = Field(default_factory=list, description="Ability cards inside, by name.")
    form: SealedForm | None = Field(default=None, description=(
        "insert: a card for a small envelope; fold: a whole page folded and stapled. "
        "Default: insert."))


class Badges(DataModel):
    """Name badges, one per character, in cast order."""

    player: bool = Field(default=False, description="Print the player's name (from the casting) under the "
                                                    "character's.")
