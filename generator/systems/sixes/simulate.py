"""Play whole Sixes fights with simple declaration policies, many times.

Core layer: standard library and this package only. Every fight is played
round by round through the resolver, so the figures follow the same rules
(and rulings) as a resolved round. Results are exact counts; a seed makes a
run reproducible: the same seed, data and options give identical numbers.

The policies are deliberately simple and documented in POLICY_NOTES; they
never use a special the GM adjudicates, and a bonus that only the GM can
judge (beside an ally) is never counted (CONDITIONS_NOTE). Each policy also
answers the GM's question between rounds, whether to keep fighting: a fight
ends when nobody wants to (ENDINGS_NOTE, ruling fight-ends). They see the
fight through round_view (foes, allies, the weakest), worked out once per
round and shared by every fighter, so a brawl of hundreds stays cheap.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, wraps
from typing import Callable, Mapping, Sequence

from ...core.i18n import N_, _
from .models import CONDITION_WORDS, CONDITIONS, GM_CONDITIONS, Character, Special
from .resolver import Combatant, Declaration, SlotWatcher, finishable, fresh, resolve_round
from .round_view import RoundView, round_view

STATUS_WORDS = ("Rattled", "Unconscious", "Dead", "Escaped")
DEFAULT_FIGHTS = 1000
DEFAULT_MAX_ROUNDS = 20

# The shapes a policy works with: the fighters as they stand and each one's
# side, both tuples in roster order (the round view is cached on them).
Fight = tuple[Combatant, ...]
Sides = tuple[int, ...]
# A policy's two questions: what do you declare this round, do you fight on?
Declare = Callable[[random.Random, Fight, Sides, int], "Declaration | None"]
GoesOn = Callable[[Fight, Sides, int], bool]
# What a policy decides once the frame (_policy) has ruled out the Rattled and the fight with no foe.
Choose = Callable[[random.Random, Fight, Sides, int, Combatant, RoundView, int], Declaration]


@dataclass(frozen=True)
class Side:
    name: str
    members: tuple[Character, ...]


# Declarations are immutable values and the same ones come up round after
# round (a fighter attacking the same weakest foe at the same Speed), so the
# policies share them: building a frozen dataclass costs more than choosing.
# Untyped keys are safe: the policies pass only names, action words, None and int Speeds.
_declare = lru_cache(maxsize=1 << 14)(Declaration)


def _one_of_weakest(rng: random.Random, view: RoundView, k: int) -> Combatant:
    """A random pick among the three foes with fewest hit points: fighters
    gang up on the hurt, but not all on the same one."""
    return rng.choice(view.weakest_foes(k, 3))


def _called(me: Combatant, kind: str) -> str | None:
    """A called special of this kind with a use left, if the fighter has one."""
    for name in me.profile.by_effect.get(kind, ()):
        if me.uses.get(name, 1) >= 1:
            return name
    return None


def _finishing_speed(me: Combatant, target: Combatant) -> int | None:
    """The fastest Speed whose Attack still gets a point through the armour."""
    needed = target.profile.armour + 1 - me.profile.attack_plus
    speed = 6 - max(needed, 1)
    return speed if speed >= 1 else None


def _attack(me: Combatant, target: Combatant, speed: int, finish: str | None) -> Declaration:
    """An Attack calling any attack special, and the killing blow only when
    the target is open to it (see resolver.finishable)."""
    special = _called(me, "rattle_on_damage") or _called(me, "ignore_defences")
    return _declare(me.name, "attack", speed, target.name, special,
                    finish if finish is not None and finishable(target.rattled, target.hp, finish) else None)


def _policy(*when_rattled: str) -> Callable[[Choose], Declare]:
    """The frame of every policy: a Rattled fighter may only Escape or
    Recover, at Speed 1 (`when_rattled` names which; given both, an even
    draw), and a fighter with no foe left able to act declares nothing.
    The decorated function chooses the rest, given the fighter (`me`), the
    round's view and their side (`k`); the policy is still called
    `policy(rng, fight, side, i)`; what it does is its Policy's note."""
    def frame(choose: Choose) -> Declare:
        @wraps(choose)
        def declare(rng: random.Random, fight: Fight, side: Sides, i: int) -> Declaration | None:
            me = fight[i]
            if me.rattled:
                return _declare(me.name, rng.choice(when_rattled) if len(when_rattled) > 1 else when_rattled[0], 1)
            view, k = round_view(fight, side), side[i]
            if not view.foe_count(k):
                return None
            return choose(rng, fight, side, i, me, view, k)
        return declare
    return frame


