"""D6xD6 printables and site pages: what a GM reads on them, checked in the
built PDFs (pdftotext) and pages, plus the derived card contexts."""
from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.d6xd6 import SYSTEM as D6
from generator.systems.d6xd6.dataset import RULINGS_FILE
from generator.systems.d6xd6.outputs import documents, pages, rungs, sheet_for
from matches import matched

DATA = DEFAULT_DATA_DIR / "d6xd6"
PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
# Lookup grid rows by hand: condition, then what each incoming level (Gr .. Ov) leaves.
GRID_ROWS = ["- Gr St Hi Wo Kn Ki Ov", "Gr St St Hi Wo Kn Ki Ov", "St Hi Hi Hi Wo Kn Ki Ov",
             "Hi Wo Wo Wo Wo Kn Ki Ov", "Wo Kn Kn Kn Kn Kn Ki Ov", "Kn Ki Ki Ki Ki Ki Ki Ov",
             "Ki Ov Ov Ov Ov Ov Ov Ov", "Ov Ov Ov Ov Ov Ov Ov Ov"]


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def raw_text(pdf: Path) -> str:
    """Text in content order (card by card), whitespace collapsed."""
    out = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


def pdf(build, paper: str, slug: str) -> Path:
    return build.out_dir / "pdf" / paper / "d6xd6" / "public" / f"{slug}.pdf"


def site_words(build, rel: str) -> str:
    text = html.unescape((build.out_dir / "site" / "d6xd6" / rel).read_text(encoding="utf-8"))
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


@pytest.fixture(scope="module")
def game():
    loaded, problems = D6.load(DATA, DEFAULT_DATA_DIR.parent)
    assert loaded is not None, problems
    return loaded


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", ["ladder-cards", "reference-cards"])
def test_decks_render_on_both_papers_within_two_pages(example_build, paper, slug):
    info = subprocess.run(["pdfinfo", str(pdf(example_build, paper, slug))], capture_output=True, text=True,
                          check=True).stdout
    w, h = (float(x) for x in matched(re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info)).groups())
    assert (round(w, 1), round(h, 1)) == tuple(round(v, 1) for v in PAGE_POINTS[paper])
    assert 1 <= int(matched(re.search(r"Pages:\s+(\d+)", info)).group(1)) <= 2


def test_ladder_cards_hold_every_character_the_ladder_and_the_grid(example_build):
    text = raw_text(pdf(example_build, "a4", "ladder-cards"))
    for character in load(DATA / "characters.yaml")["characters"]:
        assert character["name"] in text and f"Lookup: {character['name']}" in text
    assert "Damage ladder Name" in text                       # the blank card
    for level, penalty in (("Graze", 1), ("Stun", 2), ("Hit", 3), ("Wound", 4)):
        assert f"{level} \u2212{penalty} on every roll" in text
    for row in GRID_ROWS:
        assert text.count(row) == 5, row                       # four characters and the blank
    assert "Armour: Medium, 2 steps off every hit" in text
    assert "Reactive: 1 step off brawling, shooting attacks" in text


def test_reference_cards_hold_every_weapon_armour_distance_and_the_odds(example_build):
    text = raw_text(pdf(example_build, "letter", "reference-cards"))
    for table in sorted((DATA / "weapons").glob("*.yaml")):
        for category in load(table)["categories"]:
            assert f"{category['key'].capitalize()} weapons" in text
            for weapon in category["weapons"]:
                assert weapon["name"] in text, weapon["name"]
    assert "Brawl: Wound Throw: Hit Shoot: Stun" in text       # the shotgun
    for armour in load(DATA / "armour.yaml")["armour"]:
        assert f"{armour['name']} Steps {armour['steps']}" in text     # the steps under the name (armour.html)
    assert "Brawl 2 m 2 yd" in text and "View 2000 m 1 mi" in text
    # Act at N or sooner, by hand: 36 needs 6x6 (1 in 36); any armour makes it impossible.
    assert "36 3% 0% 0% 0%" in text
    # 1 or more: certain unarmoured; Light loses only a roll of 1 (35/36).
    assert "1 100% 97% 92% 86%" in text


