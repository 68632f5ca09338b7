"""Text that fits its box: `check` and `build` agree (issue 27).

The measurement (core/measure.py) against WeasyPrint's own line breaking;
games from every system's starter with every prose field at half, once and
three times its floor build whenever `check` passes them, on every card size
and both papers; a field far over its capacity is refused by `check` at its
file:line:col, and by `build` with the same words before anything renders.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cpu_time import cpu_time
from fit_games import (NAME_FLOOR, lengthen_every_name, lengthen_every_text, make_game, name_first_weapon,
                       new_game, words)
from generator.commands.cli import main
from generator.core.measure import line_count, words_that_fit
from generator.core.paths import TEMPLATES_DIR
from generator.render.fit.stacked import NAME_PT

SYSTEMS = ("sixes", "six-shooter", "d6xd6", "i6", "sixes-system")
LOCATED = re.compile(r"^(\S+\.yaml):(\d+):(\d+): error: (.*)$", re.M)


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], prog_name="sixes")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


# --- the measurement ----------------------------------------------------------------------------

def weasyprint_lines(text: str, width_mm: float, size_pt: float, weight: int = 400) -> int:
    """Lines WeasyPrint breaks `text` into in a paragraph `width_mm` wide, in
    the language of the run (hyphenated as a document in it is)."""
    from weasyprint import HTML
    from weasyprint.formatting_structure.boxes import LineBox
    from generator.core.i18n import current
    html = (f'<html lang="{current().language}"><head><link rel="stylesheet" href="base.css"></head>'
            '<body style="margin:0">'
            f'<p style="width:{width_mm}mm;font-size:{size_pt}pt;font-weight:{weight};margin:0">{text}</p>'
            '</body></html>')
    page = HTML(string=html, base_url=str(TEMPLATES_DIR) + "/").render().pages[0]
    count, stack = 0, [page._page_box]
    while stack:
        box = stack.pop()
        if isinstance(box, LineBox) and box.element_tag == "p":
            count += 1
            continue
        stack.extend(getattr(box, "children", ()))
    return count


@pytest.mark.parametrize("text, width, size, weight", [
    (words(40), 56.8, 7, 400),
    (words(40), 56.8, 9, 700),
    (words(60), 29.0, 8, 400),
    ("Wwwww mmmmm iiiii lllll " * 8, 56.0, 7, 400),
    ("A short line.", 50.0, 9, 400),
    # Words wider than the whole line (German compounds, a name with no break) break at its edge.
    ("Die Nahkampfwaffenausbildungsordnung gilt für Rüstungsdurchdringungsversuche immer.", 20.0, 9, 400),
    ("Schwerverwundetenrettungstrupp", 14.4, 9, 700),
    (words(30, "de"), 29.0, 8, 400),
    (words(30, "fr"), 29.0, 8, 400),
])
def test_lines_are_never_fewer_than_weasyprint_breaks(text, width, size, weight):
    """The check counts at least the lines the renderer makes, and at most
    one more (its margin, not a guess)."""
    ours, theirs = line_count(text, width, size, weight=weight), weasyprint_lines(text, width, size, weight)
    assert theirs <= ours <= theirs + 1, (ours, theirs)


@pytest.mark.parametrize("language, extra, card", [("de", "", "bridge"), ("fr", "", "bridge"),
                                                   ("de", "Bis", "poker"), ("en", "Bis", "bridge")])
def test_the_lookup_legend_is_counted_as_weasyprint_sets_it(tmp_path, language, extra, card):
    """The D6xD6 lookup card's legend of level names, in the game's
    language, takes the lines the check counts: at most one more than
    WeasyPrint sets, never fewer (the shipped starters' legends fit)."""
    from generator.core.i18n import speaking, words_for
    from generator.game.load import load_all
    from generator.render.fit.fit import card_width
    from generator.render.fit.lookup_fit import LEGEND_FILL, legend
    from generator.render.options import PrintOptions
    from generator.systems.d6xd6.outputs import rungs
    folder = lengthen_every_name(tmp_path / "game", extra, language) if extra else new_game(tmp_path / "game", language)
    game = next(item.game for item in load_all(folder)[0] if item.system.slug == "d6xd6")
    width = card_width(PrintOptions(card_size=card))
    with speaking(words_for(language)):
        text, html = legend(game), " · ".join(f"<b>{r.abbr}</b> {r.name}" for r in rungs(game)[1:])
    ours, theirs = line_count(text, width, 9, fill=LEGEND_FILL), weasyprint_lines(html, width, 9)
    assert theirs <= ours <= theirs + 1, (ours, theirs, text)


def test_the_tools_own_words_on_a_card_are_measured_in_the_games_language():
    """What the check measures beside the data (a table's header row, the
    lines a card prints around its text) are the words the card prints in
    the game's language, not English constants: the German lookup card's
    subtitle takes two lines of a bridge card, so its legend has less room."""
    from generator.core.i18n import ENGLISH, speaking, words_for
    from generator.render.fit.bounded import distance_heads, notes_follow, stages_line
    from generator.render.fit.lookup_fit import room_for_legend
    from generator.render.options import PrintOptions
    from generator.systems.d6xd6.outputs import Sheet
    options, blank = PrintOptions(card_size="bridge"), Sheet("", "", None, 0, (), (), 0)
    said = {}
    for language, spoken in (("en", ENGLISH), ("de", words_for("de"))):
        with speaking(spoken):
            said[language] = (stages_line(2, ["Gefahr"]), notes_follow(), [h[0] for h in distance_heads(options)],
                              room_for_legend(blank, "Spiel", 9, {}, options))
    for en, de in zip(said["en"][:3], said["de"][:3], strict=True):
        assert en != de
    assert said["de"][3] < said["en"][3] - 3        # a line of 9 pt less
    assert room_for_legend(blank, "Spiel", 9, {}, options) == said["en"][3]     # English outside `speaking`


def test_words_that_fit_is_the_longest_prefix():
    text = words(80)
    fit = words_that_fit(text, 5, 56.8, 7)
    head = " ".join(text.split()[:fit])
    assert line_count(head, 56.8, 7) <= 5 < line_count(" ".join(text.split()[:fit + 1]), 56.8, 7)


# --- games at and over the floors ---------------------------------------------------------------

def agree(game: Path, *build_args) -> str:
    """`check` and `build` agree on `game`: both pass, or both refuse with
    the same located errors and nothing rendered. Returns what check said."""
    card = [a for a in build_args if a in ("poker", "bridge", "tarot")]
    code, said = run("check", "--data", game, *(["--card-size", card[0]] if card else []))
    out = game / "output"
    built, report = run("build", "--data", game, "--out", out, "--no-site", *build_args)
    if code == 0:
        assert built == 0, report
        assert list((out / "pdf").rglob("*.pdf")), report
    else:
        located = LOCATED.findall(said)
        assert code == 1 and located, said
        assert built == 1 and not out.exists(), report      # refused before anything rendered
        assert LOCATED.findall(report) == located
    return said


# (system, factor, build arguments): every system at half, once and three
# times its floors; the card sizes and papers spread over the cases, one
# case on both papers.
CASES = [
    ("sixes", 1, ("--paper", "both")),
    ("six-shooter", 1, ("--paper", "a4", "--card-size", "bridge")),
    ("d6xd6", 1, ("--paper", "letter", "--card-size", "poker")),
    ("i6", 1, ("--paper", "letter")),
    ("sixes-system", 1, ("--paper", "a4")),
    ("six-shooter", 0.5, ("--paper", "letter", "--card-size", "tarot")),
    ("d6xd6", 0.5, ("--paper", "a4", "--card-size", "bridge")),
    *[(system, 3, ("--paper", "a4", "--card-size", "poker")) for system in SYSTEMS],
]


@pytest.mark.parametrize("system, factor, args", CASES, ids=[f"{s}-x{f}-{a[1]}" for s, f, a in CASES])
def test_check_and_build_agree(tmp_path, system, factor, args):
    said = agree(make_game(tmp_path / "game", system, factor), *args)
    if factor <= 1:
        # up to the floors, everything fits (a warning about the words themselves may come first)
        assert "error:" not in said and re.search(r"^OK: ", said, re.M), said


# Every text of the data longer by a factor (not only the fields listed as
# prose above), in each shipped language (its starter, its catalogue, words
# of its own: French and German run longer than English): (language,
# factor, build arguments). Up to a quarter longer (and half, in English),
# ordinary text in every box, it must build; past that, check and build
# still agree. Each language once at each end, not the whole grid, and each
# build on one paper (the papers and card sizes spread over the cases): a
# refusal costs no render, a build twenty seconds a paper.
EVERY_TEXT = [("en", 1.25, ("--paper", "a4")), ("en", 1.5, ("--paper", "letter")),
              ("fr", 1.25, ("--paper", "a4", "--card-size", "bridge")), ("de", 1.25, ("--paper", "letter")),
              ("en", 2.0, ("--paper", "letter", "--card-size", "bridge")), ("fr", 2.0, ("--paper", "a4")),
              ("de", 3.0, ("--paper", "a4", "--card-size", "tarot"))]
# A word wider than its whole column, with no break (a German compound):
# it breaks at the column's edge, and check counts the lines it takes there.
COMPOUND = "Schwerverwundetenrettungsausrüstungsgegenstandsverwaltung"


@pytest.mark.parametrize("language, factor, args", EVERY_TEXT, ids=[f"{lang}-x{f}-{a[1]}" for lang, f, a in EVERY_TEXT])
def test_check_and_build_agree_with_every_text_longer(tmp_path, language, factor, args):
    game = lengthen_every_text(tmp_path / "game", factor, language)
    if language == "de":
        name_first_weapon(game, COMPOUND)
    said = agree(game, *args)
    if factor <= (1.5 if language == "en" else 1.25):
        assert "error:" not in said and re.search(r"^OK: ", said, re.M), said
        if language == "de":        # the word was set, hyphenated in its column, not cut or run over
            import subprocess       # (-layout: plain pdftotext joins a word hyphenated at a line's end)
            pdf = next((game / "output").rglob("reference-cards.pdf"))
            text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                                  check=True).stdout
            assert COMPOUND not in text and COMPOUND[:8] in text, text[:600]