@_policy("recover")
def aggressive(rng: random.Random, fight: Fight, side: Sides, i: int, me: Combatant, view: RoundView,
               k: int) -> Declaration:
    """The aggressive policy: its words are the note in POLICIES."""
    down = view.weakest_downed_foe(k)
    if down is not None and rng.random() < 0.5:
        speed = _finishing_speed(me, down)
        if speed is not None:
            return _attack(me, down, speed, "kill")
    return _attack(me, _one_of_weakest(rng, view, k), rng.randint(1, 3), "kill")


def aggressive_goes_on(fight: Fight, side: Sides, i: int) -> bool:
    """The aggressive policy's answer: its words are the note in POLICIES."""
    return round_view(fight, side).foe_count(side[i]) > 0


def _healing(me: Combatant, view: RoundView, k: int) -> tuple[str, Combatant] | None:
    """The heal special this cautious fighter would use now and on whom, or None."""
    heal = _called(me, "heal")
    if heal is None:
        return None
    hurt = view.weakest_hurt_ally(k)
    return None if hurt is None else (heal, hurt)


def _guards(fight: Fight, side: Sides, view: RoundView, k: int) -> dict[int, int]:
    """Cautious guard duty on side k: guard position -> ally position. Each
    Rattled ally able to act (so escaping) gets one guard, taken in roster
    order from the side's fighters on their feet above half hit points who
    are not busy healing; a side with nobody to fear guards nobody."""
    if not view.foe_standing(k):
        return {}
    escaping = view.rattled_allies(k)
    if not escaping:
        return {}
    free = [j for j in view.acting_index if side[j] == k and not fight[j].rattled
            and 2 * fight[j].hp > fight[j].profile.hit_points and _healing(fight[j], view, k) is None]
    return dict(zip(free, escaping, strict=False))  # more guards than escapers, or fewer: both happen


@_policy("escape")
def cautious(rng: random.Random, fight: Fight, side: Sides, i: int, me: Combatant, view: RoundView,
             k: int) -> Declaration:
    """The cautious policy: its words are the note in POLICIES."""
    healing = _healing(me, view, k)
    if healing is not None:
        heal, hurt = healing
        return _declare(me.name, "special", 3, hurt.name, heal)
    if 2 * me.hp <= me.profile.hit_points:
        return _declare(me.name, "escape", 5)
    guarded = view.remember(("cautious guards", k), lambda: _guards(fight, side, view, k)).get(i)
    if guarded is not None:
        return _declare(me.name, "defend_other", 4, fight[guarded].name)
    return _attack(me, _one_of_weakest(rng, view, k), rng.randint(3, 4), "knock_out")


def cautious_goes_on(fight: Fight, side: Sides, i: int) -> bool:
    """The cautious policy's answer: its words are the note in POLICIES."""
    me = fight[i]
    return (not me.rattled and 2 * me.hp > me.profile.hit_points
            and round_view(fight, side).foe_standing(side[i]))


# The random policy's actions, weighted by repetition, by (has an ally able
# to act, has a heal special): Defend Other needs an ally, Special a heal.
_RANDOM_ACTIONS = {(allies, heal): ("attack",) * 4 + ("defend_self", "defend_self", "recover", "recover", "escape")
                   + (("defend_other", "defend_other") if allies else ()) + (("special", "special") if heal else ())
                   for allies in (False, True) for heal in (False, True)}


