"""The print lint: a character the shipped fonts lack, text set in a font we
do not ship, text of one element printed over another's or off the printable
area, and a PDF without a title or language each fail the build, naming the
document, the page and the element."""
from __future__ import annotations

import shutil

import pytest
from pypdf import PdfReader

from generator.core.errors import BuildError

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paper import A4, LETTER
from generator.core.paths import TEMPLATES_DIR
from generator.systems.d6xd6 import SYSTEM as D6XD6
from generator.systems.sixes import SYSTEM as SIXES


def _render(html: str):
    import weasyprint
    return weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render()


PAGE = ('<html lang="{lang}"><head><title>{title}</title><link rel="stylesheet" href="base.css"></head>'
        '<body>{body}</body></html>')


def test_a_character_outside_the_shipped_fonts_is_named_with_page_and_element():
    from generator.render.pdf.lint import find_missing_glyphs
    body = '<p>fine</p><p style="break-before: page">fine</p><section aria-label="Card: Snow">' \
           '<p>Snow \u2603 and \u0141\u00f3d\u017a</p></section>'
    assert find_missing_glyphs(_render(PAGE.format(lang="en", title="t", body=body))) == [
        "page 2: 'Card: Snow' <p>: no glyph for '\u2603' (U+2603) in Atkinson Hyperlegible "
        "or Atkinson Hyperlegible Ext"]


def test_latin_extended_text_is_covered_by_the_shipped_fonts():
    from generator.render.pdf.lint import find_missing_glyphs
    body = "<p>\u0141\u00f3d\u017a, \u0218tef\u0103ne\u0219ti, \u0150rs\u00e9g \u2013 \u201cquoted\u201d \u2026</p>"
    assert find_missing_glyphs(_render(PAGE.format(lang="en", title="t", body=body))) == []


def test_text_in_a_font_we_do_not_ship_is_a_fault():
    from generator.render.pdf.lint import find_missing_glyphs
    faults = find_missing_glyphs(_render(PAGE.format(lang="en", title="t", body="<p>ok <code>dice</code></p>")))
    assert faults == ["page 1: <code>: font-family monospace is not a shipped font (text 'dice')"]


@pytest.mark.parametrize("lang, title, expected", [
    ("en", "A title", []),
    ("", "A title", ["no document language (<html lang> is missing)"]),
    ("en", " ", ["no document title (the HTML <title> is empty)"]),
])
def test_metadata_needs_a_title_and_a_language(lang, title, expected):
    from generator.render.pdf.lint import metadata_faults
    html = PAGE.format(lang=lang, title=title, body="<p>x</p>").replace(' lang=""', "")
    assert metadata_faults(_render(html)) == expected


def test_a_missing_glyph_in_the_data_fails_the_build_by_document_page_and_element(tmp_path, monkeypatch):
    """The data check refuses such text first (tests/test_hostile_inputs.py);
    with that check off, the print lint still stops the PDF."""
    monkeypatch.setattr("generator.core.glyphs.check_glyphs", lambda *args: [])
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    sheet = data / "sixes" / "characters" / "first-rival.yaml"
    sheet.write_text(sheet.read_text().replace("name: First Rival", "name: First Rival \u2603"))
    with pytest.raises(BuildError) as failure:
        build(BuildConfig(data, tmp_path / "out", (A4,), site=False, workers=1))
    message = str(failure.value)
    assert "a4 sixes/players/first-rival.pdf: page 1: <h1>: no glyph for '\u2603' (U+2603)" in message
    assert not (tmp_path / "out" / "pdf").exists()


def test_every_built_pdf_carries_title_and_language(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    report = build(BuildConfig(data, tmp_path / "out", (LETTER,), site=False, workers=1))
    assert report.pdfs
    for path in report.pdfs:
        reader = PdfReader(path)
        assert reader.metadata is not None and reader.metadata.title and reader.metadata.title.strip(), path
        assert str(reader.root_object["/Lang"]) == "en", path


def _overlaps(body: str) -> list[str]:
    from generator.render.pdf.lint import find_overlaps
    return find_overlaps(_render(PAGE.format(lang="en", title="t", body=body)))


def _at(top_mm: float, left_mm: float, text: str, extra: str = "") -> str:
    return f'<p style="position:absolute;margin:0;top:{top_mm}mm;left:{left_mm}mm"{extra}>{text}</p>'


def test_two_positioned_paragraphs_printed_over_each_other_are_named():
    assert _overlaps(_at(20, 20, "First words") + _at(21, 22, "Second words")) == [
        "page 1: text of 'p “First words”' overlaps 'p “Second words”'"]


def test_text_apart_or_set_tight_is_not_an_overlap():
    """Neighbours a line apart, a heading set solid over its paragraph, the
    wrapped lines of one paragraph set tighter than their glyphs, words
    kerned together in one line, a chart (inline SVG, its text inside its
    box) or an image beside its words, decorative (aria-hidden) text and a
    form field beside its label are all fine."""
    body = (_at(200, 20, "First words") + _at(206, 20, "Second words")
            + '<h2 style="line-height:0.9;margin:0">Heading</h2><p style="line-height:1;margin:0">Straight under</p>'
            + '<p style="line-height:0.8;width:30mm">' + "many short words " * 12 + "</p>"
            + '<p>close<span style="display:inline-block;margin-left:-1.5mm">kerned</span></p>'
            + '<p style="margin:0">Over a chart</p><svg width="200" height="40"><text x="0" y="12">chart text</text>'
              '</svg><p style="margin:0">Under a chart</p>'
            + f'<p>Beside <img alt="a dot" src="{DOT}" style="width:4mm;height:4mm"> an image</p>'
            + '<div style="position:relative"><p>Under a flourish</p>'
            + _at(0, 0, "DECORATION", ' aria-hidden="true"') + "</div>"
            + '<p><label>Name <input value="Mara"></label></p>')
    assert _overlaps(body) == []


def test_text_off_the_printable_area_is_named():
    assert _overlaps(_at(50, -11, "Edge")) == [
        "page 1: text of 'p “Edge”' runs off the printable area (the outer 3 mm of the sheet)"]
    assert _overlaps(_at(50, -8, "Edge")) == []   # 4 mm from the sheet's edge


# A one-pixel PNG: an image with no file behind it.
DOT = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJ"
       "RU5ErkJggg==")


