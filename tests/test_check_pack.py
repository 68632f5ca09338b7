"""`check` knows what `pack` will print: it takes the pack's options (the
same declarations) and the settings' `pack:` section, both as `pack` takes
them, and whatever `pack` refuses of its envelopes (a cover too long for
half a sheet, a name or the game's title too long for a label, a space the
fonts lack) `check` refuses first, at the line that causes it, in the
command line's English whatever the game's language."""
from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfWriter

from big_game import CAST, write_game
from generator.commands.cli import main

# A German organiser's title: 40 letters, two lines under each name on a US Letter label.
TITLE = "Die lange Nacht der Messer von Altdorf X"
HERO = "Der Duellant aus dem Schwarzen Wald"        # fits a label under a title of one line, not of two
LOCATED = re.compile(r"^(\S+?):(\d+):(\d+): error: (.*)$", re.M)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def german_i6(tmp_path_factory) -> Path:
    """`sixes new --language de`, its I6 game only, a 40-letter title and a hero of six words."""
    game = tmp_path_factory.mktemp("de") / "spiel"
    assert run("new", "--language", "de", str(game))[0] == 0
    for other in ("sixes", "six-shooter", "d6xd6", "sixes-system"):
        shutil.rmtree(game / other)
    assert len(TITLE) == 40
    info = game / "i6" / "game.yaml"
    info.write_text(re.sub(r"^title: .*$", f"title: {TITLE}", info.read_text(encoding="utf-8"), flags=re.M),
                    encoding="utf-8")
    hero = game / "i6" / "heroes" / "first-hero.yaml"
    hero.write_text(re.sub(r"^name: .*$", f"name: {HERO}", hero.read_text(encoding="utf-8"), flags=re.M),
                    encoding="utf-8")
    return game


