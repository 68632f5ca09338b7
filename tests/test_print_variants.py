"""Print variants, checked by rendering: --ink saver paints no solid blocks
(but keeps cut marks), --large-print sets what players read at 12 pt or more
(cards keep their size), and tagged PDF/UA files (the default) stay tagged
in large print."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paper import A4, LETTER

from generator.game.load import load_all

from generator.render.pdf.jobs import prepare_html
from generator.render.options import PrintOptions
from generator.systems.sixes import SYSTEM as SIXES
from test_print_cards import filled_rects, marks


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    data = tmp_path_factory.mktemp("variants") / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    return data


def built(starter, tmp_path_factory, **options):
    out = tmp_path_factory.mktemp("out")
    build(BuildConfig(starter, out, (A4,), site=False, workers=1, options=PrintOptions(**options)))
    return out / "pdf" / "a4" / "sixes"


def solid_blocks(path):
    """Filled rectangles that are not white and larger than 2 x 2 mm."""
    return [(n, c, r) for n, page in enumerate(PdfReader(path).pages, 1) for c, r in filled_rects(page)
            if c != (1.0, 1.0, 1.0) and r[2] > 2 and r[3] > 2]


def test_ink_saver_paints_no_solid_blocks_and_keeps_the_cut_marks(starter, tmp_path_factory):
    normal = built(starter, tmp_path_factory)
    saver = built(starter, tmp_path_factory, ink_saver=True)
    for name in ("players/first-rival.pdf", "public/rules-reference.pdf", "gm/gm-cheat-sheet.pdf"):
        assert solid_blocks(normal / name), f"{name} should have tinted blocks normally"
        assert solid_blocks(saver / name) == [], name
    deck = PdfReader(saver / "public" / "hand-signal-cards.pdf").pages[0]
    assert len(marks(deck)) == len(marks(PdfReader(normal / "public" / "hand-signal-cards.pdf").pages[0])) > 0


def _smallest_text_pt(html_doc, stylesheets=()):
    import weasyprint
    from weasyprint.formatting_structure.boxes import TextBox
    from generator.core.paths import TEMPLATES_DIR
    document = weasyprint.HTML(string=html_doc, base_url=TEMPLATES_DIR.as_uri() + "/").render(
        stylesheets=[weasyprint.CSS(filename=str(TEMPLATES_DIR / s)) for s in stylesheets])
    sizes = [box.style["font_size"] * 0.75 for page in document.pages for box in page._page_box.descendants()
             if isinstance(box, TextBox) and box.text.strip() and box.element is not None
             and box.element.tag != "html"]
    return min(sizes)


def test_large_print_sets_sheets_and_summaries_at_12pt_but_not_cards(starter):
    (item,), _ = load_all(starter)
    docs = {d.slug: d for d in item.system.documents(item.game)}
    options = PrintOptions(large_print=True)
    for slug in ("first-rival", "rules-reference"):
        normal = prepare_html(docs[slug], PrintOptions())
        large = prepare_html(docs[slug], options)
        assert _smallest_text_pt(normal.html, normal.stylesheets) < 12
        assert _smallest_text_pt(large.html, large.stylesheets) >= 12 - 1e-6
        assert (large.budget.pages, large.budget.flowing) == (2 * normal.budget.pages, normal.budget.flowing)
    assert prepare_html(docs["hand-signal-cards"], options).stylesheets == ()
    assert prepare_html(docs["gm-cheat-sheet"], options).stylesheets == ()


def test_large_print_builds_within_its_budget_and_tagged_pdfs_are_tagged(starter, tmp_path_factory):
    out = built(starter, tmp_path_factory, large_print=True, tagged=True)
    for path in sorted(out.rglob("*.pdf")):
        root = PdfReader(path).root_object
        marks = root["/MarkInfo"]
        assert isinstance(marks, dict)
        assert marks["/Marked"] is True or marks["/Marked"] == True, path  # noqa: E712
        assert "/StructTreeRoot" in root, path


@pytest.mark.parametrize("language, paper, words", [("de", LETTER, "Zielzahlen"), ("fr", A4, "Cibles et chances")],
                         ids=["de-letter", "fr-a4"])
def test_large_print_builds_every_starter_in_a_wordier_language_within_its_plan(tmp_path, language, paper, words):
    """At 12 pt a French or German table of figures is wider than in English
    ("100 %", "Keine Karte", "Würfel"): side by side in a sheet's narrow
    column or three abreast, such tables ran past their columns and the
    build refused. Every system's starter as `sixes new --language` writes
    it builds in large print, each document within the pages its layout plans."""
    from click.testing import CliRunner

    from generator.commands.cli import main
    game, out = tmp_path / "game", tmp_path / "out"
    assert CliRunner().invoke(main, ["new", str(game), "--language", language]).exit_code == 0
    said = CliRunner().invoke(main, ["build", "--data", str(game), "--out", str(out), "--paper", paper.name,
                                     "--no-site", "--large-print"])
    assert said.exit_code == 0 and "layout plans" not in said.output, said.output
    odds = out / "pdf" / paper.name / "sixes-system" / "public" / "odds-card.pdf"
    assert words in "".join(page.extract_text() for page in PdfReader(odds).pages)     # in the game's language


def test_fillable_turns_inputs_of_player_documents_into_form_fields_flat_by_default(tmp_path):
    from generator.render.pdf.jobs import Budget, Prepared
    from generator.core.paths import TEMPLATES_DIR
    from generator.render.pdf.weasy import render_pdf
    html = ('<html lang="en"><head><title>Sheet</title><link rel="stylesheet" href="base.css"></head><body>'
            '<p>Hit points <input name="hp" value="5"></p><textarea name="notes"></textarea></body></html>')
    fields = {}
    for forms in (False, True):
        target = tmp_path / f"{forms}.pdf"
        render_pdf(Prepared(html, Budget(1), pdf_forms=forms).job(target, A4, (TEMPLATES_DIR,), "sheet"))
        fields[forms] = PdfReader(target).get_fields() or {}
    assert fields[False] == {}
    assert {"hp", "notes"} <= set(fields[True])


def test_only_player_documents_are_fillable(starter):
    (item,), _ = load_all(starter)
    options = PrintOptions(fillable=True)
    forms = {d.audience: prepare_html(d, options).pdf_forms for d in item.system.documents(item.game)}
    assert forms == {"player": True, "public": False, "gm": False}


def test_the_sixes_character_sheet_is_fillable_on_request_and_flat_otherwise(starter, tmp_path_factory):
    """Hit points (one box per point), the statuses and the notes become form
    fields with --fillable; without it the sheet carries no form at all."""
    flat = built(starter, tmp_path_factory) / "players" / "first-rival.pdf"
    fillable = built(starter, tmp_path_factory, fillable=True) / "players" / "first-rival.pdf"
    assert (PdfReader(flat).get_fields() or {}) == {}
    fields = set(PdfReader(fillable).get_fields() or {})
    assert fields == {"hit-point-1", "hit-point-2", "hit-point-3", "hit-point-4", "hit-point-5",
                      "status-rattled", "status-unconscious", "status-dead", "notes"}


SOLID_CHART_FILL = re.compile(r'<(?:rect|path)\b[^>]*\bfill="(?:#222|#8a8a8a|#d4d4d4)"')


@pytest.fixture(scope="module")
def chart_documents(tmp_path_factory):
    """The documents that carry SVG charts: a Six Shooter card (charts from
    imported macros) and the D6xD6 reference cards (a chart on a card face);
    and the Sixes balance report, whose bars are HTML."""
    from generator.systems.d6xd6 import SYSTEM as D6XD6
    from generator.systems.six_shooter import SYSTEM as SIX_SHOOTER
    data = tmp_path_factory.mktemp("charts") / "data"
    for system in (SIX_SHOOTER, D6XD6, SIXES):
        shutil.copytree(system.starter, data / system.slug)
    loaded, _ = load_all(data)
    wanted = {"critical-number-sheet", "reference-cards", "balance-report"}
    return {d.slug: d for item in loaded for d in item.system.documents(item.game) if d.slug in wanted}


def test_ink_saver_charts_have_no_solid_fills_wherever_they_are_drawn(chart_documents):
    assert len(chart_documents) == 3
    for slug, doc in chart_documents.items():
        if slug == "balance-report":
            continue
        assert SOLID_CHART_FILL.search(prepare_html(doc, PrintOptions()).html), \
            f"{slug} should have solid bars normally"
        assert not SOLID_CHART_FILL.search(prepare_html(doc, PrintOptions(ink_saver=True)).html), slug


def _ink(pdf, page: int) -> tuple[float, float]:
    """(mean darkness, share of solid area) of one page rasterised in grey at
    100 dpi. Solid: still dark after keeping only pixels whose whole 5 x 5
    neighbourhood (1.3 mm) is dark, which text strokes, outlines and thin
    hatching never are."""
    from PIL import Image, ImageFilter
    subprocess.run(["pdftoppm", "-gray", "-r", "100", "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(pdf.with_suffix(""))], check=True)
    image = Image.open(pdf.with_suffix(".pgm"))
    pixels = list(image.tobytes())                     # one byte a pixel: pdftoppm -gray writes 8-bit grey
    solid = list(image.filter(ImageFilter.MaxFilter(5)).tobytes())
    return sum(255 - v for v in pixels) / 255 / len(pixels), sum(v < 160 for v in solid) / len(solid)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_the_balance_reports_bars_keep_their_value_in_ink_saver(chart_documents, tmp_path):
    """Each bar is a grey fill ending in a rule: ink saver drops the fill but
    keeps the rule, so the value still shows, and nothing prints solid."""
    from generator.core.paths import TEMPLATES_DIR
    from generator.render.pdf.weasy import render_pdf
    doc = chart_documents["balance-report"]
    ink = {}
    for saver in (False, True):
        target = tmp_path / f"{saver}.pdf"
        render_pdf(prepare_html(doc, PrintOptions(ink_saver=saver)).job(target, A4, (TEMPLATES_DIR,), "report"))
        ink[saver] = _ink(target, PdfReader(target).get_num_pages())
    assert ink[True][1] < min(0.001, ink[False][1] / 10) and ink[True][0] < ink[False][0]
    html = prepare_html(doc, PrintOptions(ink_saver=True)).html
    assert html.count('class="fill"') == 2 * len(doc.context["balance"].fighters)
    css = (TEMPLATES_DIR / "sixes" / "sheet.css").read_text()
    assert re.search(r"\.meter \.fill \{[^}]*border-right: [\d.]+pt solid", css)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_ink_saver_charts_print_with_a_fraction_of_the_ink_and_keep_their_numbers(chart_documents, tmp_path):
    """Page 2 of the Critical Number sheet is all charts: three stacked bar charts."""
    from generator.core.paths import TEMPLATES_DIR
    from generator.render.pdf.weasy import render_pdf
    doc, ink, text = chart_documents["critical-number-sheet"], {}, {}
    for saver in (False, True):
        target = tmp_path / f"{saver}.pdf"
        render_pdf(prepare_html(doc, PrintOptions(ink_saver=saver)).job(target, A4, (TEMPLATES_DIR,), "card"))
        ink[saver] = _ink(target, 2)
        text[saver] = PdfReader(target).pages[1].extract_text()
    (normal_mean, normal_solid), (saver_mean, saver_solid) = ink[False], ink[True]
    assert normal_solid > 0.1                 # the ordinary charts are mostly solid bars
    assert saver_solid < 0.001                # outlines and thin hatching only
    assert saver_mean < normal_mean / 2
    assert saver_mean > 0.01                  # the charts are still drawn
    assert text[True] == text[False] and "83.3% / 16.7% / 0%" in text[True]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_ink_saver_keeps_an_i6_heros_rating_pips(tmp_path):
    """A trait's rating is drawn as filled pips of five: ink saver drops
    background fills, and had dropped these too, so every trait read as five
    empty circles. They are kept, as a Six Shooter's held Lucky Number is:
    a hero rated higher prints more solid dots."""
    from generator.core.paths import TEMPLATES_DIR
    from generator.render.pdf.weasy import render_pdf
    from generator.systems.i6 import SYSTEM as I6
    solid = {}
    for rating in (1, 5):
        data = tmp_path / f"data-{rating}"
        shutil.copytree(I6.starter, data / "i6")
        hero = data / "i6" / "heroes" / "first-hero.yaml"
        hero.write_text(re.sub(r"^(  \w+): \d$", rf"\g<1>: {rating}", hero.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
        info = data / "i6" / "game.yaml"
        info.write_text(re.sub(r"^budget: \d+", "budget: 200", info.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
        (game_item,), _ = load_all(data)
        doc = next(d for d in game_item.system.documents(game_item.game) if d.audience == "player")
        target = tmp_path / f"hero-{rating}.pdf"
        render_pdf(prepare_html(doc, PrintOptions(ink_saver=True)).job(target, A4, (TEMPLATES_DIR, data), "hero"))
        solid[rating] = _ink(target, 1)[1]
    assert solid[5] > solid[1] > 0, solid
