"""The Sixes data files as typed models: the single source of truth for what
a valid file holds, and for the JSON Schema editors use.

Core layer: imports pydantic and the project's validation base only.
"""
from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field, StringConstraints

from ...core.i18n import N_
from ...core.privacy import GM_ONLY, Visibility, gm_notes_field, visibility_field
from ...core.text import FILE_NAME
from ...core.validation import DataModel, needs_every

# Text that must say something: editors see the pattern, the model strips first.
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]


# The six actions of the source, in the order the cards list them.
ActionKey = Literal["attack", "defend_other", "defend_self", "escape", "recover", "special"]
ACTION_KEYS: tuple[str, ...] = get_args(ActionKey)


Usage = Literal["unlimited", "once per combat", "once per game"]
# The usages as messages: a sheet prints a special's usage in the game's language.
USAGE_WORDS: tuple[str, ...] = (N_("unlimited"), N_("once per combat"), N_("once per game"))
# Actions whose Effect a passive special can raise. Escape has no Effect, and
# Recover restores one hit point whatever its Effect.
BonusAction = Literal["attack", "defend_other", "defend_self", "special"]
# The specials vocabulary the round resolver understands (see effects.py for
# what each one does and which action it goes with). A special with neither an
# effect nor adds_effect is shown as "GM adjudicates".
EffectKind = Literal["rattle_on_damage", "double_defend_self", "heal", "redirect_when_unhurt",
                     "choose_slot", "ignore_defences"]
# Which action a special may be called with besides being the Special action
# itself: one action, any action, or none (used only as the Special action).
RidesOn = Literal["none", "any", "attack", "defend_other", "defend_self", "escape", "recover"]
# When an `adds_effect` bonus applies, if not always. Each condition is
# judged as the slot begins: `target_rattled` and `hurt` by the resolver
# from the fight's state, `beside_ally` by the GM (the resolver does not know
# where people stand, so it counts the bonus only when a declaration says
# the GM confirmed it, and the simulator never does).
Condition = Literal["beside_ally", "target_rattled", "hurt"]
CONDITIONS: tuple[str, ...] = get_args(Condition)
# How each condition reads after a bonus on sheets and tables: "+1 beside an ally"
# (messages: translated with `_()` where printed).
CONDITION_WORDS: dict[str, str] = {
    "beside_ally": N_("beside an ally"),
    "target_rattled": N_("on a Rattled target"),
    "hurt": N_("while hurt"),
}
# The conditions only the GM can judge (they depend on where people stand).
GM_CONDITIONS: frozenset[str] = frozenset({"beside_ally"})


class GameInfo(DataModel):
    """game.yaml: what the game is; `gm_notes` is for the GM's eyes only."""

    title: Text = Field(description="The game's title, printed on every document.")
    blurb: Text = Field(description="A public pitch of the game, one paragraph.")
    players: int = Field(ge=1, le=200, description="How many player characters the game is written for.")
    gm_notes: str = Field(default="", json_schema_extra=GM_ONLY,
                          description="GM-only notes: on the GM cheat sheet, never on the site.")


class Special(DataModel):
    """One special ability of the library."""

    name: Text = Field(description="Unique name; characters refer to it by this name.")
    rule: Text = Field(description="What the special does, in the game's own words.")
    usage: Usage = Field(default="unlimited", description="How often it can be used.")
    secret: bool = Field(default=False, description="Secret specials appear only on their owners' sheets and the GM's.")
    adds_effect: dict[BonusAction, Annotated[int, Field(ge=1, le=5)]] = Field(
        default_factory=dict,
        description="A bonus to an action's Effect, e.g. {defend_other: 1}; always on unless `when` says "
                    "otherwise. Printed in speed-slot tables.")
    when: Condition | None = Field(
        default=None,
        description="When the adds_effect bonus applies: beside_ally (next to someone of your own faction; "
                    "the GM judges it), target_rattled (the action's target is already Rattled) or hurt "
                    "(you are below your starting hit points). Leave it out and the bonus always applies.")
    effect: EffectKind | None = Field(
        default=None,
        description="What the round resolver does with it: rattle_on_damage, double_defend_self, heal, "
                    "redirect_when_unhurt, choose_slot or ignore_defences. Leave it out and the GM adjudicates.")
    rides_on: RidesOn | None = Field(
        default=None,
        description="Which action a player may call it with, for a special the GM adjudicates: attack, "
                    "defend_other, defend_self, escape, recover, any, or none (it is only ever the Special "
                    "action). Leave it out: none. A special with an effect goes with that effect's action.")


class SpecialsFile(DataModel):
    """specials.yaml: the library of special abilities."""

    specials: list[Special] = Field(default_factory=list)


class Action(DataModel):
    """How one of the six actions is shown to players."""

    name: Text = Field(description="The action's name as printed.")
    signal: Text = Field(description="The hand signal, described in words.")
    reminder: Text = Field(description="A one-line reminder for the hand-signal card.")
    rule: Text = Field(description="The full rule in one or two sentences, for the GM sheet. At most 12 lines "
                                   "of the rules reference: about 100 words.")
    icon: Text = Field(description="An icon name from templates/icons (without .svg).")


class ActionsFile(DataModel):
    """actions.yaml: all six actions, each exactly once."""

    actions: Annotated[dict[ActionKey, Action], needs_every("every action needs an entry", ACTION_KEYS)] = Field(
        json_schema_extra={"required": list(ACTION_KEYS)})


class Character(DataModel):
    """characters/<name>.yaml: one character; `background` is secret."""

    name: Text = Field(description="The character's name; unique in the game.")
    faction: str = Field(default="", description="An optional group, for the roster.")
    description: Text = Field(description="What everyone at the game knows about the character.")
    background: str = Field(default="", description="Secret: printed only on the player's own sheet and the GM's.")
    visibility: Visibility = visibility_field("public", "character")
    gm_notes: str = gm_notes_field("character")
    hit_points: int = Field(ge=1, le=10, description="Starting hit points (the rules suggest 4 to 6).")
    armour: int = Field(default=0, ge=0, description="Flat reduction of incoming damage.")
    damage: int = Field(default=0, ge=0, description="Extra Effect on the Attack action.")
    specials: list[Text] = Field(default_factory=list, description="Names from the specials library.")
    portrait: Annotated[str | None, FILE_NAME] = Field(
        default=None, description=("An image file anywhere inside the game folder, named relative to the game "
                                   "folder (the one holding sixes.yaml), e.g. sixes/portraits/mara.png."))
    handouts: Annotated[list[str], FILE_NAME] = Field(default_factory=list, description=(
        "PDF files that go into this character's envelope (sixes pack), named relative to the game folder "
        "(the one holding sixes.yaml), e.g. handouts/tide-table.pdf."))
