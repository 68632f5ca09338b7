"""Cast order, defined once (core/cast_order.py, issue 32): on a game whose
file-name order differs from it, the GM cheat sheet's roster, the balance
report's table, the fight tracker, the site's cast list and the pack's
envelopes all list the characters in one order: by printed name without a
casting file, the casting's order first with one."""
from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest

from generator.core.cast_order import by_name, casting_first
from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.gather import gather
from generator.game.pack_plan import plan_envelopes
from generator.game.settings import load_settings
from generator.render.pdf.jobs import document_html
from generator.systems.sixes import SYSTEM
from generator.systems.sixes import outputs as sixes_outputs
from generator.systems.sixes.balance import cast_balance
from generator.systems.sixes.outputs import BALANCE_REPORT, GM_CHEAT_SHEET
from generator.systems.sixes.tracker import tracker_data

CASTING = """envelopes:
  - player: Alex Morgan
    character: Sally Brea
  - player: Sam Dale
    character: Absalom Quick
  - player: Jo Penrose
    character: Ned Tregarth
"""


def game_folder(tmp_path: Path, casting: str | None = None) -> Path:
    """The example Sixes game, with Ned Tregarth's file renamed so that it
    comes first in file-name order while his name sorts under N."""
    root = tmp_path / "game"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", root / "sixes")
    characters = root / "sixes" / "characters"
    (characters / "ned-tregarth.yaml").rename(characters / "a-tregarth.yaml")
    (root / "sixes.yaml").write_text("systems: [sixes]\n", encoding="utf-8")
    if casting is not None:
        (root / "casting.yaml").write_text(casting, encoding="utf-8")
    return root


def sixes_game(root: Path):
    gathered = gather(root, load_settings(root), (A4,), site=False)
    return next(item.game for item in gathered.loaded if item.system is SYSTEM)


def roster_names(game) -> list[str]:
    """The names in the GM cheat sheet's roster tables, top to bottom."""
    doc = next(d for d in SYSTEM.documents(game) if d.slug == GM_CHEAT_SHEET)
    tables = re.findall(r'<table class="roster[^"]*">(.*?)</table>', document_html(doc), flags=re.S)
    known = [m.character.name for m in game.cast]
    text = " ".join(tables)
    return sorted((n for n in known if n in text), key=text.index)


def balance_names(game, monkeypatch) -> list[str]:
    """The balance report's table, from few duels (the order is the point here, not the figures)."""
    monkeypatch.setattr(sixes_outputs, "cast_balance", functools.partial(cast_balance, duels=2, brawl_fights=8))
    doc = next(d for d in SYSTEM.documents(game) if d.slug == BALANCE_REPORT)
    return [f.name for f in doc.context["balance"].fighters]


def every_list(game, monkeypatch) -> dict[str, list[str]]:
    sheets = [d for d in SYSTEM.documents(game) if d.audience == "player"]
    return {
        "cast": [m.character.name for m in game.cast],
        "roster": roster_names(game),
        "balance": balance_names(game, monkeypatch),
        "tracker": [fighter["name"] for fighter in tracker_data(game)["cast"]],
        "pack": [e.character for e in plan_envelopes(sheets, None, game.info.title)[0]],
    }


def test_without_a_casting_file_every_list_is_in_name_order_not_file_order(tmp_path, monkeypatch):
    game = sixes_game(game_folder(tmp_path))
    files = sorted(p.name for p in (tmp_path / "game" / "sixes" / "characters").glob("*.yaml"))
    assert files[0] == "a-tregarth.yaml"                       # file-name order would put Ned first
    expected = sorted((m.character.name for m in game.cast), key=str.casefold)
    assert expected[0] != "Ned Tregarth"
    for where, names in every_list(game, monkeypatch).items():
        assert names == expected, where
    assert SYSTEM.cast_list is not None
    public = [e.name for e in SYSTEM.cast_list(game)]
    assert public == [n for n in expected if n in public]


def test_with_a_casting_file_its_order_comes_first_everywhere(tmp_path, monkeypatch):
    game = sixes_game(game_folder(tmp_path, CASTING))
    cast = ["Sally Brea", "Absalom Quick", "Ned Tregarth"]
    rest = sorted((m.character.name for m in game.cast if m.character.name not in cast), key=str.casefold)
    for where, names in every_list(game, monkeypatch).items():
        assert names == cast + rest, where
    assert SYSTEM.cast_list is not None
    public = [e.name for e in SYSTEM.cast_list(game)]
    assert public == [n for n in cast + rest if n in public]


def test_name_order_sets_accents_and_case_aside():
    names = ["zoë", "Émile", "Big Anton Kral", "adam", "Zoe"]
    assert by_name(names, str) == ["adam", "Big Anton Kral", "Émile", "Zoe", "zoë"]


@pytest.mark.parametrize("slugs, expected", [
    (["c", "a"], ["c", "a", "b", "d"]),
    ([], ["a", "b", "c", "d"]),
    (["d", "unknown", "d"], ["d", "a", "b", "c"]),
])
def test_casting_first_keeps_the_rest_in_their_order(slugs, expected):
    assert casting_first(["a", "b", "c", "d"], str, slugs) == expected
