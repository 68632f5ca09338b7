"""The questionnaire as real form tools and spreadsheets export it, and as
a hostile one writes it: every answer is read or refused at its line with a
reason, never dropped without a word (game/questionnaire.py)."""
from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import yaml
from click.testing import CliRunner

from generator.commands.cli import main

from generator.core.errors import Problem
from generator.game.cast_settings import AnswerColumns
from generator.game.questionnaire import Answer, read_answers
from generator.systems.sixes import SYSTEM as SIXES

CHARACTERS = {"Honoria Vane": "honoria-vane", "Father O’Brien": "father-obrien", "Zoë Marchetti": "zoe",
              "Séverine Dubois": "severine-dubois"}
COLUMNS = AnswerColumns(player="Name", choices=["Choices"])


def read(path: Path, columns: AnswerColumns = COLUMNS) -> tuple[list[Answer], list[Problem]]:
    return read_answers(path, path.name, columns, CHARACTERS)


def errors(problems: list[Problem]) -> list[str]:
    return [f"{p.line}:{p.column}: {p.message}" for p in problems if p.severity == "error"]


def write_csv(path: Path, rows: list[list[str]], delimiter: str = ",", encoding: str = "utf-8") -> Path:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    path.write_bytes(out.getvalue().encode(encoding))
    return path


def test_a_long_cell_is_refused_at_its_line_and_the_rows_after_it_are_still_read(tmp_path):
    answers = write_csv(tmp_path / "answers.csv", [
        ["Timestamp", "Name", "Choices", "Notes"],
        ["3/1/2026 10:00:00", "Ann", "Honoria Vane", "x" * 200_000],     # a long free-text answer is fine
        ["3/1/2026 10:00:00", "Bob", "Zoe" + "x" * 200_000, ""],          # a long mapped cell is not
        ["3/1/2026 10:00:00", "Cy", "Zoë Marchetti", ""]])
    found, problems = read(answers)
    assert errors(problems) == ["3:3: the cell holds 200,003 characters, more than the 2,000 a column of names may"]
    assert [a.player for a in found] == ["Ann", "Bob", "Cy"]


