"""The D6xD6 lookup card's legend names every damage level; `check` measures
it per name and says the limit in letters of the name it blames, a count
that falls letter by letter as that name is shortened. The room it measures
is the card's as WeasyPrint prints it: at the longest name check passes,
the tightest card has less than a line left under its legend, so the line
check refuses one letter later was truly not there. And a weapon
category's list of who may attack, when it takes the card's room, is what
is blamed, not the weapons under it."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main

LONG = "Verloren und vergessen im tiefen Schatten der langen Nacht ohne jede Wiederkehr"
BLAMED = re.compile(r"damage\.yaml:(\d+):\d+: error: (\S+): about (\d+) letters? too long for the legend of the "
                    r"lookup card, which names every damage level \(at most about (\d+) letters? fit in this name, "
                    r"the others as they are, at 9 pt\)")


def d6xd6_game(dest: Path, language: str) -> Path:
    assert main.main(["new", str(dest), "--language", language], standalone_mode=False) in (None, 0)
    for other in ("sixes", "six-shooter", "i6", "sixes-system"):
        shutil.rmtree(dest / other)
    return dest


def with_overkill(game: Path, original: str, name: str) -> None:
    """Overkill named `name` (it heads no ladder row, so only the legend bounds it)."""
    first = re.search(r"^overkill:\n  name: (.*)$", original, re.M)
    assert first is not None
    (game / "d6xd6" / "damage.yaml").write_text(original[:first.start(1)] + name + original[first.end(1):],
                                                encoding="utf-8")


def check(game: Path, card: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--data", str(game), "--card-size", card])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def german(tmp_path_factory) -> tuple[Path, str]:
    game = d6xd6_game(tmp_path_factory.mktemp("lookup") / "spiel", "de")
    return game, (game / "d6xd6" / "damage.yaml").read_text(encoding="utf-8")


def test_a_level_name_is_blamed_by_its_own_letters_and_the_count_falls_as_it_is_shortened(german):
    """The starter's names fit; a longer overkill is blamed alone (not the
    starter's longest level name), by the letters it has over a limit that
    stays put: one fewer for each letter cut, until it is within the limit
    and passes."""
    game, original = german
    assert check(game, "poker")[0] == 0
    said = []
    for length in range(len(LONG), 0, -1):
        if LONG[length - 1] == " ":
            continue            # a name is read without its trailing space
        with_overkill(game, original, LONG[:length])
        code, output = check(game, "poker")
        if code == 0:
            break
        found = BLAMED.findall(output)
        assert [name for _line, name, _over, _limit in found] == ["overkill.name"], output
        said.append((length, int(found[0][2]), int(found[0][3])))
    else:
        pytest.fail("no length of the name passed")
    assert len(said) > 10
    limits = {limit for _length, _over, limit in said}
    assert limits == {said[0][2]} and length <= said[0][2], said       # one limit, and it holds
    assert all(over == cut - limit for cut, over, limit in said), said   # the count falls with every letter cut


def border(game: Path, original: str, card: str) -> int:
    """The longest overkill's name (a prefix of LONG) check passes on
    `card`; one letter more is refused for the legend."""
    for k in range(1, len(LONG) + 1):
        with_overkill(game, original, LONG[:k])
        code, output = check(game, card)
        if code != 0:
            assert BLAMED.search(output), output
            return k - 1
    pytest.fail("every name passed")


def legend_gaps(game: Path, language: str, card: str) -> list[float]:
    """Millimetres between each lookup card's last legend line and its foot, as WeasyPrint sets them."""
    import weasyprint
    from weasyprint.formatting_structure.boxes import LineBox

    from generator.core.i18n import speaking, words_for
    from generator.core.paths import TEMPLATES_DIR
    from generator.game.load import load_all
    from generator.render.pdf.jobs import prepare_html
    from generator.render.options import PrintOptions
    item = next(i for i in load_all(game)[0] if i.system.slug == "d6xd6")
    with speaking(words_for(language)):
        doc = next(d for d in item.system.documents(item.game) if d.slug == "ladder-cards")
        html = prepare_html(doc, PrintOptions(card_size=card)).html
    pages = weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render().pages
    gaps = []

    def lines(box, classes: tuple[str, ...], out: list) -> None:
        element = getattr(box, "element", None)
        own = tuple((element.get("class") or "").split()) if element is not None else ()
        if isinstance(box, LineBox):
            out.append((classes + own, box.position_y, box.height))
        for child in getattr(box, "children", ()):
            lines(child, classes + own, out)

    def cards(box):
        element = getattr(box, "element", None)
        if element is not None and element.tag == "section" and "card" in (element.get("class") or "").split():
            yield box
            return
        for child in getattr(box, "children", ()):
            yield from cards(child)

    for page in pages:
        for card_box in cards(page._page_box):
            found: list = []
            lines(card_box, (), found)
            legend = [y + h for classes, y, h in found if "legend" in classes]
            foot = [y for classes, y, _h in found if "foot" in classes]
            if legend and foot:
                gaps.append((min(foot) - max(legend)) * 25.4 / 96)
    return gaps


@pytest.mark.parametrize("language, card", [("de", "poker"), ("de", "bridge"), ("en", "bridge")])
def test_at_the_longest_name_check_passes_the_card_has_no_empty_line_left(tmp_path, language, card):
    from generator.core.measure import PT_PER_MM
    from generator.render.fit.fit import LINE_HEIGHT
    game = d6xd6_game(tmp_path / "game", language)
    original = (game / "d6xd6" / "damage.yaml").read_text(encoding="utf-8")
    longest = border(game, original, card)
    with_overkill(game, original, LONG[:longest])
    gaps = legend_gaps(game, language, card)
    assert len(gaps) >= 2, gaps
    line = 9 * LINE_HEIGHT / PT_PER_MM
    assert min(gaps) >= 0 and min(gaps) < line, (longest, gaps)


def test_a_list_of_who_attacks_that_takes_the_card_is_blamed_not_the_weapons(tmp_path):
    game = d6xd6_game(tmp_path / "game", "en")
    path = game / "d6xd6" / "weapons" / "core.yaml"
    text = path.read_text(encoding="utf-8")
    skills = ", ".join(f"Unarmed Combat Skill {k}" for k in range(44))
    text, count = re.subn(r"^    attack: \[Throwing, .*\]$", f"    attack: [{skills}]", text, flags=re.M)
    assert count == 1
    path.write_text(text, encoding="utf-8")
    line = text[:text.index(skills)].count("\n") + 1
    code, output = check(game, "poker")
    found = re.findall(r"core\.yaml:(\d+):\d+: error: (\S+): about \d+ words too long for the lines over the "
                       r"throwing weapons card's table, who attacks and who defends", output)
    assert code == 1 and found == [(str(line), "categories[1].attack")], output
    assert "weapons[" not in output, output
