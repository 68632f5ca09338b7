"""`sixes clean`: the one way to forget the build cache, touching nothing else.

The cache folder holds one private folder per output folder, named by a hash
of its path, and the rendered PDFs they share (render/cache/storage.py). Cleaning removes only such folders,
only this user's private ones, and never follows a link or touches the output.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.render.cache import cache_root, clear, usable_root
from generator.render.cache.pdfs import USED
from generator.render.cache.storage import shared_pdfs_root, usable_folder


def sixes(*args, cwd: Path):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SIXES_CACHE_DIR", str(folder))
    return folder


def test_clean_forgets_this_games_cache_and_keeps_the_output(tmp_path, cache_dir):
    assert sixes("new", "game", cwd=tmp_path).exit_code == 0
    game = tmp_path / "game"
    first = sixes("build", "--paper", "a4", "--no-site", cwd=game)
    assert first.exit_code == 0, first.output
    mine = cache_root(game / "output")
    used = json.loads((mine / USED).read_text())
    shared = cache_dir / "pdf"
    assert len(used) >= 6 and all((shared / f"{key}.pdf").is_file() for key in used)
    other = shared / f"{'f' * 64}.pdf"             # another output folder's PDF
    other.write_bytes(b"%PDF-1.7\n")
    pdfs = sorted((game / "output" / "pdf").rglob("*.pdf"))

    result = sixes("clean", cwd=game)
    assert result.exit_code == 0, result.output
    assert "Forgot the cached build for" in result.output
    assert not mine.exists()
    assert not any((shared / f"{key}{suffix}").exists() for key in used for suffix in (".pdf", ".json"))
    assert other.is_file()                          # what this game's builds did not use stays
    assert sorted((game / "output" / "pdf").rglob("*.pdf")) == pdfs      # the output stays

    again = sixes("build", "--paper", "a4", "--no-site", cwd=game)
    assert again.exit_code == 0, again.output
    assert ", 0 reused from earlier builds" in again.output           # everything rendered again
    assert "Nothing cached" not in sixes("clean", cwd=game).output
    assert "Nothing cached for" in sixes("clean", cwd=game).output


def test_clean_all_removes_only_the_folders_the_tool_names(tmp_path, cache_dir):
    made = [usable_root(tmp_path / name, create=True) for name in ("a", "b")]   # made (and marked) by the tool
    made.append(usable_folder(shared_pdfs_root(), create=True))                  # the PDFs they share
    ours = [folder for folder in made if folder is not None]
    assert len(ours) == 3
    for folder in ours:
        (folder / "memo.json").write_text("{}")
    foreign = cache_dir / "notes"                 # not a name the tool makes
    foreign.mkdir()
    elsewhere = tmp_path / "precious"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    lure = cache_dir / ("0" * 20)                 # named like a cache folder, but a link
    lure.symlink_to(elsewhere, target_is_directory=True)

    removed = clear()

    assert sorted(removed) == sorted(ours)
    assert not any(folder.exists() for folder in ours)
    assert foreign.is_dir() and (elsewhere / "keep.txt").read_text() == "mine" and lure.is_symlink()


def test_clean_leaves_a_cache_folder_others_may_write(tmp_path, cache_dir):
    folder = cache_root(tmp_path / "out")
    folder.mkdir(parents=True, mode=0o700)
    cache_dir.chmod(0o700)
    folder.chmod(0o777)
    assert clear(tmp_path / "out") == []
    assert folder.is_dir()


def test_clean_without_a_cache_folder_is_quiet(tmp_path, cache_dir):
    assert clear() == [] and clear(tmp_path / "out") == []
    result = sixes("clean", "--all", cwd=tmp_path)
    assert result.exit_code == 0 and "Forgot 0 cached build(s)" in result.output
