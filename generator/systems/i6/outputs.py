"""The documents and site pages I6 contributes, as data.

Core layer: builds template contexts from a loaded setting and the pure
rules; it never renders. Hero sheets carry the hero's secret, so they are
for players only; public documents and pages get `public_hero` views.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core.i18n import N_, _, grouped
from ...core.privacy import public_only
from ..base import CastEntry, Document, Page, gm_notes_document
from .combat import (DEFEND_SPD, FINISH_OFF_SPD, NATURAL_HEALING, STABILISE_SCALE, STABILISE_SPD, attack_odds,
                     damage_rating, healing_tn, unarmed_spd, wound_scale)
from .dataset import HeroEntry, I6Game
from .glossary import GLOSSARY
from .models import TRAIT_IDS, Weapon
from .points import trait_cost
from .odds import TAIL_BOUND, TNS, contest, curse_of_ones, expected_hits, extra_hits, success

ODDS_CARD = "odds-card"
COMBAT_CARD = "combat-card"
TABLE_DICE = range(1, 11)       # site tables
CARD_DICE = range(1, 7)         # the printed odds card
CARD_SCALES = (1, 2, 3)
SITE_SCALES = (1, 2, 3, 4, 5)
SHEET_TNS = (2, 3, 4)           # "common TNs" on a hero sheet
BEST_TRAITS = 4
EXTRA_SHOWN = 3                 # extra hits listed before "or more"
EXTRA_TNS = (3, 4)              # TNs of the extra-hits tables on the odds page
GUARD = {"dodge": 3, "brawn": 2}   # the typical opponent of the combat page's attack table
# Messages (core/i18n.py) the templates translate where they print, filling in
# the traits the rules use by the game's words for them (`terms`).
ATTACK_STEPS = (
    (N_("Declare the attack"), N_("Say how you strike: bare hands or which weapon. That decides the trait you roll.")),
    (N_("Choose the defence"), N_("The target picks %(dodge)s, or the trait of the melee weapon in their hand.")),
    (N_("Work out modifiers"),
     N_("Add or remove dice and Scale for the situation and the action. Most attacks are Scale 1.")),
    (N_("Roll"), N_("Roll your trait against a TN equal to the chosen defence. Meet the Scale and you hit.")),
    (N_("Damage rating"), N_("The weapon's damage minus the target's %(brawn)s, never less than 1.")),
    (N_("Mark boxes"), N_("The hits that met the Scale count as one; every hit beyond counts too. "
                          "The target marks the damage rating in boxes for each counted hit.")),
)


@dataclass(frozen=True)
class Attack:
    """One way a hero can attack, as printed on the sheet."""

    name: str
    trait: str
    dice: int
    damage: int
    spd: int
    reach: str


def terms(game: I6Game) -> dict[str, str]:
    """The traits the rules use, by id, as this game prints them (its names,
    else the tool's words in its language): `Awareness` never reaches a
    German sheet as "Awareness"."""
    return {trait_id: game.word(trait_id) for trait_id in TRAIT_IDS}


def _rule_notes(game: I6Game) -> dict:
    return {"defend_spd": DEFEND_SPD, "finish_off_spd": FINISH_OFF_SPD, "stabilise_spd": STABILISE_SPD,
            "stabilise_scale": STABILISE_SCALE, "natural_healing": NATURAL_HEALING, "terms": terms(game),
            "medical_trait": game.word(game.info.medical_trait),
            "medical_key": game.trait(game.info.medical_trait).key,
            "healing_tns": [(brawn, healing_tn(brawn)) for brawn in range(1, 6)]}


def _common(game: I6Game) -> dict:
    """What every document and page may show: nothing secret."""
    return {"title": game.info.title, "blurb": game.info.blurb, "budget": game.info.budget,
            "wound_boxes": game.info.wound_boxes, "actions": game.actions, "traits": game.traits,
            "steps": ATTACK_STEPS, "trait_word": game.word, **_rule_notes(game)}


def success_table(dice: range, scales: tuple[int, ...]) -> dict[int, dict[int, dict[int, Fraction]]]:
    """scale -> dice -> TN -> chance of meeting the Scale."""
    return {s: {n: {tn: success(n, tn, s) for tn in TNS} for n in dice} for s in scales}


# Pools drawn as lines on the odds page, per Scale: spread out so that the
# lines' end labels (at TN 5) never overlap, four so every marker differs.
CHART_POOLS = {1: (1, 2, 4, 6), 2: (2, 4, 6, 8)}


def curves(table: dict[int, dict[int, dict[int, Fraction]]]) -> dict[int, dict[int, list[tuple[int, Fraction]]]]:
    """Some of the same figures as chart series: scale -> dice -> [(TN, chance)]."""
    return {s: {n: [(tn, table[s][n][tn]) for tn in TNS] for n in pools} for s, pools in CHART_POOLS.items()}


def attacks(entry: HeroEntry, game: I6Game) -> list[Attack]:
    ratings = entry.ratings
    out = [Attack(_("Unarmed"), game.word("brawl"), ratings["brawl"], ratings["brawn"], unarmed_spd(ratings["brawl"]),
                  "melee")]
    for item in entry.gear:
        weapon: Weapon | None = item.weapon
        if weapon:
            trait = game.trait(weapon.trait)
            out.append(Attack(item.name, trait.word(), ratings[trait.key], weapon.damage, weapon.spd, weapon.reach))
    return out


def best_traits(entry: HeroEntry, game: I6Game) -> list[tuple[str, int]]:
    """The hero's highest-rated traits as printed, in the setting's order among equals."""
    ranked = sorted(entry.ratings.items(), key=lambda kv: -kv[1])
    return [(game.word(key), dice) for key, dice in ranked[:BEST_TRAITS]]


def hero_odds(entry: HeroEntry, game: I6Game) -> list[dict]:
    return [{"trait": name, "dice": dice,
             "scale1": [success(dice, tn, 1) for tn in SHEET_TNS],
             "scale2": [success(dice, tn, 2) for tn in SHEET_TNS]}
            for name, dice in best_traits(entry, game)]


def first_penalty_box(boxes: int) -> int:
    """The 1-based box whose marking brings the wound penalty: the sheet dashes it and those after it."""
    return next(marked for marked in range(1, boxes + 1) if wound_scale(boxes, marked))


def public_hero(entry: HeroEntry, game: I6Game) -> dict:
    """Everything about a hero that may be published: the secret is left out."""
    hero = entry.hero
    return {"slug": entry.slug, "name": hero.name, "concept": hero.concept, "description": hero.description,
            "ratings": entry.ratings, "features": entry.features, "gear": entry.gear, "spend": entry.spend,
            "wound_boxes": entry.wound_boxes, "attacks": attacks(entry, game),
            "trait_costs": {key: trait_cost(r) for key, r in entry.ratings.items()},
            "healing_tn": healing_tn(entry.ratings["brawn"])}


def documents(game: I6Game) -> list[Document]:
    common = _common(game)
    docs = [
        Document(ODDS_CARD, f"{game.info.title}: {GLOSSARY['odds_card']}", "i6/odds_card.html", "public",
                 {**common, "table": success_table(CARD_DICE, CARD_SCALES), "tns": TNS,
                  "curse": [(n, curse_of_ones(n)) for n in CARD_DICE]}, max_pages=1),
        Document(COMBAT_CARD, f"{game.info.title}: {GLOSSARY['combat_card']}", "i6/combat_card.html", "public",
                 common, max_pages=1),
    ]
    for entry in game.heroes:
        docs.append(Document(
            entry.slug, f"{game.info.title}: {entry.hero.name}", "i6/hero_sheet.html", "player",
            {**common, "hero": public_hero(entry, game), "secret": entry.hero.secret, "tns": SHEET_TNS,
             "odds": hero_odds(entry, game), "first_penalty_box": first_penalty_box(entry.wound_boxes)},
            max_pages=2))
    return docs + gm_notes_document(game.info.title, [(e.hero.name, e.hero.gm_notes) for e in game.heroes])


def public_heroes(game: I6Game) -> tuple[HeroEntry, ...]:
    """The heroes the site may show; a private one is on its own sheet only."""
    return public_only(game.heroes, lambda entry: entry.hero)


def cast_list(game: I6Game) -> list[CastEntry]:
    """The public heroes for the site's cast list: name, concept, public paragraph."""
    return [CastEntry(e.hero.name, e.hero.concept, e.hero.description) for e in public_heroes(game)]


def pages(game: I6Game) -> list[Page]:
    common = _common(game)
    heroes = public_heroes(game)
    table = success_table(TABLE_DICE, SITE_SCALES)
    extra = {tn: {n: extra_hits(n, tn, 1, EXTRA_SHOWN) for n in TABLE_DICE} for tn in EXTRA_TNS}
    mirror = [(n, contest(n, 3, n, 3)) for n in range(1, 7)]
    expected = {n: {tn: expected_hits(n, tn) for tn in TNS} for n in TABLE_DICE}
    attacks_page = [(entry.hero.name, attack,
                     attack_odds(attack.dice, GUARD["dodge"], 1, damage_rating(attack.damage, GUARD["brawn"]), 3))
                    for entry in heroes for attack in attacks(entry, game)]
    return [
        Page("odds.md", _("Odds"), "i6/site/odds.md.j2",
             {**common, "table": table, "tns": TNS, "dice": list(TABLE_DICE), "scales": SITE_SCALES,
              "extra": extra, "extra_shown": EXTRA_SHOWN, "expected": expected,
              "curse": [(n, curse_of_ones(n)) for n in TABLE_DICE], "mirror": mirror,
              "tail_odds": grouped(TAIL_BOUND.denominator), "curves": curves(table)}, downloads=(ODDS_CARD,)),
        Page("combat.md", _("Combat"), "i6/site/combat.md.j2", {**common, "attacks": attacks_page, "guard": GUARD},
             downloads=(COMBAT_CARD,)),
        Page("heroes.md", _("Example heroes"), "i6/site/heroes.md.j2",
             {**common, "heroes": [public_hero(e, game) for e in heroes], "features": game.features,
              "gear": game.gear}, shown=bool(heroes)),
        Page("rulings.md", _("Rulings"), "i6/site/rulings.md.j2", {**common, "rulings": game.rulings}),
        Page("downloads.md", _("Downloads"), "i6/site/downloads.md.j2", common, downloads=(ODDS_CARD, COMBAT_CARD)),
    ]