def title_line(game: Path) -> int:
    lines = (game / "i6" / "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith("title:"))


def test_a_title_too_long_for_the_labels_is_refused_by_check_and_pack_alike_at_the_title(german_i6, tmp_path):
    """Paper `both` (what `sixes new` writes): `check --labels` and a plain
    `check` with `labels: true` under `pack:` refuse where `pack --labels`
    does, at the title's line in game.yaml, in English; `check` without
    labels passes."""
    game = german_i6
    assert run("check", "--data", str(game))[0] == 0
    refusals = [run("check", "--data", str(game), "--labels"),
                run("pack", "--data", str(game), "--system", "i6", "--labels", "--out", str(tmp_path / "out"))]
    settings = game / "sixes.yaml"
    kept = settings.read_text(encoding="utf-8")
    assert "\n  labels: false" in kept            # the starter's settings say how the game is packed
    settings.write_text(kept.replace("\n  labels: false", "\n  labels: true"), encoding="utf-8")
    try:
        refusals.append(run("check", "--data", str(game)))
        assert run("check", "--data", str(game), "--no-labels")[0] == 0      # the command line wins
    finally:
        settings.write_text(kept, encoding="utf-8")
    said = []
    for code, output in refusals:
        assert code == 1, output
        found = LOCATED.findall(output)
        assert [(file.endswith("i6/game.yaml"), int(line)) for file, line, _c, _m in found] \
            == [(True, title_line(game))], output
        said.append(found[0][3])
        assert "Umschlag" not in output and "Etikett" not in output and "kürze" not in output, output
    assert said[0] == said[1] == said[2]
    assert said[0].startswith("title: the game's title, printed under the name on each label of Avery 5160, "
                              "takes 2 lines there (US Letter)") and HERO in said[0], said[0]
    assert not (tmp_path / "out").exists()


def test_on_a4_alone_check_and_pack_both_pass_the_same_labels(german_i6, tmp_path):
    """An A4 label is taller: the same title and name fit it, and what check passes the pack prints."""
    assert run("check", "--data", str(german_i6), "--labels", "--paper", "a4")[0] == 0
    code, output = run("pack", "--data", str(german_i6), "--system", "i6", "--labels", "--paper", "a4",
                       "--out", str(tmp_path / "out"), "--jobs", "2")
    assert code == 0, output
    assert (tmp_path / "out" / "pack" / "i6" / "a4" / "labels.pdf").is_file()


def test_a_player_name_with_ideographic_spaces_is_refused_by_check_at_the_player(german_i6, tmp_path):
    """U+3000 is a space no shipped font has: set in a fallback font, wider
    than check measured, it overflowed a label that check had passed. It is
    refused as any character the fonts lack, at the casting's player."""
    casting = tmp_path / "casting.yaml"
    casting.write_text('system: i6\nenvelopes:\n  - player: "Anna\u3000Li"\n    character: Die Ärztin\n',
                       encoding="utf-8")
    for args in (["check", "--casting", str(casting)], ["check", "--casting", str(casting), "--labels"]):
        code, output = run(*args, "--data", str(german_i6))
        assert code == 1 and f"{casting}:3:13: error: envelopes[0].player: the text has characters the printed " \
                             f"fonts cannot show: '\u3000' (U+3000)" in output, output
        assert "a plain space" in output


@pytest.fixture
def circus(tmp_path) -> Path:
    return write_game(tmp_path / "circus", players=2)


def test_twelve_handouts_for_half_covers_are_refused_by_check_as_by_pack(circus, tmp_path):
    """A character with twelve handouts: a cover a page holds them, half a
    sheet does not. `check --covers half` (or `covers: half` under `pack:`)
    refuses at the casting entry, as `pack --covers half` does."""
    handout = PdfWriter()
    handout.add_blank_page(595, 842)
    names = [f"handouts/note-{k:02d}.pdf" for k in range(12)]
    for name in names:
        with open(circus / name, "wb") as f:
            handout.write(f)
    casting = circus / "casting.yaml"
    (first, player), (second, other) = CAST[:2]
    casting.write_text(f"system: sixes\nenvelopes:\n  - player: {player}\n    character: {first}\n"
                       f"    handouts: [{', '.join(names)}]\n  - player: {other}\n    character: {second}\n")
    assert run("check", "--data", str(circus))[0] == 0
    said = [run("check", "--data", str(circus), "--covers", "half"),
            run("pack", "--data", str(circus), "--covers", "half", "--out", str(tmp_path / "out"))]
    (circus / "sixes.yaml").write_text((circus / "sixes.yaml").read_text() + "pack:\n  covers: half\n")
    said.append(run("check", "--data", str(circus)))
    for code, output in said:
        assert code == 1 and f"casting.yaml:5:15: error: envelope 1 ({player}): its cover lists 16 items" in output \
            and "more than half a sheet of A4" in output, output
    assert not (tmp_path / "out").exists()


def test_pack_and_check_share_one_declaration_of_the_pack_options():
    """Not copies: the options and their help are the same objects' output."""
    commands = main.commands
    for name in ("labels", "name_sheets", "covers", "card_size", "large_print", "paper"):
        seen = [next(p for p in commands[c].params if p.name == name) for c in ("check", "pack")]
        assert seen[0].opts == seen[1].opts and seen[0].help == seen[1].help, name


# --- the command line's messages are English --------------------------------------------------------------

PROBLEM_CALLS = {"Problem", "problem", "setting_problem", "_envelope_problem", "DataError"}
TRANSLATING = {"_", "ngettext", "pgettext"}


def test_no_problem_is_worded_through_the_games_catalogue():
    """A problem is the command line's, English in every game: no call that
    makes one (or its hint) translates, and no module that measures what a
    pack prints words its problems through `_` (the class that printed a
    German game's pack refusal in German)."""
    found = []
    for path in sorted(Path("generator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in PROBLEM_CALLS and not any(k.arg == "hint" for k in node.keywords):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and getattr(inner.func, "id", "") in TRANSLATING:
                    found.append(f"{path}:{inner.lineno}")
    assert found == []


class Marked:
    """A catalogue that marks every message it translates, so a problem
    worded through it shows the mark."""

    MARK = "§"

    def gettext(self, message: str) -> str:
        return self.MARK + message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.MARK + (singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.MARK + message


def test_what_check_and_pack_refuse_is_never_worded_in_the_games_language(german_i6, circus, tmp_path, monkeypatch):
    """Run in a language whose every message is marked, the refusals of
    labels, titles and covers carry no mark: the words measured are the
    game's, the problem is the command line's."""
    from generator.core.i18n import Words
    from generator.game import gather
    monkeypatch.setattr(gather, "words_for", lambda language, own=None: Words(language, Marked()))  # type: ignore
    handout = PdfWriter()
    handout.add_blank_page(595, 842)
    names = [f"handouts/note-{k:02d}.pdf" for k in range(12)]
    for name in names:
        with open(circus / name, "wb") as f:
            handout.write(f)
    (first, player), _rest = CAST[0], CAST[1:]
    (circus / "casting.yaml").write_text(f"system: sixes\nenvelopes:\n  - player: {player}\n    character: {first}\n"
                                         f"    handouts: [{', '.join(names)}]\n")
    runs = [run("check", "--data", str(german_i6), "--labels"),
            run("pack", "--data", str(german_i6), "--labels", "--out", str(tmp_path / "a")),
            run("check", "--data", str(circus), "--covers", "half"),
            run("pack", "--data", str(circus), "--covers", "half", "--out", str(tmp_path / "b"))]
    for code, output in runs:
        assert code == 1 and LOCATED.search(output) and Marked.MARK not in output, output


def test_a_title_that_leaves_no_name_room_is_blamed_even_where_the_name_is_long_too(german_i6, tmp_path):
    """Three lines of title leave a US Letter label no room for any name:
    the title is refused at its line, not every hero's name."""
    game = Path(shutil.copytree(german_i6, tmp_path / "spiel"))
    info = game / "i6" / "game.yaml"
    long_title = TITLE + " und die Rückkehr des schwarzen Ritters aus dem Nebel"
    info.write_text(info.read_text(encoding="utf-8").replace(TITLE, long_title), encoding="utf-8")
    hero = game / "i6" / "heroes" / "second-hero.yaml"      # too long for a label under any title
    hero.write_text(re.sub(r"^name: .*$", "name: Die Ärztin aus dem Schwarzwald mit dem silbernen Skalpell und der "
                                          "alten Laterne", hero.read_text(encoding="utf-8"), flags=re.M),
                    encoding="utf-8")
    code, output = run("check", "--data", str(game), "--labels", "--paper", "letter")
    found = LOCATED.findall(output)
    assert code == 1 and [(file.endswith("i6/game.yaml"), int(line)) for file, line, _c, _m in found] \
        == [(True, title_line(game))], output
    assert "takes 3 lines there" in output and "envelopes 1 (" in output and "2 (Die Ärztin" in output, output
    assert "error: envelope" not in output, output


def test_a_player_too_long_for_a_name_badge_is_refused_by_check_as_by_pack(circus, tmp_path):
    """Badges that print the player (packet.yaml `badges: {player: true}`)
    give the player one line: a name longer than that is refused by `check`
    and by `pack` before anything renders, at the casting entry's player; the
    same name passes when the badges leave players off."""
    (first, player), (second, other) = CAST[:2]
    long_player = "Alexandra Morgan-Featherstonehaugh-Cholmondeley of Penzance"
    casting = circus / "casting.yaml"
    casting.write_text(f"system: sixes\nenvelopes:\n  - player: {player}\n    character: {first}\n"
                       f"  - player: {long_player}\n    character: {second}\n")
    (circus / "packet.yaml").write_text("sixes:\n  badges:\n    player: true\n")
    said = [run("check", "--data", str(circus)),
            run("pack", "--data", str(circus), "--out", str(tmp_path / "out"))]
    for code, output in said:
        assert code == 1 and f"casting.yaml:5:13: error: envelope 2 ({long_player}): the player's name does not fit " \
            "one line of a name badge" in output, output
        assert f"envelope 1 ({player})" not in output, output
    assert not (tmp_path / "out").exists()
    (circus / "packet.yaml").write_text("sixes:\n  badges:\n    player: false\n")
    assert run("check", "--data", str(circus))[0] == 0
