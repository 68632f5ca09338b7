"""The declarations of a Sixes round, and every reason they may be illegal.

Core layer: standard library and this package only. What each fighter
showed with their hands (`Declaration`) is checked in the source's order
(who declares, the action and its Speed, a Rattled fighter's limits, the
target, then specials, finishing blows and redirects), every fault at once;
the resolver sorts the declarations into Speed slots in the same pass.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ...core.errors import close_matches
from .combatant import Combatant
from .effects import EFFECTS, may_ride, rides_on
from .models import ACTION_KEYS, CONDITIONS, GM_CONDITIONS
from .narration import ACTION_NAMES
from .rules import ACTION_POINTS, RATTLED_MAX_SPEED, SPEEDS

FINISHES = ("kill", "knock_out")
RATTLED_ACTIONS = ("escape", "recover")
# Actions that must name someone other than the actor.
NEEDS_TARGET = ("attack", "defend_other")
SELF_ONLY = ("defend_self", "escape")
MIN_SPEED, MAX_SPEED = min(SPEEDS), max(SPEEDS)
SPEED_SET = frozenset(SPEEDS)


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


def _where(name: str, index: Mapping[str, int]) -> str:
    near = close_matches(name, index, most=1)
    return f"{name} is not in this fight" + (f" (did you mean {near[0]}?)" if near else "")


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
        reasons.append(_where(who, index))
        return None
    c = cs[i]
    if decl[i] is not None:
        reasons.append(f"{who} declared twice; a declaration cannot be changed")
        return None
    decl[i] = d
    if c.dead or c.escaped or c.unconscious:
        reasons.append(f"{who} is {c.status} and cannot act")
        return None
    action, speed = d.action, d.speed
    if action not in ACTION_NAMES:
        reasons.append(f"{who}: unknown action '{action}' (one of {', '.join(ACTION_KEYS)})")
        return None
    if speed.__class__ is not int or speed not in SPEED_SET:
        reasons.append(f"{who}: Speed {speed!r} is impossible; Speed is {MIN_SPEED} to {MAX_SPEED}, because "
                       f"Speed and Effect share {ACTION_POINTS} points and each needs at least 1")
        return None
    return i


def _check_rattled(d: Declaration, reasons: list[str]) -> None:
    """A Rattled fighter may only Escape or Recover, and not fast."""
    if d.action not in RATTLED_ACTIONS:
        reasons.append(f"{d.actor} is Rattled and may only Escape or Recover, not {ACTION_NAMES[d.action]}")
    elif d.speed > RATTLED_MAX_SPEED:
        reasons.append(f"{d.actor} is Rattled and may not act faster than Speed {RATTLED_MAX_SPEED}")


def _check_target(cs: tuple, index: Mapping[str, int], d: Declaration, reasons: list[str]) -> bool:
    """Whether the target is someone the action may be aimed at; False (stop
    checking this declaration) when the target is not in the fight."""
    who, action, aim = d.actor, d.action, d.target
    if aim is None:
        if action in NEEDS_TARGET:
            reasons.append(f"{who}: {ACTION_NAMES[action]} needs a target")
        return True
    t = index.get(aim)
    target = None if t is None else cs[t]
    if target is None or target.dead or target.escaped:
        reasons.append(f"{who}: target " + (_where(aim, index) if target is None else
                                             f"{aim} is {target.status} and not in the fight"))
        return False
    if aim == who:
        if action in NEEDS_TARGET:
            reasons.append(f"{who}: {ACTION_NAMES[action]} must be aimed at someone else"
                           + (" (use Defend Self)" if action == "defend_other" else ""))
    elif action in SELF_ONLY:
        reasons.append(f"{who}: {ACTION_NAMES[action]} can only be aimed at yourself")
    elif action == "recover" and not target.unconscious:
        # Ruling recover-others: Recover on someone else is for waking the Unconscious.
        reasons.append(f"{who}: Recover on someone else works only on an Unconscious character, "
                       f"and {aim} is not Unconscious")
    return True


def _check_extras(cs: tuple, index: Mapping[str, int], c: Combatant, d: Declaration, reasons: list[str]) -> None:
    """A finishing blow, conditions the GM confirms, and a redirect."""
    who, action = d.actor, d.action
    if d.finish is not None and (d.finish not in FINISHES or action != "attack"):
        reasons.append(f"{who}: a killing blow ('kill' or 'knock_out') can only be called with an Attack")
    for when in d.confirmed:
        if when not in GM_CONDITIONS:
            reasons.append(f"{who}: '{when}' is not a condition for the GM to confirm"
                           + (" (the resolver judges it from the fight)" if when in CONDITIONS else
                              f" (one of {', '.join(sorted(GM_CONDITIONS))})"))
    if d.redirect_to is not None:
        t = index.get(d.redirect_to)
        turned = None if t is None else cs[t]
        if not (c.profile.redirects and action == "defend_self"):
            reasons.append(f"{who}: only a Defend Self with a redirecting special can turn attacks away")
        elif turned is None or turned.dead or turned.escaped or d.redirect_to == who:
            reasons.append(f"{who}: cannot turn attacks onto {d.redirect_to}")


def _check_special(c: Combatant, d: Declaration) -> list[str]:
    who, action_name = d.actor, ACTION_NAMES[d.action]
    if d.special is None:
        return [f"{who}: the Special action needs the name of a special"] if d.action == "special" else []
    special = c.profile.specials.get(d.special)
    if special is None:
        near = close_matches(d.special, c.profile.specials, most=1)
        return [f"{who} does not have the special '{d.special}'" + (f" (did you mean {near[0]}?)" if near else "")]
    if c.uses.get(d.special, 1) < 1:
        return [f"{who} has already used {d.special} ({special.usage})"]
    if special.effect is None:         # GM adjudicates, with the actions its data lets it ride on
        if may_ride(special, d.action):
            return []
        ride = rides_on(special)
        return [f"{who}: {d.special} is used as the Special action"
                + ("" if ride == "none" else f" or called with {ACTION_NAMES[ride]}") + f", not with {action_name}"]
    if special.effect == "heal" and d.target is None:
        return [f"{who}: {d.special} needs a target (yourself or another character)"]
    rule = EFFECTS[special.effect]
    if not rule.called:
        return [f"{who}: {d.special} works by itself and is not called"]
    if rule.action != d.action:
        return [f"{who}: {d.special} goes with {ACTION_NAMES[rule.action]}, not {action_name}"]
    return []
