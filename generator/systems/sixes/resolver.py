"""Resolve one whole Sixes combat round, slot by slot, as the rules say.

Core layer: standard library and this package only. Input: the combatants
(their character, current hit points, statuses and limited uses left) and
each one's declaration. Output: the combatants after the round and an
ordered log in the words a GM would say. The decisions where the source is
silent are in rulings.yaml; each is named in a comment where the code
follows it.

The hot path works on plain lists indexed by roster position and only
writes log lines when asked, so a simulator can resolve tens of thousands
of rounds a second.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from ...core.errors import close_matches
from .effects import EFFECTS
from .models import ACTION_KEYS, CONDITION_WORDS, CONDITIONS, GM_CONDITIONS, Character, Special
from .rules import ACTION_POINTS, RATTLED_MAX_SPEED, RECOVER_HIT_POINTS, SPEEDS, conditional_bonuses, effect_bonuses

FINISHES = ("kill", "knock_out")
RATTLED_ACTIONS = ("escape", "recover")
# Actions that must name someone other than the actor.
NEEDS_TARGET = ("attack", "defend_other")
SELF_ONLY = ("defend_self", "escape")
MIN_SPEED, MAX_SPEED = min(SPEEDS), max(SPEEDS)
SPEED_SET = frozenset(SPEEDS)
ACTION_NAMES = {"attack": "Attack", "defend_other": "Defend Other", "defend_self": "Defend Self",
                "escape": "Escape", "recover": "Recover", "special": "Special"}
LIMITED = ("once per combat", "once per game")
# The order of the log's phases; slots themselves run from Speed 5 down to 1.
PHASE_ORDER = {"declare": 0, "activation": 1, "action": 2, "status": 3, "escape": 4, "end": 5}


@dataclass(frozen=True, slots=True, eq=False)
class Profile:
    """What a character brings to every round: fixed for the whole fight.
    Compared by identity, so a roster of profiles is a cheap cache key."""

    name: str
    hit_points: int
    armour: int
    damage: int
    specials: Mapping[str, Special]      # the specials this character holds
    redirects: bool = False              # holds a redirect_when_unhurt special
    chooses_slot: bool = False           # holds a choose_slot special
    # Precomputed for the hot path: what each action adds to 6 - Speed.
    attack_plus: int = 0
    defend_other_plus: int = 0
    defend_self_plus: int = 0
    special_plus: int = 0
    # The names of the specials of each effect kind (None: the GM adjudicates),
    # in the order held: a policy finds "my heal special" without a walk.
    by_effect: Mapping[str | None, tuple[str, ...]] = field(default_factory=dict)
    # Bonuses that count only while a condition holds: action -> ((condition, amount), ...).
    conditional: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, character: Character, library: Mapping[str, Special]) -> "Profile":
        held = {name: library[name] for name in character.specials}
        bonus = effect_bonuses(character, library)
        by_effect: dict[str | None, tuple[str, ...]] = {}
        for name, special in held.items():
            by_effect[special.effect] = by_effect.get(special.effect, ()) + (name,)
        conditional: dict[str, tuple[tuple[str, int], ...]] = {}
        for bonus_if in conditional_bonuses(character, library):
            conditional[bonus_if.action] = conditional.get(bonus_if.action, ()) + ((bonus_if.when, bonus_if.amount),)
        return cls(character.name, character.hit_points, character.armour, character.damage, held,
                   "redirect_when_unhurt" in by_effect, "choose_slot" in by_effect,
                   character.damage + bonus.get("attack", 0), bonus.get("defend_other", 0),
                   bonus.get("defend_self", 0), bonus.get("special", 0), by_effect,
                   MappingProxyType(conditional) if conditional else NO_CONDITIONS)


NO_USES: Mapping[str, int] = MappingProxyType({})
NO_CONDITIONS: Mapping[str, tuple] = MappingProxyType({})
_new_tuple = tuple.__new__      # builds a Combatant without the named tuple's Python-level __new__


class Combatant(NamedTuple):
    """One fighter's state between rounds. Immutable; a named tuple because
    the simulator builds thousands a second."""

    profile: Profile
    hp: int
    rattled: bool = False
    unconscious: bool = False
    dead: bool = False
    escaped: bool = False
    uses: Mapping[str, int] = NO_USES    # limited specials -> uses left

    @property
    def name(self) -> str:
        return self.profile.name

    @property
    def in_fight(self) -> bool:
        """Still a possible target: not Dead and not gone."""
        return not (self.dead or self.escaped)

    @property
    def can_act(self) -> bool:
        return not (self.dead or self.escaped or self.unconscious)

    @property
    def status(self) -> str:
        for flag, word in ((self.dead, "Dead"), (self.escaped, "Escaped"), (self.unconscious, "Unconscious"),
                           (self.rattled, "Rattled")):
            if flag:
                return word
        return "Fighting"


def finishable(rattled: bool, hp: int, finish: str) -> bool:
    """Whether a killing blow of this kind may land on a target in this state
    (the state at the start of the slot). The source lets anyone already
    Rattled be knocked out, and kills only someone both Rattled and at 0 hit
    points; in both cases the hit must also get 1 or more points through."""
    return rattled and (finish == "knock_out" or hp == 0)


def invariant_faults(c: Combatant) -> list[str]:
    """Every way a fighter's state breaks the rules' bookkeeping (empty when
    sound). The tests run it after every slot of every simulated fight."""
    faults = []
    if not 0 <= c.hp <= c.profile.hit_points:
        faults.append(f"{c.name} is on {c.hp} hit points, outside 0 to {c.profile.hit_points}")
    if c.hp == 0 and not c.rattled:
        faults.append(f"{c.name} is on 0 hit points but not Rattled")
    if (c.unconscious or c.dead) and not c.rattled:
        faults.append(f"{c.name} is {c.status} but not Rattled")
    if c.dead and c.hp != 0:
        faults.append(f"{c.name} is Dead on {c.hp} hit points")
    if c.escaped and (c.dead or c.unconscious):
        faults.append(f"{c.name} escaped while {'Dead' if c.dead else 'Unconscious'}")
    return faults


def fresh(character: Character, library: Mapping[str, Special]) -> Combatant:
    """A combatant at the start of a fight: full hit points, every limited use available."""
    profile = Profile.of(character, library)
    uses = {name: 1 for name, s in profile.specials.items() if s.usage in LIMITED}
    return _new_tuple(Combatant, (profile, character.hit_points, False, False, False, False,
                                  MappingProxyType(uses) if uses else NO_USES))


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


@dataclass(frozen=True, slots=True)
class LogLine:
    slot: int | None       # None for the lines before slot 5 and after slot 1
    phase: str             # declare, activation, action, status, escape, end
    text: str

    def __str__(self) -> str:
        where = f"Speed {self.slot}, {self.phase}" if self.slot else self.phase.capitalize()
        return f"{where}: {self.text}"


@dataclass(frozen=True, slots=True)
class RoundResult:
    combatants: tuple[Combatant, ...]
    log: tuple[LogLine, ...]
    adjudications: tuple[str, ...]      # what the GM must decide (specials outside the vocabulary)

    def __getitem__(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.profile.name == name:
                return c
        raise KeyError(name)


class IllegalDeclaration(ValueError):
    """One or more declarations break the rules; `reasons` says which and why."""

    def __init__(self, reasons: Sequence[str]):
        super().__init__("; ".join(reasons))
        self.reasons = tuple(reasons)


def _and(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_ROSTERS: dict[tuple, tuple[list[str], dict[str, int]]] = {}


def _roster(profiles: tuple) -> tuple[list[str], dict[str, int]]:
    """Names and name -> position of a roster, cached: a fight keeps its roster."""
    found = _ROSTERS.get(profiles)
    if found is None:
        if len(_ROSTERS) > 256:
            _ROSTERS.clear()
        names = [p.name for p in profiles]
        found = _ROSTERS[profiles] = (names, dict(zip(names, range(len(names)))))
    return found


def validate(combatants: Sequence[Combatant], declarations: Iterable[Declaration]) -> list[str]:
    """Every reason a set of declarations is illegal (empty when all are fine)."""
    cs = tuple(combatants)
    return _validate(cs, _roster(tuple(c.profile for c in cs))[1], declarations)


def _where(name: str, index: Mapping[str, int]) -> str:
    near = close_matches(name, index, most=1)
    return f"{name} is not in this fight" + (f" (did you mean {near[0]}?)" if near else "")


def _validate(cs: tuple, index: Mapping[str, int], declarations: Iterable[Declaration],
              decl: list | None = None, by_speed: list | None = None) -> list[str]:
    """Every reason the declarations are illegal, checked per declaration in
    the source's order: who declares, the action and its Speed, a Rattled
    fighter's limits, the target, then specials, finishing blows and
    redirects. When given, `decl` (one slot per fighter) and `by_speed` are
    filled on the way, so resolving needs no second pass."""
    reasons: list[str] = []
    if decl is None:
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


def _check_declarer(cs: tuple, index: Mapping[str, int], d: Declaration, decl: list, reasons: list[str]
                    ) -> int | None:
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
    if special.effect is None:
        return []          # GM adjudicates: any action may carry it
    if special.effect == "heal" and d.target is None:
        return [f"{who}: {d.special} needs a target (yourself or another character)"]
    rule = EFFECTS[special.effect]
    if not rule.called:
        return [f"{who}: {d.special} works by itself and is not called"]
    if rule.action != d.action:
        return [f"{who}: {d.special} goes with {ACTION_NAMES[rule.action]}, not {action_name}"]
    return []


SlotWatcher = Callable[[int, "tuple[Combatant, ...]"], None]


def resolve_round(combatants: Sequence[Combatant], declarations: Iterable[Declaration], *,
                  log: bool = True, check: bool = True, on_slot: SlotWatcher | None = None) -> RoundResult:
    """Resolve one round. Raises IllegalDeclaration listing every bad
    declaration. `log=False` skips the words (for simulations). `on_slot`,
    when given, is called after each Speed Slot (5 down to 1, empty ones too)
    with the slot and every fighter as they stand at its end: a hook for
    checks such as `invariant_faults`, at no cost when left out."""
    cs = tuple(combatants)
    columns = tuple(zip(*cs)) if cs else ((),) * 7
    names, index = _roster(columns[0])
    if check:
        decl, by_speed = [None] * len(cs), [[], [], [], [], [], []]
        reasons = _validate(cs, index, declarations, decl, by_speed)
        if reasons:
            raise IllegalDeclaration(reasons)
        return _Round(cs, columns, names, index, (), log, decl, by_speed).run(on_slot)
    return _Round(cs, columns, names, index, declarations, log).run(on_slot)


class _Round:
    """The working state of one round, as lists indexed by roster position."""

    __slots__ = ("cs", "n", "names", "index", "decl", "hp", "rattled", "unconscious", "dead", "escaped",
                 "uses", "defenders", "self_def", "spoiled", "lines", "log", "adjudications", "redirect",
                 "touched", "by_speed")

    def __init__(self, cs: tuple, columns: tuple, names: list[str], index: dict[str, int],
                 declarations: Iterable[Declaration], log: bool, decl: list | None = None,
                 by_speed: list | None = None):
        self.cs = cs
        self.n = n = len(cs)
        _, hp, rattled, unconscious, dead, escaped, _ = columns
        self.names, self.index = names, index
        if decl is None:
            decl, by_speed = [None] * n, [[], [], [], [], [], []]
            for d in declarations:
                i = index[d.actor]
                decl[i] = d
                by_speed[d.speed].append(i)
        self.decl, self.by_speed = decl, by_speed
        self.hp, self.rattled, self.unconscious = list(hp), list(rattled), list(unconscious)
        self.dead, self.escaped = list(dead), list(escaped)
        self.touched: set[int] = set()           # positions whose state changed this round
        self.uses: dict[int, dict[str, int]] = {}
        self.defenders: dict[int, list] = {}     # target -> [[defender, Effect], ...] in order
        self.self_def = [0] * n                  # Defend Self reduction in force
        self.redirect = [None] * n               # index to turn unhurt attacks onto
        self.spoiled = [False] * n               # an Escape that can no longer work
        self.lines: list[LogLine] = []
        self.log = log
        self.adjudications: list[str] = []

    def say(self, slot, phase, text) -> None:
        self.lines.append(LogLine(slot, phase, text))

    def spend(self, i: int, special: str) -> None:
        left = self.cs[i].uses
        if special in left:
            mine = self.uses.setdefault(i, dict(left))
            mine[special] -= 1

    def run(self, on_slot: SlotWatcher | None = None) -> RoundResult:
        by_speed = self.by_speed
        if self.log:
            for i, d in enumerate(self.decl):
                if d is None and self.cs[i].can_act:
                    self.say(None, "declare", f"{self.names[i]} did not declare in time: off-guard, no action "
                                              "this round.")
        for slot in SPEEDS:
            if by_speed[slot]:
                self.slot(slot, by_speed[slot])
            if on_slot is not None:
                on_slot(slot, self.fighters())
        return self.finish()

    def fighters(self) -> tuple[Combatant, ...]:
        """Every fighter as they stand now (for an `on_slot` watcher)."""
        out = []
        for i, c in enumerate(self.cs):
            uses = self.uses.get(i)
            out.append(_new_tuple(Combatant, (c.profile, self.hp[i], self.rattled[i], self.unconscious[i],
                                              self.dead[i], self.escaped[i],
                                              c.uses if uses is None else MappingProxyType(dict(uses)))))
        return tuple(out)

    # --- one Speed Slot ------------------------------------------------------

    def slot(self, s: int, acting: list[int]) -> None:
        """One Speed Slot, in the source's order: the fighters of this Speed
        open their eyes, every action starts at the same moment, the damage
        and healing land together, then escapes are checked."""
        actors, gm = self._activation_phase(s, acting)
        if not (actors or gm):
            return
        for i in gm:
            self._adjudicate(s, i, self.decl[i])
        # Nothing below changes hp or statuses until every action of the slot is
        # worked out, so all of them see the slot's start (they are simultaneous).
        loss = {}                        # index -> hit points lost this slot
        gain = {}                        # index -> hit points regained this slot
        finishes = {}                    # target -> 'kill' or 'knock_out'
        rattle = set()                   # targets a rattle_on_damage hit got through to
        cleared = set()                  # Recover on yourself: Rattled ends whatever the hit points
        attacks, escapers = self._action_phase(s, actors, gain, cleared)
        for i in attacks:
            self.attack(s, i, self.decl[i], loss, finishes, rattle)
        dying = self._status_phase(s, loss, gain, finishes, rattle, cleared)
        # Ongoing actions of anyone now Rattled, Unconscious or Dead stop.
        if dying and (self.defenders or any(self.self_def)):
            for t in dying:
                self._stop_ongoing(s, t)
        self._escape_phase(s, escapers)

    def _activation_phase(self, s: int, acting: list[int]) -> tuple[list[int], list[int]]:
        """Who acts in this slot: not the fallen or gone, not the Rattled with
        an action they may no longer take; a special outside the vocabulary
        goes to the GM (second list)."""
        names, log, decl, cs = self.names, self.log, self.decl, self.cs
        dead, unconscious, escaped, rattled = self.dead, self.unconscious, self.escaped, self.rattled
        actors = []
        gm = []                          # actions carrying a special outside the vocabulary
        for i in acting:
            d = decl[i]
            if dead[i] or unconscious[i] or escaped[i]:
                if log:
                    self.say(s, "activation", f"{names[i]} is {self._status(i)}: the "
                                              f"{ACTION_NAMES[d.action]} does not happen.")
                continue
            if rattled[i] and (s > RATTLED_MAX_SPEED or d.action not in RATTLED_ACTIONS):
                # Ruling rattled-mid-round: a declaration cannot change, so an action a Rattled
                # character may no longer take is lost, not moved to Speed 1.
                if log:
                    self.say(s, "activation", f"{names[i]} is Rattled: the {ACTION_NAMES[d.action]} at Speed "
                                              f"{s} is lost (Rattled: only Escape or Recover, at Speed 1).")
                continue
            if d.special is not None and d.action != "special" and cs[i].profile.specials[d.special].effect is None:
                gm.append(i)
                continue
            actors.append(i)
        if log and (actors or gm):
            awake = sorted(actors + gm)
            self.say(s, "activation", f"{_and(names[i] for i in awake)} open{'s' if len(awake) == 1 else ''} "
                                      "their eyes.")
        return actors, gm

    def _action_phase(self, s: int, actors: list[int], gain: dict, cleared: set) -> tuple[list[int], list[int]]:
        """Defences, recoveries and specials start; returns the attackers and
        escapers, whose actions are worked out after every defence is up."""
        names, log, decl, cs = self.names, self.log, self.decl, self.cs
        attacks = []
        escapers = []
        effect = ACTION_POINTS - s
        # Defences start first: both work from the start of their slot (ruling defend-self-same-slot).
        for i in actors:
            d = decl[i]
            a = d.action
            if a == "attack":
                attacks.append(i)
            elif a == "defend_other":
                t = self.index[d.target]
                amount = effect + cs[i].profile.defend_other_plus
                if cs[i].profile.conditional:
                    amount += self.bonus_if(s, i, "defend_other", t, d)
                # Ruling several-defenders: defenders soak in the order they started defending.
                guards = self.defenders.get(t)
                if guards is None:
                    self.defenders[t] = [[i, amount]]
                else:
                    guards.append([i, amount])
                if log:
                    self.say(s, "action", f"{names[i]} starts defending {d.target}: takes up to {amount} of each "
                                          "hit on them until the round ends.")
            elif a == "defend_self":
                amount = effect + cs[i].profile.defend_self_plus
                if cs[i].profile.conditional:
                    amount += self.bonus_if(s, i, "defend_self", i, d)
                doubled = d.special is not None   # only double_defend_self gets here (validated)
                if doubled:
                    self.spend(i, d.special)
                    amount *= 2
                self.self_def[i] = amount
                if d.redirect_to is not None:
                    self.redirect[i] = self.index[d.redirect_to]
                if log:
                    self.say(s, "action", f"{names[i]} defends themself: every hit on them is cut by {amount}"
                                          + (f" ({d.special}: doubled)" if doubled else "") + " until the round ends.")
            elif a == "escape":
                escapers.append(i)
                if log:
                    self.say(s, "action", f"{names[i]} is trying to Escape; it is checked in the escape phase.")
            elif a == "recover":
                t = i if d.target is None else self.index[d.target]
                gain[t] = gain.get(t, 0) + RECOVER_HIT_POINTS
                if t == i:
                    cleared.add(i)
                if log:
                    self.say(s, "action", f"{names[i]} takes Recover" + ("" if t == i else f" on {names[t]}")
                             + ": 1 hit point back" + (", and Rattled ends." if t == i else ", and they wake."))
            else:
                self.special(s, i, d, gain)
        return attacks, escapers

    def _status_phase(self, s: int, loss: dict, gain: dict, finishes: dict, rattle: set, cleared: set) -> list[int]:
        """Damage and healing of the slot land together (ruling
        healing-and-damage-net), then statuses follow from the hit points;
        returns who has just become Rattled, Unconscious or Dead."""
        log, cs = self.log, self.cs
        dead, unconscious, rattled, hp = self.dead, self.unconscious, self.rattled, self.hp
        changed = set(loss)
        if gain or cleared or rattle:
            changed.update(gain, cleared, rattle)
        dying = []
        self.touched.update(changed)
        for t in (sorted(changed) if log else changed):
            before = hp[t]
            was_rattled, was_out = rattled[t], unconscious[t]
            hurt = before - loss.get(t, 0)
            finish = finishes.get(t) if finishes else None
            if finish == "kill":
                dead[t] = True
            elif finish == "knock_out":
                unconscious[t] = True
            after = hurt + gain[t] if t in gain and not dead[t] else hurt
            limit = cs[t].profile.hit_points
            if after > limit:
                after = limit
            if after < 0:
                after = 0
            regained = after > hurt and after > 0
            hp[t] = after
            if t in rattle:
                rattled[t] = True
            if regained or t in cleared:
                rattled[t] = False
                if regained:
                    unconscious[t] = False
            if after == 0:
                # Whoever ends the slot on 0 hit points is Rattled, whatever else
                # happened to them in it: a Recover that nets to 0 does not undo
                # it (ruling zero-is-rattled).
                rattled[t] = True
            if log:
                self._status_line(s, t, before, after, finish, was_rattled, was_out)
            if (dead[t] or unconscious[t] or rattled[t]) and not (was_rattled or was_out):
                dying.append(t)
        return dying

    def _escape_phase(self, s: int, escapers: list[int]) -> None:
        """An Escape works unless its fighter was hurt, targeted by a special
        or put out of the fight before it resolved."""
        names, log = self.names, self.log
        for i in escapers:
            if self.spoiled[i] or self.dead[i] or self.unconscious[i]:
                if log:
                    self.say(s, "escape", f"{names[i]}'s Escape fails: they were hurt or targeted by a special "
                                          "before it resolved. They stay in the fight.")
            else:
                self.escaped[i] = True          # an Escape is their only action, so nothing ongoing stops
                self.touched.add(i)
                if log:
                    self.say(s, "escape", f"{names[i]} escapes and must leave the area of the fight.")

    def _adjudicate(self, s: int, i: int, d: Declaration) -> None:
        """A special outside the vocabulary: the whole action goes to the GM."""
        self.spend(i, d.special)
        action = ACTION_NAMES[d.action]
        self.adjudications.append(f"{self.names[i]} calls {d.special} with {action}"
                                  + (f" on {d.target}" if d.target else "") + f" at Speed {s}")
        if self.log:
            self.say(s, "action", f"{self.names[i]} calls {d.special} with {action}. GM adjudicates: the "
                                  "resolver leaves this whole action to the GM.")

    def _status(self, i: int) -> str:
        if self.dead[i]:
            return "Dead"
        if self.escaped[i]:
            return "gone (escaped)"
        if self.unconscious[i]:
            return "Unconscious"
        return "Rattled" if self.rattled[i] else "fighting"

    def _status_line(self, s, t, before, after, finish, was_rattled, was_out) -> None:
        name = self.names[t]
        if finish == "kill":
            self.say(s, "status", f"{name} is Dead (killing blow, announced aloud).")
            return
        bits = []
        if before != after:
            bits.append(f"{name} is on {after} hit point{'s' if after != 1 else ''} (was {before})")
        if finish == "knock_out" and self.unconscious[t]:
            bits.append(f"{name} is knocked out: Unconscious")
        elif was_out and not self.unconscious[t]:
            bits.append(f"{name} is no longer Unconscious")
        if self.rattled[t] and not was_rattled:
            bits.append(f"{name} becomes Rattled" + ("" if after == 0 else " though not at 0 hit points"))
        elif was_rattled and not self.rattled[t]:
            bits.append(f"{name} is no longer Rattled")
        if bits:
            self.say(s, "status", "; ".join(bits) + ".")

    def _stop_ongoing(self, s: int, t: int) -> None:
        stopped = []
        if self.self_def[t]:
            self.self_def[t] = 0
            stopped.append("Defend Self")
        for guards in self.defenders.values():
            for entry in guards:
                if entry[0] == t:
                    guards.remove(entry)
                    stopped.append("Defend Other")
                    break
        if stopped and self.log:
            self.say(s, "status", f"{self.names[t]}'s {_and(sorted(set(stopped)))} stops.")

    # --- actions ---------------------------------------------------------------

    def bonus_if(self, s: int, i: int, action: str, t: int | None, d: Declaration) -> int:
        """The conditional bonuses of fighter i on `action` (aimed at t) whose
        condition holds as the slot begins (ruling conditional-bonuses)."""
        extra, met = 0, []
        for when, amount in self.cs[i].profile.conditional.get(action, ()):
            if when == "target_rattled":
                holds = t is not None and t != i and self.rattled[t]
            elif when == "hurt":
                holds = self.hp[i] < self.cs[i].profile.hit_points
            else:
                holds = when in d.confirmed
            if holds:
                extra += amount
                met.append(f"+{amount} {CONDITION_WORDS[when]}")
        if met and self.log:
            self.say(s, "action", f"{self.names[i]}'s {ACTION_NAMES[action]} counts {_and(met)}.")
        return extra

    def attack(self, s, i, d, loss, finishes, rattle) -> None:
        log = self.log
        t = self.index[d.target]
        if self.escaped[t] or self.dead[t]:
            if log:
                self.say(s, "action", f"{self.names[i]}'s Attack finds nobody: {d.target} is {self._status(t)}.")
            return
        profile = self.cs[i].profile
        base = ACTION_POINTS - s
        amount = base + profile.attack_plus
        if profile.conditional:
            amount += self.bonus_if(s, i, "attack", t, d)
        kind = None
        if d.special is not None:
            kind = profile.specials[d.special].effect
            self.spend(i, d.special)
        words = ""
        if log:
            words = (f"{self.names[i]} attacks {d.target}" + (f" with {d.special}" if d.special else "")
                     + (f" (chose the Speed {s} slot)" if profile.chooses_slot else "")
                     + f": Effect {base}" + (f" + {amount - base}" if amount != base else "") + f" = {amount}")
        dealt, words = self.hit(t, amount, kind == "ignore_defences", loss, words)
        if dealt:
            if kind == "rattle_on_damage":
                rattle.add(t)
                if log:
                    words += f"; {d.special}: {d.target} will be Rattled"
            # A knock-out needs a target already Rattled; a kill needs them Rattled
            # and at 0 hit points as well. Both are judged as the slot began
            # (rulings knock-out-needs-rattled and same-slot-kill).
            if d.finish is not None and finishable(self.rattled[t], self.hp[t], d.finish):
                if finishes.get(t) != "kill":
                    finishes[t] = d.finish
                if log:
                    words += f"; {self.names[i]} calls a killing blow: " \
                             f"{'kill' if d.finish == 'kill' else 'knock out'}"
            elif log and d.finish == "kill" and self.rattled[t]:
                words += f"; no kill: {d.target} is Rattled but not on 0 hit points (a knock-out was possible)"
        if log:
            self.say(s, "action", words + ".")
        r = self.redirect[t]
        if r is not None and not dealt and self.self_def[t]:
            # Ruling vicious-dodge-redirect: the turned attack lands in the same slot, at full Effect, once.
            if not (self.dead[r] or self.escaped[r]):
                _, more = self.hit(r, amount, False, loss,
                                   f"{d.target} turns the unhurt attack onto {self.names[r]}: {amount}" if log else "")
                if log:
                    self.say(s, "action", more + ".")

    def hit(self, t: int, amount: int, pierce: bool, loss: dict, words: str) -> tuple[int, str]:
        """Damage of one hit on `t`: Defend Other first, then armour and Defend Self."""
        rest = amount
        log = self.log
        if not pierce:
            for d, effect in self.defenders.get(t, ()):
                if rest <= 0:
                    break
                soaked = effect if effect < rest else rest
                rest -= soaked
                # Ruling defender-armour: the defender's own armour cuts what they soak.
                lost = soaked - self.cs[d].profile.armour
                if lost > 0:
                    loss[d] = loss.get(d, 0) + lost
                    self.spoiled[d] = True
                if log:
                    words += f"; {self.names[d]} takes {soaked} of it" + (
                        f" (armour stops {soaked - max(lost, 0)})" if lost < soaked else "")
            armour = self.cs[t].profile.armour
            cut = armour + self.self_def[t]
            if cut and rest > 0:
                if log:
                    by = " and ".join(w for w in (f"armour {armour}" if armour else "",
                                                   f"Defend Self {self.self_def[t]}" if self.self_def[t] else "")
                                      if w)
                    words += f"; {self.names[t]}'s {by} stop{'s' if ' and ' not in by else ''} {min(cut, rest)}"
                rest = rest - cut if rest > cut else 0
        elif log:
            words += " (no armour or defence counts)"
        if rest > 0:
            loss[t] = loss.get(t, 0) + rest
            self.spoiled[t] = True
        if log:
            words += f"; {self.names[t]} loses {rest}"
        return rest, words

    def special(self, s, i, d, gain) -> None:
        names = self.names
        t = self.index[d.target] if d.target is not None else None
        special = self.cs[i].profile.specials[d.special]
        self.spend(i, d.special)
        if t is not None and (self.dead[t] or self.escaped[t]):
            if self.log:
                self.say(s, "action", f"{names[i]}'s {d.special} finds nobody: {d.target} is {self._status(t)}.")
            return
        if special.effect == "heal":
            amount = ACTION_POINTS - s + self.cs[i].profile.special_plus
            if self.cs[i].profile.conditional:
                amount += self.bonus_if(s, i, "special", t, d)
            gain[t] = gain.get(t, 0) + amount
            # Ruling special-spoils-escape: a special that resolves on someone spoils their Escape.
            self.spoiled[t] = True
            if self.log:
                self.say(s, "action", f"{names[i]} uses {d.special} on {d.target}: up to {amount} hit points "
                                      "back, never above their starting hit points.")
            return
        on = f" on {d.target}" if d.target else ""
        self.adjudications.append(f"{names[i]} uses {d.special}{on} at Speed {s}")
        if self.log:
            self.say(s, "action", f"{names[i]} uses {d.special}{on}. GM adjudicates: the resolver changes "
                                  "nothing for it" + (f" (if it lands, {d.target} cannot Escape this round)."
                                                      if d.target else "."))

    # --- the end of the round ---------------------------------------------------

    def finish(self) -> RoundResult:
        out = list(self.cs)
        hp, rattled, unconscious, dead, escaped = self.hp, self.rattled, self.unconscious, self.dead, self.escaped
        for i in self.touched | self.uses.keys():
            c = out[i]
            uses = self.uses.get(i)
            out[i] = _new_tuple(Combatant, (c.profile, hp[i], rattled[i], unconscious[i], dead[i], escaped[i],
                                            c.uses if uses is None else MappingProxyType(uses)))
        if self.log:
            standing = [self.names[i] for i in range(self.n) if not (self.dead[i] or self.escaped[i]
                                                                     or self.unconscious[i])]
            self.say(None, "end", "Round over. Still able to act: " + (_and(standing) if standing else "nobody")
                     + ". Ask who wants to keep fighting.")
        return RoundResult(tuple(out), tuple(self.lines), tuple(self.adjudications))
