"""A site rebuilt after an edit that changes only some pages' text makes
those pages alone (render/site/partial.py), and the site is byte for byte
the one a whole build makes; a changed title builds the whole site."""
from __future__ import annotations

import re

import pytest

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paper import A4
from generator.game.settings import load_settings
from starter_games import public_cast_starter


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def game(tmp_path):
    """The Sixes starter with a public cast listed on the site."""
    return public_cast_starter(tmp_path / "data")


def site_build(data, out):
    return build(BuildConfig(data, out, (A4,), settings=load_settings(data), workers=1, cache=True))


def files(site):
    return {p.relative_to(site).as_posix(): p for p in sorted(site.rglob("*")) if p.is_file()}


def whole_build_differs(data, site, tmp_path, monkeypatch):
    """The files of `site` that differ from a whole build of `data` (another cache, another output folder)."""
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "other-cache"))
    whole = files(site_build(data, tmp_path / "whole").out_dir / "site")
    made = files(site)
    assert set(made) == set(whole)
    return [name for name in made if made[name].read_bytes() != whole[name].read_bytes()]


def test_a_reworded_description_makes_the_cast_list_alone_and_the_same_site(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    site_build(game, out)
    before = {name: path.stat().st_mtime_ns for name, path in files(out / "site").items()}
    character = game / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("description: A sharp-tongued", "description: A sly"))
    report = site_build(game, out)
    assert report.site_built
    after = {name: path.stat().st_mtime_ns for name, path in files(out / "site").items()}
    rewritten = sorted(name for name in after if after[name] != before.get(name))
    assert "sixes/cast-list.html" in rewritten
    assert not {"sixes/game.html", "sixes/rulings.html", "index.html", "credits.html"} & set(rewritten)
    assert "A sly" in (out / "site" / "search" / "search_index.json").read_text()
    assert whole_build_differs(game, out / "site", tmp_path, monkeypatch) == []


def test_a_new_game_title_builds_the_whole_site_as_a_whole_build_does(game, tmp_path, monkeypatch):
    """A new game title changes every page's title and navigation: the whole site is built."""
    out = tmp_path / "out"
    site_build(game, out)
    info = game / "sixes" / "game.yaml"
    info.write_text(re.sub(r"(?m)^title: .*$", "title: Another Night", info.read_text(), count=1))
    site_build(game, out)
    assert "Another Night" in (out / "site" / "sixes" / "rulings.html").read_text()
    assert whole_build_differs(game, out / "site", tmp_path, monkeypatch) == []
