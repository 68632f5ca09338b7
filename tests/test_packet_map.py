"""The GM's relationship map: Graphviz lays out the web, names from the data
stay text (no name can end a DOT string or add a node), the drawing passes
the SVG gate, and a missing Graphviz is one line, not a traceback."""
from __future__ import annotations

import base64
import re
import shutil

import pytest

from generator.core.errors import BuildError
from generator.game.packet import Packet, Person, Tie
from generator.game.packet_graph import dot_source, matrix, quoted
from generator.render.pdf.relationship_map import draw_map

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")

HOSTILE = 'Ann "x"]; evil [label="pwned'
BACKSLASH = "Bo \\N \\G \\\\ end"


def packet() -> Packet:
    people = (Person("ann", HOSTILE), Person("bo", BACKSLASH), Person("cy", "Cy <b>&amp;</b>"), Person("di", "Di"))
    ties = (Tie(("ann", "bo"), {"ann": "a", "bo": "b"}), Tie(("bo", "cy"), {"cy": "c"}, known_to="cy"))
    return Packet("sixes", people, ties=ties)


def svg_of(url: str) -> str:
    assert url.startswith("data:image/svg+xml;base64,")
    return base64.b64decode(url.split(",", 1)[1]).decode("utf-8")


def test_a_name_is_one_dot_string_whatever_it_holds():
    assert quoted('a"b') == '"a\\"b"'
    assert quoted("a\\N") == '"a\\\\N"'
    assert quoted("two\nlines") == '"two lines"'
    assert quoted("R&amp;D") == "\"R&amp;amp;D\""
    source = dot_source(packet())
    # Three people have ties (Di has none): three nodes, two edges, one of them an arrow.
    assert len(re.findall(r"^  p\d+ \[label=", source, re.M)) == 3
    assert source.count(" -- ") == 2 and source.count("dir=forward") == 1
    assert "evil [" not in source.replace(quoted(HOSTILE), "")


@needs_dot
def test_graphviz_draws_every_name_as_text_and_the_gate_keeps_only_drawing():
    svg = svg_of(draw_map(dot_source(packet())))
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    from html import unescape
    shown = {unescape(t) for t in texts}
    assert HOSTILE in shown and BACKSLASH in shown and "Cy <b>&amp;</b>" in shown
    assert "<script" not in svg and "pwned" not in " ".join(shown - {HOSTILE})
    assert len(re.findall(r"<polygon|<path", svg)) >= 3


def test_a_missing_graphviz_is_one_line(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(BuildError) as caught:
        draw_map("graph { a -- b }")
    assert "the relationship map could not be drawn: dot is not installed" in str(caught.value)


def test_the_matrix_marks_who_knows_whom():
    rows = matrix(packet())
    assert [r["cells"] for r in rows] == [["", "both", "", ""], ["both", "", "known", ""],
                                          ["", "knows", "", ""], ["", "", "", ""]]
    assert [r["count"] for r in rows] == [1, 1, 1, 0]


def test_a_long_casts_matrix_continues_in_tables_whose_numbers_stay_whole(tmp_path):
    """Sixty characters: the matrix comes in tables of at most
    MATRIX_COLUMNS columns, every row in each, and on A4 no column number
    or count is broken across lines (a hundred-and-twenty-column table had
    printed them a digit a line)."""
    from pdf_text import page_texts

    from generator.core.paper import A4
    from generator.core.paths import TEMPLATES_DIR
    from generator.game.packet_graph import MATRIX_COLUMNS, matrix_blocks
    from generator.game.packet_route import relationship_map
    from generator.render.options import DEFAULT_OPTIONS
    from generator.render.pdf.jobs import prepare_html
    from generator.render.pdf.weasy import render_pdf

    people = tuple(Person(f"p{k}", f"Guest {k}") for k in range(60))
    ties = tuple(Tie((f"p{k}", f"p{(k * 7 + 1) % 60}"), {f"p{k}": "x"}) for k in range(60) if (k * 7 + 1) % 60 != k)
    doc = relationship_map(Packet("sixes", people, ties=ties), "Sixty", None)
    assert [len(b) for b in matrix_blocks(60)] == [MATRIX_COLUMNS, MATRIX_COLUMNS, 60 - 2 * MATRIX_COLUMNS]
    prepared = prepare_html(doc, DEFAULT_OPTIONS)
    assert prepared.html.count('<table class="matrix">') == 3
    assert prepared.html.count("Guest 59</th>") == 3
    pdf = tmp_path / "map.pdf"
    render_pdf(prepared.job(pdf, A4, (TEMPLATES_DIR,), doc.slug))
    heads = " ".join(str(n) for n in range(1, MATRIX_COLUMNS + 1))
    assert page_texts(pdf)[1].startswith(f"Who {heads} # 1. Guest 0 ")