def test_site_pages_show_the_tables_the_grid_and_the_rulings(example_build):
    weapons = site_words(example_build, "weapons.html")
    for table in sorted((DATA / "weapons").glob("*.yaml")):
        for category in load(table)["categories"]:
            for weapon in category["weapons"]:
                assert weapon["name"] in weapons
    ladder = site_words(example_build, "ladder.html")
    assert "Hi Wo+ Wo+ Wo+ Wo Kn Ki Ov" in ladder
    assert "Kn Ki+ Ki+ Ki+ Ki+ Ki+ Ki Ov" in ladder
    assert "3 3; 2 + 1; 1 + 1 + 1" in ladder
    turns = site_words(example_build, "turns.html")
    assert "20 22.2% 16.7% 16.7% 16.7%" in turns
    rulings = (example_build.out_dir / "site" / "d6xd6" / "rulings.html").read_text(encoding="utf-8")
    for ruling in load(RULINGS_FILE)["rulings"]:
        assert f'id="{ruling["id"]}"' in rulings
    for rel in ("weapons.html", "ladder.html", "turns.html"):
        page = (example_build.out_dir / "site" / "d6xd6" / rel).read_text(encoding="utf-8")
        assert re.search(r'href="\.\./downloads/a4/d6xd6/[a-z-]+\.pdf"', page), rel
    site = example_build.out_dir / "site"
    assert sorted(p.name for p in (site / "downloads" / "letter" / "d6xd6").glob("*.pdf")) == [
        "ladder-cards.pdf", "reference-cards.pdf"]


def test_the_rules_page_is_in_the_navigation(example_build):
    index = (example_build.out_dir / "site" / "d6xd6" / "index.html").read_text(encoding="utf-8")
    assert "Adding and superseding" in index
    for rel in ("weapons/", "ladder/", "turns/", "rulings/"):
        assert rel.rstrip("/") in index


# --- contexts, without rendering -----------------------------------------------

def test_character_defences_are_derived_from_the_tables(game):
    by_name = {c.name: c for c in game.characters.characters}
    tomasz = sheet_for(by_name["Tomasz Reyes"], game)       # Brawn and Martial Arts, no armour
    assert (tomasz.armour, tomasz.armour_steps) == (None, 0)
    assert tomasz.reactive == ("brawling", "shooting")       # Brawn defends against both
    assert tomasz.attacks == ("brawling", "throwing")        # Martial Arts attacks with both
    ines = sheet_for(by_name["Ines Okafor"], game)
    assert (ines.armour, ines.armour_steps, ines.reactive) == ("Medium", 2, ("throwing",))
    blank = sheet_for(None, game)
    assert blank.name == "" and blank.armour_steps == 0


def test_rung_names_come_from_the_data_and_abbreviations_are_unique(game):
    ladder = rungs(game)
    assert [r.name for r in ladder] == ["Unhurt", "Graze", "Stun", "Hit", "Wound", "Knockout", "Kill", "Overkill"]
    assert [r.abbr for r in ladder] == ["-", "Gr", "St", "Hi", "Wo", "Kn", "Ki", "Ov"]
    assert [r.penalty for r in ladder] == [None, 1, 2, 3, 4, None, None, None]


def test_every_document_is_public_and_every_page_links_a_public_document(game):
    docs = documents(game)
    assert {d.audience for d in docs} == {"public"}
    slugs = {d.slug for d in docs}
    for page in pages(game):
        assert set(page.downloads) <= slugs
    ladder = next(d for d in docs if d.slug == "ladder-cards")
    assert len(ladder.cards) == 2 * (len(game.characters.characters) + 1)


PHONE = {"width": 360, "height": 740}


def test_pages_fit_a_phone_screen(example_build, browser):
    for rel in ("index.html", "weapons.html", "ladder.html", "turns.html", "rulings.html"):
        page = browser.new_page(viewport=PHONE)
        page.goto((example_build.out_dir / "site" / "d6xd6" / rel).as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], rel
        overflowing = page.evaluate("[...document.querySelectorAll('.md-typeset__scrollwrap')]"
                                    ".filter(w => w.scrollWidth > w.clientWidth + 1).length")
        assert overflowing == 0, rel
        page.close()
