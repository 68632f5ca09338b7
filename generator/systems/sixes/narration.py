"""The GM's words for a resolved Sixes round: the one place the log is written.

Core layer: standard library and this package's models only (the resolver
imports this module; this one names the resolver for type checking only). `Narration` is mixed into
the resolver's round when a log is asked for: each method lets the rule step
of the same name resolve, then says what it resolved, reading the step's
result and the fighters' state. The rules themselves never write a word, so
a simulation, which asks for no log, pays nothing for the telling.

The log is pinned word for word: the fight tracker's JavaScript port
(templates/sixes/tracker/resolver.js) must say exactly the same, in every
language. Every sentence is one message of the `tracker` catalogue domain
(`{name}` placeholders), and the JavaScript marks the same message ids with
`t()`/`tn()`, so each sentence is translated once for both. A sentence is
put together from whole messages only (a clause joins another through
"{first}; {then}"), never from English fragments, so a language may order
its words its own way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from ...core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from .resolver import Declaration, RoundResult, SlotWatcher, _Round
    _Rules = _Round      # what the type checker sees the mixin's host as
else:
    _Rules = object

# The rules' English names (the data uses them as they are); the log and the
# declarations' reasons translate them where they print them.
ACTION_NAMES = {"attack": N_("Attack"), "defend_other": N_("Defend Other"), "defend_self": N_("Defend Self"),
                "escape": N_("Escape"), "recover": N_("Recover"), "special": N_("Special")}
# The conditions' words (models.CONDITION_WORDS) as the log prints them.
CONDITION_NAMES = {"beside_ally": N_("beside an ally"), "target_rattled": N_("on a Rattled target"),
                   "hurt": N_("while hurt")}
# A special's usage (models.USAGE_WORDS) as the tracker prints it: in a
# reason a special is refused, and on its card.
USAGE_NAMES = {"unlimited": N_("unlimited"), "once per combat": N_("once per combat"),
               "once per game": N_("once per game")}
# A phase as a log line names it: lower case after its Speed, capitalised alone.
PHASE_NAMES = {"declare": N_("declare"), "activation": N_("activation"), "action": N_("action"),
               "status": N_("status"), "escape": N_("escape"), "end": N_("end")}
PHASE_TITLES = {"declare": N_("Declare"), "activation": N_("Activation"), "action": N_("Action"),
                "status": N_("Status"), "escape": N_("Escape"), "end": N_("End")}
# How a fighter who cannot do something stands, as "X is ..." says it.
STATUS_WORDS = {"dead": N_("Dead"), "escaped": N_("gone (escaped)"), "unconscious": N_("Unconscious"),
                "rattled": N_("Rattled"), "fighting": N_("fighting")}
# The order of the log's phases; slots themselves run from Speed 5 down to 1.
PHASE_ORDER = {"declare": 0, "activation": 1, "action": 2, "status": 3, "escape": 4, "end": 5}


@dataclass(frozen=True, slots=True)
class LogLine:
    slot: int | None       # None for the lines before slot 5 and after slot 1
    phase: str             # declare, activation, action, status, escape, end
    text: str

    def __str__(self) -> str:
        where = (_("Speed {slot}, {phase}").format(slot=self.slot, phase=_(PHASE_NAMES[self.phase])) if self.slot
                 else _(PHASE_TITLES[self.phase]))
        return _("{where}: {text}").format(where=where, text=self.text)


def and_list(names: Iterable[str]) -> str:
    """"A, B and C" in the current language (the commas are the list's, the
    last link the language's)."""
    names = list(names)
    return names[0] if len(names) == 1 else _("{names} and {last}").format(names=", ".join(names[:-1]),
                                                                           last=names[-1])


def clause(first: str, then: str) -> str:
    """Two clauses of one log sentence: "first; then" (French spaces its ";")."""
    return _("{first}; {then}").format(first=first, then=then)


def sentence(clauses: list[str]) -> str:
    """Clauses of one status line joined as one sentence, in order."""
    text = clauses[0]
    for then in clauses[1:]:
        text = clause(text, then)
    return text + "."


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

    def status_key(self, i: int) -> str:
        if self.dead[i]:
            return "dead"
        if self.escaped[i]:
            return "escaped"
        if self.unconscious[i]:
            return "unconscious"
        return "rattled" if self.rattled[i] else "fighting"

    def status_word(self, i: int) -> str:
        return _(STATUS_WORDS[self.status_key(i)])

    # --- the round ---------------------------------------------------------------

    def run(self, on_slot: SlotWatcher | None = None) -> RoundResult:
        """Whoever did not declare in time is off-guard, said before the first slot."""
        for i, d in enumerate(self.decl):
            if d is None and self.cs[i].can_act:
                self.say(None, "declare", _("{name} did not declare in time: off-guard, no action this round.")
                         .format(name=self.names[i]))
        return self.rules.run(self, on_slot)

    def finish(self, log: tuple[LogLine, ...] = ()) -> RoundResult:
        standing = [name for i, name in enumerate(self.names)
                    if not (self.dead[i] or self.escaped[i] or self.unconscious[i])]
        self.say(None, "end", _("Round over. Still able to act: {names}. Ask who wants to keep fighting.")
                 .format(names=and_list(standing)) if standing else
                 _("Round over. Still able to act: nobody. Ask who wants to keep fighting."))
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
            self.say(s, "activation", ngettext("{names} opens their eyes.", "{names} open their eyes.", len(awake))
                     .format(names=and_list(self.names[i] for i in awake)))
        return actors, gm

    def lost_action(self, s: int, i: int) -> str:
        d = self.decl[i]
        assert d is not None             # only a declared action can be lost
        name, action = self.names[i], _(ACTION_NAMES[d.action])
        if self.status_key(i) == "rattled":
            return (_("{name} is Rattled: the {action} at Speed {speed} is lost (Rattled: only Escape or Recover, "
                      "at Speed 1).").format(name=name, action=action, speed=s))
        return _("{name} is {status}: the {action} does not happen.").format(name=name, status=self.status_word(i),
                                                                            action=action)

    def status_phase(self, s: int) -> list[int]:
        """Fighters settle in any order; the GM reads them in roster order."""
        settled = self.settled = []
        fallen = self.rules.status_phase(self, s)
        settled.sort()
        for _t, text in settled:
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
            self.settled.append((t, _("{name} is Dead (killing blow, announced aloud).").format(name=name)))
            return fallen
        bits = []
        if before != after:
            bits.append(ngettext("{name} is on {hp} hit point (was {before})",
                                 "{name} is on {hp} hit points (was {before})", after)
                        .format(name=name, hp=after, before=before))
        if finish == "knock_out" and self.unconscious[t]:
            bits.append(_("{name} is knocked out: Unconscious").format(name=name))
        elif was_out and not self.unconscious[t]:
            bits.append(_("{name} is no longer Unconscious").format(name=name))
        if self.rattled[t] and not was_rattled:
            bits.append((_("{name} becomes Rattled") if after == 0 else
                         _("{name} becomes Rattled though not at 0 hit points")).format(name=name))
        elif was_rattled and not self.rattled[t]:
            bits.append(_("{name} is no longer Rattled").format(name=name))
        if bits:
            self.settled.append((t, sentence(bits)))
        return fallen

    def stop_ongoing(self, s: int, t: int) -> list[str]:
        stopped = self.rules.stop_ongoing(self, s, t)
        if stopped:
            kinds = and_list(_(kind) for kind in sorted(set(stopped)))
            self.say(s, "status", _("{name}'s {actions} stops.").format(name=self.names[t], actions=kinds))
        return stopped

    def escape_phase(self, s: int, escapers: list[int]) -> None:
        self.rules.escape_phase(self, s, escapers)
        for i in escapers:
            if self.escaped[i]:
                text = _("{name} escapes and must leave the area of the fight.")
            else:
                text = _("{name}'s Escape fails: they were hurt or targeted by a special before it resolved. "
                         "They stay in the fight.")
            self.say(s, "escape", text.format(name=self.names[i]))

    # --- actions -------------------------------------------------------------------

    def conditions_met(self, s: int, i: int, action: str, t: int | None, d: Declaration) -> list[tuple[str, int]]:
        met = self.rules.conditions_met(self, s, i, action, t, d)
        if met:
            bonuses = and_list(f"+{amount} {_(CONDITION_NAMES[when])}" for when, amount in met)
            self.say(s, "action", _("{name}'s {action} counts {bonuses}.")
                     .format(name=self.names[i], action=_(ACTION_NAMES[action]), bonuses=bonuses))
        return met

    def defend_other(self, s: int, i: int, d: Declaration) -> int:
        amount = self.rules.defend_other(self, s, i, d)
        self.say(s, "action", _("{name} starts defending {target}: takes up to {amount} of each hit on them until "
                                "the round ends.").format(name=self.names[i], target=d.target, amount=amount))
        return amount

    def defend_self(self, s: int, i: int, d: Declaration) -> int:
        amount = self.rules.defend_self(self, s, i, d)
        text = (_("{name} defends themselves: every hit on them is cut by {amount} until the round ends.")
                if d.special is None else
                _("{name} defends themselves: every hit on them is cut by {amount} ({special}: doubled) until the "
                  "round ends."))
        self.say(s, "action", text.format(name=self.names[i], amount=amount, special=d.special))
        return amount

    def escape(self, s: int, i: int) -> None:
        self.rules.escape(self, s, i)
        self.say(s, "action", _("{name} is trying to Escape; it is checked in the escape phase.")
                 .format(name=self.names[i]))

    def recover(self, s: int, i: int, d: Declaration) -> int:
        """Says only what the Recover changes: Rattled ends for someone Rattled,
        an Unconscious fighter wakes; otherwise only the hit point."""
        t = self.rules.recover(self, s, i, d)
        if t != i:
            text = _("{name} takes Recover on {target}: 1 hit point back, and they wake.")
        elif self.rattled[i]:
            text = _("{name} takes Recover: 1 hit point back, and Rattled ends.")
        else:
            text = _("{name} takes Recover: 1 hit point back.")
        self.say(s, "action", text.format(name=self.names[i], target=self.names[t]))
        return t

    def heal(self, s: int, i: int, t: int, d: Declaration) -> int:
        amount = self.rules.heal(self, s, i, t, d)
        self.say(s, "action", _("{name} uses {special} on {target}: up to {amount} hit points back, never above "
                                "their starting hit points.").format(name=self.names[i], special=d.special,
                                                                     target=d.target, amount=amount))
        return amount

    def ask_gm(self, s: int, i: int, d: Declaration) -> None:
        self.rules.ask_gm(self, s, i, d)
        text = (_("{name} uses {special} on {target}. GM adjudicates: the resolver changes nothing for it (if it "
                  "lands, {target} cannot Escape this round).") if d.target else
                _("{name} uses {special}. GM adjudicates: the resolver changes nothing for it."))
        self.say(s, "action", text.format(name=self.names[i], special=d.special, target=d.target))

    def leave_to_gm(self, s: int, i: int) -> None:
        self.rules.leave_to_gm(self, s, i)
        d = self.decl[i]
        assert d is not None             # only a declared special is left to the GM
        self.say(s, "action", _("{name} calls {special} with {action}. GM adjudicates: the resolver leaves this "
                                "whole action to the GM.").format(name=self.names[i], special=d.special,
                                                                  action=_(ACTION_NAMES[d.action])))

    def finds_nobody(self, s: int, i: int, what: str, t: int) -> None:
        """`what` is the special's name, or the Attack (its name translated by the resolver)."""
        self.say(s, "action", _("{name}'s {what} finds nobody: {target} is {status}.")
                 .format(name=self.names[i], what=what, target=self.names[t], status=self.status_word(t)))

    # --- an attack: one line, built while its hits resolve ---------------------------

    def strike(self, s: int, i: int, t: int, d: Declaration, base: int, amount: int, kind: str | None) -> int:
        words = (_("{name} attacks {target} with {special}") if d.special else _("{name} attacks {target}"))
        words = words.format(name=self.names[i], target=d.target, special=d.special)
        if self.cs[i].profile.chooses_slot:
            words = _("{attack} (chose the Speed {speed} slot)").format(attack=words, speed=s)
        total = f"{base} + {amount - base} = {amount}" if amount != base else f"{base} = {amount}"
        self.words = _("{attack}: Effect {total}").format(attack=words, total=total)
        dealt = self.rules.strike(self, s, i, t, d, base, amount, kind)
        self.say(s, "action", self.words + ".")
        return dealt

    def turn_attack(self, s: int, t: int, r: int, amount: int) -> None:
        self.words = _("{name} turns the unhurt attack onto {target}: {amount}").format(
            name=self.names[t], target=self.names[r], amount=amount)
        self.rules.turn_attack(self, s, t, r, amount)
        self.say(s, "action", self.words + ".")

    def hit(self, t: int, amount: int, pierce: bool) -> int:
        self.soaked = 0
        dealt = self.rules.hit(self, t, amount, pierce)
        name = self.names[t]
        if pierce:
            self.words = _("{attack} (no armour or defence counts)").format(attack=self.words)
        elif amount - self.soaked > dealt:
            armour, defence = self.cs[t].profile.armour, self.self_def[t]
            by = [w for w in (_("armour {amount}").format(amount=armour) if armour else "",
                              _("Defend Self {amount}").format(amount=defence) if defence else "") if w]
            self.words = clause(self.words, ngettext("{name}'s {by} stops {amount}", "{name}'s {by} stop {amount}",
                                                     len(by)).format(name=name, by=and_list(by),
                                                                     amount=amount - self.soaked - dealt))
        self.words = clause(self.words, _("{name} loses {amount}").format(name=name, amount=dealt))
        return dealt

    def defender_takes(self, g: int, soaked: int) -> None:
        before = self.loss.get(g, 0)
        self.rules.defender_takes(self, g, soaked)
        self.soaked += soaked
        stopped = soaked - (self.loss.get(g, 0) - before)
        text = (_("{name} takes {amount} of it (armour stops {stopped})") if self.cs[g].profile.armour else
                _("{name} takes {amount} of it"))
        self.words = clause(self.words, text.format(name=self.names[g], amount=soaked, stopped=stopped))

    def rattles(self, t: int, special: str) -> None:
        self.rules.rattles(self, t, special)
        self.words = clause(self.words, _("{special}: {name} will be Rattled").format(special=special,
                                                                                     name=self.names[t]))

    def killing_blow(self, i: int, t: int, finish: str) -> None:
        self.rules.killing_blow(self, i, t, finish)
        text = _("{name} calls a killing blow: kill") if finish == "kill" else \
            _("{name} calls a killing blow: knock out")
        self.words = clause(self.words, text.format(name=self.names[i]))

    def blow_refused(self, t: int, finish: str) -> None:
        if finish == "kill" and self.rattled[t]:
            self.words = clause(self.words, _("no kill: {name} is Rattled but not on 0 hit points (a knock-out was "
                                              "possible)").format(name=self.names[t]))
