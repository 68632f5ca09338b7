"""`sixes clean` removes only cache folders the tool made, known by the
marker it wrote into each (render/cache_marker.py), never a user's folder
that merely has a cache-like name inside a cache folder they share."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.render.cache import cache_root, clear, read_text, usable_root, write_text
from generator.render.cache_marker import MARKER


def sixes(*args, cwd: Path):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture()
def shared(tmp_path, monkeypatch) -> Path:
    """The user's own folder, also named as the cache folder."""
    folder = tmp_path / "mine"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("SIXES_CACHE_DIR", str(folder))
    return folder


def users_folder(path: Path) -> Path:
    """A private folder of the user's with a cache-like name and things in it."""
    path.mkdir(mode=0o700)
    (path / "memo.json").write_text("my own notes")
    (path / "thesis.tex").write_text("years of work")
    return path


def test_clean_all_removes_the_real_cache_and_not_the_users_folder_named_like_one(tmp_path, shared):
    write_text(tmp_path / "out", "site.key", "k")           # a real cache, as a build makes it
    real = cache_root(tmp_path / "out")
    assert (real / MARKER).is_file()
    theirs = users_folder(shared / ("ab" * 10))

    result = sixes("clean", "--all", cwd=tmp_path)

    assert result.exit_code == 0 and "Forgot 1 cached build(s)" in result.output
    assert not real.exists()
    assert (theirs / "thesis.tex").read_text() == "years of work"


def test_a_users_folder_at_the_games_own_cache_path_is_neither_used_nor_cleaned(tmp_path, shared):
    out = tmp_path / "out"
    theirs = users_folder(cache_root(out))
    write_text(out, "site.key", "k")

    assert read_text(out, "site.key") is None and not (theirs / "site.key").exists()
    assert clear(out) == [] and clear() == []
    assert sorted(p.name for p in theirs.iterdir()) == ["memo.json", "thesis.tex"]


@pytest.mark.parametrize("forgery", ["wrong text", "another folder's", "a link", "a folder"])
def test_a_forged_or_borrowed_marker_does_not_count(tmp_path, shared, forgery):
    write_text(tmp_path / "real", "site.key", "k")
    genuine = cache_root(tmp_path / "real") / MARKER
    theirs = users_folder(shared / ("cd" * 10))
    marker = theirs / MARKER
    if forgery == "wrong text":
        marker.write_text('{"tool": "sixes-press"}\n')
    elif forgery == "another folder's":
        marker.write_bytes(genuine.read_bytes())
    elif forgery == "a link":
        marker.write_text(genuine.read_text().replace(genuine.parent.name, theirs.name))
        marker.rename(tmp_path / "elsewhere")
        marker.symlink_to(tmp_path / "elsewhere")
    else:
        marker.mkdir()

    assert clear() == [genuine.parent]
    assert (theirs / "thesis.tex").is_file()


def test_a_cache_folder_of_an_older_release_is_adopted_when_next_written(tmp_path, shared):
    out = tmp_path / "out"
    old = cache_root(out)
    old.mkdir(mode=0o700)
    (old / "pdf").mkdir(mode=0o700)
    (old / "memo.json").write_text("{}")
    assert clear(out) == []                     # unmarked: left alone
    assert usable_root(out, create=True) == old
    assert clear(out) == [old]
