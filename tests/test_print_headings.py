"""A printed heading is never left alone at the foot of a page (issue 32):
the PDFs' shared stylesheet (templates/base.css) keeps h1-h4 with what
follows. A page is filled until, with that rule switched off, a heading
would be the last line of page 1 (what follows it, a block that cannot
split like a table row or a card, going over); with the stylesheet as
shipped, it opens page 2 beside that block instead. Read back with pdftotext.
(WeasyPrint's own defaults ask the same of headings; base.css says it for
every heading level our templates use, so a template's rule cannot undo it
unnoticed. The site printed from a browser is tested in test_site_browser.)"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from generator.core.paths import TEMPLATES_DIR

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
RULE_OFF = "h1, h2, h3, h4 { break-after: auto !important; page-break-after: auto !important; }"


def _pages(tmp_path, level: int, filler: int, rule_off: bool) -> list[list[str]]:
    """The non-empty lines of each page (without the footer's page number)
    of a document with `filler` mm of empty space, then a heading and a
    block that cannot split."""
    from weasyprint import CSS, HTML
    block = "<br>".join(f"Line {i} of the block" for i in range(4))
    html = (f'<html><body><p>START</p><div style="height: {filler}mm"></div><h{level}>HEADING-{level}</h{level}>'
            f'<p style="break-inside: avoid">FOLLOWS-{level}<br>{block}</p></body></html>')
    sheets = [CSS(filename=str(TEMPLATES_DIR / "base.css")), CSS(string="@page { size: A5; margin: 15mm; }")]
    if rule_off:
        sheets.append(CSS(string=RULE_OFF))
    pdf = tmp_path / f"h{level}-{filler}-{rule_off}.pdf"
    HTML(string=html, base_url=str(TEMPLATES_DIR) + "/").write_pdf(pdf, stylesheets=sheets)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [[line.strip() for line in page.splitlines() if line.strip() and not line.strip().startswith("Page ")]
            for page in text.split("\f") if page.strip()]


@pytest.mark.parametrize("level", [2, 3, 4])
def test_a_heading_goes_over_to_the_next_page_with_its_text(tmp_path, level):
    for filler in range(120, 180, 3):       # mm of an A5 page's 180 mm of room
        pages = _pages(tmp_path, level, filler, rule_off=True)
        if len(pages) > 1 and pages[0][-1] == f"HEADING-{level}":
            break
    else:
        pytest.fail(f"no filler put the h{level} at a page's foot with the rule off")
    pages = _pages(tmp_path, level, filler, rule_off=False)
    assert pages[0][-1] != f"HEADING-{level}", pages[0][-3:]
    assert pages[1][:2] == [f"HEADING-{level}", f"FOLLOWS-{level}"], pages[1][:3]
