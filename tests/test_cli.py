"""The `sixes` command line: help, exit codes (0 fine, 1 bad data or failed
build, 2 usage), exact messages with file:line:column, and the promise that
an invalid build writes nothing while a good one replaces the output whole.

Builds use the starter game that `sixes new` writes (five PDFs on A4), so the
two real builds here take seconds, not the example pack's minute.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from processes import PATIENCE

from generator.commands.cli import main
from generator.core.paths import DEFAULT_DATA_DIR, PROJECT_ROOT
from generator.systems import SYSTEMS
from generator.systems.sixes import SYSTEM as SIXES

TITLES = ", ".join(system.title for system in SYSTEMS)

INVALID = Path(__file__).parent / "data" / "invalid"
FIRST_RIVAL = Path("sixes") / "characters" / "first-rival.yaml"


def run(*args: str | Path):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="sixes")


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under `root` with its bytes (None for folders)."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def new_game(folder: Path) -> Path:
    result = run("new", folder)
    assert result.exit_code == 0, result.output
    return folder


def broken_game(folder: Path) -> Path:
    """The starter game with `hit_points: five` in characters/first-rival.yaml (line 3, column 13)."""
    new_game(folder)
    shutil.copyfile(INVALID / "hit-points-word.yaml", folder / FIRST_RIVAL)
    return folder


def bad_hit_points_line(folder: Path) -> str:
    return (f"{folder.name}/{FIRST_RIVAL.as_posix()}:3:13: error: hit_points: "
            "expected a whole number, found 'five'")


# --- help and usage errors ------------------------------------------------------------------------

@pytest.mark.parametrize("command, mentions", [
    pytest.param([], ["Usage: sixes [OPTIONS] COMMAND [ARGS]...", "build", "check", "new", "schema",
                      "--version", "--help"], id="sixes"),
    pytest.param(["check"], ["Usage: sixes check [OPTIONS]", "--data", "--strict"], id="check"),
    pytest.param(["build"], ["Usage: sixes build [OPTIONS]", "--data", "--out", "--paper", "[a4|letter|both]",
                             "--no-site", "--jobs", "--strict"], id="build"),
    pytest.param(["new"], ["Usage: sixes new [OPTIONS] DIRECTORY"], id="new"),
    pytest.param(["schema"], ["Usage: sixes schema [OPTIONS] [DIRECTORY]"], id="schema"),
])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_exits_0_and_lists_the_options(command, mentions, flag):
    result = run(*command, flag)
    assert result.exit_code == 0
    for text in mentions:
        assert text in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("args, message", [
    (["check", "--nope"], "Error: No such option '--nope'."),
    (["build", "--paper", "a5"], "Error: Invalid value for '--paper': 'a5' is not one of 'a4', 'letter', 'both'."),
    (["build", "--jobs", "0"], "Error: Invalid value for '--jobs': 0 is not in the range 1<=x<=16."),
    (["new"], "Error: Missing argument 'DIRECTORY'."),
    (["frobnicate"], "Error: No such command 'frobnicate'."),
])
def test_a_usage_error_exits_2_with_a_message(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_the_installed_console_script_runs():
    sixes = Path(sys.executable).with_name("sixes")
    done = subprocess.run([sixes, "--help"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: sixes [OPTIONS] COMMAND [ARGS]...")
    bad = subprocess.run([sixes, "check", "--nope"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert "Error: No such option '--nope'." in bad.stderr


# --- check ----------------------------------------------------------------------------------------

def test_check_accepts_the_example_data():
    result = run("check", "--data", DEFAULT_DATA_DIR)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"OK: {DEFAULT_DATA_DIR} is valid ({TITLES}).\n"
    assert "error: " not in result.stderr


def test_check_rejects_broken_data_with_file_line_and_column(tmp_path):
    data = broken_game(tmp_path / "game")
    result = run("check", "--data", data)
    assert result.exit_code == 1
    assert bad_hit_points_line(data) in result.stderr.splitlines()
    assert result.stderr.splitlines()[-1].startswith("1 error(s), ")
    assert "OK" not in result.stdout


def test_check_reports_a_missing_data_folder(tmp_path):
    missing = tmp_path / "nowhere"
    result = run("check", "--data", missing)
    assert result.exit_code == 1
    assert f"{missing}: error: data folder not found" in result.stderr


def test_check_strict_fails_on_warnings_alone(tmp_path):
    data = new_game(tmp_path / "game")
    (data / FIRST_RIVAL).write_text("name: First Rival\ndescription: A merchant.\nhit_points: 7\n", encoding="utf-8")
    warning = (f"game/{FIRST_RIVAL.as_posix()}:3:13: warning: hit_points: 7 hit points is outside the usual "
               "4 to 6; fine if intended")

    lenient = run("check", "--data", data)
    assert lenient.exit_code == 0
    assert lenient.stderr.splitlines() == [warning, "0 error(s), 1 warning(s)"]
    assert lenient.stdout.startswith("OK: ")

    strict = run("check", "--strict", "--data", data)
    assert strict.exit_code == 1
    assert strict.stderr.splitlines() == [warning, "0 error(s), 1 warning(s)"]
    assert strict.stdout == ""


# --- new ------------------------------------------------------------------------------------------

def test_new_writes_a_starter_that_check_accepts(tmp_path):
    data = tmp_path / "fresh" / "game"
    result = run("new", data)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Wrote a new game folder {data}: sixes.yaml")
    assert snapshot(data / "sixes") == snapshot(SIXES.starter)

    checked = run("check", "--data", data)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == f"OK: {data} is valid ({TITLES}).\n"
    assert checked.stderr == ""


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    data = tmp_path / "game"
    data.mkdir()
    (data / "notes.txt").write_text("my own notes\n", encoding="utf-8")
    before = snapshot(tmp_path)

    result = run("new", data)

    assert result.exit_code == 1
    assert result.stderr == f"error: {data} is not empty; choose a new folder (nothing was changed)\n"
    assert snapshot(tmp_path) == before


# --- build ----------------------------------------------------------------------------------------

def test_build_on_broken_data_exits_1_and_leaves_the_output_alone(tmp_path):
    data = broken_game(tmp_path / "game")
    out = tmp_path / "out"
    (out / "pdf").mkdir(parents=True)
    (out / "pdf" / "keep.txt").write_text("from an earlier build\n", encoding="utf-8")
    (out / "site").mkdir()
    (out / "site" / "index.html").write_text("<p>old site</p>\n", encoding="utf-8")
    before = snapshot(out)

    result = run("build", "--data", data, "--out", out, "--paper", "a4")

    assert result.exit_code == 1
    assert bad_hit_points_line(data) in result.stderr.splitlines()
    assert result.stderr.splitlines()[-1] == "Nothing was written: fix the problems above and build again."
    assert snapshot(out) == before
    assert (out / "pdf" / "keep.txt").read_text(encoding="utf-8") == "from an earlier build\n"


def test_build_on_broken_data_does_not_create_the_output_folder(tmp_path):
    data = broken_game(tmp_path / "game")
    result = run("build", "--data", data, "--out", tmp_path / "out", "--paper", "a4")
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def starter_build(tmp_path_factory):
    """`sixes new` then `sixes build --paper a4` into a fresh output folder."""
    root = tmp_path_factory.mktemp("starter-build")
    data = new_game(root / "game")
    out = root / "out"
    result = run("build", "--data", data, "--out", out, "--paper", "a4")
    return data, out, result


def pdfs_under(out: Path) -> list[str]:
    """The printable PDFs (the site keeps its own copies of the public ones under site/downloads/)."""
    return sorted(p.relative_to(out).as_posix() for p in (out / "pdf").rglob("*.pdf"))


def test_build_of_the_starter_exits_0_and_says_what_it_wrote(starter_build):
    data, out, result = starter_build
    assert result.exit_code == 0, result.output
    pdfs = pdfs_under(out)
    assert result.stdout.splitlines() == [
        f"Built {len(pdfs)} PDFs in {out.resolve() / 'pdf'}",
        f"GM's fight tracker (keep it private): {out.resolve() / 'gm' / 'sixes' / 'fight-tracker.html'}",
        f"Site: {out.resolve() / 'site' / 'index.html'}",
        f"Schemas for editors: {out.resolve() / 'schemas'}",
    ]


def test_build_writes_pdfs_for_each_audience_on_the_chosen_paper_only(starter_build):
    _, out, _ = starter_build
    pdfs = pdfs_under(out)
    assert {p.split("/")[2] for p in pdfs} == {s.slug for s in SYSTEMS}
    assert all(p.startswith("pdf/a4/") for p in pdfs)
    folders = {p.split("/")[3] for p in pdfs if p.startswith("pdf/a4/sixes/")}
    assert folders == {"public", "players", "gm"}
    assert [p for p in pdfs if "/sixes/players/" in p] == ["pdf/a4/sixes/players/first-rival.pdf",
                                                     "pdf/a4/sixes/players/second-rival.pdf"]
    assert not (out / "pdf" / "letter").exists()
    for pdf in pdfs:
        assert (out / pdf).read_bytes().startswith(b"%PDF-")


def test_build_writes_the_site_and_the_schemas(starter_build):
    _, out, _ = starter_build
    index = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert "<html" in index
    schema = json.loads((out / "schemas" / "sixes-character.schema.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"name", "hit_points", "specials", "portrait"} <= set(schema["properties"])
    assert not list(out.glob(".sixes-build-*"))


def test_a_second_build_replaces_the_output_and_leaves_no_staging_folder(starter_build, tmp_path):
    first_data, first_out, first = starter_build
    assert first.exit_code == 0, first.output
    data, out = tmp_path / "game", tmp_path / "out"
    shutil.copytree(first_data, data)
    shutil.copytree(first_out, out)
    # The second build has a character under a new file name, so its old PDF must go.
    (data / "sixes" / "characters" / "second-rival.yaml").rename(data / "sixes" / "characters" / "third-rival.yaml")
    (out / "pdf" / "a4" / "stale.txt").write_text("left by hand inside the build's own folder\n", encoding="utf-8")
    (out / "notes.txt").write_text("the user's own file beside the build\n", encoding="utf-8")

    result = run("build", "--data", data, "--out", out, "--paper", "a4")

    assert result.exit_code == 0, result.output
    players = sorted(p.name for p in (out / "pdf" / "a4" / "sixes" / "players").iterdir())
    assert players == ["first-rival.pdf", "third-rival.pdf"]
    # A file the build did not make is never deleted, even inside its own folders.
    assert (out / "pdf" / "a4" / "stale.txt").read_text(encoding="utf-8") == \
        "left by hand inside the build's own folder\n"
    assert "Kept your own files in the output: pdf/a4/stale.txt" in result.stderr
    assert (out / "notes.txt").read_text(encoding="utf-8") == "the user's own file beside the build\n"
    assert sorted(p.name for p in out.iterdir()) == [".sixes-press.json", "gm", "notes.txt", "pdf", "schemas", "site"]
    assert (out / "site" / "index.html").is_file()


# --- schema ---------------------------------------------------------------------------------------

def test_schema_writes_one_json_schema_per_file_kind(tmp_path):
    result = run("schema", tmp_path / "schemas")
    assert result.exit_code == 0
    written = [Path(line) for line in result.stdout.splitlines()]
    assert sorted(p.name for p in written) == sorted(["settings.schema.json", "packet.schema.json",
                                                      *(f"{s.slug}-{kind}.schema.json"
                                                        for s in SYSTEMS for kind in s.schemas)])
    for path in written:
        assert json.loads(path.read_text(encoding="utf-8"))["$schema"].startswith("https://json-schema.org/")


# --- how a command fails ---------------------------------------------------------------------------

def test_each_failure_of_the_floors_below_becomes_one_click_exception(capsys):
    """failures.failure is the one place the floors' exceptions become what a
    command prints: the same lines and status in every command, data escaped."""
    from generator.commands.failures import BUILD, PACK, failure
    from generator.core.errors import BuildError, DataError, Problem
    from generator.game.folder import GameError
    problem = Problem("game/a.yaml", 3, 7, "no such action 'Jab\x1b[2J'")
    cases = [
        (DataError([problem]), BUILD, 1,
         [str(problem), "1 error(s), 0 warning(s)", "Nothing was written: fix the problems above and build again."]),
        (DataError([problem]), None, 1, [str(problem), "1 error(s), 0 warning(s)"]),
        (BuildError("two pages overflow:\n- sheet \x1b[31m\n- card"), PACK, 1,
         ["error: two pages overflow:", "- sheet \\x1b[31m", "- card",
          "Nothing was written: the previous pack is unchanged."]),
        (OSError(28, "No space left on device", "out/\u202ecod.pdf"), BUILD, 1,
         ["error: out/\\u202ecod.pdf: No space left on device",
          "Nothing was written: the previous output is unchanged."]),
        (GameError("no sixes.yaml here\n"), None, 1, ["error: no sixes.yaml here\\n"]),
    ]
    for exc, stakes, status, lines in cases:
        converted = failure(exc, stakes)
        assert converted is not None
        converted.show()
        assert (converted.exit_code, capsys.readouterr().err.splitlines()) == (status, lines), exc
    assert failure(RuntimeError("a bug"), BUILD) is None            # a bug keeps its traceback
    assert failure(KeyboardInterrupt(), None) is None               # nothing at stake: click's own "Aborted!"
    interrupted = failure(KeyboardInterrupt(), BUILD)
    assert interrupted is not None
    interrupted.show()
    assert (interrupted.exit_code, capsys.readouterr().err) == (130, "Interrupted: the previous output is unchanged.\n")


def test_an_interrupt_raised_in_code_run_from_a_string_still_exits_130(tmp_path):
    """CPython marks its run as interrupted when a KeyboardInterrupt leaves
    code that exec() ran from a string (as dataclasses are made), even once
    caught, and then ends by SIGINT (-2) instead of the exit status asked
    for; `Interrupted` clears the mark."""
    (tmp_path / "interrupted_in_exec.py").write_text(
        "from generator.commands.failures import Interrupted\n"
        "try:\n    exec('raise KeyboardInterrupt')\n"
        "except KeyboardInterrupt:\n    Interrupted('Interrupted: nothing at stake.').show()\n"
        "raise SystemExit(130)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "interrupted_in_exec"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(PROJECT_ROOT)])},
                          timeout=PATIENCE)
    assert (done.returncode, done.stderr) == (130, "Interrupted: nothing at stake.\n")
