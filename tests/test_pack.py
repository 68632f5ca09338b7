"""`sixes pack`: one PDF per envelope in casting order, a GM pack with every
secret, a stuffing manifest whose page counts match the files, a zip for the
print shop, and casting mistakes reported at file:line:column."""
from __future__ import annotations

import csv
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from generator.cli import main
from generator.errors import DataError
from generator.pack import pack
from generator.systems.sixes import SYSTEM as SIXES

SECRETS = {"first-rival": "Marigold owes the ferryman nine crowns",
           "second-rival": "Hawthorn burned the harbour ledger"}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """The starter game with a recognisable secret in each background."""
    data = tmp_path_factory.mktemp("pack") / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    for stem, secret in SECRETS.items():
        path = data / "sixes" / "characters" / f"{stem}.yaml"
        text = re.sub(r"background: \|\n(  .*\n|\n)+", f"background: |\n  {secret}.\n", path.read_text())
        path.write_text(text)
    handout = PdfWriter()
    for _ in range(3):
        handout.add_blank_page(595, 842)
    (data / "handouts").mkdir()
    with open(data / "handouts" / "map.pdf", "wb") as f:
        handout.write(f)
    return data


def text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() or "" for page in PdfReader(path).pages).split())


def manifest(folder: Path) -> list[dict]:
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def uncast(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("pack-out")
    return pack(game, out, ("a4",), workers=1)


def test_without_casting_envelopes_are_labelled_by_character(uncast):
    folder = uncast.out_dir / "pack" / "a4"
    assert sorted(p.name for p in (folder / "envelopes").iterdir()) == ["01-first-rival.pdf", "02-second-rival.pdf"]
    rows = manifest(folder)
    assert [(r["envelope"], r["player"], r["character"]) for r in rows] == [
        ("1", "", "First Rival"), ("2", "", "Second Rival"), ("GM", "", "")]
    # Sheet (1-2 pages) + the player's one set of hand-signal cards (1) + rules reference (1-2).
    for row in rows[:2]:
        assert re.fullmatch(r"character sheet \(\d p\); hand-signal cards \(1 p\); rules reference \(\d p\)",
                            row["contents"]), row
        assert int(row["pages"]) == len(PdfReader(folder / row["file"]).pages)
    assert int(rows[2]["pages"]) == len(PdfReader(folder / "gm-pack.pdf").pages)
    assert rows[2]["contents"].startswith("GM cheat sheet (")
    # Cheat sheet, roster, every other GM document (the fight balance report), then all sheets.
    assert re.fullmatch(r"GM cheat sheet \(\d p\); roster \(1 p\); fight balance report \(\d p\); "
                        r"2 x character sheet \(\d p\)", rows[2]["contents"]), rows[2]


def test_each_envelope_holds_its_own_secret_only_and_the_gm_pack_holds_all(uncast):
    folder = uncast.out_dir / "pack" / "a4"
    first, second = (text(folder / "envelopes" / n) for n in ("01-first-rival.pdf", "02-second-rival.pdf"))
    assert SECRETS["first-rival"] in first and SECRETS["second-rival"] not in first
    assert SECRETS["second-rival"] in second and SECRETS["first-rival"] not in second
    assert "Speed hand" in first and "Sixes rules reference" in first
    gm = text(folder / "gm-pack.pdf")
    assert all(s in gm for s in SECRETS.values())
    assert "Roster: who plays whom" in gm and "GM cheat sheet" in gm
    assert "Stuffing manifest" in text(folder / "manifest.pdf")
    assert len(PdfReader(folder / "manifest.pdf").pages) == 1


def test_every_pack_pdf_has_a_title_and_a_language(uncast):
    for path in uncast.files:
        if path.suffix == ".pdf":
            reader = PdfReader(path)
            assert reader.metadata.title.startswith("My New Game"), path
            assert reader.trailer["/Root"].get("/Lang") == "en", path


def test_the_zip_holds_the_whole_pack_with_its_manifest(uncast):
    (archive,) = uncast.zips
    with zipfile.ZipFile(archive) as zf:
        names = sorted(zf.namelist())
    assert names == ["a4/envelopes/01-first-rival.pdf", "a4/envelopes/02-second-rival.pdf", "a4/gm-pack.pdf",
                     "a4/manifest.csv", "a4/manifest.pdf"]


def test_casting_orders_and_labels_envelopes_and_adds_handouts(game, tmp_path):
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n"
                       "  - player: Robin Ash\n    character: second-rival\n"
                       f"    handouts: [{game / 'handouts' / 'map.pdf'}]\n"
                       "  - player: Sam Dale\n    character: First Rival\n")
    report = pack(game, tmp_path / "out", ("letter",), casting_file=casting, workers=1)
    folder = tmp_path / "out" / "pack" / "letter"
    rows = manifest(folder)
    assert [(r["envelope"], r["player"], r["character"], r["file"]) for r in rows[:2]] == [
        ("1", "Robin Ash", "Second Rival", "envelopes/01-robin-ash.pdf"),
        ("2", "Sam Dale", "First Rival", "envelopes/02-sam-dale.pdf")]
    assert rows[0]["contents"].endswith("; Handout: map (3 p)")
    assert SECRETS["second-rival"] in text(folder / "envelopes" / "01-robin-ash.pdf")
    assert int(rows[0]["pages"]) == len(PdfReader(folder / "envelopes" / "01-robin-ash.pdf").pages)
    roster = text(folder / "gm-pack.pdf")
    assert re.search(r"1 Robin Ash Second Rival", roster)
    assert not report.warnings or all(w.severity == "warning" for w in report.warnings)