def test_an_image_or_a_chart_printed_over_text_or_off_the_sheet_is_named():
    """A portrait, a logo or a chart is ink as text is: printed over a
    paragraph, or past the printable part of the sheet, it is a fault."""
    chart = '<svg width="200" height="40"><text x="0" y="12">chart text</text></svg>'
    over = ('<div style="position:relative"><p>Under a chart</p>'
            f'<div style="position:absolute;top:0;left:0">{chart}</div></div>')
    assert _overlaps(over) == ["page 1: the image 'div “<svg>”' overlaps 'p “Under a chart”'"]
    portrait = f'<img alt="Mara" src="{DOT}" style="width:20mm;height:20mm">'
    assert _overlaps(f'<div style="position:absolute;margin:0;top:50mm;left:-11mm">{portrait}</div>') == [
        "page 1: the image 'div “<img> Mara”' runs off the printable area (the outer 3 mm of the sheet)"]


def test_text_through_the_border_of_its_box_is_named():
    box = '<div class="frame" style="border:1pt solid;width:30mm"><p style="white-space:nowrap">{}</p></div>'
    assert _overlaps(box.format("Fits")) == []
    assert _overlaps(box.format("A line far too long for its box")) == [
        "page 1: text of 'p “A line far too long for”' runs through the border of 'div.frame'"]


def test_a_shared_class_moving_a_table_onto_its_legend_is_caught(tmp_path):
    """The past bug: a card sheet's own `.grid` rule reached a face's
    table.grid and pulled it over the legend of the D6xD6 lookup card."""
    from generator.game.load import load_all
    from generator.render.pdf.jobs import prepare_html
    from generator.render.pdf.lint import find_overlaps
    from generator.render.options import DEFAULT_OPTIONS
    shutil.copytree(D6XD6.starter, tmp_path / "data" / "d6xd6")
    (loaded,), _ = load_all(tmp_path / "data")
    deck = next(d for d in D6XD6.documents(loaded.game) if d.slug == "ladder-cards")
    html = prepare_html(deck, DEFAULT_OPTIONS).html
    assert find_overlaps(_render(html)) == []
    broken = html.replace("</head>", "<style>.grid { position: absolute; top: 0; left: 0; }</style></head>")
    faults = find_overlaps(_render(broken))
    assert any("overlaps" in f and "table.grid" in f and "Lookup:" in f for f in faults), faults


def test_overlapping_text_reaches_the_pdf_result(tmp_path):
    from generator.render.pdf.weasy import PdfJob, render_pdf
    html = PAGE.format(lang="en", title="t", body=_at(20, 20, "First words") + _at(21, 22, "Second words"))
    result = render_pdf(PdfJob(html, TEMPLATES_DIR.as_uri() + "/", tmp_path / "x.pdf", A4, (TEMPLATES_DIR,), "probe"))
    assert result.lint == ("page 1: text of 'p “First words”' overlaps 'p “Second words”'",)


def _long_table(row_style: str = "") -> str:
    """A table starting low on the page whose tall fourth row reaches past the
    page's foot: with `row_style` "break-inside: auto" that row is split."""
    rows = "".join(f'<tr{" style=%s" % repr(row_style) if i == 3 and row_style else ""}><td>Fighter {i}</td>'
                   f"<td>{'word ' * (150 if i == 3 else 2)}</td></tr>" for i in range(12))
    return PAGE.format(lang="en", title="t", body='<div style="height:215mm"></div><table><thead><tr><th>Name</th>'
                                                  f"<th>Figures</th></tr></thead><tbody>{rows}</tbody></table>")


def test_a_row_split_across_a_page_break_is_named():
    from generator.render.pdf.lint import find_split_rows
    assert find_split_rows(_render(_long_table("break-inside: auto"))) == [
        "page 1: a table row (“Fighter 3 word word word word”) is split: it continues on the next page"]


