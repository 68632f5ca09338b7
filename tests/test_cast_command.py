"""`sixes cast`: a 40-player questionnaire in the shape a form tool exports
(free text, blank rows, a player who sent the form twice) casts the example
game; mistakes are reported at the CSV's line and column, all at once, and
nothing is written; a casting is never overwritten without --force; rules
that cannot hold together are named with their players; a re-cast after a
drop-out moves nobody it need not; nothing but the players' names reaches a
pack."""
from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from pdf_text import text

from generator.commands.cli import main
from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.casting import load_casting
from generator.systems.sixes import SYSTEM as SIXES
from matches import matched

QUESTIONNAIRE = Path(__file__).parent / "data" / "cast" / "questionnaire-40.csv"
RANKS = ["First choice", "Second choice", "Third choice", "Fourth choice", "Fifth choice"]
COLUMNS = ["--player-column", "Your name", *[a for r in RANKS for a in ("--choice-column", r)],
           "--refuse-column", "Characters you will not play",
           "--avoid-column", "Anyone you would rather not be cast opposite?"]
SETTINGS = """\
casting:
  columns:
    player: Your name
    choices: [First choice, Second choice, Third choice, Fourth choice, Fifth choice]
    refuses: [Characters you will not play]
    avoids: [Anyone you would rather not be cast opposite?]
    attributes: [Pronouns]
"""


