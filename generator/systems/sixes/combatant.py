"""A Sixes fighter as the round resolver sees one: fixed figures and state between rounds.

Core layer: standard library and this package only. `Profile` is what a
character brings to every round, worked out once per fight; `Combatant` is
one fighter's state between rounds, a named tuple because the simulator
builds thousands a second. `invariant_faults` is the rules' bookkeeping
the tests hold after every slot.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, NamedTuple

from .models import Character, Special
from .rules import conditional_bonuses, effect_bonuses

LIMITED = ("once per combat", "once per game")


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
new_tuple = tuple.__new__       # builds a Combatant without the named tuple's Python-level __new__


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
    return new_tuple(Combatant, (profile, character.hit_points, False, False, False, False,
                                 MappingProxyType(uses) if uses else NO_USES))
