"""The healing tables the card and the site page show, computed once, exact.

Core layer: pure functions over the loaded campaign, healing.py and
healing_odds.py. Where a table needs a healer, it uses the source's own
paramedic (stat 8, purpose 3, a medical bag worth 2 dice, 3 ranks) or the
campaign's cast.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core.dice import expected
from ...core.i18n import _
from .dataset import Campaign
from .healing import (SKILL_NAMES, Allocation, Skill, Wounds, ceilings, daily_recovery, healing_dice, heal,
                      intervention_pool, rest_die, steps_for)
from .healing_odds import (CheckOdds, check_odds, coma_expected_hours, coma_point_within, expected_days,
                           expected_healing, goal_in_one, paramedic_reaches, recovered_within)
from .rules import exact

# The source's paramedic: 8 (stat) + 3 (purpose) + 2 (medical bag), 3 ranks.
SOURCE_BASE = 8 + 3 + 2
SOURCE_RANKS = 3
# The calm healing check of the example: A 3 and 3 sixes; resuscitation: A 3.5 and 4 sixes.
CALM_A, CALM_SIXES = Fraction(3), 3
RESCUE_A, RESCUE_SIXES = Fraction(7, 2), 4

REST_HOURS = (24, 20, 16, 12, 8)
LOST_POINTS = (3, 6, 9, 12)
WEEK = 7
COMA_DICE = range(1, 5)
COMA_HOURS = (1, 6, 12, 24)
RESCUE_POOLS = (8, 10, 12, 14, 16, 18, 20)
GOAL_POOLS = (4, 8, 12, 16, 20)


@dataclass(frozen=True)
class AllocationRow:
    """One way of splitting the ranks: the roll and what it heals on average."""

    to_healing: int
    odds: CheckOdds
    healing_dice: int
    expected: Fraction      # points healed per attempt, failures counting as none


def allocation_rows(base: int, ranks: int, a: Fraction, sixes: int, per_rank: int = 1) -> list[AllocationRow]:
    """Every split of `ranks` between the roll and the healing, from all on
    the roll to all on the healing."""
    rows = []
    for to_healing in range(ranks + 1):
        split = Allocation(ranks, to_healing)
        odds = check_odds(intervention_pool(base, split), a, sixes)
        dice = healing_dice(split, per_rank)
        rows.append(AllocationRow(to_healing, odds, dice, expected_healing(odds, dice)))
    return rows


def best_row(rows: list[AllocationRow]) -> AllocationRow:
    """The split that heals most on average (the fewest healing dice on a tie)."""
    return max(rows, key=lambda r: (r.expected, -r.to_healing))


@dataclass(frozen=True)
class HealerTool:
    member: str
    name: str
    skill: Skill
    ranks: int
    ceiling: int | None
    base: int              # stat + purpose + kit
    stat: str
    stat_value: int
    purpose: str
    purpose_value: int
    kit: int
    rows: tuple[AllocationRow, ...]

    @property
    def skill_name(self) -> str:
        return _(SKILL_NAMES[self.skill])

    @property
    def best(self) -> AllocationRow:
        return best_row(list(self.rows))


def campaign_a(campaign: Campaign) -> Fraction:
    return exact(campaign.info.base_a[campaign.info.setting])


def cast_healers(campaign: Campaign) -> list[HealerTool]:
    """Every healing tool of the cast, each split of its ranks at the
    campaign's base A and the usual sixes of healing.yaml."""
    a, sixes = campaign_a(campaign), campaign.healing.intervention.usual_sixes
    per_rank = campaign.healing.intervention.healing_dice_per_rank
    out = []
    for member in campaign.cast:
        c = member.combatant
        limits = ceilings({t.name: (t.skill, t.ranks) for t in c.healing}, campaign.rank_limits)
        for tool in c.healing:
            base = c.stats[tool.stat] + c.purposes[tool.purpose] + tool.kit
            out.append(HealerTool(c.name, tool.name, tool.skill, tool.ranks, limits[tool.name], base, tool.stat,
                                  c.stats[tool.stat], tool.purpose, c.purposes[tool.purpose], tool.kit,
                                  tuple(allocation_rows(base, tool.ranks, a, sixes, per_rank))))
    return out