def cast(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["cast", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def example_characters() -> dict[str, str]:
    from generator.game.casting import cast_names
    from generator.game.load import load_all
    loaded = {item.system.slug: item for item in load_all(DEFAULT_DATA_DIR)[0]}
    return cast_names(loaded["sixes"].system, loaded["sixes"].game)


@pytest.fixture(scope="module")
def cast_example(tmp_path_factory):
    """The example game cast from the 40-player questionnaire (columns on the command line)."""
    where = tmp_path_factory.mktemp("cast")
    code, output = cast(str(QUESTIONNAIRE), "--data", str(DEFAULT_DATA_DIR), "--system", "sixes",
                        "--out", str(where / "out"), "--to", str(where / "casting.yaml"), *COLUMNS)
    return where, code, output


def test_a_forms_export_casts_the_example_game(cast_example):
    where, code, output = cast_example
    assert code == 0, output
    characters = example_characters()
    envelopes = yaml.safe_load((where / "casting.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert sorted(e["character"] for e in envelopes) == sorted(characters)      # 16 characters, each once
    with open(QUESTIONNAIRE, newline="", encoding="utf-8") as f:
        named = {row["Your name"] for row in csv.DictReader(f) if row["Your name"]}
    assert {e["player"] for e in envelopes} <= named and len({e["player"] for e in envelopes}) == 16
    roles, problems = load_casting(where / "casting.yaml", characters, DEFAULT_DATA_DIR, system="sixes")
    assert [p for p in problems if p.severity == "error"] == [] and len(roles) == 16
    # The duplicated submission: the later one is kept, the earlier named at its line.
    assert "questionnaire-40.csv:10: warning: 'Noor Quinn' answered twice: the later answer (line 53) is kept" \
        in output
    assert "40 players for 16 characters: 24 are left without one" in output
    report = (where / "out" / "casting" / "casting-report.md").read_text(encoding="utf-8")
    assert report.splitlines()[0] == "# Casting: Low Water at Saint Brannoc's"
    assert "## Left without a character (24)" in report
    assert "(2) the most first choices" in report and "| Player | Character | Rank |" in report
    firsts = int(matched(re.search(r"- 1st choice: (\d+)", report)).group(1))
    assert firsts >= 12


def test_nothing_but_names_leaves_the_questionnaire(cast_example):
    """Emails, pronouns and personal notes are in the CSV; neither the casting
    file nor the report holds any of them."""
    where, _, _ = cast_example
    with open(QUESTIONNAIRE, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    private = {row[k] for row in rows for k in ("Email address", "Anything else we should know? (access needs, "
                                                "allergies, notes for the organisers)") if row[k]}
    assert any("PRIVATE-NOTE" in p for p in private)
    written = (where / "casting.yaml").read_text(encoding="utf-8") + \
        (where / "out" / "casting" / "casting-report.md").read_text(encoding="utf-8")
    assert [p for p in private if p in written] == []
    assert "PRIVATE" not in written and "@example.org" not in written


def test_the_settings_map_the_columns_and_the_same_seed_casts_the_same(cast_example, tmp_path):
    game = tmp_path / "game"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", game / "sixes")
    (game / "sixes.yaml").write_text(SETTINGS, encoding="utf-8")
    code, output = cast(str(QUESTIONNAIRE), "--data", str(game), "--out", str(tmp_path / "out"))
    assert code == 0, output
    ours = yaml.safe_load((game / "casting.yaml").read_text(encoding="utf-8"))
    theirs = yaml.safe_load((cast_example[0] / "casting.yaml").read_text(encoding="utf-8"))
    assert ours == theirs


def questionnaire(path: Path, rows: list[list[str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["Timestamp", "Name", "Choice 1", "Choice 2", "Will not play", "Notes"], *rows])
    return path


@pytest.fixture
def starter(tmp_path) -> Path:
    """The Sixes starter (First Rival, Second Rival) with columns in its settings."""
    game = tmp_path / "game"
    shutil.copytree(SIXES.starter, game / "sixes")
    (game / "sixes.yaml").write_text("paper: a4\ncasting:\n  columns:\n    choices: [Choice 1, Choice 2]\n"
                                     "    refuses: [Will not play]\n", encoding="utf-8")
    return game


def test_every_mistake_at_its_line_and_column_at_once_and_nothing_written(starter, tmp_path):
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann", "First Rivel", "", "", "fine"],
        ["", "", "", "", "", ""],
        ["3/1/2026 11:00:00", "Bob", "Second Rival", "Frist Rival", "Seconde Rival", ""]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 1
    assert (f"{answers}:2:3: error: Choice 1: no character called 'First Rivel'; did you mean 'First Rival'?"
            in output)
    assert f"{answers}:4:4: error: Choice 2: no character called 'Frist Rival'; did you mean 'First Rival'?" in output
    assert f"{answers}:4:5: error: Will not play: no character called 'Seconde Rival'" in output
    assert "Nothing was written" in output
    assert not (starter / "casting.yaml").exists() and not (tmp_path / "out").exists()


def test_a_column_not_found_is_named_with_the_headers_there(starter, tmp_path):
    answers = questionnaire(tmp_path / "answers.csv", [["3/1/2026 10:00:00", "Ann", "First Rival", "", "", ""]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"),
                        "--choice-column", "Choice One")
    assert code == 1
    assert f"{answers}:1: error: header: no column 'Choice One' (the casting's choices); did you mean " in output
    assert "'Choice 1'" in output.splitlines()[0] and "1 error(s), 0 warning(s)" in output


def test_an_existing_casting_is_kept_without_force(starter, tmp_path):
    answers = questionnaire(tmp_path / "answers.csv", [["3/1/2026 10:00:00", "Ann", "First Rival", "", "", ""],
                                                       ["3/1/2026 10:05:00", "Bob", "First Rival", "", "", ""]])
    (starter / "casting.yaml").write_text("# edited by hand\nenvelopes: []\n", encoding="utf-8")
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 1 and "exists already: pass --force" in output
    assert (starter / "casting.yaml").read_text(encoding="utf-8") == "# edited by hand\nenvelopes: []\n"
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"), "--force")
    assert code == 0, output
    assert "envelopes:" in (starter / "casting.yaml").read_text(encoding="utf-8")


def test_rules_that_cannot_hold_together_are_named_with_their_players(starter, tmp_path):
    (starter / "sixes.yaml").write_text(
        "casting:\n  columns:\n    choices: [Choice 1, Choice 2]\n    refuses: [Will not play]\n"
        "  precast: {First Rival: Ann}\n", encoding="utf-8")
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann", "First Rival", "", "", ""],
        ["3/1/2026 10:05:00", "Bob", "Second Rival", "", "Second Rival", ""],
        ["3/1/2026 10:06:00", "Cat", "First Rival", "", "Second Rival", ""]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "error: no casting keeps every hard rule; these cannot all hold together" in output
    for rule in ("- Second Rival is played by someone", "- First Rival is pre-cast to Ann",
                 "- Bob will not play Second Rival", "- Cat will not play Second Rival",
                 "players involved: Ann, Bob, Cat"):
        assert rule in output
    assert not (starter / "casting.yaml").exists()


def test_a_drop_out_recast_moves_only_whom_it_must(starter, tmp_path):
    """Ann and Bob are cast, Cat waits. Bob leaves: Cat takes Bob's part
    (though she ranked Ann's first) and Ann keeps hers."""
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann", "First Rival", "", "", ""],
        ["3/1/2026 10:05:00", "Bob", "Second Rival", "", "", ""],
        ["3/1/2026 10:06:00", "Cat", "First Rival", "Second Rival", "", ""]])
    out = str(tmp_path / "out")
    assert cast(str(answers), "--data", str(starter), "--out", out)[0] == 0
    first = yaml.safe_load((starter / "casting.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert [(e["player"], e["character"]) for e in first] == [("Ann", "First Rival"), ("Bob", "Second Rival")]
    code, output = cast(str(answers), "--data", str(starter), "--out", out, "--from", str(starter / "casting.yaml"),
                        "--drop", "bob", "--to", str(tmp_path / "recast.yaml"))
    assert code == 0, output
    again = yaml.safe_load((tmp_path / "recast.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert [(e["player"], e["character"]) for e in again] == [("Ann", "First Rival"), ("Cat", "Second Rival")]
    assert "- Bob leaves: Second Rival is free" in output
    assert "- Nobody else moves: every other player cast before keeps their character." in output
    assert "- Cat comes in as Second Rival (2nd choice)" in output


def test_the_pack_of_a_cast_holds_the_names_and_nothing_else_of_the_answers(starter, tmp_path):
    from generator.commands.pack import PackRequest, pack
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann Ardent", "First Rival", "", "", "SECRET-ANN-NOTE: knee brace"],
        ["3/1/2026 10:05:00", "Bob Brisk", "Second Rival", "", "", "SECRET-BOB-NOTE: phone 0123"]])
    assert cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))[0] == 0
    pack(PackRequest(starter, tmp_path / "out", (A4,), casting_file=starter / "casting.yaml", workers=1))
    everything = []
    for path in sorted((tmp_path / "out").rglob("*")):
        if path.suffix == ".pdf":
            everything.append(text(path))
        elif path.is_file() and path.suffix in (".csv", ".md", ".yaml", ".json", ".html", ".txt"):
            everything.append(path.read_text(encoding="utf-8"))
    together = "\n".join(everything)
    assert "Ann Ardent" in together and "Bob Brisk" in together
    assert "SECRET" not in together and "knee brace" not in together and "0123" not in together


def test_a_quota_by_an_attribute_column_is_kept_and_reported_as_binding(starter, tmp_path):
    """Ann and Cat (she/her) would both have their first choice; at most one
    character may go to a she/her player, so Bob (he/him) takes First Rival."""
    (starter / "sixes.yaml").write_text(
        "casting:\n  columns:\n    choices: [Choice 1, Choice 2]\n    attributes: [Notes]\n"
        "  quotas:\n    - {attribute: Notes, values: [She/her], at_most: 1}\n", encoding="utf-8")
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann", "First Rival", "", "", "she/her"],
        ["3/1/2026 10:05:00", "Bob", "First Rival", "", "", "he/him"],
        ["3/1/2026 10:06:00", "Cat", "Second Rival", "", "", "she/her"]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 0, output
    envelopes = yaml.safe_load((starter / "casting.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert [(e["player"], e["character"]) for e in envelopes] == [("Bob", "First Rival"), ("Cat", "Second Rival")]
    report = (tmp_path / "out" / "casting" / "casting-report.md").read_text(encoding="utf-8")
    assert ("- at most 1 of every character cast to players whose Notes is She/her (without it, another as good)"
            in report)
    assert "- Ann: all of their choices went to players who ranked them as high or higher" in report


def test_a_quota_naming_an_unknown_column_or_character_is_refused_at_its_line(starter, tmp_path):
    (starter / "sixes.yaml").write_text(
        "casting:\n  columns:\n    choices: [Choice 1]\n"
        "  quotas:\n    - {attribute: Pronouns, values: [she/her], at_most: 1}\n"
        "    - {characters: [Frist Rival], at_least: 1}\n", encoding="utf-8")
    answers = questionnaire(tmp_path / "answers.csv", [["3/1/2026 10:00:00", "Ann", "First Rival", "", "", ""]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "sixes.yaml:5:19: error: casting.quotas[0].attribute: 'Pronouns' is not an attribute column" in output
    assert ("sixes.yaml:6:21: error: casting.quotas[1].characters[0]: no character called 'Frist Rival' in this "
            "casting; did you mean 'First Rival'?") in output


def test_a_name_no_envelope_can_print_is_refused_at_its_cell(starter, tmp_path):
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann \u202eevil", "First Rival", "", "", ""],
        ["3/1/2026 10:05:00", "Bob \U0001F600", "Second Rival", "", "", ""]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 1
    assert f"{answers}:2:2: error: Name: the name holds an invisible character" in output
    assert f"{answers}:3:2: error: Name: the name has characters the printed fonts cannot show: " in output
    assert not (starter / "casting.yaml").exists()


def test_the_report_says_why_a_player_got_none_of_their_choices(starter, tmp_path):
    (starter / "sixes.yaml").write_text(
        "casting:\n  columns:\n    choices: [Choice 1, Choice 2]\n  precast: {First Rival: Bob}\n", encoding="utf-8")
    answers = questionnaire(tmp_path / "answers.csv", [
        ["3/1/2026 10:00:00", "Ann", "First Rival", "", "", ""],
        ["3/1/2026 10:05:00", "Bob", "", "", "", ""]])
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 0, output
    report = (tmp_path / "out" / "casting" / "casting-report.md").read_text(encoding="utf-8")
    assert "- Ann plays Second Rival: First Rival (1st) cannot be theirs under the hard rules" in report
    assert "| Ann | Second Rival | not in their list |" in report
    assert "- a character not in their list: 2" in report
    assert "- First Rival is pre-cast to Bob (without it, a better casting)" in report


def test_answers_written_as_yaml_cast_the_same_way(starter, tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text("players:\n"
                       "  - {name: Ann, choices: [second rival, First Rival]}\n"
                       "  - {name: Bob, choices: [Second Rival], refuses: [First Rivel]}\n", encoding="utf-8")
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 1
    assert (f"{answers}:3:52: error: players[1].refuses[0]: no character called 'First Rivel'; "
            "did you mean 'First Rival'?") in output
    answers.write_text(answers.read_text(encoding="utf-8").replace("First Rivel", "First Rival"), encoding="utf-8")
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 0, output
    envelopes = yaml.safe_load((starter / "casting.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert [(e["player"], e["character"]) for e in envelopes] == [("Ann", "First Rival"), ("Bob", "Second Rival")]


def test_a_spreadsheets_csv_with_semicolons_and_a_bom_and_two_digit_years(starter, tmp_path):
    """Excel in a European locale saves `;`-separated CSV with a byte-order
    mark; Microsoft Forms writes `Completion time` as 3/14/26 10:22:31."""
    (starter / "sixes.yaml").write_text("casting:\n  columns:\n    choices: [Choice 1, Choice 2]\n", encoding="utf-8")
    answers = tmp_path / "answers.csv"
    answers.write_bytes("\ufeffId;Completion time;Name;Choice 1;Choice 2\r\n"
                        "1;3/14/26 10:22:31;Ann;First Rival;Second Rival\r\n"
                        "2;3/14/26 10:25:00;Bob;First Rival;\r\n"
                        "3;3/15/26 09:00:00;Ann;Second Rival;First Rival\r\n".encode("utf-8"))
    code, output = cast(str(answers), "--data", str(starter), "--out", str(tmp_path / "out"))
    assert code == 0, output
    assert f"{answers}:2: warning: 'Ann' answered twice: the later answer (line 4) is kept" in output
    envelopes = yaml.safe_load((starter / "casting.yaml").read_text(encoding="utf-8"))["envelopes"]
    assert [(e["player"], e["character"]) for e in envelopes] == [("Bob", "First Rival"), ("Ann", "Second Rival")]
