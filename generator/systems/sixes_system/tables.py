"""The derived tables the printables and pages show, computed once, exact.

Core layer: pure functions over the loaded campaign, the rules and the odds.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from .combat import Matchup, Options, matchup
from .dataset import Campaign
from .models import ATTACK_MODES, BASE_SETTINGS, DEFENCE_MODES, MatrixEntry
from .odds import chance_at_least, chance_of_sixes, expected_per_die
from .rules import SIDES, damage_pool, die_damage, exact, roll_needed, target_number

ODDS_POOLS = range(1, 21)
ODDS_SIXES = range(0, 5)
DAMAGE_REDUCTIONS = range(0, 6)
DAMAGE_DICE = range(1, 11)
ADJUSTED_POOLS = range(1, 11)


@dataclass(frozen=True)
class OddsCell:
    target: Fraction
    needed: int
    chance: Fraction


@dataclass(frozen=True)
class OddsTable:
    setting: str
    a: Fraction
    rows: tuple[tuple[int, tuple[OddsCell, ...]], ...]   # (pool, one cell per sixes required)

    @property
    def points(self) -> list[list[tuple[int, Fraction]]]:
        """For charts: per sixes required, (pool, chance) in pool order."""
        return [[(pool, cells[i].chance) for pool, cells in self.rows] for i in range(len(ODDS_SIXES))]


def odds_tables(campaign: Campaign) -> list[OddsTable]:
    """An even match: a pool of N dice against a defence total of N, at each
    base A of the campaign and 0-4 sixes required."""
    tables = []
    for setting in sorted(BASE_SETTINGS, key=lambda s: exact(campaign.info.base_a[s])):
        a = exact(campaign.info.base_a[setting])
        rows = []
        for pool in ODDS_POOLS:
            cells = []
            for sixes in ODDS_SIXES:
                target = target_number(pool, a, sixes)
                cells.append(OddsCell(target, roll_needed(target), chance_at_least(pool, target)))
            rows.append((pool, tuple(cells)))
        tables.append(OddsTable(setting, a, tuple(rows)))
    return tables


def matrix_grid(campaign: Campaign) -> list[tuple[str, list[MatrixEntry]]]:
    """Rows of attack modes, each with its four defence-mode entries in order."""
    cells: dict[tuple[str, str], MatrixEntry] = {(e.attack, e.defence): e for e in campaign.modes.matrix}
    return [(attack, [cells[(attack, defence)] for defence in DEFENCE_MODES]) for attack in ATTACK_MODES]


def by_damage(campaign: Campaign) -> list[MatrixEntry]:
    """The sixteen pairings from most to least damaging, then by A adjustment."""
    return sorted(campaign.modes.matrix,
                  key=lambda e: (-Fraction(e.damage.dice, e.damage.per), -exact(e.a)))


def per_die_table() -> list[tuple[int, list[int], Fraction]]:
    """For each reduction per die: what faces 1-6 do, and the average per die."""
    return [(r, [die_damage(face, r) for face in range(1, SIDES + 1)], expected_per_die(r))
            for r in DAMAGE_REDUCTIONS]


def expected_by_dice() -> list[tuple[int, list[Fraction]]]:
    return [(n, [n * expected_per_die(r) for r in DAMAGE_REDUCTIONS]) for n in DAMAGE_DICE]


def adjusted_pools(campaign: Campaign) -> list[tuple[tuple[int, int], list[int]]]:
    """Each distinct damage adjustment: the pool it turns 1-10 dice into."""
    seen = sorted({(e.damage.dice, e.damage.per) for e in campaign.modes.matrix},
                  key=lambda d: -Fraction(d[0], d[1]))
    return [(adj, [damage_pool(n, 0, adj) for n in ADJUSTED_POOLS]) for adj in seen]


def cast_matchups(campaign: Campaign, options: Options = Options()) -> list[Matchup]:
    """Every combatant's every weapon against every other combatant's defences."""
    return list(each_matchup(campaign, options))


def each_matchup(campaign: Campaign, options: Options = Options()) -> Iterator[Matchup]:
    """cast_matchups one at a time, worked out as they are asked for: the
    matrix card's example wants the first alone, and the whole list grows
    with the square of the cast (160 combatants: 25,000 matchups, a minute)."""
    base = exact(campaign.info.base_a[campaign.info.setting])
    for attacker in campaign.cast:
        for defender in campaign.cast:
            if attacker is defender:
                continue
            for weapon in attacker.combatant.weapons:
                for defence in defender.combatant.defences:
                    yield matchup(campaign.modes, base, attacker.combatant, weapon, defender.combatant, defence,
                                  options)


SURVIVAL_POOLS = (6, 8, 10, 12)
SURVIVAL_NEEDS = range(1, 9)


def survival_odds() -> list[tuple[int, list[Fraction]]]:
    """Chance of at least k natural sixes (rows) from a survival pool (columns)."""
    return [(k, [chance_of_sixes(n, k) for n in SURVIVAL_POOLS]) for k in SURVIVAL_NEEDS]
