"""The print lint: a character the shipped fonts lack, text set in a font we
do not ship, and a PDF without a title or language each fail the build,
naming the document, the page and the element."""
from __future__ import annotations

import shutil

import pytest
from pypdf import PdfReader

from generator.build import BuildError, build
from generator.paths import TEMPLATES_DIR
from generator.systems.sixes import SYSTEM as SIXES


def _render(html: str):
    import weasyprint
    return weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render()


PAGE = ('<html lang="{lang}"><head><title>{title}</title><link rel="stylesheet" href="base.css"></head>'
        '<body>{body}</body></html>')


def test_a_character_outside_the_shipped_fonts_is_named_with_page_and_element():
    from generator.render.lint import find_missing_glyphs
    body = '<p>fine</p><p style="break-before: page">fine</p><section aria-label="Card: Snow">' \
           '<p>Snow \u2603 and \u0141\u00f3d\u017a</p></section>'
    assert find_missing_glyphs(_render(PAGE.format(lang="en", title="t", body=body))) == [
        "page 2: 'Card: Snow' <p>: no glyph for '\u2603' (U+2603) in Atkinson Hyperlegible or Atkinson Hyperlegible Ext"]


def test_latin_extended_text_is_covered_by_the_shipped_fonts():
    from generator.render.lint import find_missing_glyphs
    body = "<p>\u0141\u00f3d\u017a, \u0218tef\u0103ne\u0219ti, \u0150rs\u00e9g \u2013 \u201cquoted\u201d \u2026</p>"
    assert find_missing_glyphs(_render(PAGE.format(lang="en", title="t", body=body))) == []


def test_text_in_a_font_we_do_not_ship_is_a_fault():
    from generator.render.lint import find_missing_glyphs
    faults = find_missing_glyphs(_render(PAGE.format(lang="en", title="t", body="<p>ok <code>dice</code></p>")))
    assert faults == ["page 1: <code>: font-family monospace is not a shipped font (text 'dice')"]


@pytest.mark.parametrize("lang, title, expected", [
    ("en", "A title", []),
    ("", "A title", ["no document language (<html lang> is missing)"]),
    ("en", " ", ["no document title (the HTML <title> is empty)"]),
])
def test_metadata_needs_a_title_and_a_language(lang, title, expected):
    from generator.render.lint import metadata_faults
    html = PAGE.format(lang=lang, title=title, body="<p>x</p>").replace(' lang=""', "")
    assert metadata_faults(_render(html)) == expected


def test_a_missing_glyph_in_the_data_fails_the_build_by_document_page_and_element(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    sheet = data / "sixes" / "characters" / "first-rival.yaml"
    sheet.write_text(sheet.read_text().replace("name: First Rival", "name: First Rival \u2603"))
    with pytest.raises(BuildError) as failure:
        build(data, tmp_path / "out", ("a4",), site=False, workers=1)
    message = str(failure.value)
    assert "a4 sixes/players/first-rival.pdf: page 1: <h1>: no glyph for '\u2603' (U+2603)" in message
    assert not (tmp_path / "out" / "pdf").exists()


def test_every_built_pdf_carries_title_and_language(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    report = build(data, tmp_path / "out", ("letter",), site=False, workers=1)
    assert report.pdfs
    for path in report.pdfs:
        reader = PdfReader(path)
        assert reader.metadata.title and reader.metadata.title.strip(), path
        assert reader.trailer["/Root"]["/Lang"] == "en", path