def test_a_long_character_name_prints_its_lookup_heading_smaller_and_a_longer_one_is_blamed_at_the_name(tmp_path):
    """On a German lookup card a heading of two lines leaves the legend of
    damage levels too little room. A name of three ordinary words prints
    its heading smaller, on one line, and builds; a name too long even for
    the smallest heading is refused at its own line, not at a level name
    that no cut would help (each is one word)."""
    import subprocess
    game = new_game(tmp_path / "game", "de")
    for other in ("sixes", "six-shooter", "i6", "sixes-system"):
        shutil.rmtree(game / other)
    path = game / "d6xd6" / "characters.yaml"
    text = path.read_text(encoding="utf-8")
    first = re.search(r"^  - name: (.*)$", text, re.M)
    assert first is not None
    longer = f"{first[1]} Charlie"
    path.write_text(text.replace(f"name: {first[1]}\n", f"name: {longer}\n", 1), encoding="utf-8")
    assert re.search(r"^OK: ", agree(game, "--paper", "a4"), re.M)
    pdf = next((game / "output").rglob("ladder-cards.pdf"))
    cards = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert f"Tabelle: {longer}\n" in cards, cards[:800]          # the whole heading on one line
    shutil.rmtree(game / "output")
    path.write_text(text.replace(f"name: {first[1]}\n", f"name: {longer} {words(10, 'de').rstrip('.')}\n", 1),
                    encoding="utf-8")
    found = LOCATED.findall(agree(game, "--paper", "a4"))
    line = text[:first.start(1)].count("\n") + 1
    assert [(file.endswith("d6xd6/characters.yaml"), int(row)) for file, row, _, _ in found] == [(True, line)], found
    assert re.match(r"characters\[0\]\.name: about \d+ words? too long for the heading of its lookup card .* "
                    r"fit at 9\.5 pt\)", found[0][3]), found


