"""The night before, with a 24-player game of our own (tests/big_game.py):
every envelope opens with its cover, the card run fits 24 players' cards on
8 sheets, the manifest says where each set goes and how many sheets and cuts
the pack takes, the GM pack and its rosters follow the envelopes and name
the players, labels sit on their stock, the progress total never moves, and
the manifest's CSV cannot run a formula in a spreadsheet."""
from __future__ import annotations

import csv
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pdf_text import page_texts
from pypdf import PdfReader

from big_game import CAST, TITLE, write_game
from generator.core.errors import DataError
from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4
from generator.game.pack_plan import LABEL_STOCK
from generator.render.pack.assembly import spreadsheet_safe
from generator.render.pdf.cards import grid_for
from generator.systems.sixes import SYSTEM as SIXES

PLAYERS = len(CAST)
MM = 72 / 25.4      # PostScript points per millimetre


def manifest(folder: Path) -> list[dict]:
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The 24-player game packed on A4 with labels and names on the sheets,
    its casting file found in the game folder; the progress calls recorded."""
    game = write_game(tmp_path_factory.mktemp("night") / "circus")
    calls = []
    request = PackRequest(game, game / "output", (A4,), system="sixes", labels=True, name_sheets=True, workers=2)
    report = pack(request, lambda label, done, total: calls.append((label, done, total)))
    return report, report.root / "a4", calls


def test_the_game_folders_casting_file_is_found_and_followed(night):
    report, folder, _ = night
    assert report.casting_file is not None and report.casting_file.name == "casting.yaml"
    assert [(e.player, e.character) for e in report.envelopes] == [(p, c) for c, p in CAST]
    assert not [w for w in report.warnings if w.severity == "error"]


def test_for_24_players_the_card_run_is_8_sheets_and_64_cuts(night):
    report, folder, _ = night
    run = report.card_run
    # 24 sets of 3 hand-signal cards, 9 poker cards a sheet: 72 cards on 8 full sheets.
    assert (run.cards, run.sheets, run.cards_per_sheet) == (72, 8, (9,) * 8)
    assert run.sheets <= 8
    # A full 3 x 3 sheet without bleed: 4 cuts down, 4 across (the strips stacked).
    assert run.cuts_per_sheet == (8,) * 8 and run.cuts == 64
    reader = PdfReader(folder / "card-run.pdf")
    assert len(reader.pages) == 8                      # no backs: one page a sheet, printed one-sided
    assert all(text.count("Eyes shut until the GM calls your Speed.") == 3
               for text in page_texts(folder / "card-run.pdf"))
    row = next(r for r in manifest(folder) if r["envelope"] == "Cards")
    assert (row["pages"], row["sheets"], row["file"]) == ("8", "8", "card-run.pdf")
    assert row["contents"] == "hand-signal cards: 24 sets of 3 (72 cards); card run (8 p)"
    printed = " ".join(page_texts(folder / "manifest.pdf"))
    assert "72 cards on 8 sheets." in printed
    assert "Cutting the cards: 64 cuts along the marks in all, 8 for a full sheet" in printed


def test_the_manifest_says_which_set_goes_into_which_envelope(night):
    _, folder, _ = night
    rows = [r for r in manifest(folder) if r["envelope"].isdigit()]
    assert len(rows) == PLAYERS
    for row in rows:
        number = int(row["envelope"])
        # Three sets a sheet, in envelope order.
        assert row["cards"] == f"hand-signal cards: set {number} (sheet {(number - 1) // 3 + 1})"
        # No card page in the envelope itself.
        assert "Eyes shut until the GM calls your Speed." not in " ".join(page_texts(folder / row["file"]))


def test_each_envelope_starts_with_its_cover(night):
    report, folder, _ = night
    for envelope in report.envelopes:
        cover = page_texts(folder / "envelopes" / f"{envelope.stem}.pdf")[0]
        sheet = (envelope.number - 1) // 3 + 1
        expected = (f"{TITLE.upper()} Envelope {envelope.number} of {PLAYERS} {envelope.player} "
                    f"plays {envelope.character} ({envelope.faction}) "
                    "In this envelope This cover Character sheet Rules reference ")
        assert cover.startswith(expected), cover
        assert (f"Hand-signal cards: one set (Actions, Speed hand, Statuses), from the card run, sheet {sheet}"
                in cover), cover
        assert cover.endswith(f"envelopes/{envelope.stem}.pdf")
    first = page_texts(folder / "envelopes" / "01-maria-lindqvist.pdf")[0]
    assert "Handout: Ledger page" in first
    # The cover is the first part: in two-sided printing a blank page backs it.
    reader = PdfReader(folder / "envelopes" / "02-tom-okafor.pdf")
    assert "/Contents" not in reader.pages[1]


def test_the_sheets_carry_the_players_name_in_the_envelope_and_the_gm_pack(night):
    report, folder, _ = night
    for envelope in report.envelopes[:3]:
        pages = page_texts(folder / "envelopes" / f"{envelope.stem}.pdf")
        sheet = next(p for p in pages if "Your speed slots" in p)
        assert f"{envelope.player} · envelope {envelope.number}" in sheet
        assert envelope.character in sheet
    # The stamp sits in the sheet's top margin: above the first line of the sheet's own text.
    out = subprocess.run(["pdftotext", "-bbox", "-f", "3", "-l", "3",
                          str(folder / "envelopes" / "01-maria-lindqvist.pdf"), "-"],
                         capture_output=True, text=True, check=True).stdout
    word = r'yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]+)<'
    tops = {m.group(2): float(m.group(1)) for m in re.finditer(word, out)}
    assert 3 * MM < tops["Lindqvist"] < 8 * MM          # between the 3 mm edge rule and the 12 mm margin
    assert tops["Lindqvist"] < tops["THE"]             # the sheet's kicker (the game's title) comes below


def test_the_gm_pack_and_its_rosters_follow_the_envelopes_and_name_the_players(night):
    report, folder, _ = night
    pages = page_texts(folder / "gm-pack.pdf")
    # The pack's roster: envelope order, with the players.
    roster = next(p for p in pages if "Roster: who plays whom" in p)
    rows = re.findall(r"(\d+) (.+?) (" + "|".join(re.escape(c) for c, _ in CAST) + r") The", roster)
    assert [(int(n), p, c) for n, p, c in rows] == [(k, p, c) for k, (c, p) in enumerate(CAST, 1)]
    # The cheat sheet's roster too: Big Anton Kral (envelope 1) before Annie, though his file sorts after hers.
    # (Its table may run on to the next page, where only its repeated head says what it is.)
    cheat = " ".join(p for p in pages if "Attack at Speed" in p)
    names = [c for c, _ in CAST]
    assert [cheat.index(n) for n in names] == sorted(cheat.index(n) for n in names)
    # Every sheet, in envelope order, each with its player's name.
    sheets = [p for p in pages if "Your speed slots" in p]
    assert len(sheets) == PLAYERS
    for k, (sheet, (character, player)) in enumerate(zip(sheets, CAST, strict=True), 1):
        assert character in sheet and f"{player} · envelope {k}" in sheet


def test_the_manifest_keeps_the_whole_title_and_totals_once_at_the_end(night):
    report, folder, _ = night
    rows = manifest(folder)
    # The game's title holds ': ' and is never cut there.
    assert all(not r["contents"].startswith("A Sixes LARP") for r in rows)
    assert rows[0]["contents"].startswith("cover (1 p); character sheet (1 p); rules reference (2 p)")
    gm = next(r for r in rows if r["envelope"] == "GM")
    assert gm["contents"].startswith("GM cheat sheet (")
    pages = page_texts(folder / "manifest.pdf")
    assert pages[0].startswith(f"{TITLE.upper()} · PRINT AND STUFF Stuffing manifest")
    metadata = PdfReader(folder / "manifest.pdf").metadata
    assert metadata is not None and metadata.title == f"{TITLE}: stuffing manifest"
    whole = " ".join(pages)
    assert whole.count("In all") == 1
    # Once, after the last row, and it adds up every row on plain paper (the labels are on label stock).
    plain = [r for r in rows if r["envelope"] != "Labels"]
    pages_in_all, sheets_in_all = sum(int(r["pages"]) for r in plain), sum(int(r["sheets"]) for r in plain)
    assert re.search(rf"In all \(plus 2 sheets of labels\) {pages_in_all} {sheets_in_all} "
                     rf"{re.escape(TITLE)} · print and stuff Page {len(pages)} of {len(pages)}$", whole), whole[-200:]
    assert report.sheets == {"a4": sheets_in_all}
    assert whole.index("In all") > whole.index("Labels envelope labels")


def test_labels_sit_on_3_by_7_stock_on_a4(night):
    report, folder, _ = night
    reader = PdfReader(folder / "labels.pdf")
    assert len(reader.pages) == math.ceil(PLAYERS / 21) == 2
    stock = LABEL_STOCK["a4"]
    out = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(folder / "labels.pdf"), "-"],
                         capture_output=True, text=True, check=True).stdout
    words = [(float(x), float(y), w) for x, y, w in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" [^>]*>([^<]+)<', out)]
    # Each player's name starts inside its label, 4 mm in from the label's left edge.
    for k, (_, player) in enumerate(CAST[:21]):
        x, y = stock.origin(k)
        first = player.split()[0]
        found = [(wx, wy) for wx, wy, w in words if w == first]
        assert any(abs(wx - (x + 4) * MM) < 1 * MM and y * MM < wy < (y + stock.height) * MM
                   for wx, wy in found), player
    # A label names the player and the envelope, never a cast player's character (anyone can read it).
    text = " ".join(page_texts(folder / "labels.pdf"))
    # (pypdf puts no space between a name set large and the small line under it.)
    assert re.search(r"Maria Lindqvist ?Envelope 1 of 24", text) and "Big Anton Kral" not in text


@pytest.mark.parametrize("paper, across, down", [("a4", 3, 7), ("letter", 3, 10)])
def test_label_stock_fills_its_paper(paper, across, down):
    """3 x 7 on A4 (210 x 297 mm), 3 x 10 on Letter (8.5 x 11 in): the margins
    left and right, and top and bottom, are equal."""
    stock = LABEL_STOCK[paper]
    width, height = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}[paper]
    assert (stock.columns, stock.rows) == (across, down)
    right = width - (stock.left + across * stock.width + (across - 1) * stock.gap_x)
    bottom = height - (stock.top + down * stock.height + (down - 1) * stock.gap_y)
    assert right == pytest.approx(stock.left, abs=0.01) and bottom == pytest.approx(stock.top, abs=0.01)


def test_the_progress_total_never_moves(night):
    _, _, calls = night
    totals = {total for _, _, total in calls}
    assert len(totals) == 1, totals
    done = [d for _, d, _ in calls]
    assert done == sorted(done) and done[-1] == calls[-1][2]


@pytest.mark.parametrize("card_size, bleed, layout, cuts", [
    ("poker", 0.0, (3, 3), 4 + 4),      # cards share edges: one cut per line
    ("poker", 3.0, (3, 2), 6 + 4),      # landscape with bleed: every card its own two edges each way
    ("tarot", 0.0, (2, 2), 3 + 3),
])
def test_cuts_of_a_full_sheet(card_size, bleed, layout, cuts):
    grid = grid_for(card_size, bleed)
    assert (grid.columns, grid.rows) == layout
    assert grid.sheet_cuts(grid.per_page) == cuts


def test_a_part_filled_sheet_needs_only_its_own_cuts():
    grid = grid_for("poker")
    assert grid.sheet_cuts(3) == 4 + 2          # one row of three
    assert grid.sheet_cuts(4) == 4 + 3          # a row and one card


@pytest.mark.parametrize("value, safe", [
    ("=HYPERLINK(\"http://example.com\",\"x\")", "'=HYPERLINK(\"http://example.com\",\"x\")"),
    ("+44 20 7946 0000", "'+44 20 7946 0000"), ("-2+3", "'-2+3"), ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
    ("\tTab", "'\tTab"), ("\rCR", "'\rCR"), ("Robin Ash", "Robin Ash"), (7, 7), ("", ""),
])
def test_spreadsheet_safe(value, safe):
    assert spreadsheet_safe(value) == safe


def test_player_names_cannot_run_formulas_from_the_manifest_csv(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n"
                       "  - player: '=HYPERLINK(\"http://example.com\",\"click\")'\n    character: First Rival\n"
                       "  - player: '@SUM(1+1)'\n    character: Second Rival\n")
    pack(PackRequest(data, tmp_path / "out", (A4,), casting_file=casting, workers=1))
    folder = tmp_path / "out" / "pack" / "sixes" / "a4"
    rows = manifest(folder)
    assert [r["player"] for r in rows[:2]] == ["'=HYPERLINK(\"http://example.com\",\"click\")", "'@SUM(1+1)"]
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as f:
        cells = [cell for row in csv.reader(f) for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    # The PDFs print the names as typed (text, never markup).
    assert "=HYPERLINK(\"http://example.com\",\"click\")" in page_texts(folder / rows[0]["file"])[0].replace(" ", "")


def test_with_data_errors_the_casting_problems_come_in_the_same_run(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    character = data / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("hit_points:", "hit_ponts:"))
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin\n    character: First Rival\n"
                       "  - player: ROBIN\n    character: Second Rival\n")
    with pytest.raises(DataError) as failure:
        pack(PackRequest(data, tmp_path / "out", (A4,), casting_file=casting, workers=1))
    shown = [str(p) for p in failure.value.problems]
    assert any("unknown key 'hit_ponts'" in line for line in shown), shown
    assert f"{casting}:4:13: error: envelopes[1].player: 'ROBIN' is cast twice (envelope 1 is theirs too); " \
           "give each player one envelope; if one person plays two parts, tell the envelopes apart, " \
           "e.g. 'ROBIN (2)'" in shown
    assert f"{casting}:1:1: warning: characters not checked: the sixes game's data has errors; " \
           "fix those, then check again" in shown
    assert not (tmp_path / "out").exists()
