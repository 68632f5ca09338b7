"""The documents and site pages the Sixes System contributes, as data.

Core layer: builds template contexts from a loaded campaign and the derived
tables; it never renders. Everything here is public except the GM notes,
which no document or page receives, and private combatants, which only
the GM's cast sheet shows (every other document and page gets `public_view`).
"""
from __future__ import annotations

from dataclasses import replace

from ...core.i18n import _
from ...core.privacy import private_only, public_only
from ..base import CastEntry, Document, Page, gm_notes_document
from .dataset import Campaign
from .glossary import GLOSSARY
from .models import BASE_SETTINGS, DEFENCE_MODES
from .healing import SKILL_NAMES
from .healing_tables import (COMA_HOURS, CALM_A, CALM_SIXES, GOAL_POOLS, LOST_POINTS, RESCUE_A, RESCUE_SIXES,
                             SOURCE_BASE, SOURCE_RANKS, WEEK, campaign_a, cast_healers, coma_table, goal_table,
                             grade_rows, order_examples, rescue_table, rest_regimes, source_allocation,
                             support_regimes)
from .rules import exact
from .tables import (ADJUSTED_POOLS, DAMAGE_REDUCTIONS, ODDS_SIXES, adjusted_pools, by_damage, cast_matchups,
                     each_matchup, expected_by_dice, matrix_grid, odds_tables, per_die_table, SURVIVAL_POOLS,
                     survival_odds)

MATRIX_CARD = "gm-matrix-card"
ODDS_CARD = "odds-card"
DAMAGE_CARD = "damage-card"
HEALING_CARD = "healing-card"
GM_CAST = "gm-cast"     # the private combatants, made only when there are some


def titled(title: str, document: str) -> str:
    """A document's title after its game's ("Title: damage card"), punctuated the language's way."""
    return _("{title}: {document}").format(title=title, document=document)


def _common(campaign: Campaign) -> dict:
    """What every document and page may show: never the GM notes."""
    info = campaign.info
    return {
        "title": info.title,
        "blurb": info.blurb,
        "modes": campaign.modes,
        "settings": [{"name": s, "a": exact(info.base_a[s]), "current": s == info.setting} for s in BASE_SETTINGS],
        "defence_modes": DEFENCE_MODES,
        "grid": matrix_grid(campaign),
        "disarm": next(e for e in campaign.modes.matrix if e.disarm_a is not None),
    }


def _damage(campaign: Campaign) -> dict:
    return {"per_die": per_die_table(), "by_dice": expected_by_dice(), "reductions": list(DAMAGE_REDUCTIONS),
            "adjusted": adjusted_pools(campaign), "adjusted_sizes": list(ADJUSTED_POOLS),
            "survival": survival_odds(), "survival_pools": list(SURVIVAL_POOLS)}


def _healing(campaign: Campaign) -> dict:
    healing = campaign.healing
    return {
        "healing": healing, "skill_names": SKILL_NAMES, "a": campaign_a(campaign),
        "healers": cast_healers(campaign), "source": source_allocation(),
        "source_base": SOURCE_BASE, "source_ranks": SOURCE_RANKS, "calm_a": CALM_A, "calm_sixes": CALM_SIXES,
        "order": order_examples(),
        "rest": rest_regimes(), "supports": support_regimes(campaign), "lost": list(LOST_POINTS), "week": WEEK,
        "coma": coma_table(), "coma_hours": list(COMA_HOURS),
        "grades": grade_rows(campaign),
        "rescue": rescue_table(), "rescue_a": RESCUE_A, "rescue_sixes": RESCUE_SIXES,
        "goals": goal_table(campaign), "goal_pools": list(GOAL_POOLS),
    }


def public_view(campaign: Campaign) -> Campaign:
    """The campaign with its public combatants only, for the site and the
    public cards: a private combatant is on the GM's cast sheet alone."""
    return replace(campaign, cast=public_only(campaign.cast, lambda member: member.combatant))


def cast_list(campaign: Campaign) -> list[CastEntry]:
    """The public combatants for the site's cast list: name and public description."""
    return [CastEntry(m.combatant.name, description=m.combatant.description) for m in public_view(campaign).cast]


def documents(campaign: Campaign) -> list[Document]:
    private = private_only(campaign.cast, lambda member: member.combatant)
    notes = gm_notes_document(campaign.info.title, [(m.combatant.name, m.combatant.gm_notes) for m in campaign.cast])
    campaign = public_view(campaign)
    common = _common(campaign)
    title = campaign.info.title
    gm = [Document(GM_CAST, _("{title}: the private cast").format(title=title), "sixes-system/gm_cast.html", "gm",
                   {"title": title, "cast": private, "skill_names": SKILL_NAMES}, max_pages=1 + len(private) // 2)]
    return [
        Document(MATRIX_CARD, titled(title, GLOSSARY["matrix_card"]), "sixes-system/matrix_card.html", "public",
                 {**common, "example": next(each_matchup(campaign), None)}, max_pages=1),
        Document(ODDS_CARD, titled(title, GLOSSARY["odds_card"]), "sixes-system/odds_card.html", "public",
                 {**common, "tables": odds_tables(campaign), "sixes": list(ODDS_SIXES)}, max_pages=1),
        Document(DAMAGE_CARD, titled(title, GLOSSARY["damage_card"]), "sixes-system/damage_card.html", "public",
                 {**common, **_damage(campaign)}, max_pages=1),
        Document(HEALING_CARD, titled(title, GLOSSARY["healing_card"]), "sixes-system/healing_card.html", "public",
                 {**common, **_healing(campaign)}, max_pages=1),
    ] + (gm if private else []) + notes


def pages(campaign: Campaign) -> list[Page]:
    campaign = public_view(campaign)
    common = _common(campaign)
    return [
        Page("matrix.md", _("The attack-by-defence matrix"), "sixes-system/site/matrix.md.j2",
             {**common, "ranked": by_damage(campaign)}, downloads=(MATRIX_CARD,)),
        Page("odds.md", _("Target numbers and odds"), "sixes-system/site/odds.md.j2",
             {**common, "tables": odds_tables(campaign), "sixes": list(ODDS_SIXES)}, downloads=(ODDS_CARD,)),
        Page("damage.md", _("Damage"), "sixes-system/site/damage.md.j2",
             {**common, **_damage(campaign)}, downloads=(DAMAGE_CARD,)),
        Page("healing.md", _("Healing"), "sixes-system/site/healing.md.j2",
             {**common, **_healing(campaign)}, downloads=(HEALING_CARD,)),
        Page("cast.md", campaign.info.title, "sixes-system/site/cast.md.j2",
             {**common, "cast": campaign.cast, "matchups": cast_matchups(campaign), "skill_names": SKILL_NAMES},
             shown=bool(campaign.cast)),
        Page("rulings.md", _("Rulings"), "sixes-system/site/rulings.md.j2", {**common, "rulings": campaign.rulings}),
    ]