@pytest.mark.parametrize("language, extra", [("en", "Bis"), ("en", "of the Far Marches"), ("de", "Bis")])
def test_check_and_build_agree_with_every_name_longer(tmp_path, language, extra):
    """Names of every kind, a little and a lot longer: whatever check passes
    builds, and a name too wide for its column is refused at its line."""
    said = agree(lengthen_every_name(tmp_path / "game", extra, language), "--paper", "letter")
    if extra == "Bis":      # two lines in the ladder's level column; the German lookup card's legend takes
        assert re.search(r"^OK: ", said, re.M), said        # the card's room as printed: it builds
    else:                   # a damage level of five words cannot head a ladder row
        assert re.search(r"damage\.yaml:\d+:\d+: error: levels\[\d\]\.name: .* level column", said), said


@pytest.mark.parametrize("language, paper", [("de", "a4")])
def test_check_and_build_agree_with_every_name_one_long_word(tmp_path, language, paper):
    """Every name the data gives run into one word of forty-odd letters:
    whatever check passes builds, each name breaking inside its cell (a
    weapon in a table of figures, a healer heading a row), never widening
    a table past its column. D6xD6's level column and the Sixes actions card
    measure their names and refuse these at their lines; they are checked
    first, then left out so that the rest is built."""
    game = lengthen_every_name(tmp_path / "game", "verwaltungsbereichsleitungsstelle", language, joiner="")
    code, said = run("check", "--data", game)
    assert code == 1, said
    refused = {where.split("/")[1] for where, *_ in LOCATED.findall(said)}
    assert refused == {"d6xd6", "sixes"}, said
    for slug in refused:
        shutil.rmtree(game / slug)
    said = agree(game, "--paper", paper)
    assert re.search(r"^OK: ", said, re.M), said


