"""Where the date written into output files comes from (generator/game/dates.py),
and that it is the one the files carry: the pack's zip members, the site's
sitemap, the fonts embedded in PDFs."""
from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from generator.game.dates import EARLIEST, SOURCE_DATE_EPOCH, source_date
from generator.game.folder import GameError
from generator.systems.sixes import SYSTEM as SIXES
from generator.core.paper import A4
from test_reproducible import EPOCH, sixes, tree


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The Sixes starter game in a game folder, with a cache of its own."""
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    shutil.copytree(SIXES.starter, tmp_path / "game" / "sixes")
    return tmp_path / "game"


def test_the_zip_and_the_sitemap_carry_the_source_date_and_nothing_of_the_machine(game, tmp_path, monkeypatch):
    monkeypatch.setenv(SOURCE_DATE_EPOCH, str(EPOCH))
    out = tmp_path / "out"
    sixes("build", "--data", game, "--out", out, "--paper", "a4")
    sixes("pack", "--data", game, "--out", out, "--system", "sixes", "--paper", "a4")
    with gzip.open(out / "site" / "sitemap.xml.gz") as sitemap:
        sitemap.read()
        assert sitemap.mtime == EPOCH - EPOCH % 86400       # MkDocs dates a sitemap by the day
    (archive,) = (out / "pack" / "sixes").glob("*.zip")
    with zipfile.ZipFile(archive) as zf:
        members = zf.infolist()
    assert [m.filename for m in members] == sorted(m.filename for m in members)
    assert {m.date_time for m in members} == {(2023, 11, 14, 22, 13, 20)}
    assert {(m.external_attr >> 16) & 0o777 for m in members} == {0o644}


def test_pdfs_carry_the_given_date_in_their_fonts_and_a_new_date_renders_again(game, tmp_path, monkeypatch):
    """The only date in a PDF is in its embedded fonts; SOURCE_DATE_EPOCH
    changes it, and the render cache does not hand back a PDF of another date."""
    out = tmp_path / "out"
    bytes_at = {}
    for epoch in (EPOCH, EPOCH + 86400 * 400):
        monkeypatch.setenv(SOURCE_DATE_EPOCH, str(epoch))
        output = sixes("build", "--data", game, "--out", out, "--paper", "a4", "--no-site")
        assert "0 reused from earlier builds" in output
        bytes_at[epoch] = tree(out / "pdf")
    first, second = bytes_at.values()
    assert first.keys() == second.keys() and all(first[name] != second[name] for name in first)


def test_a_warm_renderer_dates_each_job_by_its_own_date(tmp_path):
    """A rendering worker outlives a build (--watch, serve, the tests): the
    fonts it loaded for one date are not reused for a job of another."""
    from dataclasses import replace

    from generator.core.paths import TEMPLATES_DIR
    from generator.render.pdf.weasy import PdfJob, render_pdf
    job = PdfJob('<link rel="stylesheet" href="base.css"><p>Sixes</p>', TEMPLATES_DIR.as_uri() + "/",
                 tmp_path / "probe.pdf", A4, (TEMPLATES_DIR,), "probe")
    made = []
    for date in (EPOCH, EPOCH + 86400, EPOCH, None):
        render_pdf(replace(job, date=date))
        made.append(job.target.read_bytes())
    assert made[0] == made[2] and len({made[0], made[1], made[3]}) == 3


def test_a_source_date_epoch_that_is_no_number_is_one_clear_line_and_nothing_is_written(game, tmp_path,
                                                                                      monkeypatch):
    monkeypatch.setenv(SOURCE_DATE_EPOCH, "yesterday")
    from click.testing import CliRunner

    from generator.commands.cli import main
    result = CliRunner().invoke(main, ["build", "--data", str(game), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "SOURCE_DATE_EPOCH is 'yesterday': it must be a whole number of seconds" in result.output
    assert not (tmp_path / "out").exists()


# -- where the date comes from ---------------------------------------------------

def git(folder: Path, *args: str, when: int | None = None) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org"}
    if when is not None:
        env.update(GIT_AUTHOR_DATE=f"@{when} +0000", GIT_COMMITTER_DATE=f"@{when} +0000")
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


def test_without_the_variable_the_date_is_the_newest_input_file_never_the_output(game, monkeypatch):
    monkeypatch.delenv(SOURCE_DATE_EPOCH, raising=False)
    for path in game.rglob("*"):
        os.utime(path, (EPOCH, EPOCH))
    newest = game / "sixes" / "characters"
    changed = next(p for p in newest.iterdir() if p.is_file())
    os.utime(changed, (EPOCH + 3600, EPOCH + 3600))
    (game / "output").mkdir()
    (game / "output" / "later.pdf").write_text("not an input")      # now: far newer, and ignored
    assert source_date(game) == EPOCH + 3600


def test_a_committed_game_is_dated_by_its_last_commit_and_an_edited_one_by_its_files(game, monkeypatch):
    monkeypatch.delenv(SOURCE_DATE_EPOCH, raising=False)
    git(game, "init", "-q")
    git(game, "add", ".")
    git(game, "commit", "-q", "-m", "the game", when=EPOCH)
    assert source_date(game) == EPOCH          # however new the files' times (a fresh clone's)
    for path in game.rglob("*"):
        os.utime(path, (EPOCH - 60, EPOCH - 60))
    edited = game / "sixes" / "game.yaml"
    edited.write_text(edited.read_text() + "\n")
    os.utime(edited, (EPOCH + 7200, EPOCH + 7200))
    assert source_date(game) == EPOCH + 7200


def test_the_variable_wins_and_no_date_is_before_1980(game, monkeypatch):
    monkeypatch.setenv(SOURCE_DATE_EPOCH, str(EPOCH))
    assert source_date(game) == EPOCH
    monkeypatch.setenv(SOURCE_DATE_EPOCH, "0")
    assert source_date(game) == EARLIEST
    monkeypatch.setenv(SOURCE_DATE_EPOCH, "-5")
    with pytest.raises(GameError, match="whole number of seconds"):
        source_date(game)
