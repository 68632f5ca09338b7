"""Resolve one whole Sixes combat round, slot by slot, as the rules say.

Core layer: standard library and this package only. Input: the combatants
(combatant.py: their character, current hit points, statuses and limited
uses left) and each one's declaration (declarations.py, which checks them).
Output: the combatants after the round and an ordered log in the words a
GM would say. The decisions where the source is silent are in
rulings.yaml; each is named in a comment where the code follows it.

A round's steps are named after the source's fight structure (each Speed
Slot's activation, action, status and escape phases) and write no words.
When a log is asked for, narration.py's Narration is mixed in and tells each
step as it resolves; a simulator asks for none and pays nothing for it, so
on plain lists indexed by roster position it resolves tens of thousands of
rounds a second.

This module is the resolver's one door: the names of combatant.py,
declarations.py and narration.py a caller needs are importable from here.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, Sequence

from ...core.i18n import _
from .combatant import Combatant, Profile, finishable, fresh, invariant_faults, new_tuple
from .declarations import (RATTLED_ACTIONS, Declaration, IllegalDeclaration, check_declarations, roster,
                           validate)
from .narration import ACTION_NAMES, LogLine, Narration
from .rules import ACTION_POINTS, RATTLED_MAX_SPEED, RECOVER_HIT_POINTS, SPEEDS

__all__ = ["ACTION_NAMES", "Combatant", "Declaration", "IllegalDeclaration", "LogLine", "Profile", "RoundResult",
           "SlotWatcher", "finishable", "fresh", "invariant_faults", "resolve_round", "validate"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    combatants: tuple[Combatant, ...]
    log: tuple[LogLine, ...]
    adjudications: tuple[str, ...]      # what the GM must decide (specials outside the vocabulary), in the run's words

    def __getitem__(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.profile.name == name:
                return c
        raise KeyError(name)


SlotWatcher = Callable[[int, "tuple[Combatant, ...]"], None]


def resolve_round(combatants: Sequence[Combatant], declarations: Iterable[Declaration], *,
                  log: bool = True, check: bool = True, on_slot: SlotWatcher | None = None) -> RoundResult:
    """Resolve one round. Raises IllegalDeclaration listing every bad
    declaration. `log=False` skips the words (for simulations). `on_slot`,
    when given, is called after each Speed Slot (5 down to 1, empty ones too)
    with the slot and every fighter as they stand at its end: a hook for
    checks such as `invariant_faults`, at no cost when left out."""
    cs = tuple(combatants)
    columns = tuple(zip(*cs, strict=True)) if cs else ((),) * 7
    names, index = roster(columns[0])
    round_type = _ToldRound if log else _Round
    if check:
        decl: list[Declaration | None] = [None] * len(cs)
        by_speed: list[list[int]] = [[], [], [], [], [], []]
        reasons = check_declarations(cs, index, declarations, decl, by_speed)
        if reasons:
            raise IllegalDeclaration(reasons)
        return round_type(cs, columns, names, index, (), decl, by_speed).run(on_slot)
    return round_type(cs, columns, names, index, declarations).run(on_slot)


class _Round:
    """One round under the rules, as lists indexed by roster position. It
    writes no words: `_ToldRound` adds the narration when a log is asked
    for, so the simulator's rounds pay nothing for it."""

    __slots__ = ("cs", "n", "names", "index", "decl", "by_speed", "hp", "rattled", "unconscious", "dead", "escaped",
                 "uses", "touched", "defenders", "self_def", "redirect", "spoiled", "adjudications",
                 "loss", "gain", "finishes", "rattle", "cleared", "escapers")

    def __init__(self, cs: tuple, columns: tuple, names: list[str], index: dict[str, int],
                 declarations: Iterable[Declaration], decl: list[Declaration | None] | None = None,
                 by_speed: list[list[int]] | None = None) -> None:
        self.cs = cs
        self.n = n = len(cs)
        _, hp, rattled, unconscious, dead, escaped, _ = columns
        self.names, self.index = names, index
        if decl is None or by_speed is None:
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
        self.redirect: list[int | None] = [None] * n   # index to turn unhurt attacks onto
        self.spoiled = [False] * n               # an Escape that can no longer work
        self.adjudications: list[str] = []

    def spend(self, i: int, special: str) -> None:
        left = self.cs[i].uses
        if special in left:
            mine = self.uses.setdefault(i, dict(left))
            mine[special] -= 1

    def run(self, on_slot: SlotWatcher | None = None) -> RoundResult:
        """The five Speed Slots, 5 down to 1; each fighter acts once, in the
        slot of the Speed they declared."""
        by_speed = self.by_speed
        for s in SPEEDS:
            if by_speed[s]:
                self.speed_slot(s, by_speed[s])
            if on_slot is not None:
                on_slot(s, self.standing(range(self.n), True))
        return self.finish()

    def standing(self, changed: Iterable[int], mid_round: bool) -> tuple[Combatant, ...]:
        """Every fighter as they stand now; only those in `changed` are rebuilt.
        Mid-round their uses are copied, since the round may still spend them."""
        out = list(self.cs)
        hp, rattled, unconscious, dead, escaped = self.hp, self.rattled, self.unconscious, self.dead, self.escaped
        for i in changed:
            c = out[i]
            uses: Mapping[str, int] | None = self.uses.get(i)
            if uses is not None:
                uses = MappingProxyType(dict(uses) if mid_round else uses)
            out[i] = new_tuple(Combatant, (c.profile, hp[i], rattled[i], unconscious[i], dead[i], escaped[i],
                                           c.uses if uses is None else uses))
        return tuple(out)

    def finish(self, log: tuple[LogLine, ...] = ()) -> RoundResult:
        """The round's result; `log` is the narration's, when there is one."""
        return RoundResult(self.standing(self.touched | self.uses.keys(), False), log, tuple(self.adjudications))

    # --- one Speed Slot: the source's four phases ---------------------------------

    def speed_slot(self, s: int, acting: list[int]) -> None:
        """Those of this Speed open their eyes, act at the same moment, take on
        the statuses that follow, then try to Escape."""
        actors, gm = self.activation_phase(s, acting)
        if not (actors or gm):
            return
        # Nothing below changes hit points or statuses until the status phase, so
        # every action of the slot sees the slot's start: they are simultaneous.
        self.loss: dict[int, int] = {}       # index -> hit points lost this slot
        self.gain: dict[int, int] = {}       # index -> hit points regained this slot
        self.finishes: dict[int, str] = {}   # target -> 'kill' or 'knock_out'
        self.rattle: set[int] = set()        # targets a rattle_on_damage hit got through to
        self.cleared: set[int] = set()       # Recover on yourself: Rattled ends whatever the hit points
        self.escapers: list[int] = []
        self.action_phase(s, actors, gm)
        fallen = self.status_phase(s)
        # Ongoing actions of anyone now Rattled, Unconscious or Dead stop.
        if fallen and (self.defenders or any(self.self_def)):
            for t in fallen:
                self.stop_ongoing(s, t)
        if self.escapers:
            self.escape_phase(s, self.escapers)

    def activation_phase(self, s: int, acting: list[int]) -> tuple[list[int], list[int]]:
        """Who opens their eyes: not the fallen or gone, nor the Rattled with an
        action they may no longer take. An action carrying a special outside
        the vocabulary goes whole to the GM (the second list)."""
        decl, cs = self.decl, self.cs
        dead, unconscious, escaped, rattled = self.dead, self.unconscious, self.escaped, self.rattled
        actors = []
        gm = []
        for i in acting:
            d = decl[i]
            assert d is not None         # by_speed holds only those who declared
            if dead[i] or unconscious[i] or escaped[i]:
                continue
            if rattled[i] and (s > RATTLED_MAX_SPEED or d.action not in RATTLED_ACTIONS):
                # Ruling rattled-mid-round: a declaration cannot change, so an action a Rattled
                # character may no longer take is lost, not moved to Speed 1.
                continue
            if d.special is not None and d.action != "special" and cs[i].profile.specials[d.special].effect is None:
                gm.append(i)
            else:
                actors.append(i)
        return actors, gm

    def action_phase(self, s: int, actors: list[int], gm: list[int]) -> None:
        """Every action but Escape, all at the same moment. Defences start
        before any attack lands: both work from the start of their slot
        (ruling defend-self-same-slot)."""
        for i in gm:
            self.leave_to_gm(s, i)
        decl = self.decl
        attackers: list[tuple[int, Declaration]] = []
        for i in actors:
            d = decl[i]
            assert d is not None         # only those who declared act
            action = d.action
            if action == "attack":
                attackers.append((i, d))
            elif action == "defend_other":
                self.defend_other(s, i, d)
            elif action == "defend_self":
                self.defend_self(s, i, d)
            elif action == "escape":
                self.escape(s, i)
            elif action == "recover":
                self.recover(s, i, d)
            else:
                self.special(s, i, d)
        for i, d in attackers:
            self.attack(s, i, d)

    def status_phase(self, s: int) -> list[int]:
        """The slot's damage and healing land together (ruling
        healing-and-damage-net); returns who is newly Rattled, Unconscious or
        Dead. Each fighter settles alone, so the order does not matter."""
        changed = set(self.loss)
        if self.gain or self.cleared or self.rattle:
            changed.update(self.gain, self.cleared, self.rattle)
        self.touched.update(changed)
        return [t for t in changed if self.settle(s, t)]

    def settle(self, s: int, t: int) -> bool:
        """Fighter t's hit points after the slot, and the statuses that follow
        from them; True when t has just become Rattled, Unconscious or Dead."""
        hp, rattled, unconscious, dead = self.hp, self.rattled, self.unconscious, self.dead
        was_down = rattled[t] or unconscious[t]
        hurt = hp[t] - self.loss.get(t, 0)
        finish = self.finishes.get(t)
        if finish == "kill":
            dead[t] = True
        elif finish == "knock_out":
            unconscious[t] = True
        gain = self.gain.get(t)
        after = hurt + gain if gain is not None and not dead[t] else hurt
        limit = self.cs[t].profile.hit_points
        after = limit if after > limit else 0 if after < 0 else after
        hp[t] = after
        if t in self.rattle:
            rattled[t] = True
        regained = after > hurt and after > 0
        if regained or t in self.cleared:
            rattled[t] = False
            if regained:
                unconscious[t] = False
        if after == 0:
            # Whoever ends the slot on 0 hit points is Rattled, whatever else happened
            # to them in it: a Recover that nets to 0 does not undo it (ruling zero-is-rattled).
            rattled[t] = True
        return (dead[t] or unconscious[t] or rattled[t]) and not was_down

    def stop_ongoing(self, s: int, t: int) -> list[str]:
        """Rattled: the ongoing actions of t stop now. Returns which."""
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
        return stopped

    def escape_phase(self, s: int, escapers: list[int]) -> None:
        """Last in the slot: an Escape works unless its fighter was hurt,
        targeted by a special or put out of the fight before it resolved."""
        for i in escapers:
            if not (self.spoiled[i] or self.dead[i] or self.unconscious[i]):
                self.escaped[i] = True          # an Escape is their only action, so nothing ongoing stops
                self.touched.add(i)

    # --- the actions ------------------------------------------------------------

    def effect(self, s: int, i: int, action: str, plus: int, t: int | None, d: Declaration) -> int:
        """Effect: the action points left after Speed, plus what the character
        always adds to this action and any bonus whose condition holds."""
        amount = ACTION_POINTS - s + plus
        if self.cs[i].profile.conditional:
            for _, extra in self.conditions_met(s, i, action, t, d):
                amount += extra
        return amount

    def conditions_met(self, s: int, i: int, action: str, t: int | None, d: Declaration) -> list[tuple[str, int]]:
        """The conditional bonuses of fighter i on `action` (aimed at t) whose
        condition holds as the slot begins (ruling conditional-bonuses)."""
        met = []
        for when, amount in self.cs[i].profile.conditional.get(action, ()):
            if when == "target_rattled":
                holds = t is not None and t != i and self.rattled[t]
            elif when == "hurt":
                holds = self.hp[i] < self.cs[i].profile.hit_points
            else:
                holds = when in d.confirmed
            if holds:
                met.append((when, amount))
        return met

    def defend_other(self, s: int, i: int, d: Declaration) -> int:
        """Defend Other: take up to Effect of each hit on the target."""
        assert d.target is not None      # validated: Defend Other names its target
        t = self.index[d.target]
        amount = self.effect(s, i, "defend_other", self.cs[i].profile.defend_other_plus, t, d)
        # Ruling several-defenders: defenders soak in the order they started defending.
        guards = self.defenders.get(t)
        if guards is None:
            self.defenders[t] = [[i, amount]]
        else:
            guards.append([i, amount])
        return amount

    def defend_self(self, s: int, i: int, d: Declaration) -> int:
        """Defend Self: every hit on yourself is cut by Effect, like armour."""
        amount = self.effect(s, i, "defend_self", self.cs[i].profile.defend_self_plus, i, d)
        if d.special is not None:        # only double_defend_self gets here (validated)
            self.spend(i, d.special)
            amount *= 2
        self.self_def[i] = amount
        if d.redirect_to is not None:
            self.redirect[i] = self.index[d.redirect_to]
        return amount

    def escape(self, s: int, i: int) -> None:
        """Escape is checked only in the escape phase, after everything else."""
        self.escapers.append(i)

    def recover(self, s: int, i: int, d: Declaration) -> int:
        """Recover: 1 hit point back, and the end of Rattled (on yourself) or of
        Unconscious (on someone else). Returns who recovers."""
        t = i if d.target is None else self.index[d.target]
        self.gain[t] = self.gain.get(t, 0) + RECOVER_HIT_POINTS
        if t == i:
            self.cleared.add(i)
        return t

    def special(self, s: int, i: int, d: Declaration) -> None:
        """The Special action: healing is applied; any other special is the GM's."""
        special = d.special
        assert special is not None       # validated: the Special action names its special
        t = self.index[d.target] if d.target is not None else None
        self.spend(i, special)
        if t is not None and (self.dead[t] or self.escaped[t]):
            self.finds_nobody(s, i, special, t)
        elif self.cs[i].profile.specials[special].effect == "heal":
            assert t is not None         # validated: a healing special names whom it heals
            self.heal(s, i, t, d)
        else:
            self.ask_gm(s, i, d)

    def heal(self, s: int, i: int, t: int, d: Declaration) -> int:
        """Effect in hit points back, never above the starting hit points."""
        amount = self.effect(s, i, "special", self.cs[i].profile.special_plus, t, d)
        self.gain[t] = self.gain.get(t, 0) + amount
        # Ruling special-spoils-escape: a special that resolves on someone spoils their Escape.
        self.spoiled[t] = True
        return amount

    def ask_gm(self, s: int, i: int, d: Declaration) -> None:
        """A special outside the vocabulary, as the Special action: the resolver changes nothing."""
        self.adjudications.append((_("{name} uses {special} on {target} at Speed {speed}") if d.target else
                                   _("{name} uses {special} at Speed {speed}"))
                                  .format(name=self.names[i], special=d.special, target=d.target, speed=s))

    def leave_to_gm(self, s: int, i: int) -> None:
        """A special outside the vocabulary carried by another action: the whole action is the GM's."""
        d = self.decl[i]
        assert d is not None and d.special is not None   # only a declared special is left to the GM
        self.spend(i, d.special)
        self.adjudications.append((_("{name} calls {special} with {action} on {target} at Speed {speed}")
                                   if d.target else _("{name} calls {special} with {action} at Speed {speed}"))
                                  .format(name=self.names[i], special=d.special, action=_(ACTION_NAMES[d.action]),
                                          target=d.target, speed=s))

    def finds_nobody(self, s: int, i: int, what: str, t: int) -> None:
        """The target left the fight earlier in the round: nothing happens."""

    # --- an attack ----------------------------------------------------------------

    def attack(self, s: int, i: int, d: Declaration) -> None:
        """Attack: damage equal to Effect. A hit that does no damage to someone
        Defending Self with a redirecting special may be turned onto another."""
        assert d.target is not None      # validated: an Attack names its target
        t = self.index[d.target]
        if self.dead[t] or self.escaped[t]:
            self.finds_nobody(s, i, _(ACTION_NAMES["attack"]), t)
            return
        profile = self.cs[i].profile
        base = ACTION_POINTS - s
        amount = self.effect(s, i, "attack", profile.attack_plus, t, d)
        kind = None
        if d.special is not None:
            kind = profile.specials[d.special].effect
            self.spend(i, d.special)
        dealt = self.strike(s, i, t, d, base, amount, kind)
        r = self.redirect[t]
        if r is not None and not dealt and self.self_def[t] and not (self.dead[r] or self.escaped[r]):
            self.turn_attack(s, t, r, amount)

    def strike(self, s: int, i: int, t: int, d: Declaration, base: int, amount: int, kind: str | None) -> int:
        """The attack lands (`base` is the slot's Effect before the attacker's
        additions, for the telling); 1 or more points through opens the target
        to the attack's special and to a killing blow. Returns the points through."""
        dealt = self.hit(t, amount, kind == "ignore_defences")
        if dealt:
            if kind == "rattle_on_damage" and d.special is not None:   # kind comes from the special
                self.rattles(t, d.special)
            if d.finish is not None:
                # A knock-out needs a target already Rattled; a kill needs them Rattled and
                # at 0 hit points as well. Both are judged as the slot began (rulings
                # knock-out-needs-rattled and same-slot-kill).
                if finishable(self.rattled[t], self.hp[t], d.finish):
                    self.killing_blow(i, t, d.finish)
                else:
                    self.blow_refused(t, d.finish)
        return dealt

    def turn_attack(self, s: int, t: int, r: int, amount: int) -> None:
        """Ruling vicious-dodge-redirect: the turned attack lands on r in the same slot, at full Effect, once."""
        self.hit(r, amount, False)

    def hit(self, t: int, amount: int, pierce: bool) -> int:
        """The points of one hit that get through to t: whoever Defends t takes
        theirs first, then t's armour and Defend Self cut the rest."""
        rest = amount
        if not pierce:
            for g, effect in self.defenders.get(t, ()):
                if rest <= 0:
                    break
                soaked = effect if effect < rest else rest
                rest -= soaked
                self.defender_takes(g, soaked)
            cut = self.cs[t].profile.armour + self.self_def[t]
            if cut and rest > 0:
                rest = rest - cut if rest > cut else 0
        if rest > 0:
            self.loss[t] = self.loss.get(t, 0) + rest
            self.spoiled[t] = True
        return rest

    def defender_takes(self, g: int, soaked: int) -> None:
        """Ruling defender-armour: the defender's own armour cuts what they soak."""
        lost = soaked - self.cs[g].profile.armour
        if lost > 0:
            self.loss[g] = self.loss.get(g, 0) + lost
            self.spoiled[g] = True

    def rattles(self, t: int, special: str) -> None:
        """rattle_on_damage: t takes on Rattled with the slot's other statuses."""
        self.rattle.add(t)

    def killing_blow(self, i: int, t: int, finish: str) -> None:
        """Called aloud by i; of two blows on t in one slot, a kill outweighs a knock-out."""
        if self.finishes.get(t) != "kill":
            self.finishes[t] = finish

    def blow_refused(self, t: int, finish: str) -> None:
        """The target is not open to this killing blow; the hit itself stands."""


class _ToldRound(Narration, _Round):
    """A round that also says every step in the GM's words (narration.py)."""

    rules = _Round
