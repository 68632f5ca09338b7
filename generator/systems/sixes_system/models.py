"""The Sixes System data files as typed models: what a valid file holds, and
the JSON Schema editors use.

Core layer: imports pydantic and the project's validation base only. Numbers
such as A adjustments are written as decimals in YAML (0.25, 2.75); the rules
turn them into exact fractions (rules.exact), so no float reaches the odds.
"""
from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field, StringConstraints, field_validator, model_validator

from ...core.privacy import GM_ONLY, Visibility, gm_notes_field, visibility_field
from ...core.validation import DataModel, needs_every

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]
# A decimal the source writes in quarters (0.25, 0.5, 2.75); validators check the quarter.
Decimal = int | float

AttackMode = Literal["force", "resistance", "maneuver", "finesse"]
DefenceMode = Literal["force", "resistance", "dodge", "finesse"]
Purpose = Literal["attack", "explain", "defend", "analyze"]
CoverLevel = Literal["none", "partial", "substantial", "total"]
BaseSetting = Literal["standard", "gentler", "grittier"]
# The three medical skills, mildest first (they treat temporary, enduring
# and persistent damage); a spell or device names the one it counts as.
MedicalSkill = Literal["first-aid", "paramedic", "surgery"]
ATTACK_MODES: tuple[AttackMode, ...] = get_args(AttackMode)
DEFENCE_MODES: tuple[DefenceMode, ...] = get_args(DefenceMode)
PURPOSES: tuple[str, ...] = get_args(Purpose)
COVER_LEVELS: tuple[str, ...] = get_args(CoverLevel)
MEDICAL_SKILLS: tuple[str, ...] = get_args(MedicalSkill)
BASE_SETTINGS: tuple[BaseSetting, ...] = get_args(BaseSetting)


def _quarters(value: Decimal) -> Decimal:
    if (value * 4) != int(value * 4):
        raise ValueError(f"found {value}; A values come in quarters (e.g. 0.25, 0.5, 2.75)")
    return value


Quarter = Annotated[Decimal, Field(ge=-3, le=3), AfterValidator(_quarters)]


class GameInfo(DataModel):
    """game.yaml: the campaign's title, pitch and how hard hitting is (base A)."""

    title: Text = Field(description="The campaign's title, printed on every document.")
    blurb: Text = Field(description="A public pitch, one paragraph.")
    base_a: Annotated[dict[BaseSetting, Annotated[Decimal, Field(gt=1, lt=6)]],
                      needs_every("every setting needs a base A", BASE_SETTINGS)] = Field(
        description="The base A of each setting: standard 3, gentler 3.5, grittier 2.75 in the source.",
        json_schema_extra={"required": list(BASE_SETTINGS)})
    setting: BaseSetting = Field(default="standard", description="Which base A this campaign uses.")
    gm_notes: str = Field(default="", json_schema_extra=GM_ONLY,
                          description="GM-only notes: never on the site or public PDFs.")

    @field_validator("base_a")
    @classmethod
    def _in_quarters(cls, base: dict[str, Decimal]) -> dict[str, Decimal]:
        for value in base.values():
            _quarters(value)
        return base


class DamageAdjustment(DataModel):
    """Extra damage dice per whole group of dice: `+2 per 3` adds two dice for
    every three already in the pool (negative numbers remove dice)."""

    dice: int = Field(ge=-3, le=3, description="Dice added (or removed, if negative) per group.")
    per: int = Field(default=1, ge=1, le=6, description="How many pool dice make one group.")


class MatrixEntry(DataModel):
    """One attack mode against one defence mode."""

    attack: AttackMode
    defence: DefenceMode
    a: Quarter = Field(description="Added to A (the required average per die).")
    disarm_a: Quarter | None = Field(default=None, description="A different A adjustment for a disarm attempt.")
    damage: DamageAdjustment


class Cover(DataModel):
    level: CoverLevel
    a: Quarter = Field(description="Added to A when the defender has this cover.")
    note: Text = Field(description="What this cover is. At most 12 lines of the GM matrix card: about 60 words.")


class ActiveCover(DataModel):
    """Cover the defender can move behind unseen: a further step, up to a cap."""

    a: Quarter
    max_a: Quarter = Field(description="The most cover (with the active step) may add to A.")
    note: Text = Field(description="How active cover works. At most 12 lines of the GM matrix card: about 60 words.")


class PullingPunches(DataModel):
    a: Quarter = Field(description="Added to A when the attacker holds back.")
    excess_sixes_per_die: int = Field(ge=1, le=6, description="Excess sixes needed per extra damage die.")
    extra_colour_a_dice: int = Field(ge=0, le=6)
    damage_divisor: int = Field(ge=1, le=6, description="The damage total is divided by this (rounded down).")


class KillShot(DataModel):
    a: Quarter
    colour_b_multiplier: int = Field(ge=1, le=6)
    defence_penalty: int = Field(ge=0, le=20, description="Taken off the attacker's defence next round.")


class Improvised(DataModel):
    mode: AttackMode
    extra_colour_a_dice: int = Field(ge=0, le=6)