def test_a_compound_wider_than_the_level_column_is_refused_at_its_line(tmp_path):
    """A damage level named by one German word three times the ladder's
    level column: the check counts the lines it breaks into there (it used
    to count one line for any single word) and refuses it at damage.yaml,
    as the build does before rendering."""
    game = new_game(tmp_path / "game", "de")
    path = game / "d6xd6" / "damage.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("name: Kratzer", "name: Schrammenverletzungszustand", 1), encoding="utf-8")
    said = agree(game, "--paper", "a4")
    assert re.search(r"damage\.yaml:\d+:\d+: error: levels\[0\]\.name: .* level column", said), said


def test_a_level_name_is_measured_in_the_bold_its_column_prints(tmp_path):
    """'Schwerverletzung' takes two lines of the ladder's level column in
    regular type but three in the bold the column prints: a bridge card
    then ran past its foot after rendering. The check measures the bold
    (a box's fields in their own weight) and refuses it at its line, as the
    build does before rendering."""
    assert line_count("Schwerverletzung", 14.4, 9.0) == 2 < line_count("Schwerverletzung", 14.4, 9.0, weight=700)
    game = new_game(tmp_path / "game", "de")
    path = game / "d6xd6" / "damage.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name: Kratzer", "name: Schwerverletzung", 1),
                    encoding="utf-8")
    said = agree(game, "--paper", "a4", "--card-size", "bridge")
    assert re.search(r"damage\.yaml:\d+:\d+: error: levels\[0\]\.name: .* level column", said), said


@pytest.mark.parametrize("file, old, key",
                         [("weapons/core.yaml", "name: Punch or kick", r"categories\[0\]\.weapons\[0\]\.name"),
                          ("combat.yaml", "name: Brawl", r"distances\[0\]\.name")], ids=["weapon", "band"])
def test_a_name_that_alone_overfills_a_table_card_is_refused_at_its_line(tmp_path, file, old, key):
    """A D6xD6 weapon without notes, or a distance band, named at such length
    that its row alone is taller than a card: nothing bounded is in the cell
    that runs over (a row was measured only for its notes), so the build
    failed after rendering. The check blames the name, at its line, as the
    build does before rendering."""
    game = new_game(tmp_path / "game")
    path = game / "d6xd6" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, "name: " + words(160), 1), encoding="utf-8")
    said = agree(game, "--paper", "a4", "--card-size", "bridge")
    assert re.search(rf"{re.escape(file)}:\d+:\d+: error: {key}: .* too long for a row of the", said), said


def test_half_the_floors_build_everywhere(tmp_path):
    """The systems not built above at half their floors: check passes them
    on the smallest card (nothing is rendered here; the cases above build)."""
    for system in ("sixes", "i6", "sixes-system"):
        game = make_game(tmp_path / system, system, 0.5)
        code, said = run("check", "--data", game, "--card-size", "bridge")
        assert code == 0, said


# One field at a time far past what its box holds: (system, file, key).
OVER = [("six-shooter", "challenges.yaml", "gm_notes"), ("six-shooter", "challenges.yaml", "description"),
        ("six-shooter", "rules.yaml", "description"), ("d6xd6", "combat.yaml", "note"),
        ("d6xd6", "core.yaml", "comment"), ("i6", "actions.yaml", "rule"),
        ("sixes", "actions.yaml", "rule"), ("sixes-system", "modes.yaml", "note")]


