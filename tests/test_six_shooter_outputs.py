"""Six Shooter printables and site pages, read back from a build of the
example adventure: each holds its numbers, secrets stay off public outputs."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems.six_shooter import SYSTEM
from generator.systems.six_shooter.dataset import RULINGS_FILE
from matches import matched

DATA = DEFAULT_DATA_DIR / "six-shooter"
OPERATORS = yaml.safe_load((DATA / "operators.yaml").read_text(encoding="utf-8"))["operators"]
CHALLENGES = yaml.safe_load((DATA / "challenges.yaml").read_text(encoding="utf-8"))["challenges"]
GAME = yaml.safe_load((DATA / "game.yaml").read_text(encoding="utf-8"))


def text_of(pdf: Path, layout: bool = True) -> str:
    """Text with whitespace collapsed; without `layout` each card reads on its own."""
    args = ["pdftotext", "-layout", str(pdf), "-"] if layout else ["pdftotext", str(pdf), "-"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


def pages_of(pdf: Path) -> int:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(matched(re.search(r"Pages:\s+(\d+)", out)).group(1))


def pdf(build, folder: str, slug: str, paper: str = "a4") -> Path:
    return build.out_dir / "pdf" / paper / "six-shooter" / folder / f"{slug}.pdf"


def slug(name: str) -> str:
    return "operator-" + "-".join("".join(c.lower() if c.isalnum() else " " for c in name).split())


def site_text(build, page: str) -> str:
    raw = (build.out_dir / "site" / "six-shooter" / page).read_text(encoding="utf-8")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split())


def secrets() -> list[str]:
    found = [" ".join(p.split())[:50] for p in GAME["gm_notes"].split("\n\n") if p.strip()]
    found += [" ".join(c["gm_notes"].split())[:50] for c in CHALLENGES if c.get("gm_notes")]
    assert len(found) >= 3
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_document_is_built_within_its_pages(example_build, paper):
    root = example_build.out_dir / "pdf" / paper / "six-shooter"
    names = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.pdf"))
    assert names == sorted(["public/critical-number-sheet.pdf", "public/player-reference.pdf",
                            "public/operator-sheet.pdf", "gm/challenge-cards.pdf"]
                           + [f"players/{slug(o['name'])}.pdf" for o in OPERATORS])
    for name, most in (("public/critical-number-sheet.pdf", 2), ("public/player-reference.pdf", 1),
                       ("public/operator-sheet.pdf", 1), ("gm/challenge-cards.pdf", 2)):
        assert 1 <= pages_of(root / name) <= most, name


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: o["name"])
def test_operator_sheet_shows_its_operator(example_build, op):
    text = text_of(pdf(example_build, "players", slug(op["name"])))
    assert op["name"] in text and op["archetype"] in text
    assert op["descriptor"] in text
    assert ", ".join(str(n) for n in op["lucky_numbers"]) in text
    method = {"Dangerous": "Danger", "Sharp": "Sharpness", "Sly": "Slyness", "Charming": "Charm"}[op["descriptor"]]
    # Read without layout: beside the odds table, layout mode interleaves its rows with this sentence.
    sheet = text_of(pdf(example_build, "players", slug(op["name"])), layout=False)
    assert f"on {method} rolls any suit will do" in sheet
    # Hand places 1-6 with their marks, and the three strike boxes' rule.
    assert text.count("face-down") >= 6 and text.count("discarded") >= 6
    # Chance to overcome at CN 3: 0, 1, 2 strikes -> 4/6, 3/6, 2/6 (worked by hand).
    assert re.search(r"\b3 67% 50% 33%", text)


def test_critical_number_card_has_guide_and_odds(example_build):
    text = text_of(pdf(example_build, "public", "critical-number-sheet"))
    rules = yaml.safe_load((DATA / "rules.yaml").read_text(encoding="utf-8"))
    for entry in rules["guide"]:
        assert entry["label"] in text
    # CN 3 at 0, 1, 2 strikes (clean, costly, fail), worked by hand in sixths:
    # 3/1/2, then 2/1/3, then 1/1/4.
    assert "50% 17% 33% 33% 17% 50% 17% 17% 67%" in text
    # CN 6 with strikes is capped at 7: 0/1/5, then 0/0/6 twice.
    assert "0% 17% 83% 0% 0% 100% 0% 0% 100%" in text
    # The chart for 2 strikes writes each bar's figures beside it: CN 1 to 5
    # face 3 to 7, so 3/1/2, 2/1/3, 1/1/4, 0/1/5 and 0/0/6 sixths.
    assert ("2 strikes Clean Costly Fail CN 1 50.0% / 16.7% / 33.3% CN 2 33.3% / 16.7% / 50.0% "
            "CN 3 16.7% / 16.7% / 66.7% CN 4 0% / 16.7% / 83.3% CN 5 0% / 0% / 100%") in text


def test_challenge_cards_hold_every_challenge_for_the_gm(example_build):
    text = text_of(pdf(example_build, "gm", "challenge-cards", "letter"), layout=False)
    for challenge in CHALLENGES:
        assert challenge["name"] in text
        if challenge.get("gm_notes"):
            assert " ".join(challenge["gm_notes"].split())[:40] in text
    assert "Impossible" in text
    # The Glass Case: 3 stages; Danger 6 wins 1 in 6 -> 18 rolls on average.
    assert "Danger 18.0" in text


def test_player_reference_has_the_card_table(example_build):
    text = text_of(pdf(example_build, "public", "player-reference"))
    for heading in ("Your turn", "Rolling your hand", "Strikes", "Using a card", "All Or Nothing", "Lucky Numbers"):
        assert heading in text
    # CN 5 with no card, 2-10, Jack, Queen, King, Ace: 2/6, 3/6, 4/6, 5/6, 6/6, 6/6.
    assert re.search(r"\b5 33% 50% 67% 83% 100% 100%", text)


def test_public_outputs_hold_no_gm_notes(example_build):
    hidden = secrets()
    for paper in ("a4", "letter"):
        for path in (example_build.out_dir / "pdf" / paper / "six-shooter" / "public").glob("*.pdf"):
            text = text_of(path)
            assert not [s for s in hidden if s in text], path
    for path in (example_build.out_dir / "site").rglob("*"):
        if path.suffix in {".html", ".js", ".json"}:
            raw = html.unescape(path.read_text(encoding="utf-8", errors="replace"))
            text = " ".join(raw.replace("\\n", " ").split())
            assert not [s for s in hidden if s in text], path


def test_site_links_only_public_pdfs(example_build):
    site = example_build.out_dir / "site"
    published = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.pdf") if "/six-shooter/" in p.as_posix())
    assert published == sorted(f"downloads/{paper}/six-shooter/{name}.pdf" for paper in ("a4", "letter")
                               for name in ("critical-number-sheet", "player-reference", "operator-sheet"))
    adventure = (site / "six-shooter" / "adventure.html").read_text(encoding="utf-8")
    assert 'href="../downloads/a4/six-shooter/operator-sheet.pdf"' in adventure


def test_site_pages_show_the_numbers(example_build):
    luck = site_text(example_build, "luck.html")
    # Expected challenges at CN 1 with no Lucky Numbers (exact value 48.91...).
    assert "48.9" in luck and "<svg" in (example_build.out_dir / "site" / "six-shooter" / "luck.html").read_text()
    odds = site_text(example_build, "odds.html")
    assert "50.0% / 16.7% / 33.3%" in odds          # CN 3, no strikes
    contests = site_text(example_build, "contests.html")
    assert "You win" in contests and "Both struck" in contests
    challenges = site_text(example_build, "challenges.html")
    public = [c["name"] for c in CHALLENGES if c.get("visibility") == "public"]
    assert public and len(public) < len(CHALLENGES)
    for challenge in CHALLENGES:    # a challenge is the GM's unless marked public (docs/pages/systems/six-shooter.md)
        assert (challenge["name"] in challenges) == (challenge["name"] in public), challenge["name"]
    rulings = (example_build.out_dir / "site" / "six-shooter" / "rulings.html").read_text(encoding="utf-8")
    for ruling in yaml.safe_load(RULINGS_FILE.read_text(encoding="utf-8"))["rulings"]:
        assert f'id="{ruling["id"]}"' in rulings
    rules = site_text(example_build, "index.html")
    assert "All Or Nothing" in rules and "Lucky Numbers" in rules


def test_an_operator_with_no_lucky_number_left_gets_a_sheet_and_a_row(tmp_path):
    """v0.03 allows an Operator who gave up their last Lucky Number; the sheet
    and the crew table say so instead of failing on an empty list."""
    folder = tmp_path / "six-shooter"
    shutil.copytree(SYSTEM.starter, folder)
    text = (folder / "operators.yaml").read_text(encoding="utf-8")
    text = text.replace("lucky_numbers: [3]", "lucky_numbers: []\n    lost_lucky_numbers: 1")
    (folder / "operators.yaml").write_text(text, encoding="utf-8")
    game, problems = SYSTEM.load(folder, tmp_path)
    assert game is not None and problems == [], problems
    sheets = [document_html(d) for d in SYSTEM.documents(game) if "second-operator" in d.slug]
    assert len(sheets) == 1 and "None left." in sheets[0] and "started with" not in sheets[0]
    page = next(p for p in SYSTEM.pages(game) if p.path == "adventure.md")
    crew = render_template(page.template, {**page.context, "page_title": page.title, "downloads": []})
    assert "| none left |" in crew