@_policy("escape", "recover")
def random_policy(rng: random.Random, fight: Fight, side: Sides, i: int, me: Combatant, view: RoundView,
                  k: int) -> Declaration:
    """The random policy: its words are the note in POLICIES."""
    speed = rng.randint(1, 5)
    heal = _called(me, "heal")
    action = rng.choice(_RANDOM_ACTIONS[view.ally_count(i) > 0, heal is not None])
    if action == "attack":
        target = rng.choice(view.foes(k))
        special = _called(me, "rattle_on_damage") or _called(me, "ignore_defences")
        return _declare(me.name, "attack", speed, target.name, special if rng.random() < 0.5 else None,
                        rng.choice((None, "kill", "knock_out")))
    if action == "defend_other":
        return _declare(me.name, "defend_other", speed, rng.choice(view.allies_acting(i)).name)
    if action == "defend_self":
        redirect = rng.choice(view.foes(k)).name if me.profile.redirects else None
        return _declare(me.name, "defend_self", speed, None, _called(me, "double_defend_self"), None, redirect)
    if action == "special":
        return _declare(me.name, "special", speed, rng.choice(view.allies_acting(i) + [me]).name, heal)
    return _declare(me.name, action, speed)


def on_feet_goes_on(fight: Fight, side: Sides, i: int) -> bool:
    """Wants another round while on their feet with a foe still able to act."""
    return not fight[i].rattled and round_view(fight, side).foe_count(side[i]) > 0


@dataclass(frozen=True)
class Policy:
    """How a simulated fighter plays: `declare` picks this round's action,
    `goes_on` answers the GM's question at the end of each round (and before
    the first): do you want to keep fighting? Called like `declare`, so a
    policy is still `policy(rng, fight, side, i)`."""

    name: str
    declare: Declare
    goes_on: GoesOn
    note: str = ""     # what it does, in words for the report and the site (a message: N_)

    def __call__(self, rng: random.Random, fight: Fight, side: Sides, i: int) -> Declaration | None:
        return self.declare(rng, fight, side, i)



POLICIES: Mapping[str, Policy] = {p.name: p for p in (
    Policy(N_("aggressive"), aggressive, aggressive_goes_on,
           N_(
           "Rattled: Recover at Speed 1. Otherwise, half the time when a foe is Rattled at 0, finish them (a "
           "kill, at the fastest Speed that gets a point through); else Attack one of the three foes with fewest "
           "hit points at Speed 1, 2 or 3, calling any attack special, and kill whoever can be killed. Wants "
           "another round while any foe can still act, Rattled or not: a Rattled foe is one to finish.")),
    Policy(N_("cautious"), cautious, cautious_goes_on,
           N_(
           "Rattled: Escape at Speed 1. Otherwise, in this order: Heal the most hurt ally below half hit points "
           "if able (not one who is Rattled and so escaping); at half hit points or less, Escape at Speed 5, "
           "before most blows land; guard a Rattled ally with Defend Other at Speed 4, one guard for each "
           "Rattled ally (the first free fighters of the side, in roster order); otherwise Attack one of the "
           "three foes with fewest hit points at Speed 3 or 4, and knock out a Rattled one, never kill. Wants "
           "another round only while on their feet above half hit points, with a foe on their feet too: never to "
           "chase a Rattled foe.")),
    Policy(N_("random"), random_policy, on_feet_goes_on,
           N_(
           "Rattled: Escape or Recover at Speed 1, evenly. Otherwise any action at any Speed on any sensible "
           "target: Attack four times as likely as Escape, each Defend and Recover twice as likely, and a random "
           "killing-blow call. Wants another round while on their feet with a foe still able to act.")),
)}
POLICY_NOTES: Mapping[str, str] = {name: p.note for name, p in POLICIES.items()}
# How the fights read conditional specials: the report and the site print it
# (`conditions_note()`, in the run's language).
_CONDITIONS_NOTE = N_(
    "A special's bonus that counts only sometimes is applied when its condition holds as the slot begins "
    "({counted}), and never when only the GM can judge it ({judged}): the simulation does not know where anyone "
    "stands, so those holders' figures are a floor.")
ENDINGS_NOTE = N_(
    "As the source has it, after each round the GM asks who wants to keep fighting, and the fight goes on while "
    "anyone able to act says yes (each policy's answer is given below). When it ends, the winner is the one side "
    "that still has someone on their feet (not Rattled, Unconscious, Dead or gone). There is no winner when two "
    "or more sides still stand but nobody wants to go on (a stand-off), or when nobody is left standing.")