@pytest.mark.parametrize("system, file, key", OVER, ids=[f"{s}-{f}-{k}" for s, f, k in OVER])
def test_a_field_far_over_its_box_is_refused_where_it_is(tmp_path, system, file, key):
    game = make_game(tmp_path / "game", system, 1, only=(file, key), over=600)
    said = agree(game, "--paper", "a4")
    found = LOCATED.findall(said)
    assert found, said
    for where, line, column, message in found:
        assert where.endswith(file), said
        assert re.match(rf"\S*{key}: about \d+ words? too long for .* \(at most about \d+ words? fit at [\d.]+ pt\); "
                        r"shorten it", message), message
        text = (game.parent / where).read_text().splitlines()[int(line) - 1]
        assert text[int(column) - 1:].startswith(words(600)[:20]), (text, column)


def test_names_that_alone_overfill_the_actions_card_are_refused_at_the_names(tmp_path):
    """Six action names of a dozen words each take the hand-signal card's
    room before any reminder does: `check` (and `build`, before rendering)
    names the names to shorten, at their lines, not the reminders, which
    no cut would make fit."""
    game = make_game(tmp_path / "game", "sixes", 1)
    path = game / "sixes" / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    names = re.findall(r"^    name: (.*)$", text, re.M)
    assert len(names) == 6
    for name in names:
        text = text.replace(f"name: {name}\n", f"name: {name} {words(12).rstrip('.')}\n", 1)
    path.write_text(text, encoding="utf-8")
    found = LOCATED.findall(agree(game, "--paper", "a4"))
    assert found and all(re.match(r"actions\.\w+\.name: about \d+ words? too long for the Actions", message)
                         for _, _, _, message in found), found
    # The words that fit are counted at the size the names print, not at the reminders' floor.
    assert all(f"fit at {NAME_PT:g} pt)" in message for _, _, _, message in found), found
    lines = text.splitlines()
    for _, line, column, _ in found:
        assert lines[int(line) - 1][int(column) - 1:].startswith(tuple(names)), lines[int(line) - 1]


def test_reminders_under_names_of_two_lines_are_refused_with_the_names_as_another_way(tmp_path):
    """Names of two lines leave room for the bare rows, not for long
    reminders: the reminders are blamed, and the hint says the names take
    two lines each, so shortening them makes room too."""
    game = make_game(tmp_path / "game", "sixes", 1)
    path = game / "sixes" / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    for name in re.findall(r"^    name: (.*)$", text, re.M):
        text = text.replace(f"name: {name}\n", f"name: {name} of the Far Northern Marches\n", 1)
    for reminder in re.findall(r"^    reminder: (.*)$", text, re.M):
        text = text.replace(f"reminder: {reminder}\n", f"reminder: {reminder} {words(14).rstrip('.')}\n", 1)
    path.write_text(text, encoding="utf-8")
    said = agree(game, "--paper", "a4")
    found = LOCATED.findall(said)
    assert found and all(re.match(r"actions\.\w+\.reminder: about \d+ words? too long for the Actions", message)
                         for _, _, _, message in found), found
    assert all(f"or shorten its name (2 lines at {NAME_PT:g} pt)" in message for _, _, _, message in found), said


def test_a_bigger_card_is_suggested_when_it_would_hold_the_text(tmp_path):
    game = make_game(tmp_path / "game", "six-shooter", 1, only=("challenges.yaml", "description"), over=130)
    code, said = run("check", "--data", game)
    assert code == 1 and "or use --card-size tarot" in said, said
    assert run("check", "--data", game, "--card-size", "tarot")[0] == 0


