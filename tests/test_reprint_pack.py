"""`sixes pack --since` on real packs of the example game: the record a pack
writes, the reprint's files (the sheet, the pages in envelope order, the
labels, the badges, the marked stuffing list, the new record), the earlier
pack left byte for byte as it was, and the next reprint starting from this
one. One full pack and one reprint, shared by the tests of this module; what
a reprint holds for each kind of change is in tests/test_reprint.py."""
from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdf_text import page_texts, text

from generator.commands.cli import main
from generator.game.pack_record import RECORD_FILE
from test_reprint import casting, example


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def sixes(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["pack", "--system", "sixes", "--paper", "a4", "--labels", "--jobs", "1", *args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def packs(tmp_path_factory) -> dict:
    """The example packed, then one word changed in a background and two players swapped, reprinted."""
    folder = tmp_path_factory.mktemp("reprint-pack")
    game, out = example(folder / "game"), folder / "out"
    code, output = sixes("--data", str(game), "--out", str(out), "--casting", str(casting(folder / "one.yaml")))
    assert code == 0, output
    earlier = tree(out / "pack" / "sixes" / "a4")
    sheet = game / "sixes" / "characters" / "edmund-carrow.yaml"
    words = sheet.read_text(encoding="utf-8")
    assert words.count("Goals:") == 1
    sheet.write_text(words.replace("Goals:", "Aims:"), encoding="utf-8")
    code, output = sixes("--data", str(game), "--out", str(out), "--casting",
                         str(casting(folder / "two.yaml", swap=True)), "--since")
    assert code == 0, output
    return {"game": game, "out": out, "earlier": earlier, "output": output, "cast": folder / "two.yaml"}


def test_a_pack_writes_its_record_beside_its_manifest(packs):
    record = json.loads((packs["out"] / "pack" / "sixes" / "a4" / RECORD_FILE).read_text(encoding="utf-8"))
    assert record["paper"] == "a4" and record["game"]["system"] == "sixes" and len(record["envelopes"]) == 16
    kinds = [p["kind"] for p in record["envelopes"][0]["parts"]]
    assert kinds[:2] == ["cover", "sheet"] and {"card", "label", "stamp", "badge", "summary"} <= set(kinds)


def test_the_reprint_leaves_the_earlier_pack_as_it_was_and_writes_a_folder_of_its_own(packs):
    root = packs["out"] / "pack" / "sixes"
    assert tree(root / "a4") == packs["earlier"]
    assert sorted(p.name for p in (root / "a4-reprint-1").iterdir()) == sorted(
        ["reprint.pdf", "reprint-pages.pdf", "reprint-labels.pdf", "reprint-badges.pdf", "manifest.csv", RECORD_FILE])
    assert "Envelope 1 (Player B):\n    Replace cover: changed: player, file name" in packs["output"]
    assert "Envelope 3 (Player C):\n    Replace character sheet: changed: background\n" in packs["output"]
    assert "To print: 5 sheet(s) of paper, 1 of labels, 1 of badges" in packs["output"], packs["output"]


def test_the_pages_to_reprint_are_in_envelope_order(packs):
    folder = packs["out"] / "pack" / "sixes" / "a4-reprint-1"
    pages = page_texts(folder / "reprint-pages.pdf")
    # Two-sided: each part starts on a front, so a one-page cover or name stamp is followed by a blank page.
    # Envelope 1: its cover and name stamp; 2: the same; 3: Edmund Carrow's sheet (one page) and nothing else.
    assert "Player B" in pages[0] and "Absalom Quick" in pages[0]
    assert "Player A" in pages[4] and "Brother Anselm" in pages[4]
    assert [pages[2], pages[6]] == ["Player B · envelope 1", "Player A · envelope 2"]
    assert [pages[k] for k in (1, 3, 5, 7)] == [""] * 4
    assert "Edmund Carrow" in pages[8] and "Aims:" in pages[8] and "Goals:" not in " ".join(pages)
    assert len(pages) == 9
    sheet = text(folder / "reprint.pdf")
    assert "What to reprint" in sheet and "Replace character sheet: changed: background" in sheet
    labels = text(folder / "reprint-labels.pdf")
    assert "Player A" in labels and "Player B" in labels and "Player C" not in labels


def test_the_new_manifest_marks_what_is_replaced(packs):
    with open(packs["out"] / "pack" / "sixes" / "a4-reprint-1" / "manifest.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    marked = sorted((r["envelope"], r["part"]) for r in rows if r["reprint"] != "kept")
    assert marked == sorted([("1", "cover"), ("1", "label"), ("1", "name stamp"), ("1", "name badge"),
                             ("2", "cover"), ("2", "label"), ("2", "name stamp"), ("2", "name badge"),
                             ("3", "character sheet")])
    assert {r["reprint"] for r in rows} == {"kept", "replaced"}


def test_the_next_reprint_starts_from_this_one_and_a_new_date_changes_nothing(packs, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")
    code, output = sixes("--data", str(packs["game"]), "--out", str(packs["out"]), "--casting", str(packs["cast"]),
                         "--since", "--dry-run")
    assert code == 0, output
    assert "Since pack/sixes/a4-reprint-1/pack-record.json (A4):\n  Nothing to reprint." in output
    assert not (packs["out"] / "pack" / "sixes" / "a4-reprint-2").exists()
