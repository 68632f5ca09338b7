"""The terminal: every value the command line prints is escaped.

A path, a setting, a name or a title from the data can hold ESC or BEL; a
terminal would act on them (recolour, move the cursor, ring, retitle the
window). So every value printed goes through core.errors.visible. Two tests
hold it: one reads commands/*.py and refuses any printed value that is not
wrapped in visible(...) (so a line added tomorrow is held too), the other
runs commands with an output folder and data holding ESC[31m and BEL and
finds neither raw in what they print.
"""
from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core.errors import visible
from generator.systems.d6xd6 import SYSTEM as D6XD6

COMMANDS = Path(__file__).resolve().parent.parent / "generator" / "commands"
PRINTERS = {"echo", "secho", "BadParameter", "UsageError", "ClickException"}
SAFE_CALLS = {"visible", "len"}
# A format spec of one of these types fails on text, so the value is a number.
NUMERIC_TYPES = set("bcdeEfFgGnoxX%")
HOSTILE = "red\x1b[31mbell\x07csi\u009b2J"


def _printer(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr in PRINTERS and \
        isinstance(func.value, ast.Name) and func.value.id == "click"


def unescaped(node: ast.expr) -> list[ast.expr]:
    """The parts of a printed expression that could carry a value from
    outside unescaped: anything but text in the code, visible(...), len(...),
    a number (proved by a numeric format spec) or an UPPER_CASE constant."""
    if isinstance(node, ast.Constant) or (isinstance(node, ast.Name) and node.id.isupper()):
        return []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SAFE_CALLS:
        return []
    if isinstance(node, ast.JoinedStr):
        return [bad for value in node.values for bad in unescaped(value)]
    if isinstance(node, ast.FormattedValue):
        spec = node.format_spec
        if isinstance(spec, ast.JoinedStr) and spec.values and isinstance(spec.values[-1], ast.Constant) \
                and str(spec.values[-1].value)[-1:] in NUMERIC_TYPES:
            return []
        return unescaped(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return unescaped(node.left) + unescaped(node.right)
    if isinstance(node, ast.IfExp):
        return unescaped(node.body) + unescaped(node.orelse)
    return [node]


def unescaped_prints(source: str) -> list[tuple[int, str]]:
    """(line, expression) of each printed value not escaped, in one module."""
    found = []
    for call in ast.walk(ast.parse(source)):
        if isinstance(call, ast.Call) and _printer(call):
            for arg in call.args[:1]:
                found += [(bad.lineno, ast.unparse(bad)) for bad in unescaped(arg)]
    return found


def test_every_value_the_commands_print_is_escaped():
    found = {f"{path.name}:{line}: {text}" for path in sorted(COMMANDS.glob("*.py"))
             for line, text in unescaped_prints(path.read_text(encoding="utf-8"))}
    assert not found, "print these through visible(...): " + "; ".join(sorted(found))


@pytest.mark.parametrize("line, caught", [
    ('click.echo(f"Built in {out}")', ["out"]),
    ('click.echo("Site: " + str(index))', ["str(index)"]),
    ('click.secho(message, err=True)', ["message"]),
    ('click.echo(f"{n:>3} done")', ["n"]),
    ('click.echo(f"Built in {visible(out)}, {len(pdfs)} PDFs, {n:d} new, {t:.1f} s, {SETTINGS_FILE}")', []),
    ('click.echo("a " + (visible(x) if x else "none"))', []),
    ('raise click.BadParameter(str(exc))', ["str(exc)"]),
])
def test_the_reader_catches_an_unescaped_value(line, caught):
    assert [text for _, text in unescaped_prints(line)] == caught


# --- the commands themselves, with hostile paths and data --------------------

def _no_raw_controls(text: str) -> None:
    assert not any(c in text for c in "\x1b\x07\u009b"), visible(text)


@pytest.fixture
def hostile_game(tmp_path) -> Path:
    """A game folder whose output setting and game title hold ESC, BEL and CSI."""
    game = tmp_path / "game"
    shutil.copytree(D6XD6.starter, game / "d6xd6")
    (game / "sixes.yaml").write_text(f"output: {_quoted(HOSTILE)}\n", encoding="utf-8")
    return game


def _quoted(text: str) -> str:
    """A double-quoted YAML scalar: ESC as \\e, other controls as \\x.. or \\u...."""
    return '"' + "".join(c if " " <= c <= "~" and c not in '"\\' else
                         ("\\e" if c == "\x1b" else f"\\u{ord(c):04x}") for c in text) + '"'


def test_an_output_setting_with_escapes_is_refused_and_shown_escaped(hostile_game, monkeypatch):
    monkeypatch.chdir(hostile_game)
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1, result.output
    _no_raw_controls(result.output)
    assert "sixes.yaml:1:9: error: output: the file name holds an invisible character" in result.output
    assert "U+001B (a control character) at character 4" in result.output


def test_build_s_closing_lines_escape_the_output_folder(tmp_path, monkeypatch):
    """--out is the user's own, and can hold anything a file name can."""
    game = tmp_path / "game"
    shutil.copytree(D6XD6.starter, game / "d6xd6")
    (game / "sixes.yaml").write_text("paper: a4\n", encoding="utf-8")
    out = tmp_path / HOSTILE
    monkeypatch.chdir(game)
    result = CliRunner().invoke(main, ["build", "--no-site", "--out", str(out)])
    assert result.exit_code == 0, visible(result.output)
    _no_raw_controls(result.output)
    assert f"Built {len(list(out.rglob('*.pdf')))} PDFs in {visible(out / 'pdf')}" in result.output


def test_schema_names_the_files_it_wrote_escaped(tmp_path):
    out = tmp_path / HOSTILE
    result = CliRunner().invoke(main, ["schema", str(out)])
    assert result.exit_code == 0, visible(result.output)
    assert visible(out / "settings.schema.json") in result.output
    _no_raw_controls(result.output)


def test_a_new_game_in_a_hostile_folder_name_prints_it_escaped_and_checks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", HOSTILE])
    assert result.exit_code == 0, visible(result.output)
    _no_raw_controls(result.output)
    assert f"Wrote a new game folder {visible(HOSTILE)}" in result.output
    settings = (tmp_path / HOSTILE / "sixes.yaml").read_text(encoding="utf-8")
    # The controls dropped, each word's first letter capitalised and the rest kept as typed (commands/new.folder_title).
    assert "name: \"Red[31mbellcsi2J\"" in settings, settings
