"""The Sixes System's printables and pages: derived tables against values
computed independently here, the PDFs read back with poppler, the site pages,
and the GM notes kept off everything public."""
from __future__ import annotations

import re
import subprocess
from fractions import Fraction as F
from pathlib import Path

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.charts import percent
from generator.systems.sixes_system.dataset import load_game
from generator.systems.sixes_system.tables import adjusted_pools, by_damage, matrix_grid, odds_tables
from matches import matched

SLUG = "sixes-system"
DOCS = ("gm-matrix-card", "odds-card", "damage-card", "healing-card")
PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def campaign():
    loaded, problems = load_game(DEFAULT_DATA_DIR / SLUG, DEFAULT_DATA_DIR)
    assert loaded is not None, problems
    return loaded


def dp_at_least(dice: int, target: int) -> F:
    """Independent oracle: count totals with a plain list convolution."""
    ways = [1]
    for _ in range(dice):
        nxt = [0] * (len(ways) + 6)
        for total, w in enumerate(ways):
            for face in range(1, 7):
                nxt[total + face] += w
        ways = nxt
    return F(sum(ways[max(0, target):]), 6 ** dice)


def test_odds_tables_cover_three_settings_twenty_pools_five_sixes(campaign):
    tables = odds_tables(campaign)
    assert [(t.setting, t.a) for t in tables] == [("grittier", F(11, 4)), ("standard", F(3)), ("gentler", F(7, 2))]
    for t in tables:
        assert [pool for pool, _ in t.rows] == list(range(1, 21))
        for pool, cells in t.rows:
            assert len(cells) == 5
            for sixes, cell in enumerate(cells):
                target = pool * t.a + sixes * (6 - t.a)
                assert cell.target == target
                assert cell.needed == -(-target.numerator // target.denominator)
                if pool in (1, 7, 13, 20):
                    assert cell.chance == dp_at_least(pool, cell.needed)
                chances = [c.chance for c in cells]
                assert chances == sorted(chances, reverse=True)


def test_matrix_grid_and_ranking(campaign):
    grid = matrix_grid(campaign)
    assert [attack for attack, _ in grid] == ["force", "resistance", "maneuver", "finesse"]
    assert [(e.a, e.damage.dice, e.damage.per) for e in grid[0][1]] == [(0.75, 2, 3), (1, 1, 1), (0.5, 1, 3),
                                                                        (0.75, 1, 2)]
    ranked = by_damage(campaign)
    assert (ranked[0].attack, ranked[0].defence) == ("force", "resistance")
    assert {(ranked[-1].attack, ranked[-1].defence), (ranked[-2].attack, ranked[-2].defence)} == {
        ("maneuver", "finesse"), ("finesse", "finesse")}


def test_adjusted_pools_follow_the_whole_group_rule(campaign):
    rows = dict(adjusted_pools(campaign))
    assert rows[(2, 3)] == [1, 2, 5, 6, 7, 10, 11, 12, 15, 16]
    assert rows[(1, 1)] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    assert rows[(-1, 2)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert rows[(0, 1)] == list(range(1, 11))


def run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def text_of(pdf: Path) -> str:
    return " ".join(run("pdftotext", "-layout", str(pdf), "-").split())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", DOCS)
def test_each_card_is_one_page_of_the_right_paper(example_build, paper, slug):
    pdf = example_build.out_dir / "pdf" / paper / SLUG / "public" / f"{slug}.pdf"
    meta = dict(line.split(":", 1) for line in run("pdfinfo", str(pdf)).splitlines() if ":" in line)
    assert meta["Pages"].strip() == "1"
    w, h = (float(x) for x in matched(re.match(r"\s*([\d.]+) x ([\d.]+)", meta["Page size"])).groups())
    assert (round(w, 1), round(h, 1)) == tuple(round(x, 1) for x in PAGE_POINTS[paper])


def test_matrix_card_text(example_build):
    text = text_of(example_build.out_dir / "pdf" / "a4" / SLUG / "public" / "gm-matrix-card.pdf")
    for needle in ("Force Resistance Dodge Finesse", "+0.75 A", "+2 per 3", "-1 per die", "+1 A to disarm",
                   "Pulling", "Kill-shot", "Improvised", "standard 3", "gentler 3.5", "grittier 2.75"):
        assert needle in text, needle


def test_odds_card_shows_exact_values(example_build):
    text = text_of(example_build.out_dir / "pdf" / "a4" / SLUG / "public" / "odds-card.pdf")
    assert "A = 2.75" in text and "A = 3" in text and "A = 3.5" in text
    # Ten dice at A = 3 with no sixes required need 30.
    assert percent(dp_at_least(10, 30), 0) in text


def test_damage_card_text(example_build):
    text = text_of(example_build.out_dir / "pdf" / "a4" / SLUG / "public" / "damage-card.pdf")
    assert "Colour A" in text and "Colour B" in text and "1.67" in text   # 10/6 per die at 2 off


def test_site_pages_and_downloads(example_build):
    site = example_build.out_dir / "site" / SLUG
    for page in ("index", "matrix", "odds", "damage", "healing", "cast", "rulings"):
        assert (site / f"{page}.html").is_file(), page
    matrix = (site / "matrix.html").read_text(encoding="utf-8")
    assert "../downloads/a4/sixes-system/gm-matrix-card.pdf" in matrix
    odds = (site / "odds.html").read_text(encoding="utf-8")
    assert odds.count("<svg") >= 3
    rulings = (site / "rulings.html").read_text(encoding="utf-8")
    for rid in ("missing-parts", "fractional-target", "beyond-saving", "paramedic-lucky-roll", "critical-failure",
                "medical-skill-reach", "defibrillator", "complex-goals"):
        assert f'id="{rid}"' in rulings, rid


def test_gm_notes_stay_off_the_site_and_public_pdfs(example_build, campaign):
    secret = " ".join(campaign.info.gm_notes.split())[:40]
    assert secret
    for path in (example_build.out_dir / "site").rglob("*"):
        if path.suffix in {".html", ".json", ".js"}:
            assert secret not in " ".join(path.read_text(encoding="utf-8", errors="replace").split()), path
    for slug in DOCS:
        assert secret not in text_of(example_build.out_dir / "pdf" / "a4" / SLUG / "public" / f"{slug}.pdf")


def test_survival_odds_against_enumeration():
    import itertools
    from generator.systems.sixes_system.tables import SURVIVAL_POOLS, survival_odds
    rows = dict(survival_odds())
    six_dice = list(itertools.product(range(1, 7), repeat=6))
    for k in (1, 2, 3):
        assert rows[k][SURVIVAL_POOLS.index(6)] == F(sum(1 for r in six_dice if r.count(6) >= k), len(six_dice))
    for chances in rows.values():
        assert chances == sorted(chances)           # more dice, better odds


# --- healing ---------------------------------------------------------------------


def test_healing_tables_against_independent_counts(campaign):
    from generator.systems.sixes_system.healing_tables import (cast_healers, grade_rows, order_examples,
                                                               rest_regimes, source_allocation, support_regimes)
    rows = source_allocation()
    assert [(r.to_healing, r.odds.dice, r.odds.needed, r.healing_dice) for r in rows] == [
        (0, 16, 57, 0), (1, 15, 54, 1), (2, 14, 51, 2), (3, 13, 48, 3)]
    for r in rows:
        assert r.odds.success == dp_at_least(r.odds.dice, r.odds.needed)
        assert r.expected == r.odds.success * r.healing_dice * F(7, 2)
    assert max(rows, key=lambda r: r.expected).to_healing == 3
    assert [(o.skill, o.after.temporary, o.after.enduring, o.after.persistent, o.unused)
            for o in order_examples()] == [("first-aid", 0, 6, 5, 9), ("paramedic", 0, 0, 5, 3),
                                           ("surgery", 0, 0, 2, 0)]
    assert [(r.hours, r.die, r.mean) for r in rest_regimes()] == [
        (24, 6, F(7, 2)), (20, 5, 3), (16, 4, F(5, 2)), (12, 3, 2), (8, 2, F(3, 2))]
    assert [(s.label, s.mean) for s in support_regimes(campaign)] == [
        ("Medication", F(11, 2)), ("Constant nursing", 7), ("Regeneration tank", F(21, 2)),
        ("Regeneration spell (rank 4)", 14)]
    assert [(g.grade, g.hours, g.steps) for g in grade_rows(campaign)] == [(1, 3, 2), (2, 6, 5), (3, 12, 11),
                                                                          (4, 18, 17)]
    healers = {(h.member, h.name): h for h in cast_healers(campaign)}
    vane = healers[("Inspector Ada Vane", "Wartime ambulance service")]
    assert (vane.skill, vane.ranks, vane.ceiling, vane.base) == ("paramedic", 2, 2, 9 + 3 + 2)
    assert healers[("Dora Quill", "Fencing-club first aid")].ceiling is None


def test_healing_card_text(example_build):
    text = text_of(example_build.out_dir / "pdf" / "a4" / SLUG / "public" / "healing-card.pdf")
    for needle in ("Healing card", "First Aid", "Paramedic", "Surgery", "d6×2", "Wartime ambulance service",
                   "Resuscitation", "Complex attacks", "Critical condition"):
        assert needle in text, needle
    # The source's paramedic with every rank on the healing: 13 dice need 48.
    assert f"3d6 13 48 {percent(dp_at_least(13, 48))}" in text


def test_healing_page_links_its_card(example_build):
    page = (example_build.out_dir / "site" / SLUG / "healing.html").read_text(encoding="utf-8")
    assert "../downloads/a4/sixes-system/healing-card.pdf" in page
    assert 'aria-label="Chance a resuscitation roll succeeds' in page and 'href="rulings.html#critical-failure"' in page
