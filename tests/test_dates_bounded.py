"""Every date the tool reads (SOURCE_DATE_EPOCH, a game file's modification
time, the game's last commit) is an input, bounded in one place
(game/dates.bounded): before 1980 it is written as 1980-01-01, after
2106-02-07 (the last date a gzip header holds) it is refused in one line
that says what was found, the range and where it came from; `check`,
`build` and `pack` agree, and nothing ends in a traceback."""
from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core.paths import PACKAGE_DIR
from generator.game.dates import EARLIEST, LATEST, SOURCE_DATE_EPOCH, source_date
from generator.game.folder import GameError
from generator.systems.sixes import SYSTEM as SIXES

Y2150 = 5680281600              # 2150-01-01T00:00:00Z
Y1975 = 157766400               # 1975-01-01T00:00:00Z
RANGE = "can be dated from 1980-01-01 (an earlier date is written as 1980-01-01) to 2106-02-07 06:28:15 UTC"


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(SOURCE_DATE_EPOCH, raising=False)
    shutil.copytree(SIXES.starter, tmp_path / "game" / "sixes")
    return tmp_path / "game"


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


COMMANDS = {"check": ("check", "--data", "{game}"),
            "build": ("build", "--data", "{game}", "--out", "{out}", "--paper", "a4"),
            "pack": ("pack", "--data", "{game}", "--out", "{out}", "--system", "sixes", "--paper", "a4")}


def refused_everywhere(game: Path, out: Path, *expected: str) -> None:
    """check, build (with its site) and pack each end with status 1, the
    expected words, no traceback, and nothing written."""
    for name, command in COMMANDS.items():
        status, output = run(*(part.format(game=game, out=out) for part in command))
        assert status == 1, (name, output)
        assert "Traceback" not in output and "struct.error" not in output, (name, output)
        for words in expected:
            assert words in output, (name, output)
        assert not out.exists(), name


@pytest.mark.parametrize("value, found", [
    ("²", "SOURCE_DATE_EPOCH is '²': it must be a whole number of seconds since 1970-01-01 UTC"),
    ("-1", "SOURCE_DATE_EPOCH is '-1': it must be a whole number of seconds"),
    ("1e9", "SOURCE_DATE_EPOCH is '1e9': it must be a whole number"),
    (str(Y2150), f"SOURCE_DATE_EPOCH is '{Y2150}' (2150-01-01 00:00:00 UTC): it is later than the last date"),
    (str(LATEST + 1), "(2106-02-07 06:28:16 UTC): it is later than the last date"),
    ("9" * 30, "it is later than the last date"),
    ("9" * 5000, "... (5000 characters) (after the year 9999): it is later than the last date"),
])
def test_a_variable_out_of_range_is_refused_by_check_build_and_pack_in_one_line(game, tmp_path, monkeypatch,
                                                                              value, found):
    monkeypatch.setenv(SOURCE_DATE_EPOCH, value)
    refused_everywhere(game, tmp_path / "out", found, RANGE, "set it to a date in that range")


def test_a_file_dated_2150_is_refused_naming_the_file(game, tmp_path):
    late = game / "sixes" / "game.yaml"
    os.utime(late, (Y2150, Y2150))
    refused_everywhere(game, tmp_path / "out", f"The modification time of {late} is 2150-01-01 00:00:00 UTC",
                       RANGE, "touch game.yaml")


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_a_commit_dated_2150_is_refused_naming_the_commit(game, monkeypatch):
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": f"@{Y2150} +0000",
           "GIT_COMMITTER_DATE": f"@{Y2150} +0000"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "the game"]):
        subprocess.run(["git", *args], cwd=game, env=env, check=True, capture_output=True)
    with pytest.raises(GameError, match=r"The date of the last commit of the game in .* is 2150-01-01"):
        source_date(game)


def test_the_last_date_is_written_whole_by_the_site_and_the_pack(game, tmp_path, monkeypatch):
    """The upper bound is a date the files can hold: a build with its site
    and a pack dated LATEST write it (no struct.error in gzip or zip)."""
    monkeypatch.setenv(SOURCE_DATE_EPOCH, str(LATEST))
    out = tmp_path / "out"
    for name in ("build", "pack"):
        status, output = run(*(part.format(game=game, out=out) for part in COMMANDS[name]))
        assert status == 0, output
    with gzip.open(out / "site" / "sitemap.xml.gz") as sitemap:
        sitemap.read()
        assert sitemap.mtime == LATEST - LATEST % 86400
    (archive,) = (out / "pack" / "sixes").glob("*.zip")
    with zipfile.ZipFile(archive) as zf:
        assert {m.date_time for m in zf.infolist()} == {(2106, 2, 7, 6, 28, 14)}    # zip keeps even seconds


def test_files_older_than_1980_date_the_pack_1980(game, tmp_path):
    for path in game.rglob("*"):
        os.utime(path, (Y1975, Y1975))
    assert source_date(game) == EARLIEST
    out = tmp_path / "out"
    status, output = run(*(part.format(game=game, out=out) for part in COMMANDS["pack"]))
    assert status == 0, output
    (archive,) = (out / "pack" / "sixes").glob("*.zip")
    with zipfile.ZipFile(archive) as zf:
        assert {m.date_time for m in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}


# What reads a date, found from the code. Each pattern is a way Python or git
# hands over a date; only game/dates.py may use them, except where listed with
# why the time read there is never written into a file.
DATE_SOURCES = re.compile(r"SOURCE_DATE_EPOCH|\bst_mtime\b|st_ctime|st_atime|getmtime|getctime|datetime\.now|"
                          r"datetime\.utcnow|date\.today|fromtimestamp|time\.time\(\)|time\.localtime|"
                          r"%[ac][tdDiIr]\b|committerdate|authordate")
NOT_WRITTEN = {
    "render/cache/pdfs.py": "time.time() and st_mtime age the cache's unused entries; no file carries them",
    "render/cache/builds.py": "mentions SOURCE_DATE_EPOCH in a docstring; its key reads given_date()",
    "render/cache/keys.py": "mentions SOURCE_DATE_EPOCH in its docstring",
    "render/pdf/weasy.py": "mentions SOURCE_DATE_EPOCH in docstrings; its dates come from game/dates.py",
    "commands/build.py": "mentions SOURCE_DATE_EPOCH in a docstring; its dates come from game/dates.py",
}


def test_every_reader_of_a_date_is_the_one_bounded_reader():
    readers = {str(path.relative_to(PACKAGE_DIR)) for path in PACKAGE_DIR.rglob("*.py")
               if DATE_SOURCES.search(path.read_text(encoding="utf-8"))}
    assert readers - set(NOT_WRITTEN) == {"game/dates.py"}
    for path in NOT_WRITTEN:
        code = (PACKAGE_DIR / path).read_text(encoding="utf-8")
        # The variable is only named in their prose, never read from the environment.
        assert not re.search(r"environ[^\n]*SOURCE_DATE_EPOCH|getenv", code), path
    dates = (PACKAGE_DIR / "game" / "dates.py").read_text(encoding="utf-8")
    # Each of the three sources reaches the caller through `bounded`.
    assert len(re.findall(r"return bounded\(", dates)) == 3
