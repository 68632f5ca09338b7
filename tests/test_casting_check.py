"""The casting file checked as data: `sixes check` finds casting.yaml in the
game folder (or takes --casting FILE) and reports its mistakes at
file:line:column with a did-you-mean, in the same run as the data's own
problems; handouts are named relative to the game folder; a handout on
another paper than the pack's is a warning. Messages are compared whole."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfWriter

from generator.commands.cli import main
from generator.core.errors import DataError
from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4
from generator.systems.i6 import SYSTEM as I6
from generator.systems.sixes import SYSTEM as SIXES

A4_POINTS, LETTER_POINTS = (595.28, 841.89), (612.0, 792.0)


def blank_pdf(path: Path, size: tuple[float, float], pages: int = 1) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(*size)
    with open(path, "wb") as handle:
        writer.write(handle)
    return path


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """A game folder on A4 with the Sixes starter and two handouts, as the current folder."""
    game = tmp_path / "circus"
    shutil.copytree(SIXES.starter, game / "sixes")
    (game / "sixes.yaml").write_text("paper: a4\n")
    blank_pdf(game / "handouts" / "tide-table.pdf", LETTER_POINTS)
    blank_pdf(game / "handouts" / "map.pdf", A4_POINTS)
    (game / "handouts" / "notes.txt").write_text("not a PDF")
    monkeypatch.chdir(game)
    return game


def check(*args: str):
    return CliRunner().invoke(main, ["check", *args])


def lines(output: str) -> list[str]:
    return output.strip().splitlines()


def test_casting_and_data_problems_come_in_one_run(folder):
    (folder / "casting.yaml").write_text(
        "envelopes:\n"
        "  - player: Robin Ash\n"
        "    character: Frist Rival\n"
        "    handouts: [handouts/tide-tabel.pdf, handouts/tide-table.pdf, map.pdf]\n"
        "  - player: robin ash\n"
        "    character: Second Rival\n")
    character = folder / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("hit_points:", "hit_ponts:"))
    result = check()
    assert result.exit_code == 1
    assert lines(result.output) == [
        "circus/casting.yaml:1:1: warning: characters not checked: the sixes game's data has errors; fix those, then "
        "check again",
        "circus/casting.yaml:4:16: error: envelopes[0].handouts[0]: handout 'handouts/tide-tabel.pdf' not found; "
        "did you mean 'handouts/tide-table.pdf'?",
        "circus/casting.yaml:4:41: warning: envelopes[0].handouts[1]: 'handouts/tide-table.pdf' is US Letter "
        "(216 x 279 mm), but this pack is printed on A4; it would print scaled or cropped; export it on A4 "
        "or pack with --paper letter",
        "circus/casting.yaml:4:66: error: envelopes[0].handouts[2]: handout 'map.pdf' not found; "
        "did you mean 'handouts/map.pdf'?",
        "circus/casting.yaml:5:13: error: envelopes[1].player: 'robin ash' is cast twice (envelope 1 is theirs too); "
        "give each player one envelope; if one person plays two parts, tell the envelopes apart, "
        "e.g. 'robin ash (2)'",
        "circus/sixes/characters/first-rival.yaml:8:1: error: hit_ponts: unknown key 'hit_ponts'; "
        "did you mean 'hit_points'?",
        "4 error(s), 2 warning(s)",
    ]

    # With the data fixed, the characters are checked too.
    character.write_text(character.read_text().replace("hit_ponts:", "hit_points:"))
    result = check()
    assert result.exit_code == 1
    assert ("circus/casting.yaml:3:16: error: envelopes[0].character: no character called 'Frist Rival'; "
            "did you mean 'First Rival'?") in lines(result.output)
    assert "characters not checked" not in result.output


def test_a_good_casting_passes_and_says_it_was_checked(folder):
    (folder / "casting.yaml").write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                                         "    handouts: [handouts/map.pdf]\n")
    result = check()
    assert result.exit_code == 0, result.output
    assert lines(result.output) == ["OK: . is valid (Sixes); casting circus/casting.yaml checked."]


def test_handouts_are_relative_to_the_game_folder_whoever_holds_the_casting_file(folder, tmp_path):
    """A casting file kept outside the game folder still names handouts from the game folder."""
    elsewhere = tmp_path / "office" / "cast.yaml"
    elsewhere.parent.mkdir()
    elsewhere.write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                         "    handouts: [handouts/map.pdf, handouts/notes.txt, ../office/cast.yaml]\n")
    result = check("--casting", str(elsewhere))
    assert result.exit_code == 1
    assert lines(result.output) == [
        f"{elsewhere}:4:34: error: envelopes[0].handouts[1]: 'handouts/notes.txt' is not a PDF file; "
        "a handout is a PDF: export or print it to PDF",
        f"{elsewhere}:4:54: error: envelopes[0].handouts[2]: '../office/cast.yaml' is outside the game folder; "
        "paths are relative to the game folder (the one holding sixes.yaml), e.g. handouts/map.pdf; "
        "copy the file into the game folder",
        "2 error(s), 0 warning(s)",
    ]


def test_a_handout_is_checked_against_every_paper_of_the_settings(folder):
    (folder / "sixes.yaml").write_text("paper: both\n")
    (folder / "casting.yaml").write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                                         "    handouts: [handouts/map.pdf]\n")
    result = check()
    assert result.exit_code == 0
    assert lines(result.output)[0] == (
        "circus/casting.yaml:4:16: warning: envelopes[0].handouts[0]: 'handouts/map.pdf' is A4 (210 x 297 mm), "
        "but this pack is printed on US Letter; it would print scaled or cropped; export it on US Letter or pack with "
        "--paper a4")


def test_a_handout_a_character_file_names_is_checked_against_the_paper_too(folder):
    """The casting file's paper check, the same one, at the character file's handout."""
    (folder / "sixes.yaml").write_text("paper: letter\n")
    character = folder / "sixes" / "characters" / "first-rival.yaml"
    kept = character.read_text()
    character.write_text(kept + "handouts: [handouts/map.pdf]\n")
    line = len(kept.splitlines()) + 1
    result = check()
    assert result.exit_code == 0, result.output
    assert lines(result.output)[0] == (
        f"circus/sixes/characters/first-rival.yaml:{line}:12: warning: handouts: 'handouts/map.pdf' is A4 "
        "(210 x 297 mm), but this pack is printed on US Letter; it would print scaled or cropped; export it on "
        "US Letter or pack with --paper a4")
    (folder / "sixes.yaml").write_text("paper: a4\n")
    assert "warning" not in check().output


@pytest.fixture
def two_casts(folder) -> Path:
    """The folder with a second game that has characters (I6 heroes)."""
    shutil.copytree(I6.starter, folder / "i6")
    return folder


def test_with_two_games_the_casting_says_which_or_its_names_do(two_casts):
    (two_casts / "casting.yaml").write_text("envelopes:\n  - player: Robin Ash\n    character: Nobody Known\n")
    result = check()
    assert result.exit_code == 1
    assert lines(result.output)[0] == (
        "circus/casting.yaml:1:1: error: this folder holds 2 games with characters (sixes, i6); "
        "which one is this casting for?; add `system: sixes` (or another of sixes, i6) at the top")
    (two_casts / "casting.yaml").write_text("system: sixse\nenvelopes:\n  - player: Robin Ash\n"
                                            "    character: First Rival\n")
    result = check()
    assert lines(result.output)[0] == ("circus/casting.yaml:1:9: error: system: no game 'sixse' in this folder; "
                                       "did you mean 'sixes'?")
    # Names that belong to one game only say which it is.
    (two_casts / "casting.yaml").write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n")
    assert check().exit_code == 0


def test_pack_refuses_a_casting_for_another_game(two_casts, tmp_path):
    casting = tmp_path / "cast.yaml"
    casting.write_text("system: i6\nenvelopes:\n  - player: Robin Ash\n    character: First Rival\n")
    with pytest.raises(DataError) as failure:
        pack(PackRequest(two_casts, tmp_path / "out", (A4,), system="sixes", casting_file=casting, workers=1))
    assert [str(p) for p in failure.value.problems] == [
        f"{casting}:1:9: error: system: this casting is for i6, but the pack is of sixes; pack with --system i6, "
        "or pass the casting file of sixes"]


def test_the_game_folders_casting_is_used_by_pack_only_for_its_own_game(two_casts, tmp_path):
    """casting.yaml names `system: i6`: packing Sixes goes on without it;
    packing I6 follows it."""
    (two_casts / "casting.yaml").write_text("system: i6\nenvelopes:\n  - player: Robin Ash\n"
                                            "    character: The Physician\n")
    sixes = pack(PackRequest(two_casts, tmp_path / "a", (A4,), system="sixes", workers=1))
    assert sixes.casting_file is None and all(e.player is None for e in sixes.envelopes)
    i6 = pack(PackRequest(two_casts, tmp_path / "b", (A4,), system="i6", workers=1))
    assert i6.casting_file == two_casts / "casting.yaml"
    assert [(e.player, e.character) for e in i6.envelopes][0] == ("Robin Ash", "The Physician")


def test_pack_checks_the_game_folders_casting_like_check_does(folder):
    (folder / "casting.yaml").write_text("envelopes:\n  - player: Robin Ash\n    character: Frist Rival\n")
    result = CliRunner().invoke(main, ["pack", "--out", str(folder / "output")])
    assert result.exit_code == 1
    assert lines(result.output)[:3] == [
        "circus/casting.yaml:3:16: error: envelopes[0].character: no character called 'Frist Rival'; "
        "did you mean 'First Rival'?",
        "1 error(s), 0 warning(s)",
        "Nothing was written: fix the problems above and pack again."]
    assert not (folder / "output").exists()
