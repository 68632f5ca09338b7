"""One attack with everything applied: who rolls what against which target,
the chance it lands and the damage it does on average.

Core layer: joins the loaded tables (models) to the pure rules and odds.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .models import Combatant, Defence, MatrixEntry, ModesFile, Weapon
from .odds import DamagePlan, Outcome, attack_outcome
from .rules import (Adjustments, attack_pool, cover_adjustment, defence_total, exact, per_die_reduction,
                    raw_attack_dice, target_number)


@dataclass(frozen=True)
class Options:
    """The situation of one attack, as the GM rules it."""

    cover: str = "partial"
    active_cover: bool = False
    pulling_punches: bool = False
    kill_shot: bool = False
    disarm: bool = False
    sixes: int = 0            # sixes required for range and circumstances
    defence_penalty: int = 0  # e.g. 2 per earlier attack on the defender this round


def entry(modes: ModesFile, attack: str, defence: str) -> MatrixEntry:
    return next(e for e in modes.matrix if e.attack == attack and e.defence == defence)


def adjustments(modes: ModesFile, base: Fraction, attack: str, defence: str, options: Options) -> Adjustments:
    cell = entry(modes, attack, defence)
    mode_a = cell.disarm_a if options.disarm and cell.disarm_a is not None else cell.a
    cover = next(c for c in modes.cover if c.level == options.cover)
    return Adjustments(
        base=exact(base), mode=exact(mode_a),
        cover=cover_adjustment(cover.a, options.active_cover, modes.active_cover.a, modes.active_cover.max_a),
        pulling_punches=exact(modes.pulling_punches.a) if options.pulling_punches else Fraction(0),
        kill_shot=exact(modes.kill_shot.a) if options.kill_shot else Fraction(0))


def base_damage_dice(attacker: Combatant, weapon: Weapon) -> int:
    if weapon.dice is not None:
        return weapon.dice
    return raw_attack_dice(attacker.stats[weapon.stat], attacker.purposes[weapon.purpose])


def damage_plan(modes: ModesFile, attacker: Combatant, weapon: Weapon, defence: str, options: Options) -> DamagePlan:
    cell = entry(modes, weapon.mode, defence)
    pp, ks = modes.pulling_punches, modes.kill_shot
    extra_a = (modes.improvised.extra_colour_a_dice if weapon.improvised else 0)
    extra_a += pp.extra_colour_a_dice if options.pulling_punches else 0
    return DamagePlan(
        base_dice=base_damage_dice(attacker, weapon),
        adjustment=(cell.damage.dice, cell.damage.per),
        sixes_per_die=pp.excess_sixes_per_die if options.pulling_punches else 1,
        extra_colour_a=extra_a,
        colour_b_multiplier=ks.colour_b_multiplier if options.kill_shot else 1,
        divisor=pp.damage_divisor if options.pulling_punches else 1)


@dataclass(frozen=True)
class Matchup:
    attacker: Combatant
    weapon: Weapon
    defender: Combatant
    defence: Defence
    pool: int
    defence_total: int
    adjustments: Adjustments
    target: Fraction
    plan: DamagePlan
    outcome: Outcome


def matchup(modes: ModesFile, base: Fraction, attacker: Combatant, weapon: Weapon, defender: Combatant,
            defence: Defence, options: Options = Options()) -> Matchup:
    pool = attack_pool(attacker.stats[weapon.stat], attacker.purposes[weapon.purpose],
                       attacker.skills.get(weapon.skill, 0) if weapon.skill else 0,
                       enhancement=weapon.enhancement)
    total = defence_total(defender.stats[defence.stat], defender.purposes[defence.purpose],
                          defender.skills.get(defence.skill, 0) if defence.skill else 0, options.defence_penalty)
    adj = adjustments(modes, base, weapon.mode, defence.mode, options)
    target = target_number(total, adj.a, options.sixes)
    plan = damage_plan(modes, attacker, weapon, defence.mode, options)
    reduction = per_die_reduction(defender.armour, defender.shield, weapon.enhancement)
    return Matchup(attacker, weapon, defender, defence, pool, total, adj, target, plan,
                   attack_outcome(pool, target, adj.a, plan, reduction))