def source_allocation() -> list[AllocationRow]:
    """The source's paramedic at a calm check (A 3, 3 sixes)."""
    return allocation_rows(SOURCE_BASE, SOURCE_RANKS, CALM_A, CALM_SIXES)


@dataclass(frozen=True)
class OrderStep:
    skill: Skill
    points: int
    before: Wounds
    after: Wounds
    unused: int


def order_examples() -> list[OrderStep]:
    """The same 13 points (the source's paramedic rolled 13 on 3d6) from each
    skill, on one patient: 4 temporary, 6 enduring and 5 purpose damage."""
    wounds = Wounds(temporary=4, enduring=6, persistent=5)
    out = []
    for skill in ("first-aid", "paramedic", "surgery"):
        after, unused = heal(wounds, 13, skill)
        out.append(OrderStep(skill, 13, wounds, after, unused))
    return out


# --- natural recovery ----------------------------------------------------------

@dataclass(frozen=True)
class Regime:
    """A way of spending the days: hours of rest and any support."""

    label: str
    hours: int
    multiplier: int = 1
    bonus: int = 0

    @property
    def die(self) -> int:
        return rest_die(self.hours)

    @property
    def daily(self) -> dict[int, Fraction]:
        return daily_recovery(self.hours, self.multiplier, self.bonus)

    @property
    def mean(self) -> Fraction:
        return expected(self.daily)

    @property
    def low(self) -> int:
        return min(self.daily)

    @property
    def high(self) -> int:
        return max(self.daily)

    def days(self, points: int) -> Fraction | None:
        return expected_days(points, self.daily)

    def within_week(self, points: int) -> Fraction:
        return recovered_within(points, WEEK, self.daily)


def rest_regimes() -> list[Regime]:
    return [Regime(_("Full bed rest") if h == 24 else _("{hours} hours a day").format(hours=h), h) for h in REST_HOURS]


def support_regimes(campaign: Campaign) -> list[Regime]:
    """Full bed rest with each support of healing.yaml."""
    return [Regime(s.name, 24, s.multiplier, s.bonus) for s in campaign.healing.supports]


# --- coma, critical condition, resuscitation, goals ------------------------------

def coma_table() -> list[tuple[int, list[Fraction], Fraction | None]]:
    """Per coma pool: the chance its point has healed within 1, 6, 12 and
    24 hours, and the average hours it takes."""
    return [(dice, [coma_point_within(dice, h) for h in COMA_HOURS], coma_expected_hours(dice)) for dice in COMA_DICE]


@dataclass(frozen=True)
class GradeRow:
    grade: int
    hours: int
    steps: int
    surgery: str
    paramedic: Fraction     # chance the source's paramedic gets there before a failure


def grade_rows(campaign: Campaign) -> list[GradeRow]:
    """The wound grades of healing.yaml, the steps each needs and the chance
    the source's paramedic (all 16 dice on the roll: nothing is healed while
    stabilising) gets there at the campaign's A and usual sixes."""
    odds = check_odds(SOURCE_BASE + SOURCE_RANKS, campaign_a(campaign), campaign.healing.intervention.usual_sixes)
    return [GradeRow(g.grade, g.stable_hours, steps_for(g.stable_hours), g.surgery,
                     paramedic_reaches(steps_for(g.stable_hours), odds))
            for g in sorted(campaign.healing.wound_grades, key=lambda g: g.grade)]


def rescue_table() -> list[tuple[int, CheckOdds, CheckOdds]]:
    """Resuscitation rolls at the example's A 3.5 and 4 sixes, without and
    with a defibrillator."""
    return [(n, check_odds(n, RESCUE_A, RESCUE_SIXES), check_odds(n, RESCUE_A, RESCUE_SIXES, defibrillator=True))
            for n in RESCUE_POOLS]


def goal_table(campaign: Campaign) -> list[tuple[int, Fraction, list[Fraction]]]:
    """An even match (N dice against a defence of N, no sixes required, the
    campaign's A): the chance an attack lands, and that it lands with the
    extra sixes of a grade 1-4 goal."""
    a = campaign_a(campaign)
    rows = []
    for n in GOAL_POOLS:
        odds = check_odds(n, a, 0)
        rows.append((n, odds.success, [goal_in_one(odds, grade) for grade in range(1, 5)]))
    return rows

