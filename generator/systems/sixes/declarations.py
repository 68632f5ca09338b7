"""The declarations of a Sixes round, and every reason they may be illegal.

Core layer: standard library and this package only. What each fighter
showed with their hands (`Declaration`) is checked in the source's order
(who declares, the action and its Speed, a Rattled fighter's limits, the
target, then specials, finishing blows and redirects), every fault at once;
the resolver sorts the declarations into Speed slots in the same pass.

Each reason is one whole message of the `tracker` catalogue domain with
`{name}` placeholders, in the run's language (action names translated
too): the fight tracker's JavaScript (templates/sixes/tracker/resolver.js)
refuses with the same message ids, so the GM reads the same words on the
page, and tests/test_sixes_tracker_equality.py holds the two equal in every
shipped language.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ...core.errors import close_matches
from ...core.i18n import N_, _
from .combatant import Combatant
from .effects import EFFECTS, may_ride, rides_on
from .models import ACTION_KEYS, CONDITIONS, GM_CONDITIONS
from .narration import ACTION_NAMES, USAGE_NAMES
from .rules import ACTION_POINTS, RATTLED_MAX_SPEED, SPEEDS

FINISHES = ("kill", "knock_out")
RATTLED_ACTIONS = ("escape", "recover")
# Actions that must name someone other than the actor.
NEEDS_TARGET = ("attack", "defend_other")
SELF_ONLY = ("defend_self", "escape")
MIN_SPEED, MAX_SPEED = min(SPEEDS), max(SPEEDS)
SPEED_SET = frozenset(SPEEDS)
# Who may not act, by Combatant.status: one whole message each, so a
# language may agree its words with the status.
CANNOT_ACT = {"Dead": N_("{name} is Dead and cannot act"), "Escaped": N_("{name} is Escaped and cannot act"),
              "Unconscious": N_("{name} is Unconscious and cannot act")}
TARGET_GONE = {"Dead": N_("{name}: target {target} is Dead and not in the fight"),
               "Escaped": N_("{name}: target {target} is Escaped and not in the fight")}


@dataclass(frozen=True, slots=True)
class Declaration:
    """What one combatant showed with their hands. Combatants with no
    declaration are off-guard. `finish` is the public killing-blow choice;
    `redirect_to` is who a redirect_when_unhurt special turns an attack onto."""

    actor: str
    action: str
    speed: int
    target: str | None = None
    special: str | None = None
    finish: str | None = None
    redirect_to: str | None = None
    # Conditions the GM saw were met, which the resolver cannot see for itself
    # (where people stand): e.g. ("beside_ally",). Simulations never set it.
    confirmed: tuple[str, ...] = ()


class IllegalDeclaration(ValueError):
    """One or more declarations break the rules; `reasons` says which and why."""

    def __init__(self, reasons: Sequence[str]):
        super().__init__("; ".join(reasons))
        self.reasons = tuple(reasons)


_ROSTERS: dict[tuple, tuple[list[str], dict[str, int]]] = {}


def roster(profiles: tuple) -> tuple[list[str], dict[str, int]]:
    """Names and name -> position of a roster, cached: a fight keeps its roster."""
    found = _ROSTERS.get(profiles)
    if found is None:
        if len(_ROSTERS) > 256:
            _ROSTERS.clear()
        names = [p.name for p in profiles]
        found = _ROSTERS[profiles] = (names, dict(zip(names, range(len(names)), strict=True)))
    return found


def validate(combatants: Sequence[Combatant], declarations: Iterable[Declaration]) -> list[str]:
    """Every reason a set of declarations is illegal (empty when all are fine)."""
    cs = tuple(combatants)
    return check_declarations(cs, roster(tuple(c.profile for c in cs))[1], declarations)


def _not_here(who: str, index: Mapping[str, int]) -> str:
    """A declarer the roster lacks, with the nearest name if one is close."""
    near = close_matches(who, index, most=1)
    return (_("{name} is not in this fight (did you mean {near}?)") if near else
            _("{name} is not in this fight")).format(name=who, near=near[0] if near else "")


def _target_not_here(who: str, aim: str, index: Mapping[str, int]) -> str:
    """A target the roster lacks, with the nearest name if one is close."""
    near = close_matches(aim, index, most=1)
    return (_("{name}: target {target} is not in this fight (did you mean {near}?)") if near else
            _("{name}: target {target} is not in this fight")).format(name=who, target=aim,
                                                                       near=near[0] if near else "")


def _action(key: str) -> str:
    """An action's name as the reasons print it, in the run's language."""
    return _(ACTION_NAMES[key])


def check_declarations(cs: tuple, index: Mapping[str, int], declarations: Iterable[Declaration],
                       decl: list[Declaration | None] | None = None,
                       by_speed: list[list[int]] | None = None) -> list[str]:
    """Every reason the declarations are illegal, checked per declaration in
    the source's order: who declares, the action and its Speed, a Rattled
    fighter's limits, the target, then specials, finishing blows and
    redirects. When given, `decl` (one slot per fighter) and `by_speed` are
    filled on the way, so resolving needs no second pass."""
    reasons: list[str] = []
    if decl is None or by_speed is None:
        decl, by_speed = [None] * len(cs), [[], [], [], [], [], []]
    for d in declarations:
        i = _check_declarer(cs, index, d, decl, reasons)
        if i is None:
            continue
        by_speed[d.speed].append(i)
        c = cs[i]
        if c.rattled:
            _check_rattled(d, reasons)
        if not _check_target(cs, index, d, reasons):
            continue
        if d.special is not None or d.action == "special":
            reasons.extend(_check_special(c, d))
        if d.finish is not None or d.confirmed or d.redirect_to is not None:
            _check_extras(cs, index, c, d, reasons)
    return reasons


def _check_declarer(cs: tuple, index: Mapping[str, int], d: Declaration, decl: list[Declaration | None],
                    reasons: list[str]) -> int | None:
    """The declarer's position when they may declare this action at this
    Speed (one declaration each, still in the fight); else None."""
    who = d.actor
    i = index.get(who)
    if i is None:
        reasons.append(_not_here(who, index))
        return None
    c = cs[i]
    if decl[i] is not None:
        reasons.append(_("{name} declared twice; a declaration cannot be changed").format(name=who))
        return None
    decl[i] = d
    if c.dead or c.escaped or c.unconscious:
        reasons.append(_(CANNOT_ACT[c.status]).format(name=who))
        return None
    action, speed = d.action, d.speed
    if action not in ACTION_NAMES:
        reasons.append(_("{name}: unknown action '{action}' (one of {actions})")
                       .format(name=who, action=action, actions=", ".join(ACTION_KEYS)))
        return None
    if speed.__class__ is not int or speed not in SPEED_SET:
        reasons.append(_("{name}: Speed {speed} is impossible; Speed is {lowest} to {highest}, because Speed and "
                         "Effect share {points} points and each needs at least 1")
                       .format(name=who, speed=repr(speed), lowest=MIN_SPEED, highest=MAX_SPEED, points=ACTION_POINTS))
        return None
    return i


def _check_rattled(d: Declaration, reasons: list[str]) -> None:
    """A Rattled fighter may only Escape or Recover, and not fast."""
    if d.action not in RATTLED_ACTIONS:
        reasons.append(_("{name} is Rattled and may only Escape or Recover, not {action}")
                       .format(name=d.actor, action=_action(d.action)))
    elif d.speed > RATTLED_MAX_SPEED:
        reasons.append(_("{name} is Rattled and may not act faster than Speed {speed}")
                       .format(name=d.actor, speed=RATTLED_MAX_SPEED))


def _check_target(cs: tuple, index: Mapping[str, int], d: Declaration, reasons: list[str]) -> bool:
    """Whether the target is someone the action may be aimed at; False (stop
    checking this declaration) when the target is not in the fight."""
    who, action, aim = d.actor, d.action, d.target
    if aim is None:
        if action in NEEDS_TARGET:
            reasons.append(_("{name}: {action} needs a target").format(name=who, action=_action(action)))
        return True
    t = index.get(aim)
    target = None if t is None else cs[t]
    if target is None or target.dead or target.escaped:
        reasons.append(_target_not_here(who, aim, index) if target is None else
                       _(TARGET_GONE[target.status]).format(name=who, target=aim))
        return False
    if aim == who:
        if action in NEEDS_TARGET:
            reasons.append((_("{name}: Defend Other must be aimed at someone else (use Defend Self)")
                            if action == "defend_other" else _("{name}: {action} must be aimed at someone else"))
                           .format(name=who, action=_action(action)))
    elif action in SELF_ONLY:
        reasons.append(_("{name}: {action} can only be aimed at yourself").format(name=who, action=_action(action)))
    elif action == "recover" and not target.unconscious:
        # Ruling recover-others: Recover on someone else is for waking the Unconscious.
        reasons.append(_("{name}: Recover on someone else works only on an Unconscious character, and {target} is "
                         "not Unconscious").format(name=who, target=aim))
    return True


def _check_extras(cs: tuple, index: Mapping[str, int], c: Combatant, d: Declaration, reasons: list[str]) -> None:
    """A finishing blow, conditions the GM confirms, and a redirect."""
    who, action = d.actor, d.action
    if d.finish is not None and (d.finish not in FINISHES or action != "attack"):
        reasons.append(_("{name}: a killing blow ('kill' or 'knock_out') can only be called with an Attack")
                       .format(name=who))
    for when in d.confirmed:
        if when not in GM_CONDITIONS:
            reasons.append((_("{name}: '{condition}' is not a condition for the GM to confirm (the resolver judges "
                              "it from the fight)") if when in CONDITIONS else
                            _("{name}: '{condition}' is not a condition for the GM to confirm (one of {conditions})"))
                           .format(name=who, condition=when, conditions=", ".join(sorted(GM_CONDITIONS))))
    if d.redirect_to is not None:
        t = index.get(d.redirect_to)
        turned = None if t is None else cs[t]
        if not (c.profile.redirects and action == "defend_self"):
            reasons.append(_("{name}: only a Defend Self with a redirecting special can turn attacks away")
                           .format(name=who))
        elif turned is None or turned.dead or turned.escaped or d.redirect_to == who:
            reasons.append(_("{name}: cannot turn attacks onto {target}").format(name=who, target=d.redirect_to))


def _check_special(c: Combatant, d: Declaration) -> list[str]:
    """Whether the special may be called with this action, now."""
    who, special_name = d.actor, d.special
    if special_name is None:
        return [_("{name}: the Special action needs the name of a special").format(name=who)] \
            if d.action == "special" else []
    words = {"name": who, "special": special_name, "action": _action(d.action)}
    special = c.profile.specials.get(special_name)
    if special is None:
        near = close_matches(special_name, c.profile.specials, most=1)
        return [(_("{name} does not have the special '{special}' (did you mean {near}?)") if near else
                 _("{name} does not have the special '{special}'")).format(near=near[0] if near else "", **words)]
    if c.uses.get(special_name, 1) < 1:
        return [_("{name} has already used {special} ({usage})").format(usage=_(USAGE_NAMES[special.usage]),
                                                                        **words)]
    if special.effect is None:         # GM adjudicates, with the actions its data lets it ride on
        if may_ride(special, d.action):
            return []
        ride = rides_on(special)
        return [(_("{name}: {special} is used as the Special action, not with {action}") if ride == "none" else
                 _("{name}: {special} is used as the Special action or called with {ride}, not with {action}"))
                .format(ride="" if ride == "none" else _action(ride), **words)]
    if special.effect == "heal" and d.target is None:
        return [_("{name}: {special} needs a target (yourself or another character)").format(**words)]
    rule = EFFECTS[special.effect]
    if not rule.called:
        return [_("{name}: {special} works by itself and is not called").format(**words)]
    if rule.action != d.action:
        return [_("{name}: {special} goes with {needed}, not {action}").format(needed=_action(rule.action), **words)]
    return []