def _either(words: Sequence[str]) -> str:
    """Condition words joined as alternatives: "a or b or c", in the run's language."""
    text = _(words[0])
    for word in words[1:]:
        text = _("{first} or {second}").format(first=text, second=_(word))
    return text


def conditions_note() -> str:
    """How the fights read conditional specials, in the run's language."""
    counted = [CONDITION_WORDS[c] for c in CONDITIONS if c not in GM_CONDITIONS]
    judged = [CONDITION_WORDS[c] for c in sorted(GM_CONDITIONS)]
    return _(_CONDITIONS_NOTE).format(counted=_either(counted), judged=_either(judged))


# The note in English, as the tests and the README quote it.
CONDITIONS_NOTE = conditions_note()


@dataclass(frozen=True)
class Outcome:
    rounds: int
    winner: int | None          # index of the winning side; None for no winner
    fighters: tuple[Combatant, ...]
    cut_off: bool = False       # stopped by the round limit while someone still wanted to fight


def standing_sides(fight: Sequence[Combatant], side: Sequence[int]) -> set[int]:
    """Sides with someone still on their feet: not Rattled, Unconscious, Dead
    or gone. When the fight ends, a lone side on its feet has won."""
    return {side[j] for j, c in enumerate(fight) if c.can_act and not c.rattled}


def play(fighters: Sequence[Combatant], side: Sequence[int], policy: Declare | Sequence[Declare],
         rng: random.Random, max_rounds: int = DEFAULT_MAX_ROUNDS,
         history: list[Fight] | None = None, on_slot: SlotWatcher | None = None) -> Outcome:
    """One fight. Before each round the GM asks who wants to fight on (step 4
    of the fight structure, asked before the first round too): the fight ends
    when nobody able to act does, or after `max_rounds`. `policy` is one for
    everyone or one per fighter; a plain function as a policy goes on like
    the random policy. `history`, when given, receives the fighters after
    each round; `on_slot` is passed to the resolver (called after every slot)."""
    fight, sides = tuple(fighters), tuple(side)     # tuples: the policies' round view is cached on them
    per_fighter = [policy] * len(fight) if callable(policy) else list(policy)
    asks = [getattr(p, "goes_on", on_feet_goes_on) for p in per_fighter]
    rounds, cut_off = 0, False
    while True:
        view = round_view(fight, sides)      # the policies' view of this round, built here once
        if not any(asks[i](fight, sides, i) for i in view.acting_index):
            break       # nobody wants to go on: the fight is over
        if rounds >= max_rounds:
            cut_off = True
            break
        declarations = []
        for i in view.acting_index:          # everyone able to act, in roster order
            d = per_fighter[i](rng, fight, sides, i)
            if d is not None:
                declarations.append(d)
        fight = resolve_round(fight, declarations, log=False, on_slot=on_slot).combatants
        rounds += 1
        if history is not None:
            history.append(fight)
    left = standing_sides(fight, sides)
    return Outcome(rounds, next(iter(left)) if len(left) == 1 else None, fight, cut_off)


def _share_of_fights(count: str) -> property:
    """A Summary's count (a field or property naming how many fights ended
    some way) as an exact share of all its fights."""
    return property(lambda summary: Fraction(getattr(summary, count), summary.fights),
                    doc=f"Share of the fights counted in `{count}`.")


