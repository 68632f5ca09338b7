"""The specials vocabulary: what each effect kind does in the round resolver.

Core layer: standard library and this package's models only. A special in
specials.yaml names at most one `effect` (plus any `adds_effect` bonus); this
table says which action it goes with and whether the player calls it when
declaring or it works by itself. Anything else is for the GM to adjudicate:
the resolver says so and changes nothing for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ...core.i18n import N_, _
from .models import CONDITION_WORDS, GM_CONDITIONS, Special


@dataclass(frozen=True, slots=True)
class EffectRule:
    name: str
    action: str        # the action it is declared with
    called: bool       # True: named in the declaration; False: works by itself
    summary: str       # one line for the GM (a message: `describe` translates it)


EFFECTS: Mapping[str, EffectRule] = {e.name: e for e in (
    EffectRule("rattle_on_damage", "attack", True,
               N_("Called with an Attack: a target who loses even 1 hit point to it becomes Rattled.")),
    EffectRule("double_defend_self", "defend_self", True,
               N_("Called with Defend Self: it stops twice its Effect until the round ends.")),
    EffectRule("heal", "special", True,
               N_("The Special action: the target gets back Effect hit points, never above their starting hit "
                  "points.")),
    EffectRule("redirect_when_unhurt", "defend_self", False,
               N_("While Defending Self: an Attack that does no damage may be turned onto another character.")),
    EffectRule("choose_slot", "attack", False,
               N_("Attacks in the Speed Slot the player picks as the slots are called; Effect follows that slot.")),
    EffectRule("ignore_defences", "attack", True,
               N_("Called with an Attack: no armour, Defend Self or Defend Other reduces it.")),
)}

GM_ADJUDICATES = N_("GM adjudicates")
# The action names in a bonus ("+1 Effect on Defend Self"), as messages.
BONUS_ACTIONS = {"attack": N_("Attack"), "defend_other": N_("Defend Other"), "defend_self": N_("Defend Self"),
                 "special": N_("Special")}


def handled(special: Special) -> bool:
    """True when the resolver can apply the special without the GM."""
    return special.effect is not None or bool(special.adds_effect)


def rides_on(special: Special) -> str:
    """The action a player may call `special` with, besides the Special
    action: an action key, "any", or "none". An effect decides it for a
    special that has one (ruling special-rides-on); otherwise the data's
    `rides_on`, and "none" when it is left out."""
    if special.effect is not None:
        rule = EFFECTS[special.effect]
        return rule.action if rule.called and rule.action != "special" else "none"
    return special.rides_on or "none"


def may_ride(special: Special, action: str) -> bool:
    """Whether a special without an effect may be declared with `action`:
    always as the Special action, otherwise only where it rides."""
    ride = rides_on(special)
    return action == "special" or ride in ("any", action)


def describe(special: Special) -> str:
    """How the resolver treats a special, in a few words for the GM, in the run's language."""
    if special.effect is not None:
        return _(EFFECTS[special.effect].summary)
    if special.adds_effect:
        bonuses = ", ".join(_("+{amount} Effect on {action}").format(amount=n, action=_(BONUS_ACTIONS[a]))
                            for a, n in special.adds_effect.items())
        if special.when is None:
            return _("Always on: {bonuses}.").format(bonuses=bonuses)
        if special.when in GM_CONDITIONS:
            return _("Only {condition}: {bonuses}. The GM judges it; the resolver counts it only when told, and "
                     "simulations never do.").format(condition=_(CONDITION_WORDS[special.when]), bonuses=bonuses)
        return _("Only {condition} (judged as the slot begins): {bonuses}.").format(
            condition=_(CONDITION_WORDS[special.when]), bonuses=bonuses)
    return _(GM_ADJUDICATES)
