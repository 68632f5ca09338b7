"""Text that keeps its shape: the `prose` filter turns a long text field into
paragraphs, keeps a line break after a sentence (and before a list item), and
lets a line wrapped in the YAML flow on; the same on every system's sheets
and cards, read back from the PDF with pdftotext."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from markupsafe import Markup

from generator.core.paths import TEMPLATES_DIR
from generator.render.html import prose
from generator.render.pdf.jobs import prepare_html
from generator.render.options import DEFAULT_OPTIONS
from generator.render.pdf.weasy import render_pdf
from generator.systems.i6 import SYSTEM as I6
from generator.systems.six_shooter import SYSTEM as SIX_SHOOTER
from generator.systems.sixes import SYSTEM as SIXES
from generator.core.paper import A4

# Typed in a `|` block: a sentence, then a line of its own; a long line
# wrapped by hand; a blank line; a list.
TEXT = ("You came to the circus for this job.\n"
        "Goals: find the ledger before the last show and keep\n"
        "your name out of it.\n"
        "\n"
        "Bring:\n"
        "- a lamp\n"
        "- the key")


@pytest.mark.parametrize("value, html", [
    (TEXT, "<p>You came to the circus for this job.<br>Goals: find the ledger before the last show and keep your "
           "name out of it.</p><p>Bring:<br>- a lamp<br>- the key</p>"),
    # A folded (`>`) block arrives as one line; its paragraphs are still paragraphs.
    ("One line, folded by YAML.\n\nA second paragraph.", "<p>One line, folded by YAML.</p><p>A second paragraph.</p>"),
    # A closing quote after the full stop still ends the sentence; an ellipsis too.
    ('He said "run."\nSo you ran...\nand ran', '<p>He said &#34;run.&#34;<br>So you ran...<br>and ran</p>'),
    # Numbered items start lines; blank lines with spaces, Windows line ends, and edges are tidied.
    ("  Steps\r\n1. look\r\n2) leap  \r\n   \r\nend ", "<p>Steps<br>1. look<br>2) leap</p><p>end</p>"),
    # Markup in the data is text.
    ("<b>bold</b> & <script>x</script>", "<p>&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;</p>"),
    ("", ""),
])
def test_prose(value, html):
    result = prose(value)
    assert isinstance(result, Markup) and str(result) == html


def test_prose_with_a_class():
    assert str(prose("a\n\nb", "desc")) == '<p class="desc">a</p><p class="desc">b</p>'


def render(doc, data: Path, target: Path) -> list[str]:
    """The document on A4, as pdftotext's lines (reading order, no layout)."""
    prepared = prepare_html(doc, DEFAULT_OPTIONS)
    result = render_pdf(prepared.job(target, A4, (TEMPLATES_DIR, data), doc.slug))
    assert not result.overflows and not result.lint, (result.overflows, result.lint)
    out = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, text=True, check=True).stdout
    return [" ".join(line.split()) for line in out.splitlines()]


def block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|\n" + "\n".join(pad + line if line else "" for line in text.split("\n")) + "\n"


def assert_shape(lines: list[str]) -> None:
    """Each kept break starts a line; the wrapped line flowed on (joined with a space)."""
    joined = "\n".join(lines)
    assert re.search(r"for this job\.\nGoals: find the ledger", joined), joined
    assert "keep your name out of it." in " ".join(lines)
    assert re.search(r"Bring:\n- a lamp\n- the key", joined), joined


def load(system, data: Path):
    game, problems = system.load(data / system.slug, data)
    assert game is not None, problems
    return system.documents(game)


def test_a_sixes_background_keeps_its_shape(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    path = data / "sixes" / "characters" / "first-rival.yaml"
    path.write_text(re.sub(r"background: \|\n(  .*\n|\n)+", "background: " + block(TEXT, 2), path.read_text()))
    sheet = next(d for d in load(SIXES, data) if d.slug == "first-rival")
    assert_shape(render(sheet, data, tmp_path / "sheet.pdf"))


def test_an_i6_secret_keeps_its_shape(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(I6.starter, data / "i6")
    path = data / "i6" / "heroes" / "first-hero.yaml"
    text = re.sub(r"^secret:.*?(?=^\w)", "", path.read_text(), flags=re.M | re.S)
    path.write_text(text + "secret: " + block(TEXT, 2))
    sheet = next(d for d in load(I6, data) if d.audience == "player" and d.slug == "first-hero")
    assert_shape(render(sheet, data, tmp_path / "hero.pdf"))


def test_a_six_shooter_challenge_card_keeps_its_shape(tmp_path):
    """A card is narrow: a long line wraps by itself, but a kept break still starts a line."""
    data = tmp_path / "data"
    shutil.copytree(SIX_SHOOTER.starter, data / "six-shooter")
    path = data / "six-shooter" / "challenges.yaml"
    text = path.read_text()
    door = "    description: A heavy door with a good lock, and a guard somewhere near.\n"
    assert door in text
    notes = "Locked, of course.\nNotes:\n- one guard\n- one dog"
    path.write_text(text.replace(door, "    description: " + block(notes, 6) +
                                 "    gm_notes: " + block("The guard sleeps.\nThe dog does not.", 6)))
    deck = next(d for d in load(SIX_SHOOTER, data) if d.cards and d.audience == "gm")
    joined = "\n".join(render(deck, data, tmp_path / "challenges.pdf"))
    assert re.search(r"Locked, of course\.\nNotes:\n- one guard\n- one dog", joined), joined
    assert re.search(r"The guard sleeps\.\nThe dog does not\.", joined), joined
