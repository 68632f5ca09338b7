"""The same input gives the same bytes: building or packing one game twice,
into two folders, gives identical PDFs, zips, site files and schemas, with
SOURCE_DATE_EPOCH and without it (then the date comes from the input:
generator/game/dates.py). When files differ, the test names them."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.commands.cli import main
from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.cache.storage import CACHE_VARIABLE
from generator.game.dates import SOURCE_DATE_EPOCH

EPOCH = 1700000000          # 2023-11-14 22:13:20 UTC


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def differing(first: Path, second: Path) -> list[str]:
    """The files whose bytes differ, or that only one folder has."""
    a, b = tree(first), tree(second)
    return sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))


def sixes(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def game(tmp_path) -> Path:
    """A game as `sixes new` makes it (every system)."""
    sixes("new", tmp_path / "game")
    return tmp_path / "game"


@pytest.fixture(scope="module")
def second_cache(tmp_path_factory) -> Path:
    """The cache of every second build here, which no other build uses."""
    return tmp_path_factory.mktemp("second-cache")


@pytest.mark.parametrize("epoch", [None, EPOCH], ids=["from the input", "SOURCE_DATE_EPOCH"])
def test_building_and_packing_twice_gives_the_same_bytes(game, tmp_path, monkeypatch, epoch, run_cache,
                                                          second_cache):
    """The two builds never share a rendered PDF: the first takes the run's
    cache (where a starter another test built may already be), the second
    one only second builds use, so every PDF the two folders hold comes
    from two renders of its own. Both epochs' second builds share theirs: a
    PDF whose HTML the date does not change is the same render twice over,
    still never the first build's."""
    if epoch is None:
        monkeypatch.delenv(SOURCE_DATE_EPOCH, raising=False)
    else:
        monkeypatch.setenv(SOURCE_DATE_EPOCH, str(epoch))
    folders = []
    for name, cache in (("first", run_cache), ("second", second_cache)):
        out = tmp_path / name
        monkeypatch.setenv(CACHE_VARIABLE, str(cache))
        sixes("build", "--data", game, "--out", out, "--paper", "both")
        sixes("pack", "--data", game, "--out", out, "--system", "sixes", "--paper", "both")
        folders.append(out)
    made = tree(folders[0])
    for kind in ("pdf/", "site/", "schemas/", "pack/"):
        assert any(name.startswith(kind) for name in made), f"nothing in {kind}"
    assert any(name.endswith(".zip") for name in made) and "site/sitemap.xml.gz" in made
    assert differing(*folders) == []


def test_the_example_game_builds_to_the_same_bytes_again(example_build, tmp_path, monkeypatch):
    monkeypatch.delenv(SOURCE_DATE_EPOCH, raising=False)
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))      # from nothing, not from the first build's PDFs
    again = build(BuildConfig(DEFAULT_DATA_DIR, tmp_path / "again"))
    assert differing(example_build.out_dir, again.out_dir) == []