def test_rows_are_kept_whole_and_the_repeated_head_is_no_split():
    """The shared stylesheet keeps every row on one page; the table's head,
    repeated on the next page, is not a split row."""
    from generator.render.pdf.lint import find_split_rows
    document = _render(_long_table())
    assert len(document.pages) == 2
    assert find_split_rows(document) == []
    assert "Name" in " ".join(b.text for b in _texts(document.pages[1]._page_box))


def test_a_row_taller_than_a_page_goes_on_and_is_no_split():
    """A game's text in one cell may make a row taller than a whole page
    (an Operator's archetype of a thousand words): no page holds it, so it
    continues on the next one, with the rows around it whole; only a row a
    page could hold is a split (the test above)."""
    from generator.render.pdf.lint import find_split_rows
    cell = "".join(f'<p style="height: 70mm">Part {k}</p>' for k in range(4))      # 280 mm, over two pages
    rows = "".join(f"<tr><td>Fighter {i}</td><td>{cell if i == 3 else 'two words'}</td></tr>" for i in range(6))
    document = _render(PAGE.format(lang="en", title="t", body="<table><tbody>" + rows + "</tbody></table>"))
    assert len(document.pages) == 3
    assert find_split_rows(document) == []


def _texts(box):
    from weasyprint.formatting_structure.boxes import TextBox
    if isinstance(box, TextBox):
        yield box
    for child in getattr(box, "children", ()):
        yield from _texts(child)


def test_a_split_row_fails_the_build(tmp_path):
    """The split reaches the PDF's result and the layout check refuses it,
    naming the document and the page."""
    from generator.render.pdf.jobs import Budget, check_layout
    from generator.render.pdf.weasy import PdfJob, render_pdf
    job = PdfJob(_long_table("break-inside: auto"), TEMPLATES_DIR.as_uri() + "/", tmp_path / "x.pdf", A4,
                 (TEMPLATES_DIR,), "probe")
    result = render_pdf(job)
    with pytest.raises(BuildError) as failure:
        check_layout([Budget(2)], [result])
    assert "probe: page 1: a table row (“Fighter 3" in str(failure.value)


def test_columns_laid_out_as_a_table_may_flow_over_pages():
    """A `display: table` layout of two columns (the sheets' .columns) is no
    row read across: its cells flowing onto the next page are no split."""
    from generator.render.pdf.lint import find_split_rows
    body = ('<div style="display:table;width:100%"><div style="display:table-cell">'
            + "<p>A paragraph of the main column.</p>" * 60 + '</div><div style="display:table-cell">Side</div></div>')
    document = _render(PAGE.format(lang="en", title="t", body=body))
    assert len(document.pages) > 1
    assert find_split_rows(document) == []


def test_a_table_pushed_past_its_column_by_a_long_word_is_named():
    """Its text stays in its cells, so no text overlaps: the table's own edge
    is measured. (Its heads do not hyphenate, as base.css would have them:
    words that cannot break are what push a table wide.)"""
    from generator.render.pdf.lint import find_wide_tables
    head = "<tr><th>Speed</th><th>Spezialaktionswirkung</th><th>Verteidigungsbereitschaft</th></tr>"
    body = (f'<div style="width:40mm"><table style="hyphens: manual">{head}'
            '<tr><td>1</td><td>2</td><td>3</td></tr></table></div>')
    faults = find_wide_tables(_render(PAGE.format(lang="de", title="t", body=body)))
    assert len(faults) == 1 and faults[0].startswith("page 1: table (“Speed Spezialaktionswirkung") \
        and "mm wider than its column" in faults[0], faults
    fitting = body.replace("width:40mm", "width:150mm")
    assert find_wide_tables(_render(PAGE.format(lang="de", title="t", body=fitting))) == []


@pytest.mark.parametrize("language", ["en", "fr", "de", "de-long-name"])
def test_the_speed_table_stays_in_its_column_in_every_language(tmp_path, language):
    """The Sixes sheet's speed table is headed by the action names: German's
    "Spezialaktion" widened it past the sheet's main column on A4, and so
    would a game's own long action name, which no check measures there."""
    from generator.core.i18n import speaking, words_for
    from generator.game.load import load_all
    from generator.render.pdf.jobs import prepare_html
    from generator.render.pdf.lint import find_wide_tables
    from generator.render.options import DEFAULT_OPTIONS
    from generator.systems.base import starter_in
    language, _, long_name = language.partition("-")
    shutil.copytree(starter_in(SIXES, language), tmp_path / "data" / "sixes")
    if long_name:
        actions = tmp_path / "data" / "sixes" / "actions.yaml"
        actions.write_text(actions.read_text(encoding="utf-8").replace("name: Spezialaktion",
                                                                      "name: Spezialkampfunterstützungsaktion"),
                           encoding="utf-8")
    with speaking(words_for(language)):
        (loaded,), _ = load_all(tmp_path / "data")
        sheet = next(d for d in SIXES.documents(loaded.game) if d.folder == "players")
        html = prepare_html(sheet, DEFAULT_OPTIONS).html
    assert "table" in html and find_wide_tables(_render(html)) == []