@dataclass(frozen=True)
class Summary:
    """Many fights with one policy: exact counts and the rates they give."""

    policy: str
    sides: tuple[str, ...]
    names: tuple[str, ...]
    rounds: tuple[int, ...]                        # sorted, one per fight
    wins: tuple[int, ...]                          # per side
    no_winner: int                                 # stand-offs plus fights with nobody left standing
    statuses: Mapping[str, Mapping[str, int]]      # fighter -> status word -> fights ending so
    standoffs: int = 0                             # ended with two or more sides still on their feet
    cut_off: int = 0                               # stopped by the round limit, winner or not

    @property
    def nobody_standing(self) -> int:
        """Fights that ended with no side on its feet."""
        return self.no_winner - self.standoffs

    @property
    def fights(self) -> int:
        return len(self.rounds)

    @property
    def median_rounds(self) -> int:
        return percentile(self.rounds, Fraction(1, 2))

    @property
    def p90_rounds(self) -> int:
        return percentile(self.rounds, Fraction(9, 10))

    def win_rate(self, side: int) -> Fraction:
        return Fraction(self.wins[side], self.fights)

    no_winner_rate = _share_of_fights("no_winner")
    standoff_rate = _share_of_fights("standoffs")
    nobody_standing_rate = _share_of_fights("nobody_standing")
    cut_off_rate = _share_of_fights("cut_off")

    def status_rate(self, name: str, status: str) -> Fraction:
        return Fraction(self.statuses[name][status], self.fights)

    def settled_by(self, n: int) -> Fraction:
        """Share of fights over within `n` rounds."""
        return Fraction(sum(1 for r in self.rounds if r <= n), self.fights)

    def overall_status_rate(self, status: str) -> Fraction:
        """Share of all fighters, over all fights, who ended with this status."""
        return Fraction(sum(self.statuses[n][status] for n in self.names), self.fights * len(self.names))

    def rounds_share(self, n: int) -> Fraction:
        """Share of fights over after exactly `n` rounds."""
        return Fraction(self.rounds.count(n), self.fights)


def percentile(values: Sequence[int], q: Fraction) -> int:
    """Nearest-rank percentile of sorted values: the smallest value with at
    least a share q of the values at or below it."""
    if not values:
        raise ValueError("no values")
    rank = max(1, -(-q * len(values) // 1))
    return values[int(rank) - 1]


def roster(sides: Sequence[Side], library: Mapping[str, Special]) -> tuple[tuple[Combatant, ...], tuple[int, ...]]:
    fighters, side = [], []
    for k, s in enumerate(sides):
        for member in s.members:
            fighters.append(fresh(member, library))
            side.append(k)
    return tuple(fighters), tuple(side)


def simulate(sides: Sequence[Side], library: Mapping[str, Special], policy: str, *,
             fights: int = DEFAULT_FIGHTS, max_rounds: int = DEFAULT_MAX_ROUNDS, seed: int = 1,
             on_slot: SlotWatcher | None = None, progress: Callable[[int], None] | None = None) -> Summary:
    """Play `fights` fights in which everyone follows `policy` (`on_slot`:
    see resolve_round; the tests check every slot with it). `progress` is
    told the fights played so far every twentieth of the way: a million
    fights take minutes."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; one of {', '.join(POLICIES)}")
    rng = random.Random(f"sixes-simulate:{seed}:{policy}")
    fighters, side = roster(sides, library)
    names = tuple(c.name for c in fighters)
    rounds, wins, no_winner, standoffs, cut_off = [], [0] * len(sides), 0, 0, 0
    statuses = {name: dict.fromkeys(STATUS_WORDS, 0) for name in names}
    step = max(1, fights // 20)
    for played in range(fights):
        if progress is not None and played % step == 0:
            progress(played)
        outcome = play(fighters, side, POLICIES[policy], rng, max_rounds, on_slot=on_slot)
        rounds.append(outcome.rounds)
        cut_off += outcome.cut_off
        if outcome.winner is None:
            no_winner += 1
            standoffs += len(standing_sides(outcome.fighters, side)) > 1
        else:
            wins[outcome.winner] += 1
        for c in outcome.fighters:
            if c.status in STATUS_WORDS:
                statuses[c.name][c.status] += 1
    if progress is not None:
        progress(fights)
    return Summary(policy, tuple(s.name for s in sides), names, tuple(sorted(rounds)), tuple(wins), no_winner,
                   statuses, standoffs, cut_off)


def sides_by_faction(characters: Sequence[Character]) -> list[Side]:
    """Group fighters by faction; with only one faction, everyone for themself."""
    groups: dict[str, list[Character]] = {}
    for c in characters:
        groups.setdefault(c.faction or c.name, []).append(c)
    if len(groups) == 1:
        return [Side(c.name, (c,)) for c in characters]
    return [Side(name, tuple(members)) for name, members in groups.items()]
