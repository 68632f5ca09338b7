"""I6 printables and site pages, read back from the example build: paper
sizes and page budgets, the hand-worked odds on the odds card, each hero's
numbers on their own sheet, and secrets only where they belong."""
from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.core.paths import DEFAULT_DATA_DIR
from matches import matched

I6 = DEFAULT_DATA_DIR / "i6"
HEROES = sorted((I6 / "heroes").glob("*.yaml"))
PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def text_of(pdf: Path) -> str:
    return " ".join(run("pdftotext", "-layout", str(pdf), "-").split())


def pdf(build, paper: str, folder: str, slug: str) -> Path:
    return build.out_dir / "pdf" / paper / "i6" / folder / f"{slug}.pdf"


def info(path: Path) -> dict[str, str]:
    pairs = (line.split(":", 1) for line in run("pdfinfo", str(path)).splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def site_text(build, rel: str) -> str:
    raw = html.unescape((build.out_dir / "site" / rel).read_text(encoding="utf-8"))
    return " ".join(re.sub(r"<[^>]+>", " ", raw).split())


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_i6_pdf_has_its_paper_size_title_and_page_budget(example_build, paper):
    pdfs = sorted((example_build.out_dir / "pdf" / paper / "i6").rglob("*.pdf"))
    names = sorted(p.relative_to(example_build.out_dir / "pdf" / paper / "i6").as_posix() for p in pdfs)
    assert names == sorted(["public/odds-card.pdf", "public/combat-card.pdf"]
                           + [f"players/{h.stem}.pdf" for h in HEROES])
    title = load(I6 / "game.yaml")["title"]
    for path in pdfs:
        meta = info(path)
        w, h = (float(x) for x in matched(re.match(r"([\d.]+) x ([\d.]+)", meta["Page size"])).groups())
        assert (round(w, 1), round(h, 1)) == tuple(round(x, 1) for x in PAGE_POINTS[paper]), path
        assert meta["Title"].startswith(title)
        assert int(meta["Pages"]) <= (2 if "players" in path.parts else 1), path


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_odds_card_rows_match_hand_worked_values(example_build, paper):
    text = text_of(pdf(example_build, paper, "public", "odds-card"))
    # One die: (6 - TN)/6. Two dice: 1 - (TN/6)^2 = 35/36, 32/36, 27/36, 20/36, 11/36.
    assert "1 83% 67% 50% 33% 17%" in text
    assert "2 97% 89% 75% 56% 31%" in text
    # Scale 2 with one die: a six, then a hit on the extra die: (6 - TN)/36.
    assert "1 14% 11% 8% 6% 3%" in text
    for scale in (1, 2, 3):
        assert f"Scale {scale}" in text
    # Curse of Ones: 1/6, 1/36, 16/216.
    assert "Curse 16.7% 2.8% 7.4%" in text


def test_combat_card_lists_steps_actions_and_ticks(example_build):
    text = text_of(pdf(example_build, "a4", "public", "combat-card"))
    for action in load(I6 / "actions.yaml")["actions"]:
        assert flat(action["name"]) in text
        assert flat(action["rule"])[:30] in text
    for step in ("Declare the attack", "Choose the defence", "Work out modifiers", "Roll.", "Damage rating",
                 "Mark boxes"):
        assert step in text
    assert "1d6 + Awareness" in text and "tick 0" in text


@pytest.mark.parametrize("path", HEROES, ids=lambda p: p.stem)
def test_hero_sheet_shows_the_hero(example_build, path):
    hero = load(path)
    gear = {g["name"]: g for g in load(I6 / "gear.yaml")["gear"]}
    text = text_of(pdf(example_build, "a4", "players", path.stem))
    assert hero["name"] in text and hero["concept"] in text
    for trait, rating in hero["traits"].items():
        assert re.search(rf"\b{trait}\b(?: \(healing\))? {rating}\b", text), trait
    for name in hero["gear"]:
        weapon = gear[name].get("weapon")
        if weapon:
            assert f"{name} " in text
            assert re.search(rf"{name}(?: \(ranged\))? {weapon['trait']} "
                             rf"{hero['traits'].get(weapon['trait'], 1)} {weapon['damage']} {weapon['spd']}", text)
    assert flat(hero["secret"])[:50] in text
    assert "Spent of 30 30" in text


def test_mott_sheet_odds_and_wounds_by_hand(example_build):
    text = text_of(pdf(example_build, "letter", "players", "mott"))
    # Nine boxes: six plus Iron Constitution's three.
    assert "Wound boxes: 9" in text
    # Brawl 5 at TN 4, Scale 1: 1 - (4/6)^5 = 211/243 = 86.8%, printed as 87%.
    assert re.search(r"Brawl 5 >99% 97% 87%", text)
    # Unarmed: Brawl dice, damage = Brawn 5, SPD 6 - 5 = 1.
    assert "Unarmed Brawl 5 5 1" in text


def secrets() -> list[str]:
    return [flat(load(p)["secret"])[:40] for p in HEROES]


def test_secrets_stay_on_their_own_sheets(example_build):
    for paper in ("a4", "letter"):
        for path in (example_build.out_dir / "pdf" / paper / "i6" / "public").glob("*.pdf"):
            assert not [s for s in secrets() if s in text_of(path)], path
    for owner in HEROES:
        text = text_of(pdf(example_build, "a4", "players", owner.stem))
        others = [flat(load(p)["secret"])[:40] for p in HEROES if p != owner]
        assert not [s for s in others if s in text]


def test_no_secret_reaches_the_site(example_build):
    site = example_build.out_dir / "site"
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".js", ".json", ".xml", ".txt"}:
            text = " ".join(html.unescape(path.read_text(encoding="utf-8", errors="replace"))
                            .replace("\\n", " ").split())
            assert not [s for s in secrets() if s in text], path


