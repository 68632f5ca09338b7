"""A player's name on the outside of an envelope (its label) and on their
sheet in the GM pack (its name stamp): both are placed to the millimetre,
so a name too long for either is refused before the pack renders, at the
casting entry's player, and `check` with the casting file says it of the
stamps first (every cast envelope has one). What the measure passes prints
inside the label and the printable part of the sheet (WeasyPrint here)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from big_game import CAST, write_game
from generator.commands.cli import main
from generator.commands.pack import PackRequest, pack
from generator.core.errors import DataError
from generator.core.paper import A4, LETTER, Paper
from generator.core.paths import TEMPLATES_DIR
from generator.game.pack_plan import LABEL_STOCK
from generator.render.html import render_template
from generator.render.fit.labels import label_fits, label_lines, stamp_room, stamp_width
from generator.render.pdf.lint import print_faults

TITLE = "Low Water at Saint Brannoc's"


def _render(html: str):
    import weasyprint
    return weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render()


def _longest(fits, words: bool) -> str:
    """The longest name of many short words (or one long word) that `fits` passes."""
    def name(n: int) -> str:
        return ("Alexandrina " * 60)[:n].strip() if words else ("Wolfeschlegelsteinhausen" * 20)[:n]
    n = 1
    while fits(name(n + 1)):
        n += 1
    return name(n)


@pytest.mark.parametrize("words", [True, False], ids=["words", "one-word"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=lambda p: p.name)
def test_the_longest_name_a_label_passes_prints_inside_it(paper: Paper, words: bool):
    stock = LABEL_STOCK[paper.name]
    name = _longest(lambda n: label_fits(n, stock.width, stock.height, label_lines(10, 10, TITLE)), words)
    assert len(name) >= 40          # a real player's name fits, even on US Letter's one-inch label
    envelopes = [SimpleNamespace(label=name, number=10)]
    html = render_template("pack/labels.html", {"title": TITLE, "doc_title": "labels", "stock": stock, "count": 10,
                                                "sheets": [[(e, *stock.origin(0)) for e in envelopes]]})
    assert print_faults(_render(html)) == []


@pytest.mark.parametrize("paper", [A4, LETTER], ids=lambda p: p.name)
def test_the_longest_name_a_stamp_passes_prints_inside_the_sheet(paper: Paper):
    name = _longest(lambda n: stamp_width(n, 100) <= stamp_room(paper.width_mm), True)
    assert len(name) >= 80
    html = render_template("pack/stamp.html", {"title": TITLE, "doc_title": "stamps",
                                               "envelopes": [SimpleNamespace(player=name, number=100)]})
    html = html.replace("<head>", f"<head><style>@page {{ size: {paper.width_mm}mm {paper.height_mm}mm }}</style>")
    assert print_faults(_render(html)) == []


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return write_game(tmp_path_factory.mktemp("names") / "circus", players=2)


LONG = " ".join(["Alexandrina"] * 14)       # 167 characters: past any label and any stamp


@pytest.mark.parametrize("labels", [False, True], ids=["stamp", "label"])
def test_a_name_too_long_is_refused_at_its_player_before_anything_renders(game, tmp_path, labels):
    casting = tmp_path / "casting.yaml"
    (first, _player), (second, other) = CAST[:2]
    name = LONG if not labels else "Wolfeschlegelsteinhausenbergerdorff" * 2     # fits the stamp, not a label
    casting.write_text(f'envelopes:\n  - player: {other}\n    character: {second}\n'
                       f'  - player: "{name}"\n    character: {first}\n')
    with pytest.raises(DataError) as refused:
        pack(PackRequest(game, tmp_path / "out", (A4, LETTER), system="sixes", casting_file=casting, workers=2,
                         labels=labels))
    errors = [p for p in refused.value.problems if p.severity == "error"]
    assert [(p.file, p.line, p.column) for p in errors] == [(str(casting), 4, 13)], errors
    assert errors[0].message.startswith(f"envelope 2 ({name}): ")
    assert ("a label of Avery" if labels else "its name stamp takes about") in errors[0].message
    assert not (tmp_path / "out").exists()
    result = CliRunner().invoke(main, ["check", "--data", str(game), "--casting", str(casting)])
    if labels:          # a pack option: check measures labels when asked, as pack does
        assert result.exit_code == 0, result.output
        result = CliRunner().invoke(main, ["check", "--data", str(game), "--casting", str(casting), "--labels",
                                           "--paper", "both"])          # as the pack above
    assert result.exit_code == 1 and f"{casting}:4:13: error: envelope 2 ({name}): its name " in result.output \
        and ("does not fit a label of Avery" if labels else "stamp takes about") in result.output, result.output
