"""The printed documents, read back with poppler's pdfinfo/pdftotext/pdffonts:
paper sizes, page counts, each character's numbers on their own sheet,
embedded shipped fonts, secrets only where they belong, and the guards of
the PDF adapter (URL fetcher, overflow check, minimum type size)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.core.paths import DEFAULT_DATA_DIR, TEMPLATES_DIR
from generator.core.paper import A4
from matches import matched

# Page sizes in PostScript points, written out independently of the CSS.
PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
CHARACTERS = sorted((DEFAULT_DATA_DIR / "sixes" / "characters").glob("*.yaml"))


def run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def text_of(pdf: Path) -> str:
    """Whole text with all whitespace collapsed, so line breaks do not matter."""
    return " ".join(run("pdftotext", "-layout", str(pdf), "-").split())


def flat(text: str) -> str:
    return " ".join(text.split())


def info(pdf: Path) -> dict[str, str]:
    pairs = (line.split(":", 1) for line in run("pdfinfo", str(pdf)).splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def pdf(build, paper: str, folder: str, slug: str) -> Path:
    return build.out_dir / "pdf" / paper / "sixes" / folder / f"{slug}.pdf"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_pdf_has_its_paper_size_and_a_title(example_build, paper):
    pdfs = sorted((example_build.out_dir / "pdf" / paper).rglob("*.pdf"))
    assert len([p for p in pdfs if p.parent.parent.name == "sixes"]) == 4 + len(CHARACTERS)
    width, height = PAGE_POINTS[paper]
    for path in pdfs:
        meta = info(path)
        w, h = (float(x) for x in matched(re.match(r"([\d.]+) x ([\d.]+)", meta["Page size"])).groups())
        assert (round(w, 1), round(h, 1)) == (round(width, 1), round(height, 1)), path
        # pdf/<paper>/<system>/<audience>/<slug>.pdf: each system's own game title.
        assert meta["Title"].startswith(load(DEFAULT_DATA_DIR / path.parent.parent.name / "game.yaml")["title"]), path


@pytest.mark.parametrize("folder, slug, most", [
    ("public", "hand-signal-cards", 1), ("public", "rules-reference", 2), ("gm", "gm-cheat-sheet", 6),
    ("gm", "balance-report", 3)])   # outliers and duels, every character, brawls
def test_page_counts_of_shared_documents(example_build, folder, slug, most):
    for paper in ("a4", "letter"):
        assert 1 <= int(info(pdf(example_build, paper, folder, slug))["Pages"]) <= most


@pytest.mark.parametrize("path", CHARACTERS, ids=lambda p: p.stem)
def test_character_sheet_shows_its_character(example_build, path):
    data = load(path)
    sheet = pdf(example_build, "a4", "players", path.stem)
    assert int(info(sheet)["Pages"]) <= 2
    text = text_of(sheet)
    assert data["name"] in text
    assert f"Hit points: {data['hit_points']}" in text
    assert re.search(rf"Armour {data.get('armour', 0)}\b", text)
    assert f"+{data.get('damage', 0)}" in text
    for special in data.get("specials", []):
        assert special in text
    # The secret background is on the player's own sheet.
    assert flat(data["background"])[:60] in text
    # Speed 1 row: Effect 5, Attack 5 + damage.
    assert re.search(rf"\b1 5 {5 + data.get('damage', 0)}\b", text)


def test_secret_special_is_only_on_its_owners_sheet(example_build):
    specials = load(DEFAULT_DATA_DIR / "sixes" / "specials.yaml")["specials"]
    secret = [s for s in specials if s.get("secret")]
    assert secret, "the example data should exercise secret specials"
    for special in secret:
        rule = flat(special["rule"])[:50]
        for path in CHARACTERS:
            owns = special["name"] in load(path).get("specials", [])
            owned = rule in text_of(pdf(example_build, "a4", "players", path.stem))
            assert owned == owns, (special["name"], path.stem)
        assert rule in text_of(pdf(example_build, "a4", "gm", "gm-cheat-sheet"))


def test_public_pdfs_hold_no_secrets(example_build):
    game = load(DEFAULT_DATA_DIR / "sixes" / "game.yaml")
    secrets = [flat(p)[:50] for p in game["gm_notes"].split("\n\n") if p.strip()]
    secrets += [flat(load(p)["background"])[:50] for p in CHARACTERS]
    secrets += [flat(s["rule"])[:50] for s in load(DEFAULT_DATA_DIR / "sixes" / "specials.yaml")["specials"]
                if s.get("secret")]
    for paper in ("a4", "letter"):
        for path in (example_build.out_dir / "pdf" / paper / "sixes" / "public").glob("*.pdf"):
            text = text_of(path)
            leaked = [s for s in secrets if s in text]
            assert not leaked, (path, leaked)


def test_gm_sheet_has_roster_and_notes(example_build):
    text = text_of(pdf(example_build, "letter", "gm", "gm-cheat-sheet"))
    for path in CHARACTERS:
        assert load(path)["name"] in text
    notes = load(DEFAULT_DATA_DIR / "sixes" / "game.yaml")["gm_notes"]
    assert flat(notes)[:60] in text
    assert "Speed 5: activate!" in text


def test_hand_signal_card_lists_every_action(example_build):
    actions = load(DEFAULT_DATA_DIR / "sixes" / "actions.yaml")["actions"]
    text = text_of(pdf(example_build, "a4", "public", "hand-signal-cards"))
    for action in actions.values():
        assert action["name"] in text
    for fingers, effect in [(5, 1), (4, 2), (3, 3), (2, 4), (1, 5)]:
        assert f"{fingers} {effect}" in text


def test_rules_reference_prints_hits_to_rattle(example_build):
    text = text_of(pdf(example_build, "a4", "public", "rules-reference"))
    assert "Hits to rattle" in text
    # Armour 3, 10 hit points, Effect 1..7, worked by hand: -, -, -, 10, 5, 4, 3.
    assert "10 - - - 10 5 4 3" in text


def test_only_shipped_fonts_are_embedded(example_build):
    for path in [pdf(example_build, "a4", "public", "rules-reference"),
                 pdf(example_build, "letter", "gm", "gm-cheat-sheet"),
                 pdf(example_build, "a4", "players", CHARACTERS[0].stem)]:
        rows = run("pdffonts", str(path)).splitlines()[2:]
        assert rows
        for row in rows:
            name, emb = row.split()[0], row.split()[-5]
            assert "Atkinson-Hyperlegible" in name, (path, row)
            assert emb == "yes", (path, row)


# --- the adapter's guards -------------------------------------------------

def _render(html: str, paper: str = "a4"):
    from generator.render.pdf.weasy import make_fetcher
    import weasyprint
    return weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/",
                           url_fetcher=make_fetcher((TEMPLATES_DIR,))).render(
        stylesheets=[weasyprint.CSS(string=f"@page {{ size: {paper} }}")])


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://127.0.0.1:9/x.png",
                                 "file:///etc/hostname?x", (TEMPLATES_DIR / ".." / "pyproject.toml").as_uri()])
def test_fetcher_refuses_anything_outside_the_project_folders(tmp_path, url):
    from generator.render.pdf.weasy import ForbiddenResource, PdfJob, render_pdf
    job = PdfJob(f'<img src="{url}">', TEMPLATES_DIR.as_uri() + "/", tmp_path / "x.pdf", A4,
                 (TEMPLATES_DIR,), "probe")
    with pytest.raises(ForbiddenResource, match="refused to read"):
        render_pdf(job)
    assert not (tmp_path / "x.pdf").exists()


def test_fetcher_serves_shipped_files_and_data_urls():
    from generator.render.pdf.weasy import make_fetcher
    fetcher = make_fetcher((TEMPLATES_DIR,))
    assert b"<svg" in fetcher.fetch((TEMPLATES_DIR / "icons" / "fist.svg").as_uri()).read()
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"


def test_overflow_check_finds_text_spilling_out_of_a_card():
    from generator.render.pdf.weasy import find_overflows
    card = '<div aria-label="probe" style="width:30mm;height:20mm;overflow:hidden">{}</div>'
    assert find_overflows(_render(card.format("short"))) == []
    assert find_overflows(_render(card.format("many words " * 80))) == ["page 1: content overflows 'probe'"]


def test_overflow_check_reaches_cards_inside_a_positioned_grid():
    """The shared card sheet places absolutely positioned cards inside an
    absolutely positioned grid; the check once stopped at the grid."""
    from generator.render.pdf.weasy import find_overflows
    sheet = ('<div style="position:absolute"><div aria-label="probe" '
             'style="position:absolute;width:30mm;height:20mm;overflow:hidden">{}</div></div>')
    assert find_overflows(_render(sheet.format("short"))) == []
    assert find_overflows(_render(sheet.format("many words " * 80))) == ["page 1: content overflows 'probe'"]


# The legible floors: 9 pt on sheets and references; a card, whose box is
# fixed, may step its text down to 7 pt before anything overflows (issue 27:
# render/fit/bounded.py chooses the step, and `sixes check` refuses what will not
# fit even then).
SHEET_FLOOR_PX, CARD_FLOOR_PX = 12, 7 * 4 / 3


def test_body_text_is_at_least_9pt(example_build):
    """Every text box in the documents, except page footers and card feet, is
    9 pt or larger (7 pt on cards): every system's shared documents and one
    player document each."""
    from weasyprint.formatting_structure.boxes import TextBox
    from generator.game.load import load_all
    from generator.render.pdf.jobs import document_html
    loaded, _ = load_all(DEFAULT_DATA_DIR)
    for item in loaded:
        docs = item.system.documents(item.game)
        players = [d for d in docs if d.audience == "player"][:1]
        for doc in [d for d in docs if d.audience != "player"] + players:
            slug = f"{item.system.slug}/{doc.slug}"
            rendered = _render(document_html(doc))
            small = set()
            for page in rendered.pages:
                for box in page._page_box.descendants(placeholders=True):   # into positioned boxes (cards) too
                    if isinstance(box, TextBox) and box.text.strip():
                        cls = (box.element.get("class") or "") if box.element is not None else ""
                        if "foot" in cls.split() or box.element is None:
                            continue
                        floor = CARD_FLOOR_PX if doc.cards else SHEET_FLOOR_PX     # 9 pt = 12 CSS px
                        if box.style["font_size"] < floor - 1e-6:
                            small.add(box.text.strip()[:30])
            assert not small, (slug, sorted(small)[:10])


def test_linked_stylesheet_outside_the_templates_is_still_refused(tmp_path):
    """Stylesheets under templates/ are parsed once per worker and taken out
    of the HTML; any other link is left for WeasyPrint and its fetcher."""
    from generator.render.pdf.weasy import ForbiddenResource, PdfJob, render_pdf
    outside = (TEMPLATES_DIR / ".." / "pyproject.toml").resolve().as_uri()
    job = PdfJob(f'<link rel="stylesheet" href="{outside}"><p>x</p>', TEMPLATES_DIR.as_uri() + "/",
                 tmp_path / "x.pdf", A4, (TEMPLATES_DIR,), "probe")
    with pytest.raises(ForbiddenResource, match="refused to read"):
        render_pdf(job)


def test_an_edited_stylesheet_is_read_again_by_a_warm_worker(tmp_path, monkeypatch):
    """A worker that outlives a build (--watch, serve) keeps parsed
    stylesheets, but not past an edit to the file.

    The renderer's templates folder is a folder of the test's own: a probe
    written into the shipped templates/ changed, then broke, the template
    hash of a build the other test worker was running (issue 30)."""
    import os
    from pypdf import PdfReader
    import generator.render.pdf.weasy as pdf
    templates = tmp_path / "templates"
    templates.mkdir()
    monkeypatch.setattr(pdf, "TEMPLATES_DIR", templates)
    probe = templates / "probe.css"
    job = pdf.PdfJob(f'<link rel="stylesheet" href="{probe.name}"><p>x</p>', templates.as_uri() + "/",
                     tmp_path / "x.pdf", A4, (templates,), "probe")
    widths = []
    for size, mtime in ((100, 1_000_000_000), (120, 1_000_000_100)):
        probe.write_text(f"@page {{ size: {size}mm {size}mm }}")
        os.utime(probe, (mtime, mtime))
        pdf.render_pdf(job)
        widths.append(round(float(PdfReader(job.target).pages[0].mediabox.width) * 25.4 / 72))
    assert widths == [100, 120]     # the document's own @page beats the paper size, as before
