"""The GM's words for a resolved Sixes round: the one place the log is written.

Core layer: standard library and this package's models only (the resolver
imports this module; this one names the resolver for type checking only). `Narration` is mixed into
the resolver's round when a log is asked for: each method lets the rule step
of the same name resolve, then says what it resolved, reading the step's
result and the fighters' state. The rules themselves never write a word, so
a simulation, which asks for no log, pays nothing for the telling.

The log is pinned word for word: the fight tracker's JavaScript port
(templates/sixes/tracker/resolver.js) must say exactly the same.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from .models import CONDITION_WORDS

if TYPE_CHECKING:
    from .resolver import Declaration, RoundResult, SlotWatcher, _Round
    _Rules = _Round      # what the type checker sees the mixin's host as
else:
    _Rules = object

ACTION_NAMES = {"attack": "Attack", "defend_other": "Defend Other", "defend_self": "Defend Self",
                "escape": "Escape", "recover": "Recover", "special": "Special"}
# The order of the log's phases; slots themselves run from Speed 5 down to 1.
PHASE_ORDER = {"declare": 0, "activation": 1, "action": 2, "status": 3, "escape": 4, "end": 5}


@dataclass(frozen=True, slots=True)
class LogLine:
    slot: int | None       # None for the lines before slot 5 and after slot 1
    phase: str             # declare, activation, action, status, escape, end
    text: str

    def __str__(self) -> str:
        where = f"Speed {self.slot}, {self.phase}" if self.slot else self.phase.capitalize()
        return f"{where}: {self.text}"


def and_list(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Narration(_Rules):
    """Says each step of a round as it resolves. A mixin for the resolver's
    round, which owns the state read here (names, declarations, the lists
    indexed by roster position). `rules` is that round's class: its steps
    are called through it, since super() costs several times as much on
    Python 3.11 (the round's __init__, called once, goes through super())."""

    rules: type[_Round]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines: list[LogLine] = []
        self.settled: list[tuple[int, str]] = []    # a slot's status lines, by fighter
        self.words = ""                             # an attack's line, built while its hits resolve
        self.soaked = 0                             # what the target's defenders took of a hit

    def say(self, slot: int | None, phase: str, text: str) -> None:
        self.lines.append(LogLine(slot, phase, text))

    def status_word(self, i: int) -> str:
        if self.dead[i]:
            return "Dead"
        if self.escaped[i]:
            return "gone (escaped)"
        if self.unconscious[i]:
            return "Unconscious"
        return "Rattled" if self.rattled[i] else "fighting"

    # --- the round ---------------------------------------------------------------

    def run(self, on_slot: SlotWatcher | None = None) -> RoundResult:
        """Whoever did not declare in time is off-guard, said before the first slot."""
        for i, d in enumerate(self.decl):
            if d is None and self.cs[i].can_act:
                self.say(None, "declare", f"{self.names[i]} did not declare in time: off-guard, no action "
                                          "this round.")
        return self.rules.run(self, on_slot)

    def finish(self, log: tuple[LogLine, ...] = ()) -> RoundResult:
        standing = [name for i, name in enumerate(self.names)
                    if not (self.dead[i] or self.escaped[i] or self.unconscious[i])]
        self.say(None, "end", "Round over. Still able to act: " + (and_list(standing) if standing else "nobody")
                 + ". Ask who wants to keep fighting.")
        return self.rules.finish(self, log + tuple(self.lines))

    # --- the phases of a Speed Slot ---------------------------------------------

    def activation_phase(self, s: int, acting: list[int]) -> tuple[list[int], list[int]]:
        actors, gm = self.rules.activation_phase(self, s, acting)
        awake = sorted(actors + gm)
        if len(awake) < len(acting):          # someone of this Speed does not act
            for i in acting:
                if i not in awake:
                    self.say(s, "activation", self.lost_action(s, i))
        if awake:
            self.say(s, "activation", f"{and_list(self.names[i] for i in awake)} open"
                                      f"{'s' if len(awake) == 1 else ''} their eyes.")
        return actors, gm

    def lost_action(self, s: int, i: int) -> str:
        d = self.decl[i]
        assert d is not None             # only a declared action can be lost
        name, action, status = self.names[i], ACTION_NAMES[d.action], self.status_word(i)
        if status == "Rattled":
            return (f"{name} is Rattled: the {action} at Speed {s} is lost (Rattled: only Escape or Recover, "
                    "at Speed 1).")
        return f"{name} is {status}: the {action} does not happen."

    def status_phase(self, s: int) -> list[int]:
        """Fighters settle in any order; the GM reads them in roster order."""
        settled = self.settled = []
        fallen = self.rules.status_phase(self, s)
        settled.sort()
        for _, text in settled:
            self.say(s, "status", text)
        fallen.sort()
        return fallen

    def settle(self, s: int, t: int) -> bool:
        name, hp = self.names[t], self.hp
        before = hp[t]
        was_rattled, was_out = self.rattled[t], self.unconscious[t]
        fallen = self.rules.settle(self, s, t)
        finish, after = self.finishes.get(t), hp[t]
        if finish == "kill":
            self.settled.append((t, f"{name} is Dead (killing blow, announced aloud)."))
            return fallen
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
            self.settled.append((t, "; ".join(bits) + "."))
        return fallen

    def stop_ongoing(self, s: int, t: int) -> list[str]:
        stopped = self.rules.stop_ongoing(self, s, t)
        if stopped:
            self.say(s, "status", f"{self.names[t]}'s {and_list(sorted(set(stopped)))} stops.")
        return stopped

    def escape_phase(self, s: int, escapers: list[int]) -> None:
        self.rules.escape_phase(self, s, escapers)
        for i in escapers:
            if self.escaped[i]:
                self.say(s, "escape", f"{self.names[i]} escapes and must leave the area of the fight.")
            else:
                self.say(s, "escape", f"{self.names[i]}'s Escape fails: they were hurt or targeted by a special "
                                      "before it resolved. They stay in the fight.")

    # --- actions -------------------------------------------------------------------

    def conditions_met(self, s: int, i: int, action: str, t: int | None, d: Declaration) -> list[tuple[str, int]]:
        met = self.rules.conditions_met(self, s, i, action, t, d)
        if met:
            self.say(s, "action", f"{self.names[i]}'s {ACTION_NAMES[action]} counts "
                                  f"{and_list(f'+{amount} {CONDITION_WORDS[when]}' for when, amount in met)}.")
        return met

    def defend_other(self, s: int, i: int, d: Declaration) -> int:
        amount = self.rules.defend_other(self, s, i, d)
        self.say(s, "action", f"{self.names[i]} starts defending {d.target}: takes up to {amount} of each hit on "
                              "them until the round ends.")
        return amount

    def defend_self(self, s: int, i: int, d: Declaration) -> int:
        amount = self.rules.defend_self(self, s, i, d)
        doubled = f" ({d.special}: doubled)" if d.special is not None else ""
        self.say(s, "action", f"{self.names[i]} defends themselves: every hit on them is cut by {amount}{doubled} "
                              "until the round ends.")
        return amount

    def escape(self, s: int, i: int) -> None:
        self.rules.escape(self, s, i)
        self.say(s, "action", f"{self.names[i]} is trying to Escape; it is checked in the escape phase.")

    def recover(self, s: int, i: int, d: Declaration) -> int:
        """Says only what the Recover changes: Rattled ends for someone Rattled,
        an Unconscious fighter wakes; otherwise only the hit point."""
        t = self.rules.recover(self, s, i, d)
        ends = (", and Rattled ends" if self.rattled[i] else "") if t == i else ", and they wake"
        self.say(s, "action", f"{self.names[i]} takes Recover" + ("" if t == i else f" on {self.names[t]}")
                 + ": 1 hit point back" + ends + ".")
        return t

    def heal(self, s: int, i: int, t: int, d: Declaration) -> int:
        amount = self.rules.heal(self, s, i, t, d)
        self.say(s, "action", f"{self.names[i]} uses {d.special} on {d.target}: up to {amount} hit points back, "
                              "never above their starting hit points.")
        return amount

    def ask_gm(self, s: int, i: int, d: Declaration) -> None:
        self.rules.ask_gm(self, s, i, d)
        on = f" on {d.target}" if d.target else ""
        self.say(s, "action", f"{self.names[i]} uses {d.special}{on}. GM adjudicates: the resolver changes nothing "
                              "for it" + (f" (if it lands, {d.target} cannot Escape this round)." if d.target else "."))

    def leave_to_gm(self, s: int, i: int) -> None:
        self.rules.leave_to_gm(self, s, i)
        d = self.decl[i]
        assert d is not None             # only a declared special is left to the GM
        self.say(s, "action", f"{self.names[i]} calls {d.special} with {ACTION_NAMES[d.action]}. GM adjudicates: "
                              "the resolver leaves this whole action to the GM.")

    def finds_nobody(self, s: int, i: int, what: str, t: int) -> None:
        self.say(s, "action", f"{self.names[i]}'s {what} finds nobody: {self.names[t]} is {self.status_word(t)}.")

    # --- an attack: one line, built while its hits resolve ---------------------------

    def strike(self, s: int, i: int, t: int, d: Declaration, base: int, amount: int, kind: str | None) -> int:
        self.words = (f"{self.names[i]} attacks {d.target}" + (f" with {d.special}" if d.special else "")
                      + (f" (chose the Speed {s} slot)" if self.cs[i].profile.chooses_slot else "")
                      + f": Effect {base}" + (f" + {amount - base}" if amount != base else "") + f" = {amount}")
        dealt = self.rules.strike(self, s, i, t, d, base, amount, kind)
        self.say(s, "action", self.words + ".")
        return dealt

    def turn_attack(self, s: int, t: int, r: int, amount: int) -> None:
        self.words = f"{self.names[t]} turns the unhurt attack onto {self.names[r]}: {amount}"
        self.rules.turn_attack(self, s, t, r, amount)
        self.say(s, "action", self.words + ".")

    def hit(self, t: int, amount: int, pierce: bool) -> int:
        self.soaked = 0
        dealt = self.rules.hit(self, t, amount, pierce)
        if pierce:
            self.words += " (no armour or defence counts)"
        elif amount - self.soaked > dealt:
            armour, defence = self.cs[t].profile.armour, self.self_def[t]
            by = " and ".join(w for w in (f"armour {armour}" if armour else "",
                                           f"Defend Self {defence}" if defence else "") if w)
            self.words += (f"; {self.names[t]}'s {by} stop{'s' if ' and ' not in by else ''} "
                           f"{amount - self.soaked - dealt}")
        self.words += f"; {self.names[t]} loses {dealt}"
        return dealt

    def defender_takes(self, g: int, soaked: int) -> None:
        before = self.loss.get(g, 0)
        self.rules.defender_takes(self, g, soaked)
        self.soaked += soaked
        stopped = soaked - (self.loss.get(g, 0) - before)
        self.words += f"; {self.names[g]} takes {soaked} of it" + (
            f" (armour stops {stopped})" if self.cs[g].profile.armour else "")

    def rattles(self, t: int, special: str) -> None:
        self.rules.rattles(self, t, special)
        self.words += f"; {special}: {self.names[t]} will be Rattled"

    def killing_blow(self, i: int, t: int, finish: str) -> None:
        self.rules.killing_blow(self, i, t, finish)
        self.words += f"; {self.names[i]} calls a killing blow: {'kill' if finish == 'kill' else 'knock out'}"

    def blow_refused(self, t: int, finish: str) -> None:
        if finish == "kill" and self.rattled[t]:
            self.words += (f"; no kill: {self.names[t]} is Rattled but not on 0 hit points "
                           "(a knock-out was possible)")
