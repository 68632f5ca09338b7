"""Words break as a typesetter breaks them (issue 47): at a syllable of the
document's language with a hyphen, never anywhere. The check's line count
(core/measure.py) hyphenates as WeasyPrint does, in each shipped language;
the print lint (render/pdf/broken_words.py) refuses a word cut without a hyphen;
the Sixes speed table's heads keep the tool's words whole in every language.
"""
from __future__ import annotations

import pytest

from fit_games import words
from generator.core.i18n import speaking, words_for
from generator.core.measure import line_count
from generator.core.paths import TEMPLATES_DIR


def _render(html: str):
    import weasyprint
    return weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render()


def _lines(text: str, width_mm: float, size_pt: float, language: str, weight: int = 400) -> list[str]:
    """The lines WeasyPrint sets `text` in, in a paragraph of a document in `language`."""
    from weasyprint.formatting_structure.boxes import LineBox, TextBox
    page = _render(f'<html lang="{language}"><head><link rel="stylesheet" href="base.css"></head>'
                   f'<body style="margin:0"><p style="width:{width_mm}mm;font-size:{size_pt}pt;'
                   f'font-weight:{weight};margin:0">{text}</p></body></html>').pages[0]
    found, stack = [], [page._page_box]
    while stack:
        box = stack.pop()
        if isinstance(box, LineBox) and box.element_tag == "p":
            found.append("".join(t.text for t in box.descendants() if isinstance(t, TextBox)))
            continue
        stack.extend(reversed(getattr(box, "children", ())))
    return found


COMPOUNDS = {"de": "Die Nahkampfwaffenausbildungsordnung gilt für Rüstungsdurchdringungsversuche immer.",
             "fr": "Une incompréhensibilité anticonstitutionnellement désorganisée.",
             "en": "Counterrevolutionaries misunderstand incomprehensibilities."}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize("width", [14.0, 20.0, 29.0, 56.8])
def test_the_check_counts_the_lines_weasyprint_hyphenates_in_each_language(language, width):
    """Prose and compounds in narrow and wide columns: the check counts at
    least the lines the renderer sets, hyphenating in the game's language,
    and at most a tenth more, one line at least (each line is filled to 98 %,
    core/measure.py FILL: in a column of two words a line the margin adds
    up)."""
    for text, size, weight in ((words(50, language), 8, 400), (COMPOUNDS[language], 9, 700)):
        with speaking(words_for(language)):
            ours = line_count(text, width, size, weight=weight)
        theirs = _lines(text, width, size, language, weight)
        assert len(theirs) <= ours <= len(theirs) + max(1, len(theirs) // 10), (ours, theirs)


def test_prose_is_hyphenated_at_a_syllable_with_a_hyphen():
    """A German compound in a narrow column breaks at a syllable and shows
    the hyphen, which the shipped fonts have (no U+2010)."""
    lines = _lines("Sichtweite Handgemenge Wurfweite", 12.0, 10, "de")
    assert any(line.endswith("-") for line in lines), lines
    assert "".join(line.removesuffix("-") for line in lines).replace(" ", "") == "SichtweiteHandgemengeWurfweite"


# --- the print lint -----------------------------------------------------------------------------

def _page(body: str, language: str = "fr", style: str = "") -> str:
    return (f'<html lang="{language}"><head><title>t</title><link rel="stylesheet" href="base.css">'
            f'<style>{style}</style></head><body>{body}</body></html>')


HEADS = "".join(f"<th>{w}</th>" for w in ("Vitesse", "Effet", "Attaque", "Récupérer", "Spécial",
                                           "Défendre autrui un deux trois quatre cinq six sept huit neuf dix"))


def test_a_head_shredded_by_an_automatic_table_fails_the_lint():
    """`overflow-wrap: anywhere` lets an automatic table squeeze a column
    below its word ("Vitess|e"): the lint names the word and its page."""
    from generator.render.pdf.broken_words import find_broken_words
    shredding = "th { overflow-wrap: anywhere; hyphens: manual }"
    shredded = _render(_page(f"<table><tr>{HEADS}</tr></table>", style=shredding))
    faults = find_broken_words(shredded)
    assert faults and all(f.startswith("page 1: a word is cut without a hyphen: “") for f in faults), faults
    assert find_broken_words(_render(_page(f"<table><tr>{HEADS}</tr></table>"))) == []


def test_a_break_the_renderer_could_have_hyphenated_fails_the_lint():
    """A word wider than its box, in a box that does not hyphenate, is cut
    at the edge: a fault where the language's dictionary has a syllable
    that fits; with hyphenation on (base.css) the same word passes."""
    from generator.render.pdf.broken_words import find_broken_words
    body = '<div style="width: 14mm">Handgemenge</div>'
    assert find_broken_words(_render(_page(body, "de", "div { hyphens: manual }"))) == [
        "page 1: a word is cut without a hyphen: “Handge|menge” (<div>)"]
    assert find_broken_words(_render(_page(body, "de"))) == []


def test_a_name_with_no_syllable_that_fits_may_break_at_the_edge():
    """A game's name of one long word with no break the dictionary knows,
    wider than the whole box: no layout could keep it whole, so it breaks
    at the edge and the lint lets it (docs/pages/print/index.md, "How much text each box holds")."""
    from generator.render.pdf.broken_words import find_broken_words
    body = ('<table style="table-layout: fixed; width: 30mm"><tr>'
            '<td class="name">Xxxxxxxxxxxxxxxxxxxxxxxxx</td></tr></table>')
    document = _render(_page(body, "en"))
    assert find_broken_words(document) == []


def test_words_on_separate_lines_by_design_are_not_a_cut_word():
    """A <br> between two words (a head's second line) and a line ending at
    a space are breaks, not cuts."""
    from generator.render.pdf.broken_words import find_broken_words
    body = ('<table style="width: 20mm"><tr><th>Attaque<br>inflige</th></tr></table>'
            '<p style="width: 20mm">un deux trois quatre cinq six sept</p>')
    assert find_broken_words(_render(_page(body))) == []


def test_in_an_automatic_table_only_a_games_name_may_break_at_the_edge():
    """An automatic table shrinks a column below its word: a game's name
    (class="name", on the cell or on an element inside it) may then break
    at the edge; any other word so cut is a fault."""
    from generator.render.pdf.broken_words import find_broken_words
    word = "Xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    other = "<td>Un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze</td>"
    for cell in (f'<td class="name">{word}</td>', f'<td><b class="name">{word}</b></td>'):
        assert find_broken_words(_render(_page(f"<table><tr>{cell}{other}</tr></table>", "en"))) == []
    faults = find_broken_words(_render(_page(f"<table><tr><td>{word}</td>{other}</tr></table>", "en")))
    assert faults and all("a word is cut without a hyphen: “Xxx" in f for f in faults), faults
