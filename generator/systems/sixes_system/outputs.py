"""The documents and site pages the Sixes System contributes, as data.

Core layer: builds template contexts from a loaded campaign and the derived
tables; it never renders. Everything here is public except the GM notes,
which no document or page receives.
"""
from __future__ import annotations

from ..base import Document, Page
from .dataset import Campaign
from .models import BASE_SETTINGS, DEFENCE_MODES
from .rules import exact
from .tables import (ADJUSTED_POOLS, DAMAGE_REDUCTIONS, ODDS_SIXES, adjusted_pools, by_damage, cast_matchups,
                     expected_by_dice, matrix_grid, odds_tables, per_die_table, SURVIVAL_POOLS,
                     survival_odds)

MATRIX_CARD = "gm-matrix-card"
ODDS_CARD = "odds-card"
DAMAGE_CARD = "damage-card"


def _common(campaign: Campaign) -> dict:
    """What every document and page may show: never the GM notes."""
    game = campaign.game
    return {
        "title": game.title,
        "blurb": game.blurb,
        "modes": campaign.modes,
        "settings": [{"name": s, "a": exact(game.base_a[s]), "current": s == game.setting} for s in BASE_SETTINGS],
        "defence_modes": DEFENCE_MODES,
        "grid": matrix_grid(campaign),
        "disarm": next(e for e in campaign.modes.matrix if e.disarm_a is not None),
    }


def _damage(campaign: Campaign) -> dict:
    return {"per_die": per_die_table(), "by_dice": expected_by_dice(), "reductions": list(DAMAGE_REDUCTIONS),
            "adjusted": adjusted_pools(campaign), "adjusted_sizes": list(ADJUSTED_POOLS),
            "survival": survival_odds(), "survival_pools": list(SURVIVAL_POOLS)}


def documents(campaign: Campaign) -> list[Document]:
    common = _common(campaign)
    title = campaign.game.title
    return [
        Document(MATRIX_CARD, f"{title}: GM matrix card", "sixes-system/matrix_card.html", "public",
                 {**common, "example": next(iter(cast_matchups(campaign)), None)}, max_pages=1),
        Document(ODDS_CARD, f"{title}: target numbers and odds", "sixes-system/odds_card.html", "public",
                 {**common, "tables": odds_tables(campaign), "sixes": list(ODDS_SIXES)}, max_pages=1),
        Document(DAMAGE_CARD, f"{title}: damage card", "sixes-system/damage_card.html", "public",
                 {**common, **_damage(campaign)}, max_pages=1),
    ]


def pages(campaign: Campaign) -> list[Page]:
    common = _common(campaign)
    return [
        Page("matrix.md", "The attack-by-defence matrix", "sixes-system/site/matrix.md.j2",
             {**common, "ranked": by_damage(campaign)}, downloads=(MATRIX_CARD,)),
        Page("odds.md", "Target numbers and odds", "sixes-system/site/odds.md.j2",
             {**common, "tables": odds_tables(campaign), "sixes": list(ODDS_SIXES)}, downloads=(ODDS_CARD,)),
        Page("damage.md", "Damage", "sixes-system/site/damage.md.j2",
             {**common, **_damage(campaign)}, downloads=(DAMAGE_CARD,)),
        Page("cast.md", campaign.game.title, "sixes-system/site/cast.md.j2",
             {**common, "cast": campaign.cast, "matchups": cast_matchups(campaign)}),
        Page("rulings.md", "Rulings", "sixes-system/site/rulings.md.j2", {**common, "rulings": campaign.rulings}),
    ]
