"""The Paper type and the output layout (generator/core/paper.py, core/layout.py),
against hand-written names, sizes and paths."""
from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from generator.core.layout import DocumentPdf, paper_folder
from generator.core.paper import A4, CHOICES, LETTER, PAPERS, Paper, papers_for


@pytest.mark.parametrize("spelling, paper", [("a4", A4), ("A4", A4), ("letter", LETTER), ("Letter", LETTER),
                                             ("LETTER", LETTER)])
def test_every_spelling_of_a_paper_parses(spelling, paper):
    assert Paper.parse(spelling) is paper
    assert papers_for(spelling) == (paper,)


def test_a_paper_parses_as_itself_and_both_is_every_paper():
    assert Paper.parse(LETTER) is LETTER
    assert PAPERS == (A4, LETTER)
    assert papers_for("both") == papers_for("Both") == (A4, LETTER)
    assert CHOICES == ("a4", "letter", "both")


@pytest.mark.parametrize("name", ["a5", "", "a4 ", "both"])
def test_an_unknown_paper_is_refused_with_the_papers_there_are(name):
    with pytest.raises(ValueError) as caught:
        Paper.parse(name)
    assert str(caught.value) == f"unknown paper {name!r}: use a4 or letter"


def test_an_unknown_choice_is_refused_with_the_choices_there_are():
    with pytest.raises(ValueError) as caught:
        papers_for("tabloid")
    assert str(caught.value) == "unknown paper 'tabloid': use a4, letter or both"


def test_names_labels_and_sizes_in_millimetres():
    assert (A4.name, A4.label, A4.size_mm) == ("a4", "A4", (210.0, 297.0))
    assert (LETTER.name, LETTER.label, LETTER.size_mm) == ("letter", "US Letter", (215.9, 279.4))


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.name)
def test_weasyprint_reads_the_css_size_as_the_same_millimetres(paper):
    weasyprint = pytest.importorskip("weasyprint")
    css = weasyprint.CSS(string=f"@page {{ size: {paper.css_size}; margin: 0 }}")
    page = weasyprint.HTML(string="<p>x</p>").render(stylesheets=[css]).pages[0]
    px_per_mm = 96 / 25.4
    assert page.width / px_per_mm == pytest.approx(paper.width_mm, abs=1e-9)
    assert page.height / px_per_mm == pytest.approx(paper.height_mm, abs=1e-9)


def test_a_documents_pdf_in_the_output_and_on_the_site():
    pdf = DocumentPdf(LETTER, "sixes", "public", "hand-signal-cards")
    assert paper_folder(LETTER) == PurePosixPath("pdf/letter")
    assert pdf.path == PurePosixPath("pdf/letter/sixes/public/hand-signal-cards.pdf")
    assert pdf.label == "letter sixes/public/hand-signal-cards.pdf"
    assert pdf.download == PurePosixPath("downloads/letter/sixes/hand-signal-cards.pdf")
    assert pdf.href("sixes/rules.md") == "../downloads/letter/sixes/hand-signal-cards.pdf"
    assert pdf.href("sixes/more/odds.md") == "../../downloads/letter/sixes/hand-signal-cards.pdf"