def test_only_the_public_i6_pdfs_are_published(example_build):
    site = example_build.out_dir / "site"
    published = sorted(p.relative_to(site).as_posix() for p in (site / "downloads").rglob("i6/*.pdf"))
    assert published == [f"downloads/{paper}/i6/{name}.pdf" for paper in ("a4", "letter")
                         for name in ("combat-card", "odds-card")]
    downloads = (site / "i6" / "downloads.html").read_text(encoding="utf-8")
    for paper in ("a4", "letter"):
        for name in ("odds-card", "combat-card"):
            assert f'href="../downloads/{paper}/i6/{name}.pdf"' in downloads


def test_odds_page_has_charts_and_exact_tables(example_build):
    raw = (example_build.out_dir / "site" / "i6" / "odds.html").read_text(encoding="utf-8")
    assert raw.count("<svg") >= 3
    text = site_text(example_build, "i6/odds.html")
    # Scale 1, one die: 83.3% 66.7% 50.0% 33.3% 16.7%; ten dice at TN 5: 1 - (5/6)^10 = 83.8%.
    assert "1 83.3% 66.7% 50.0% 33.3% 16.7%" in text
    assert "10 >99.9% >99.9% >99.9% 98.3% 83.8%" in text
    # Scale 5, one die at TN 1: four sixes then a hit: (1/6)^4 * 5/6 = 0.064%, shown as 0.1%.
    assert "Scale 5" in text
    assert "1 16.67% 2 2.78%" in text and "3 7.41% 4 1.62%" in text   # 1/6, 1/36, 16/216, 21/1296


def test_heroes_page_shows_public_fields_only(example_build):
    text = site_text(example_build, "i6/heroes.html")
    for path in HEROES:
        hero = load(path)
        assert hero["name"] in text and hero["concept"] in text
        assert flat(hero["description"])[:60] in text


def test_rulings_and_rules_pages(example_build):
    from generator.systems.i6.dataset import RULINGS_FILE
    raw = (example_build.out_dir / "site" / "i6" / "rulings.html").read_text(encoding="utf-8")
    for ruling in load(RULINGS_FILE)["rulings"]:
        assert f'id="{ruling["id"]}"' in raw
    rules = site_text(example_build, "i6/index.html")
    for words in ("Curse of Ones", "Sixes explode", "Damage rating", "SPD", "Healing"):
        assert words in rules


def test_combat_page_attack_row_by_hand():
    """Rendered without a build: Mott's axe is 1 die at TN 3, rating 7 - 2 = 5.
    Miss 1/2; one counted hit 5/12; two 5/72; three 5/432 (1.2%); more (1/6)^3 * 1/2 (0.2%)."""
    from generator.render.html import render_template
    from generator.systems.i6 import SYSTEM as I6_SYSTEM
    game, _ = I6_SYSTEM.load(I6, DEFAULT_DATA_DIR.parent)
    page = next(p for p in I6_SYSTEM.pages(game) if p.path == "combat.md")
    text = render_template(page.template, {**page.context, "page_title": page.title, "downloads": []})
    # The row header is bold (the site makes it a <th scope="row">); <1% is autoescaped.
    assert "| **Mott: Boarding Axe (1 die, rating 5)** | 50% | 42% | 7% | 1% | &lt;1% |" in text
    assert "town guard with Dodge 3 and Brawn 2" in " ".join(text.split())


def test_odds_page_extra_hits_row_by_hand():
    """One die at TN 3, Scale 1: +0 is a 4 or 5, or a six then a miss: 5/12; +1 adds a six: 5/72;
    +2: 5/432; three or more extra needs three sixes then a hit: (1/6)^3 * 1/2 = 1/432."""
    from generator.render.html import render_template
    from generator.systems.i6 import SYSTEM as I6_SYSTEM
    game, _ = I6_SYSTEM.load(I6, DEFAULT_DATA_DIR.parent)
    page = next(p for p in I6_SYSTEM.pages(game) if p.path == "odds.md")
    text = render_template(page.template, {**page.context, "page_title": page.title, "downloads": []})
    tn3 = text.split("### TN 3", 1)[1]
    assert "| **1** | 41.7% | 6.9% | 1.2% | 0.2% |" in tn3