class ModesFile(DataModel):
    """modes.yaml: the attack-by-defence matrix, cover, and the voluntary adjustments."""

    matrix: list[MatrixEntry] = Field(min_length=1)
    cover: list[Cover] = Field(min_length=1)
    active_cover: ActiveCover
    pulling_punches: PullingPunches
    kill_shot: KillShot
    improvised: Improvised


class Weapon(DataModel):
    """An attack a combatant can make; without `dice` it is a raw attack."""

    name: Text
    mode: AttackMode
    stat: Text = Field(description="The stat the attack rolls (a name from the combatant's stats).")
    purpose: Purpose = Field(default="attack")
    skill: str | None = Field(default=None, description="A name from the combatant's skills, if any applies.")
    dice: int | None = Field(default=None, ge=0, le=20,
                             description="Damage dice; leave out for a raw attack ((stat + purpose) / 5).")
    enhancement: int = Field(default=0, ge=0, le=5, description="+1 attack die and -1 armour per die for each point.")
    improvised: bool = Field(default=False, description="Adds one colour A die; improvised weapons are Finesse.")


class Defence(DataModel):
    mode: DefenceMode
    stat: Text
    purpose: Purpose = Field(default="defend")
    skill: str | None = None


class HealingTool(DataModel):
    """One way a combatant heals: a medical skill, or a spell or device that
    counts as one (the source's Cure Light Wounds counts as First Aid)."""

    name: Text
    skill: MedicalSkill = Field(description="The medical skill it counts as: first-aid, paramedic or surgery.")
    ranks: int = Field(ge=0, le=10, description="Paramedic at most First Aid - 1; Surgery at most Paramedic - 2.")
    stat: Text = Field(description="The stat rolled with it (a name from the combatant's stats).")
    purpose: Purpose = Field(default="defend", description="The purpose rolled with it.")
    kit: int = Field(default=0, ge=0, le=10, description="Dice from equipment, such as a medical bag.")


class Combatant(DataModel):
    """combatants/<name>.yaml: one combatant of the cast."""

    name: Text
    description: Text = Field(description="Public: what anyone at the table knows.")
    stats: dict[str, Annotated[int, Field(ge=0, le=30)]] = Field(min_length=1)
    purposes: Annotated[dict[Purpose, Annotated[int, Field(ge=-10, le=20)]],
                        needs_every("every purpose needs a value", PURPOSES)] = Field(
        json_schema_extra={"required": list(PURPOSES)})
    skills: dict[str, Annotated[int, Field(ge=0, le=10)]] = Field(default_factory=dict)
    weapons: list[Weapon] = Field(min_length=1)
    defences: list[Defence] = Field(min_length=1)
    armour: int = Field(default=0, ge=0, le=5, description="Taken off every damage die.")
    shield: int = Field(default=0, ge=0, le=5, description="Taken off every colour B damage die.")
    healing: list[HealingTool] = Field(default_factory=list,
                                       description="Medical skills, spells and devices this combatant heals with.")
    visibility: Visibility = visibility_field(
        "public", "combatant", "A private combatant is left off the site and the public cards.")
    gm_notes: str = gm_notes_field("combatant")


class RankLimitsData(DataModel):
    """How far each medical skill stays below the one it builds on."""

    paramedic_below_first_aid: int = Field(ge=0, le=5, description="1 in the source.")
    surgery_below_paramedic: int = Field(ge=0, le=5, description="2 in the source.")


class Intervention(DataModel):
    healing_dice_per_rank: int = Field(ge=1, le=3, description="d6 healed per rank set aside: 1 in the source.")
    critical_failure_dice: int = Field(ge=0, le=6, description="d6 of damage a critical failure does: 2.")
    usual_sixes: int = Field(ge=0, le=6, description="Sixes the GM usually asks of a calm healing check; "
                             "the tables use it (3 in the source's example).")


class SupportEntry(DataModel):
    """Help with natural recovery: it multiplies the day's roll or adds to it."""

    name: Text
    multiplier: int = Field(default=1, ge=1, le=6, description="Nursing 2, a regeneration tank 3, a rank-4 spell 4.")
    bonus: int = Field(default=0, ge=0, le=3, description="Medication: +1 to +3 by the drug and the doctor.")
    note: Text

    @model_validator(mode="after")
    def _one_effect(self) -> "SupportEntry":
        if (self.multiplier > 1) == (self.bonus > 0):
            raise ValueError("a support either multiplies (multiplier: 2 or more) or adds (bonus: 1 to 3), "
                             "not both and not neither")
        return self


class WoundGrade(DataModel):
    """How serious a wound is (1-4) and how long a patient must go without
    losing a purpose point before the surgery."""

    grade: int = Field(ge=1, le=4)
    stable_hours: int = Field(ge=1, le=24, description="Rule of thumb: 3, 6, 12 and 18 hours.")
    surgery: Text = Field(description="What surgery of this grade looks like.")


class HealingFile(DataModel):
    """healing.yaml: the numbers of medical intervention and natural recovery."""

    rank_limits: RankLimitsData
    intervention: Intervention
    supports: list[SupportEntry] = Field(min_length=1)
    wound_grades: list[WoundGrade] = Field(min_length=4, max_length=4)