def test_long_gm_notes_continue_on_a_card_of_their_own(tmp_path):
    """Three times the floor does not share a poker card: the GM notes move to
    the next card, which the deck's page count and pdftotext both show."""
    import subprocess
    game = make_game(tmp_path / "game", "six-shooter", 1, only=("challenges.yaml", "gm_notes"), over=120)
    out = tmp_path / "out"
    code, report = run("build", "--data", game, "--out", out, "--no-site", "--paper", "a4")
    assert code == 0, report
    text = subprocess.run(["pdftotext", str(next(out.rglob("challenge-cards.pdf"))), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "GM notes: on the next card." in text and ": GM notes" in text


def test_a_long_name_fits(tmp_path):
    """A 60-character challenge name with notes at their floors still builds."""
    game = make_game(tmp_path / "game", "six-shooter", 1)
    path = game / "six-shooter" / "challenges.yaml"
    name = ("The Long Night at the Harbour Master's Customs House " * 2)[:NAME_FLOOR]
    path.write_text(path.read_text().replace("name: The Boss", f"name: {name}", 1))
    assert name in path.read_text()
    said = agree(game, "--paper", "a4")
    assert "error:" not in said and re.search(r"^OK: ", said, re.M), said


def test_check_stays_fast_on_a_big_game(tmp_path):
    """The fit check adds little to `check` on a 24-player game."""
    import subprocess
    import sys
    folder = tmp_path / "big"
    subprocess.run([sys.executable, str(Path(__file__).with_name("big_game.py")), str(folder)], check=True)
    from generator.game.load import load_all
    from generator.render.fit.bounded import fit_problems
    loaded, _ = load_all(folder)
    fit_problems(loaded)                    # fonts read once
    problems, seconds = cpu_time(fit_problems, loaded)
    assert problems == [] and seconds < 0.3


def test_the_print_lint_names_the_data_field(tmp_path, monkeypatch):
    """A build that gets past the check (here: the check switched off) and
    still finds text outside its box names the field at its file:line:col,
    not a CSS box: the lint is the last guard, and speaks data."""
    import generator.render.fit.bounded as bounded
    monkeypatch.setattr(bounded, "refuse_unfit", lambda *args, **kwargs: None)
    game = make_game(tmp_path / "game", "six-shooter", 1, only=("challenges.yaml", "description"), over=200)
    code, said = run("check", "--data", game)
    where = LOCATED.findall(said)[0]
    out = tmp_path / "out"
    code, report = run("build", "--data", game, "--out", out, "--no-site", "--paper", "a4", "--jobs", "1")
    assert code == 1 and not list(out.rglob("*.pdf")), report
    assert f"{where[0]}:{where[1]}:{where[2]} challenges[0].description overflows 'Challenge: Locked Door'" in report
    assert " › " not in report, report      # no CSS box named


def test_a_named_field_is_located_as_check_locates_it(tmp_path):
    """What a template names (data-field) becomes the file:line:col and the
    field's path, for keyed and listed places alike."""
    from generator.render.fit.bounded import locate_fields
    game = make_game(tmp_path / "game", "sixes", 1)
    said = locate_fields("page 1: text of 'sixes/actions.yaml#actions.escape.rule' overlaps 'x'", game)
    lines = (game / "sixes" / "actions.yaml").read_text().splitlines()
    match = re.search(r"'game/sixes/actions\.yaml:(\d+):(\d+) actions\.escape\.rule'", said)
    assert match, said
    line, column = int(match[1]), int(match[2])
    assert lines[line - 1][column - 1:].startswith(words(30)[:20]), lines[line - 1]
    assert line > next(i for i, text in enumerate(lines, 1) if text.strip() == "escape:")


def test_a_name_of_one_long_word_breaks_inside_its_table_cell(tmp_path):
    """A name or faction of forty-odd letters and no space is wider than any
    table column that shows it (the cheat sheet's roster, the pack's roster,
    the cast lists): it breaks inside its cell, so `check` passes it and the
    build and the pack print it with no table pushed past its column."""
    import shutil
    word = "Bartholomewmaximilianfitzgeraldworthington"
    game = tmp_path / "game"
    assert run("new", game)[0] == 0
    shutil.rmtree(game / "d6xd6")           # its level names have a measured column of their own
    for path, old in (("sixes/characters/first-rival.yaml", "name: First Rival"),
                      ("sixes/characters/first-rival.yaml", "faction: The Guild"),
                      ("six-shooter/operators.yaml", "name: First Operator"),
                      ("i6/heroes/first-hero.yaml", "name: The Duellist"),
                      ("sixes-system/combatants/brick-halloran.yaml", "name: Brick Halloran"),
                      # an action's name: in the sheets' stat boxes, the cards' rows, the rules tables
                      ("sixes/actions.yaml", "name: Attack"), ("i6/actions.yaml", "name: Attack")):
        file = game / path
        assert old in file.read_text(encoding="utf-8"), path
        file.write_text(file.read_text(encoding="utf-8").replace(old, f"{old.split(':')[0]}: {word}"), encoding="utf-8")
    said = agree(game, "--paper", "a4")
    assert re.search(r"^OK: ", said, re.M), said
    code, packed = run("pack", "--data", game, "--system", "sixes", "--paper", "a4", "--out", tmp_path / "pack")
    assert code == 0, packed


def _entries_game(dest: Path, system: str) -> Path:
    """The starter of `system` with one sheet holding a long list of short
    entries: a Sixes character with eighty specials, or an I6 hero with forty
    features and forty weapons (free, so the points allow them)."""
    game = new_game(dest)
    (game / "sixes.yaml").write_text(f"systems: [{system}]\n", encoding="utf-8")
    if system == "sixes":
        path = game / "sixes" / "specials.yaml"
        library = yaml.safe_load(path.read_text(encoding="utf-8"))
        library["specials"] += [{"name": f"Trick {i}", "rule": "Step aside from one attack.",
                                 "usage": "once per combat"} for i in range(80)]
        path.write_text(yaml.safe_dump(library, sort_keys=False), encoding="utf-8")
        sheet = game / "sixes" / "characters" / "first-rival.yaml"
        character = yaml.safe_load(sheet.read_text(encoding="utf-8"))
        character["specials"] = [s["name"] for s in library["specials"]]
        sheet.write_text(yaml.safe_dump(character, sort_keys=False), encoding="utf-8")
    else:
        folder = game / "i6"
        features = yaml.safe_load((folder / "features.yaml").read_text(encoding="utf-8"))
        features["features"] += [{"name": f"Knack {i}", "cost": 0, "rule": "Reroll one die a scene."}
                                 for i in range(40)]
        (folder / "features.yaml").write_text(yaml.safe_dump(features, sort_keys=False), encoding="utf-8")
        gear = yaml.safe_load((folder / "gear.yaml").read_text(encoding="utf-8"))
        gear["gear"] += [{"name": f"Knife {i}", "cost": 0, "description": "A small blade.",
                          "weapon": {"trait": "Fencing", "damage": 3, "spd": 3, "reach": "melee"}} for i in range(40)]
        (folder / "gear.yaml").write_text(yaml.safe_dump(gear, sort_keys=False), encoding="utf-8")
        sheet = folder / "heroes" / "first-hero.yaml"
        hero = yaml.safe_load(sheet.read_text(encoding="utf-8"))
        hero["features"] = [f["name"] for f in features["features"] if f["cost"] == 0]
        hero["gear"] = [g["name"] for g in gear["gear"] if g["cost"] == 0 or g["name"] == "Sword"]
        sheet.write_text(yaml.safe_dump(hero, sort_keys=False), encoding="utf-8")
    return game


@pytest.mark.parametrize("system", ["sixes", "i6"])
def test_a_sheet_with_many_short_entries_builds_when_check_passes(tmp_path, system):
    """A sheet's page budget grows with the number of its entries (each one's
    name, text and the space between), not only with the length of each
    text: many one-line specials or features passed `check` and then failed
    the build after rendering, the sheet running to five pages of three."""
    game = _entries_game(tmp_path / "game", system)
    said = agree(game, "--paper", "a4")
    assert "error:" not in said and re.search(r"^OK: ", said, re.M), said


def test_a_gm_cheat_sheet_with_a_big_specials_library_builds_when_check_passes(tmp_path):
    """The Sixes GM cheat sheet lists every special of the library and the
    GM notes: its budget grows with them (and with tall roster rows), as a
    sheet's does. A library of 160 one-line specials and notes near the text
    limit passed `check` and failed the build after rendering (18 pages, at
    most 9)."""
    game = new_game(tmp_path / "game")
    (game / "sixes.yaml").write_text("systems: [sixes]\n", encoding="utf-8")
    path = game / "sixes" / "specials.yaml"
    library = yaml.safe_load(path.read_text(encoding="utf-8"))
    library["specials"] += [{"name": f"Trick {i}", "rule": "Once per fight you may step aside from one attack "
                             "and let it pass you by, then point at a foe.", "usage": "once per combat"}
                            for i in range(160)]
    path.write_text(yaml.safe_dump(library, sort_keys=False), encoding="utf-8")
    info_path = game / "sixes" / "game.yaml"
    info = yaml.safe_load(info_path.read_text(encoding="utf-8"))
    info["gm_notes"] = "\n\n".join([words(180)] * 18)
    info_path.write_text(yaml.safe_dump(info, sort_keys=False), encoding="utf-8")
    said = agree(game, "--paper", "a4")
    assert "error:" not in said and re.search(r"^OK: ", said, re.M), said


def test_a_private_cast_with_long_descriptions_builds_when_check_passes(tmp_path):
    """The Sixes System's GM cast sheet holds every private combatant: its
    budget grows with their descriptions and weapons. Two private combatants
    with 9,000-character descriptions and 36 weapons each passed `check` and
    failed the build after rendering (5 pages, at most 3)."""
    game = new_game(tmp_path / "game")
    (game / "sixes.yaml").write_text("systems: [sixes-system]\n", encoding="utf-8")
    folder = game / "sixes-system" / "combatants"
    brick = yaml.safe_load((folder / "brick-halloran.yaml").read_text(encoding="utf-8"))
    for i in range(2):
        brick.update(name=f"Brick Clone {i}", visibility="private", description=words(1500),
                     weapons=[{"name": f"Weapon {j}", "mode": "force", "stat": "strength", "skill": "brawling"}
                              for j in range(36)])
        (folder / f"clone-{i}.yaml").write_text(yaml.safe_dump(brick, sort_keys=False), encoding="utf-8")
    said = agree(game, "--paper", "a4")
    assert "error:" not in said and re.search(r"^OK: ", said, re.M), said


def _beyond_any_plan(game: Path, case: str) -> None:
    """A game whose flowing documents outgrow any page plan a template could
    make: an Operator's archetype of about 500 words (a header row taller
    than a page), or a Sixes System cast of 160 healers on the one-page
    healing card."""
    if case == "archetype":
        (game / "sixes.yaml").write_text("systems: [six-shooter]\n", encoding="utf-8")
        path = game / "six-shooter" / "operators.yaml"
        crew = yaml.safe_load(path.read_text(encoding="utf-8"))
        crew["operators"][0]["archetype"] = words(500)
        path.write_text(yaml.safe_dump(crew, sort_keys=False, allow_unicode=True), encoding="utf-8")
    else:
        (game / "sixes.yaml").write_text("systems: [sixes-system]\n", encoding="utf-8")
        folder = game / "sixes-system" / "combatants"
        healer = yaml.safe_load((folder / "dora-quill.yaml").read_text(encoding="utf-8"))
        for k in range(160):
            healer["name"] = f"Healer {k}"
            (folder / f"healer-{k}.yaml").write_text(yaml.safe_dump(healer, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize("case, document", [("archetype", "six-shooter/players/operator-first-operator.pdf"),
                                            ("healers", "sixes-system/public/healing-card.pdf")])
def test_a_flowing_document_longer_than_any_plan_prints_whole_with_a_warning(tmp_path, case, document):
    """What check passes, the build prints: a flowing document's pages are a
    plan, and running past it is a warning naming the document, never a
    refusal after rendering (check cannot foresee where a page breaks). Both
    games passed `check` and failed the build (4 pages, at most 2; a row
    split over two pages)."""
    game = new_game(tmp_path / "game")
    _beyond_any_plan(game, case)
    code, said = run("check", "--data", game)
    assert code == 0 and re.search(r"^OK: ", said, re.M), said
    code, report = run("build", "--data", game, "--out", tmp_path / "out", "--no-site", "--paper", "a4")
    assert code == 0, report
    assert re.search(rf"^a4 {re.escape(document)}: warning: runs to [3-9] pages where its layout plans [12] ",
                     report, re.M), report


def test_a_one_word_attack_name_check_passes_keeps_the_cheat_sheets_roster_in_its_column(tmp_path):
    """The cheat sheet's roster heads a column with the attack's name: a
    name of one long word that check passes on bridge cards (65 letters
    then; 56 since names are hyphenated, which costs the card's name box a
    line) pushed the table 2.9 mm past its column, and the build failed
    after rendering. The head breaks inside the word, as a name's cell does."""
    game = new_game(tmp_path / "game")
    (game / "sixes.yaml").write_text("systems: [sixes]\n", encoding="utf-8")
    actions = game / "sixes" / "actions.yaml"
    word = ("Wolfeschlegelsteinhausenbergerdorff" * 2)[:56]
    actions.write_text(actions.read_text(encoding="utf-8").replace("name: Attack\n", f"name: {word}\n", 1),
                       encoding="utf-8")
    said = agree(game, "--paper", "a4", "--card-size", "bridge")
    assert re.search(r"^OK: ", said, re.M), said