def test_a_quote_left_open_is_an_error_at_its_line_not_answers_lost(tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text('Name,Choices\nAnn,Honoria Vane\n"Bob,Zoe\nCy,Honoria Vane\n', encoding="utf-8")
    _, problems = read(answers)
    assert errors(problems) == ["3:None: the CSV cannot be read from this line on (unexpected end of data)"]


def test_a_players_name_longer_than_an_envelope_holds_is_refused(tmp_path):
    answers = write_csv(tmp_path / "answers.csv", [["Name", "Choices"], ["A" * 1500, "Zoe"]])
    _, problems = read(answers)
    assert errors(problems) == ["2:1: the name is 1,500 characters long, more than 200"]


def test_utf16_with_its_mark_is_read_and_windows_1252_is_refused_at_the_byte(tmp_path):
    rows = [["Name", "Choices"], ["Zoë", "Séverine Dubois; Zoë Marchetti"]]
    for encoding in ("utf-16", "utf-16-be", "utf-8-sig"):
        path = tmp_path / f"{encoding}.csv"
        data = write_csv(path, rows, delimiter="\t", encoding=encoding).read_bytes()
        if encoding == "utf-16-be":
            path.write_bytes(b"\xfe\xff" + data)
        found, problems = read(path)
        assert errors(problems) == [] and found[0].player == "Zoë", encoding
        assert found[0].choices == ("severine-dubois", "zoe")
    found, problems = read(write_csv(tmp_path / "cp1252.csv", rows, encoding="cp1252"))
    assert errors(problems) == ["2:3: the file is not UTF-8 text (byte 17: 0xEB)"] and found == []


QUESTION = 'Which characters would you like to play? (pick up to 3, "best" first)'


def test_a_google_forms_export_with_names_typed_any_way(tmp_path):
    """Headers with commas and quotes, an Email Address column, multi-select
    cells joined by ", " or ";", a quoted free-text answer over lines, CRLF,
    trailing empty columns; names typed without accents, in any case, with
    a straight apostrophe for a curly one, or as the character's file name."""
    answers = write_csv(tmp_path / "answers.csv", [
        ["Timestamp", "Email Address", "Your name", QUESTION, "Anything else?", "", ""],
        ["2026/03/01 10:00:00 AM GMT+1", "a@x.org", "  Ann   Lee ", "Honoria vane, father o'brien, zoe",
         "line one\r\nline, two", "", ""],
        ["2026/03/01 11:00:00 AM GMT+1", "b@x.org", "Bob", "FATHER O`BRIEN;severine-dubois ; honoria-vane", "", "", ""],
        ["2026/03/01 11:30:00 AM GMT+1", "c@x.org", "Cy O'Neil", "Zoe Marchetti,  Séverine Dubois", "", "", ""]])
    columns = AnswerColumns(player="Your name", choices=[QUESTION], avoids=[])
    found, problems = read(answers, columns)
    assert problems == []
    assert [(a.player, a.choices) for a in found] == [
        ("Ann Lee", ("honoria-vane", "father-obrien", "zoe")),
        ("Bob", ("father-obrien", "severine-dubois", "honoria-vane")),
        ("Cy O'Neil", ("zoe", "severine-dubois"))]


def test_a_player_who_answered_twice_with_another_apostrophe_is_one_player(tmp_path):
    answers = write_csv(tmp_path / "answers.csv", [
        ["Timestamp", "Name", "Choices"],
        ["3/1/2026 10:00:00", "Cy O’Neil", "Zoe"], ["3/2/2026 10:00:00", "cy o'neil", "Honoria Vane"]])
    found, problems = read(answers)
    assert [(a.player, a.choices) for a in found] == [("cy o'neil", ("honoria-vane",))]
    assert [p.message for p in problems] == ["'cy o'neil' answered twice: the later answer (line 3) is kept, "
                                             "this one ignored"]


GRID = "Rank the characters you'd like to play"


def grid_row(name: str, ranks: list[str]) -> list[str]:
    return ["3/1/2026 10:00:00", name, *ranks]


def test_a_grid_question_ranks_the_characters_a_cell_a_rank(tmp_path):
    """Google Forms' grid: a column per character headed `QUESTION [Name]`,
    the cell the rank as the grid's columns were labelled."""
    heads = [f"{GRID} [{n}]" for n in ("Honoria Vane", "Father O'Brien", "Zoe", "severine-dubois")]
    answers = write_csv(tmp_path / "answers.csv", [
        ["Timestamp", "Name", *heads],
        grid_row("Ann", ["2nd choice", "1st choice", "", "3rd choice"]),
        grid_row("Bob", ["First", "", "Second", ""]),
        grid_row("Cy", ["٣", "1", "2", ""]),                     # Arabic-Indic three is a rank
        grid_row("Di", ["1", "1", "", ""])])                     # a tie: the columns' order, with a warning
    found, problems = read(answers, AnswerColumns(player="Name", grid=GRID))
    assert [(a.player, a.choices) for a in found] == [
        ("Ann", ("father-obrien", "honoria-vane", "severine-dubois")), ("Bob", ("honoria-vane", "zoe")),
        ("Cy", ("father-obrien", "zoe", "honoria-vane")), ("Di", ("honoria-vane", "father-obrien"))]
    assert [(p.line, p.column, p.severity, p.message) for p in problems] == [
        (5, 4, "warning", "'Honoria Vane' and 'Father O'Brien' are both ranked 1: the columns' order decides")]


def test_a_grid_cell_that_is_no_rank_is_refused_at_its_cell(tmp_path):
    heads = [f"{GRID} [{n}]" for n in ("Honoria Vane", "Zoe", "Séverine Dubois")]
    answers = write_csv(tmp_path / "answers.csv", [
        ["Timestamp", "Name", *heads],
        grid_row("Ann", ["1e9", "-1", "²"]), grid_row("Bob", ["0", "4", "2.5"]), grid_row("Cy", ["1", "2", "3"])])
    found, problems = read(answers, AnswerColumns(player="Name", grid=GRID))
    assert errors(problems) == [
        "2:3: '1e9' is not a rank", "2:4: '-1' is not a rank", "2:5: '²' is not a rank",
        "3:3: rank 0 is outside 1 to 3 (the characters in the grid)",
        "3:4: rank 4 is outside 1 to 3 (the characters in the grid)", "3:5: '2.5' is not a rank"]


def test_a_grid_naming_no_character_or_missing_is_refused_at_the_header(tmp_path):
    answers = write_csv(tmp_path / "answers.csv", [
        ["Name", f"{GRID} [Honoria Vane]", f"{GRID} [Honorine Vane]"], ["Ann", "1", "2"]])
    _, problems = read(answers, AnswerColumns(player="Name", grid=GRID))
    assert errors(problems) == ["1:3: no character called 'Honorine Vane'"]
    _, problems = read(answers, AnswerColumns(player="Name", grid="Rank the character"))
    assert errors(problems) == ["1:None: no columns 'Rank the character [Character]' (the casting's grid)"]


def test_a_microsoft_forms_export_with_a_grid_casts_from_the_command_line(tmp_path):
    """Microsoft Forms' CSV columns (ID, Start time, Completion time, Email,
    Name) and a ranking grid named on the command line cast the starter."""
    game = tmp_path / "game"
    shutil.copytree(SIXES.starter, game / "sixes")
    (game / "sixes.yaml").write_text("paper: a4\n", encoding="utf-8")
    rank = "Rank these, 1 = favourite"
    answers = write_csv(tmp_path / "answers.csv", [
        ["ID", "Start time", "Completion time", "Email", "Name", f"{rank} [First Rival]", f"{rank} [second-rival]"],
        ["1", "3/14/26 10:20:00", "3/14/26 10:22:31", "anonymous", "Ann", "1", "2"],
        ["2", "3/14/26 10:24:00", "3/14/26 10:25:00", "anonymous", "Bob", "2nd", "1st"]])
    result = CliRunner().invoke(main, ["cast", str(answers), "--data", str(game), "--out", str(tmp_path / "out"),
                                       "--grid-column", rank])
    assert result.exit_code == 0, result.output
    envelopes = yaml.safe_load((game / "casting.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert [(e["player"], e["character"]) for e in envelopes] == [("Ann", "First Rival"), ("Bob", "Second Rival")]


HOSTILE = ["<img src=x onerror=alert(1)>", "**Bold** [link](http://e.org)", "- dash", "# hash", "1. one",
           "a|b &amp; `c` ~~s~~ _i_", "=cmd|' /C calc'!A0", "no", "*alias", "{a: b}", "null", "@SUM(1)"]


def starter(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(SIXES.starter, game / "sixes")
    (game / "sixes.yaml").write_text("paper: a4\n", encoding="utf-8")
    return game


def test_players_names_are_plain_text_in_the_report_and_read_back_from_the_casting(tmp_path):
    """Names that are Markdown, HTML, YAML or a spreadsheet formula print as
    themselves in the report, and the casting file reads back as written."""
    from markdown_it import MarkdownIt
    from generator.game.casting import load_casting
    game = starter(tmp_path)
    answers = write_csv(tmp_path / "answers.csv", [["Name", "Choices"], *[[n, ""] for n in HOSTILE]])
    result = CliRunner().invoke(main, ["cast", str(answers), "--data", str(game), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    html = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(
        (tmp_path / "out" / "casting" / "casting-report.md").read_text(encoding="utf-8"))
    for tag in ("<img", "<strong", "<a ", "<em", "<code", "<del", "<h1>hash", "<ol"):
        assert tag not in html, tag
    assert html.count("<h1>") == 1 and html.count("<table>") == 1
    visible = html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    for name in HOSTILE:
        assert name in visible, name
    roles, problems = load_casting(game / "casting.yaml", {"First Rival": "first-rival",
                                                           "Second Rival": "second-rival"}, game, system="sixes")
    assert problems == [] and {r.player for r in roles} <= set(HOSTILE) and len(roles) == 2


def test_a_casting_past_the_bound_is_refused_before_solving_and_one_within_is_not():
    from generator.game.cast_model import CastProblem
    from generator.game.cast_solve import MAX_PAIRS, too_large
    def problem(players: int, characters: int) -> CastProblem:
        return CastProblem(tuple(f"P{i}" for i in range(players)), tuple(f"C{i}" for i in range(characters)),
                           ((),) * players)
    assert MAX_PAIRS == 150 * 150 and too_large(problem(150, 150)) is None and too_large(problem(500, 45)) is None
    assert too_large(problem(1000, 1000)) == ("1,000 players x 1,000 characters is 1,000,000 pairs, more than the "
                                              "22,500 cast here (150 x 150, or 500 players for 45 characters; about "
                                              "a quarter of a minute)")


def run_cast(game: Path, answers: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["cast", str(answers), "--data", str(game), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def test_a_solver_that_stops_or_ctrl_c_in_the_solve_writes_nothing_and_shows_no_traceback(tmp_path, monkeypatch):
    from generator.game import cast_solve
    game = starter(tmp_path)
    answers = write_csv(tmp_path / "answers.csv", [["Name", "Choices"], ["Ann", "First Rival"], ["Bob", ""]])

    def stopped(problem, known=None):
        raise cast_solve.SolverFailed("the solver stopped without an answer (Time limit reached)")
    monkeypatch.setattr(cast_solve, "solve", stopped)
    code, output = run_cast(game, answers, tmp_path / "out")
    assert (code, output.splitlines()[-2:]) == (1, [
        "error: the solver stopped without an answer (Time limit reached)",
        "Nothing was written: the casting file was not written."]), output

    def interrupted(problem, known=None):
        raise KeyboardInterrupt
    monkeypatch.setattr(cast_solve, "solve", interrupted)
    code, output = run_cast(game, answers, tmp_path / "out")
    assert code == 130 and "Traceback" not in output, output
    assert not (game / "casting.yaml").exists() and not (tmp_path / "out" / "casting").exists()
