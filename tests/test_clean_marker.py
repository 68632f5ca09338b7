"""`sixes clean` removes only cache folders the tool made, known by the
marker it wrote into each (render/cache/marker.py), never a user's folder
that merely has a cache-like name inside a cache folder they share."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.render.cache import cache_root, clear, read_text, usable_root, write_text
from generator.render.cache.marker import MARKER


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


def test_a_users_empty_folder_named_like_a_cache_folder_is_never_adopted(tmp_path, shared):
    """Empty when a build first meets it, so it looked like nothing of
    anyone's: it is still the user's, and what they put in it later is
    never cleaned."""
    out = tmp_path / "out"
    theirs = cache_root(out)
    theirs.mkdir(mode=0o700)
    shared_pdfs = shared / "pdf"
    shared_pdfs.mkdir(mode=0o700)
    write_text(out, "site.key", "k")
    from generator.render.cache.storage import shared_pdfs_root, usable_folder
    assert usable_folder(shared_pdfs_root(), create=True) is None and usable_root(out) is None
    (theirs / "thesis.tex").write_text("years of work")
    (shared_pdfs / "photos.txt").write_text("mine")

    result = sixes("clean", "--all", cwd=tmp_path)

    assert result.exit_code == 0, result.output
    assert (theirs / "thesis.tex").read_text() == "years of work" and not (theirs / MARKER).exists()
    assert (shared_pdfs / "photos.txt").read_text() == "mine" and not (shared_pdfs / MARKER).exists()


def test_a_folder_the_tool_makes_is_marked_from_its_first_moment(tmp_path, shared):
    """Made under a partial name with its marker inside, then renamed: a
    build killed half-way leaves no unmarked folder under the real name,
    and the next build sweeps the partial one."""
    out = tmp_path / "out"
    root = cache_root(out)
    stale = root.with_name(f".{root.name}.999999999.part")       # a maker that is gone
    stale.mkdir(mode=0o700)
    write_text(out, "site.key", "k")
    assert (root / MARKER).is_file() and read_text(out, "site.key") == "k"
    assert not stale.exists() and not list(shared.glob(".*.part"))
    assert clear(out) == [root]