def test_a_character_nobody_plays_still_gets_an_envelope_with_a_warning(game, tmp_path):
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin Ash\n    character: Second Rival\n")
    report = pack(game, tmp_path / "out", ("a4",), casting_file=casting, workers=1)
    assert [(e.number, e.label) for e in report.envelopes] == [(1, "Robin Ash"), (2, "First Rival")]
    assert any("nobody is cast as First Rival" in w.message for w in report.warnings)


@pytest.mark.parametrize("body, expected", [
    ("envelopes:\n  - player: Robin\n    character: Secnod Rival\n",
     r"casting\.yaml:3:16: error: envelopes\[0\]\.character: no character called 'Secnod Rival'; did you mean 'Second Rival'\?"),
    ("envelopes:\n  - player: Robin\n    character: First Rival\n  - player: Sam\n    character: first-rival\n",
     r"casting\.yaml:5:16: error: envelopes\[1\]\.character: 'first-rival' is already cast \(to Robin\)"),
    ("envelopes:\n  - player: Robin\n    charcter: First Rival\n",
     r"casting\.yaml:3:5: error: envelopes\[0\]\.charcter: unknown key 'charcter'; did you mean 'character'\?"),
    ("envelopes:\n  - player: Robin\n    character: First Rival\n    handouts: [/etc/hostname]\n",
     r"casting\.yaml:4:16: error: envelopes\[0\]\.handouts\[0\]: found '/etc/hostname', which is not a PDF file"),
])
def test_casting_mistakes_are_reported_where_they_are(game, tmp_path, body, expected):
    casting = tmp_path / "casting.yaml"
    casting.write_text(body)
    out = tmp_path / "out"
    with pytest.raises(DataError) as failure:
        pack(game, out, ("a4",), casting_file=casting, workers=1)
    assert re.search(expected, "\n".join(str(p) for p in failure.value.problems)), failure.value.problems
    assert not (out / "pack").exists()


def test_a_handout_outside_the_game_folders_is_refused(game, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copy(game / "handouts" / "map.pdf", outside / "map.pdf")
    casting = tmp_path / "cast" / "casting.yaml"
    casting.parent.mkdir()
    casting.write_text(f"envelopes:\n  - player: Robin\n    character: First Rival\n    handouts: [{outside / 'map.pdf'}]\n")
    with pytest.raises(DataError, match="outside the game's folders"):
        pack(game, tmp_path / "out", ("a4",), casting_file=casting, workers=1)


def test_the_pack_command_exit_codes(game, tmp_path):
    runner = CliRunner()
    bad = tmp_path / "casting.yaml"
    bad.write_text("envelopes:\n  - player: Robin\n    character: Nobody\n")
    result = runner.invoke(main, ["pack", "--data", str(game), "--out", str(tmp_path / "o"), "--casting", str(bad)])
    assert result.exit_code == 1 and "no character called 'Nobody'" in result.output
    result = runner.invoke(main, ["pack", "--data", str(game), "--paper", "a5"])
    assert result.exit_code == 2
