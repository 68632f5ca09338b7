"""`sixes pack`: one PDF per envelope in casting order, each starting with its
cover, one card run for every envelope's cards, a GM pack with every secret, a
stuffing manifest whose page and sheet counts match the files, a zip for the
print shop, casting mistakes reported at file:line:column, every part starting
on the front of a sheet in two-sided printing, and every system's example game
packed. The 24-player pack, labels, name stamps and the casting check are in
tests/test_pack_night.py."""
from __future__ import annotations

import csv
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdf_text import text
from pypdf import PdfReader, PdfWriter

from generator.game.load import load_all
from generator.commands.cli import main
from generator.core.errors import DataError
from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4, LETTER
from generator.render.pack.assembly import Part, merge
from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.options import PrintOptions
from generator.systems import SYSTEMS, system
from generator.systems.d6xd6 import SYSTEM as D6XD6
from generator.systems.sixes import SYSTEM as SIXES

# Printed on the Speed hand card only.
CARD_TEXT = "Eyes shut until the GM calls your Speed."
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


def manifest(folder: Path) -> list[dict]:
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def envelope_rows(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["envelope"].isdigit()]


def row_of(rows: list[dict], name: str) -> dict:
    return next(r for r in rows if r["envelope"] == name)


@pytest.fixture(scope="module")
def uncast(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("pack-out")
    return pack(PackRequest(game, out, (A4,), workers=1))


def test_without_casting_envelopes_are_labelled_by_character(uncast):
    folder = uncast.out_dir / "pack" / "sixes" / "a4"
    assert sorted(p.name for p in (folder / "envelopes").iterdir()) == ["01-first-rival.pdf", "02-second-rival.pdf"]
    rows = manifest(folder)
    assert [(r["envelope"], r["player"], r["character"]) for r in rows] == [
        ("1", "", "First Rival"), ("2", "", "Second Rival"), ("GM", "", ""), ("Cards", "", "")]
    # Cover (1 page) + sheet (1-2 pages) + rules reference (1-2); the cards come from the card run.
    for number, row in enumerate(rows[:2], 1):
        assert re.fullmatch(r"cover \(1 p\); character sheet \(\d p\); rules reference \(\d p\)",
                            row["contents"]), row
        assert row["cards"] == f"hand-signal cards: set {number} (sheet 1)"
        assert int(row["pages"]) == len(PdfReader(folder / row["file"]).pages)
    assert int(rows[2]["pages"]) == len(PdfReader(folder / "gm-pack.pdf").pages)
    assert rows[2]["contents"].startswith("GM cheat sheet (")
    # Cheat sheet, roster, every other GM document (the fight balance report), then all sheets.
    assert re.fullmatch(r"GM cheat sheet \(\d p\); roster \(1 p\); fight balance report \(\d p\); "
                        r"2 x character sheet \(\d p\)", rows[2]["contents"]), rows[2]
    # Both players' sets of three cards on one sheet, printed one-sided (no backs).
    assert rows[3]["contents"] == "hand-signal cards: 2 sets of 3 (6 cards); card run (1 p)"
    assert (rows[3]["pages"], rows[3]["sheets"], rows[3]["file"]) == ("1", "1", "card-run.pdf")


def test_each_envelope_holds_its_own_secret_only_and_the_gm_pack_holds_all(uncast):
    folder = uncast.out_dir / "pack" / "sixes" / "a4"
    first, second = (text(folder / "envelopes" / n) for n in ("01-first-rival.pdf", "02-second-rival.pdf"))
    assert SECRETS["first-rival"] in first and SECRETS["second-rival"] not in first
    assert SECRETS["second-rival"] in second and SECRETS["first-rival"] not in second
    assert "Sixes rules reference" in first
    # No lonely card page in an envelope: the cards are all in the card run.
    assert CARD_TEXT not in first and CARD_TEXT not in second
    assert text(folder / "card-run.pdf").count(CARD_TEXT) == 2
    gm = text(folder / "gm-pack.pdf")
    assert all(s in gm for s in SECRETS.values())
    assert "Roster: who plays whom" in gm and "GM cheat sheet" in gm
    assert "Stuffing manifest" in text(folder / "manifest.pdf")
    assert len(PdfReader(folder / "manifest.pdf").pages) == 1


def test_a_characters_gm_notes_are_in_the_gm_pack_and_no_envelope(uncast):
    """The starter's First Rival has `gm_notes`: on the GM's cheat sheet in
    the GM pack, never in an envelope (the player's copy of the sheet)."""
    folder = uncast.out_dir / "pack" / "sixes" / "a4"
    note = "For the GM only (the cheat sheet)"
    assert note in " ".join(text(folder / "gm-pack.pdf").split())
    for envelope in sorted((folder / "envelopes").glob("*.pdf")):
        assert note not in " ".join(text(envelope).split()), envelope


def test_every_pack_pdf_has_a_title_and_a_language(uncast):
    for path in uncast.files:
        if path.suffix == ".pdf":
            reader = PdfReader(path)
            assert reader.metadata is not None and (reader.metadata.title or "").startswith("My New Game"), path
            assert reader.root_object.get("/Lang") == "en", path


def test_the_zip_holds_the_whole_pack_with_its_manifest(uncast):
    (archive,) = uncast.zips
    assert archive == uncast.out_dir / "pack" / "sixes" / "my-new-game-pack-a4.zip"
    with zipfile.ZipFile(archive) as zf:
        names = sorted(zf.namelist())
    assert names == ["a4/card-run.pdf", "a4/envelopes/01-first-rival.pdf", "a4/envelopes/02-second-rival.pdf",
                     "a4/gm-pack.pdf", "a4/manifest.csv", "a4/manifest.pdf", "a4/pack-record.json"]


def test_casting_orders_and_labels_envelopes_and_adds_handouts(game, tmp_path):
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n"
                       "  - player: Robin Ash\n    character: second-rival\n"
                       "    handouts: [handouts/map.pdf]\n"
                       "  - player: Sam Dale\n    character: First Rival\n")
    report = pack(PackRequest(game, tmp_path / "out", (LETTER,), casting_file=casting, workers=1))
    folder = tmp_path / "out" / "pack" / "sixes" / "letter"
    rows = manifest(folder)
    assert [(r["envelope"], r["player"], r["character"], r["file"]) for r in rows[:2]] == [
        ("1", "Robin Ash", "Second Rival", "envelopes/01-robin-ash.pdf"),
        ("2", "Sam Dale", "First Rival", "envelopes/02-sam-dale.pdf")]
    assert rows[0]["contents"].endswith("; Handout: Map (3 p)")
    assert SECRETS["second-rival"] in text(folder / "envelopes" / "01-robin-ash.pdf")
    assert int(rows[0]["pages"]) == len(PdfReader(folder / "envelopes" / "01-robin-ash.pdf").pages)
    roster = text(folder / "gm-pack.pdf")
    assert re.search(r"1 Robin Ash Second Rival", roster)
    assert not report.warnings or all(w.severity == "warning" for w in report.warnings)


def test_handouts_the_data_gives_a_character_go_in_their_envelope_first(game, tmp_path):
    """`handouts:` in a character's file; a casting file's handouts follow them."""
    data = tmp_path / "data"
    shutil.copytree(game, data)
    (data / "sixes" / "handouts").mkdir()
    letter = PdfWriter()
    letter.add_blank_page(595, 842)
    with open(data / "sixes" / "handouts" / "letter.pdf", "wb") as f:
        letter.write(f)
    character = data / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text() + "handouts: [sixes/handouts/letter.pdf]\n")
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                       "    handouts: [handouts/map.pdf]\n")
    pack(PackRequest(data, tmp_path / "out", (A4,), casting_file=casting, workers=1, duplex=False))
    rows = manifest(tmp_path / "out" / "pack" / "sixes" / "a4")
    by_character = {r["character"]: r["contents"] for r in rows}
    assert by_character["First Rival"].endswith("; Handout: Letter (1 p); Handout: Map (3 p)")
    assert "Handout" not in by_character["Second Rival"]


def test_covers_and_the_manifest_list_a_handout_by_its_title(game, tmp_path):
    """The PDF's own /Title when it has one; else the file's name made readable."""
    data = tmp_path / "data"
    shutil.copytree(game, data)
    titled = PdfWriter()
    titled.add_blank_page(595, 842)
    titled.add_metadata({"/Title": "Carte du vieux port"})
    with open(data / "handouts" / "old_harbour-scan.pdf", "wb") as f:
        titled.write(f)
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                       "    handouts: [handouts/old_harbour-scan.pdf, handouts/map.pdf]\n")
    pack(PackRequest(data, tmp_path / "out", (A4,), casting_file=casting, workers=1, duplex=False))
    folder = tmp_path / "out" / "pack" / "sixes" / "a4"
    contents = manifest(folder)[0]["contents"]
    assert contents.endswith("; Handout: Carte du vieux port (1 p); Handout: Map (3 p)"), contents
    cover = " ".join(PdfReader(folder / "envelopes" / "01-robin-ash.pdf").pages[0].extract_text().split())
    assert "Handout: Carte du vieux port" in cover and "Handout: Map" in cover and "old_harbour" not in cover


@pytest.mark.parametrize("title, shown", [(None, "Old harbour scan"), ("Microsoft Word - map.docx", "Old harbour scan"),
                                          ("  ", "Old harbour scan"), ("Bad\u202etitle", "Old harbour scan"),
                                          ("x" * 200, "x" * 79 + "…")])
def test_a_handouts_title_is_passed_over_when_it_says_less_than_its_name(tmp_path, title, shown):
    from generator.game.handout_title import handout_title
    writer = PdfWriter()
    writer.add_blank_page(595, 842)
    if title is not None:
        writer.add_metadata({"/Title": title})
    with open(tmp_path / "old_harbour-scan.pdf", "wb") as f:
        writer.write(f)
    assert handout_title(tmp_path / "old_harbour-scan.pdf") == shown


def test_a_character_nobody_plays_still_gets_an_envelope_with_a_warning(game, tmp_path):
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin Ash\n    character: Second Rival\n")
    report = pack(PackRequest(game, tmp_path / "out", (A4,), casting_file=casting, workers=1, duplex=False))
    assert [(e.number, e.label) for e in report.envelopes] == [(1, "Robin Ash"), (2, "First Rival")]
    assert any("nobody is cast as First Rival" in w.message for w in report.warnings)
    # One-sided: no blank pages, and a sheet of paper per page.
    for row in manifest(tmp_path / "out" / "pack" / "sixes" / "a4"):
        pages = PdfReader(tmp_path / "out" / "pack" / "sixes" / "a4" / row["file"]).pages
        assert not any(map(is_padding, pages))
        assert (int(row["pages"]), int(row["blank_pages"]), int(row["sheets"])) == (len(pages), 0, len(pages))


@pytest.mark.parametrize("body, expected", [
    ("envelopes:\n  - player: Robin\n    character: Secnod Rival\n",
     r"casting\.yaml:3:16: error: envelopes\[0\]\.character: no character called 'Secnod Rival'; "
     r"did you mean 'Second Rival'\?"),
    ("envelopes:\n  - player: Robin\n    character: First Rival\n  - player: Sam\n    character: first-rival\n",
     r"casting\.yaml:5:16: error: envelopes\[1\]\.character: 'first-rival' is already cast \(in envelope 1\)"),
    ("envelopes:\n  - player: Robin\n    charcter: First Rival\n",
     r"casting\.yaml:3:5: error: envelopes\[0\]\.charcter: unknown key 'charcter'; did you mean 'character'\?"),
    ("envelopes:\n  - player: Robin\n    character: First Rival\n    handouts: [/etc/hostname]\n",
     r"casting\.yaml:4:16: error: envelopes\[0\]\.handouts\[0\]: '/etc/hostname' is outside the game folder"),
])
def test_casting_mistakes_are_reported_where_they_are(game, tmp_path, body, expected):
    casting = tmp_path / "casting.yaml"
    casting.write_text(body)
    out = tmp_path / "out"
    with pytest.raises(DataError) as failure:
        pack(PackRequest(game, out, (A4,), casting_file=casting, workers=1))
    assert re.search(expected, "\n".join(str(p) for p in failure.value.problems)), failure.value.problems
    assert not (out / "pack").exists()


def test_a_handout_outside_the_game_folders_is_refused(game, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copy(game / "handouts" / "map.pdf", outside / "map.pdf")
    casting = tmp_path / "cast" / "casting.yaml"
    casting.parent.mkdir()
    casting.write_text("envelopes:\n  - player: Robin\n    character: First Rival\n"
                       f"    handouts: [{outside / 'map.pdf'}]\n")
    with pytest.raises(DataError, match="is outside the game folder"):
        pack(PackRequest(game, tmp_path / "out", (A4,), casting_file=casting, workers=1))


def test_the_pack_command_exit_codes(game, tmp_path):
    runner = CliRunner()
    bad = tmp_path / "casting.yaml"
    bad.write_text("envelopes:\n  - player: Robin\n    character: Nobody\n")
    result = runner.invoke(main, ["pack", "--data", str(game), "--out", str(tmp_path / "o"), "--casting", str(bad)])
    assert result.exit_code == 1 and "no character called 'Nobody'" in result.output
    result = runner.invoke(main, ["pack", "--data", str(game), "--paper", "a5"])
    assert result.exit_code == 2


# --- two-sided printing: every part starts on the front of a sheet ----------

def marked_pdf(path: Path, labels: list[str], landscape: bool = False) -> Path:
    """A PDF whose pages carry `labels`, so a test can tell them from padding."""
    from weasyprint import HTML
    size = "A4 landscape" if landscape else "A4"
    body = "".join(f'<p style="break-before: page">{label}</p>' for label in labels)
    HTML(string=f"<style>@page {{ size: {size} }}</style>{body}").write_pdf(path)
    return path


def is_padding(page) -> bool:
    """A page pack added: it has no content stream at all (every rendered or
    handed-out page here has one)."""
    return "/Contents" not in page


def page_labels(path: Path) -> list[str]:
    """Each page's text, '' for a padding blank."""
    return ["" if is_padding(p) else " ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages]


def test_merge_pads_odd_parts_except_the_last_and_keeps_pairs_together(tmp_path):
    one = marked_pdf(tmp_path / "one.pdf", ["A1"], landscape=True)
    pair = marked_pdf(tmp_path / "pair.pdf", ["B front", "B back"])
    three = marked_pdf(tmp_path / "three.pdf", ["C1", "C2", "C3"])
    last = marked_pdf(tmp_path / "last.pdf", ["D1"])
    pieces = [(one, Part("a", 0)), (pair, Part("b", 0)), (three, Part("c", 0)), (last, Part("d", 0))]

    contents = merge(pieces, tmp_path / "duplex.pdf", "t", duplex=True)
    # Worked by hand: A (1 p) + blank, B front/back (2 p), C (3 p) + blank, D (1 p, the last: no blank).
    assert page_labels(tmp_path / "duplex.pdf") == ["A1", "", "B front", "B back", "C1", "C2", "C3", "", "D1"]
    assert [(p.pages, p.blank) for p in contents] == [(1, 1), (2, 0), (3, 1), (1, 0)]
    pages = PdfReader(tmp_path / "duplex.pdf").pages
    # A blank is the size of the page it backs (the landscape one here).
    assert (round(pages[1].mediabox.width), round(pages[1].mediabox.height)) == (842, 595)
    assert (round(pages[7].mediabox.width), round(pages[7].mediabox.height)) == (595, 842)

    contents = merge(pieces, tmp_path / "simplex.pdf", "t", duplex=False)
    assert page_labels(tmp_path / "simplex.pdf") == ["A1", "B front", "B back", "C1", "C2", "C3", "D1"]
    assert all(p.blank == 0 for p in contents)


@pytest.fixture(scope="module")
def handout_game(game, tmp_path_factory) -> tuple[Path, Path]:
    """The game with a casting whose first envelope ends with a 3-page and a
    1-page handout (kept in the game folder, named relative to it)."""
    data = tmp_path_factory.mktemp("cast") / "data"
    shutil.copytree(game, data)
    (data / "sealed").mkdir()
    marked_pdf(data / "sealed" / "map.pdf", ["Map page 1", "Map page 2", "Map page 3"])
    marked_pdf(data / "sealed" / "note.pdf", ["Sealed note"])
    casting = data.parent / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                       "    handouts: [sealed/map.pdf, sealed/note.pdf]\n")
    return data, casting


def part_starts(labels: list[str]) -> list[int]:
    """Where the cover, the sheet, the rules reference and the handouts begin."""
    markers = ("In this envelope", "Your speed slots", "Sixes rules reference", "Map page 1", "Sealed note")
    return [next(i for i, text in enumerate(labels) if marker in text) for marker in markers]


def test_a_two_sided_envelope_starts_every_part_on_a_front(handout_game, tmp_path):
    data, casting = handout_game
    pack(PackRequest(data, tmp_path, (A4,), casting_file=casting, workers=1))
    duplex = page_labels(tmp_path / "pack" / "sixes" / "a4" / "envelopes" / "01-robin-ash.pdf")

    # The expected file, built from its printed pages alone: a blank after
    # each part with an odd page count, except the last part.
    printed = [label for label in duplex if label]
    starts = part_starts(printed)
    expected = []
    for k, start in enumerate(starts):
        part = printed[start:starts[k + 1] if k + 1 < len(starts) else None]
        expected += part + ([""] if len(part) % 2 and k + 1 < len(starts) else [])
    assert duplex == expected
    assert all(i % 2 == 0 for i in part_starts(duplex))    # each part on a front (0-based even)
    assert duplex[-3:] == ["Map page 3", "", "Sealed note"]

    row = manifest(tmp_path / "pack" / "sixes" / "a4")[0]
    assert (int(row["pages"]), int(row["blank_pages"]), int(row["sheets"])) == (
        len(duplex), duplex.count(""), -(-len(duplex) // 2))
    assert row["contents"].endswith("; Handout: Map (3 p); Handout: Note (1 p)")


def test_with_backs_the_card_run_alternates_fronts_and_backs(game, tmp_path):
    report = pack(PackRequest(game, tmp_path, (A4,), workers=1, options=PrintOptions(backs=True)))
    folder = report.out_dir / "pack" / "sixes" / "a4"
    labels = page_labels(folder / "card-run.pdf")
    # One sheet: its fronts, then its backs (rendered, not padding), printed two-sided.
    assert len(labels) == 2 and "Speed hand" in labels[0] and "Speed hand" not in labels[1]
    assert not any(map(is_padding, PdfReader(folder / "card-run.pdf").pages))
    assert (row_of(manifest(folder), "Cards")["pages"], row_of(manifest(folder), "Cards")["sheets"]) == ("2", "1")
    # No card page in an envelope, with or without backs.
    assert all(CARD_TEXT not in label for label in page_labels(folder / "envelopes" / "01-first-rival.pdf"))
    # With backs, the pack carries the calibration sheet to measure the printer's offset first.
    calibration = folder / "duplex-calibration.pdf"
    assert "calibration" in " ".join(page_labels(calibration)).lower()
    assert row_of(manifest(folder), "Calibration")["file"] == "duplex-calibration.pdf"


def test_the_manifest_pdf_counts_pages_and_sheets(uncast):
    folder = uncast.out_dir / "pack" / "sixes" / "a4"
    assert not (folder / "duplex-calibration.pdf").exists()      # no backs, nothing to calibrate
    rows = manifest(folder)
    for row in rows:
        pages = len(PdfReader(folder / row["file"]).pages)
        # Two-sided, except the card run without backs (one-sided: a card's reverse is another card).
        sheets = pages if row["envelope"] == "Cards" else -(-pages // 2)
        assert (int(row["pages"]), int(row["sheets"])) == (pages, sheets), row
    printed = text(folder / "manifest.pdf")
    assert "Pages Sheets" in printed
    # The total once, at the end.
    total = f"In all {sum(int(r['pages']) for r in rows)} {sum(int(r['sheets']) for r in rows)}"
    assert printed.count("In all") == 1 and total in printed


# --- every system's example game -----------------------------------------

def player_sheet_count(slug: str, data: Path) -> int:
    (item,) = [i for i in load_all(data)[0] if i.system.slug == slug]
    return sum(d.audience == "player" for d in item.system.documents(item.game))


@pytest.fixture(scope="module")
def example_pack(tmp_path_factory):
    """Packs a system's example game alone in a data folder through the
    command line (so the system is found, not named), once per module."""
    packed = {}

    def run(system: str):
        if system not in packed:
            root = tmp_path_factory.mktemp(system)
            shutil.copytree(DEFAULT_DATA_DIR / system, root / "data" / system)
            characters = player_sheet_count(system, root / "data")
            extra = [] if characters else ["--players", "3"]
            result = CliRunner().invoke(main, ["pack", "--data", str(root / "data"), "--out", str(root / "out"),
                                               "--paper", "a4", "--jobs", "1", *extra])
            packed[system] = (result, root / "out" / "pack" / system / "a4", characters)
        return packed[system]
    return run


@pytest.mark.parametrize("system", [s.slug for s in SYSTEMS])
def test_every_systems_example_game_packs(example_pack, system):
    result, folder, characters = example_pack(system)
    assert result.exit_code == 0, result.output
    assert len(list((folder / "envelopes").iterdir())) == (characters or 3)
    rows = manifest(folder)
    for row in rows:
        reader = PdfReader(folder / row["file"])
        pages = len(reader.pages)
        sheets = pages if row["envelope"] == "Cards" else -(-pages // 2)
        assert (int(row["pages"]), int(row["sheets"])) == (pages, sheets), row
        assert int(row["blank_pages"]) == sum(map(is_padding, reader.pages)), row
        assert not is_padding(reader.pages[-1]), row
    envelopes = envelope_rows(rows)
    for row in envelopes:   # every envelope starts with its cover
        assert row["contents"].startswith("cover (1 p)"), row
        assert "In this envelope" in " ".join(PdfReader(folder / row["file"]).pages[0].extract_text().split())
    if characters:
        # An envelope per character, its cover naming the character; the GM pack has the roster and every sheet.
        for row in envelopes:
            first_page = PdfReader(folder / row["file"]).pages[0].extract_text()
            assert row["character"] and row["character"] in " ".join(first_page.split()), row
        gm = row_of(rows, "GM")
        assert "roster (1 p)" in gm["contents"]
        word = next(s for s in SYSTEMS if s.slug == system).glossary["sheet"]     # the system's own word
        assert f"{characters} x {word}" in gm["contents"]
    else:
        # Identical envelopes, and no GM pack: these games have no GM-only documents.
        assert [r["file"] for r in envelopes] == [f"envelopes/0{n}-player-{n}.pdf" for n in (1, 2, 3)]
        assert len({r["contents"] for r in envelopes}) == 1
        assert "GM" not in [r["envelope"] for r in rows]
    assert f"Packed {characters or 3} " in result.output


def test_six_shooters_blank_operator_sheet_goes_to_the_gm_not_the_envelopes(example_pack):
    _, folder, _ = example_pack("six-shooter")
    rows = manifest(folder)
    assert all("blank Operator sheet" not in r["contents"] for r in envelope_rows(rows))
    assert "blank Operator sheet (1 p)" in row_of(rows, "GM")["contents"]


def test_six_shooters_covers_and_manifest_call_the_sheet_by_its_glossary_word(example_pack):
    """The envelope cover lists what goes in by the system's own word for the
    sheet (its glossary's `sheet`), and so does the manifest."""
    _, folder, _ = example_pack("six-shooter")
    word = system("six-shooter").glossary["sheet"]
    first = envelope_rows(manifest(folder))[0]
    cover = " ".join(PdfReader(folder / first["file"]).pages[0].extract_text().split())
    assert word in cover and word in first["contents"]
    assert system("six-shooter").glossary.misnamed(cover + " " + first["contents"]) == []


# --- choosing the system; mistakes write nothing ---------------------------

@pytest.fixture
def two_games(tmp_path) -> Path:
    data = tmp_path / "two"
    shutil.copytree(SIXES.starter, data / "sixes")
    shutil.copytree(D6XD6.starter, data / "d6xd6")
    return data


@pytest.mark.parametrize("args, message", [
    (["--system", "sixs"], "unknown game system 'sixs'; did you mean 'sixes'?"),
    (["--system", "i6"],
     "no I6 game in this folder (it holds: sixes, d6xd6); --system i6 needs a sub-folder named i6/"),
    ([], "this folder holds 2 games (sixes, d6xd6); which one should be packed?; "
         "pass --system sixes or --system d6xd6"),
    (["--system", "d6xd6"], "D6xD6 has no per-character sheets to pack; pass --players N for N "
                            "envelopes that each hold damage-ladder cards, weapon, armour and turn cards"),
    (["--system", "sixes", "--players", "4"], "--players is for games without character sheets; this Sixes "
                                              "game has 2 characters, one envelope each"),
])
def test_pack_mistakes_exit_1_and_write_nothing(two_games, tmp_path, args, message):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["pack", "--data", str(two_games), "--out", str(out), *args])
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert "Nothing was written" in result.output
    assert not out.exists()


def test_a_casting_file_for_a_game_without_characters_is_refused(two_games, tmp_path):
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin\n    character: Anyone\n")
    with pytest.raises(DataError, match="D6xD6 has no per-character sheets, so there is no one to cast"):
        pack(PackRequest(two_games, tmp_path / "out", (A4,), system="d6xd6", casting_file=casting, players=2))
    assert not (tmp_path / "out").exists()


def test_a_pack_after_a_build_reuses_its_documents(game, tmp_path, monkeypatch):
    """The organiser builds, then packs into the same output folder: every
    character sheet and GM document comes from the build cache (only the
    pack's own documents are new: the card run, the covers and the roster),
    and the pack is the same. Packing into another output folder renders
    nothing: the rendered PDFs are shared by every output folder."""
    from generator.commands.build import build
    from generator.commands.context import BuildConfig
    from generator.core.paper import A4
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    build(BuildConfig(game, out, (A4,), site=False, workers=1, cache=True))
    report = pack(PackRequest(game, out, (A4,), workers=1, cache=True))
    sheets = len(list((out / "pdf" / "a4" / "sixes" / "players").glob("*.pdf")))
    assert report.reused >= sheets + 2          # every sheet, the cheat sheet and the balance report
    assert sorted(label.rsplit("/", 1)[1] for label in report.rendered) == [
        "card-run.pdf", "covers.pdf", "roster.pdf"]
    fresh = pack(PackRequest(game, tmp_path / "fresh", (A4,), workers=1, cache=False))
    assert fresh.reused == 0
    assert manifest(out / "pack" / "sixes" / "a4") == manifest(tmp_path / "fresh" / "pack" / "sixes" / "a4")
    monkeypatch.setattr("generator.render.pdf.batch.render_pdf", lambda job: pytest.fail(f"rendered {job.label}"))
    elsewhere = pack(PackRequest(game, tmp_path / "elsewhere", (A4,), workers=1, cache=True))    # the manifest too
    assert elsewhere.rendered == [] and elsewhere.reused == report.reused + len(report.rendered)
    assert manifest(tmp_path / "elsewhere" / "pack" / "sixes" / "a4") == manifest(out / "pack" / "sixes" / "a4")


def test_each_rendered_part_is_read_once_per_paper_and_a_handout_once_per_file(game, tmp_path, monkeypatch):
    """Every envelope holds the same summaries: the merge reads each part
    this run rendered once for all of a paper's files, and a handout (the
    GM's file, maybe large) afresh for each file it goes into, keeping none."""
    from generator.render.pack.assembly import SourcePdfs
    reads: list[Path] = []
    read = SourcePdfs.read
    monkeypatch.setattr(SourcePdfs, "read", staticmethod(lambda path: reads.append(path) or read(path)))
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n"
                       "  - player: Robin Ash\n    character: Second Rival\n    handouts: [handouts/map.pdf]\n"
                       "  - player: Sam Dale\n    character: First Rival\n    handouts: [handouts/map.pdf]\n")
    pack(PackRequest(game, tmp_path / "out", (A4,), casting_file=casting, covers="half"))
    handouts = [path for path in reads if path.name == "map.pdf"]
    parts = [path for path in reads if path.name != "map.pdf"]
    assert len(parts) == len(set(parts)) > 3
    assert len(handouts) == 2


def test_packing_another_paper_or_game_keeps_the_packs_already_there(two_games, tmp_path):
    """An organiser packs A4 for home and Letter for a print shop, then a
    second game, into one output folder: each run replaces only its own."""
    out = tmp_path / "out"
    pack(PackRequest(two_games, out, (A4,), system="sixes", workers=1))
    a4 = out / "pack" / "sixes" / "a4" / "envelopes" / "01-first-rival.pdf"
    before = a4.read_bytes()
    pack(PackRequest(two_games, out, (LETTER,), system="sixes", workers=1))
    pack(PackRequest(two_games, out, (A4,), system="d6xd6", players=2, workers=1))
    assert a4.read_bytes() == before
    assert (out / "pack" / "sixes" / "letter" / "envelopes" / "01-first-rival.pdf").is_file()
    assert (out / "pack" / "d6xd6" / "a4" / "envelopes" / "02-player-2.pdf").is_file()
    assert sorted(p.name for p in (out / "pack" / "sixes").glob("*.zip")) == [
        "my-new-game-pack-a4.zip", "my-new-game-pack-letter.zip"]
    # The same game and paper again replaces its pack, zip included, and
    # an old title's zip of that paper goes with it.
    game = two_games / "sixes" / "game.yaml"
    game.write_text(re.sub(r"^title: .*$", "title: Renamed Game", game.read_text(), flags=re.M))
    report = pack(PackRequest(two_games, out, (A4,), system="sixes", workers=1))
    assert sorted(p.name for p in (out / "pack" / "sixes").glob("*.zip")) == [
        "my-new-game-pack-letter.zip", "renamed-game-pack-a4.zip"]
    assert report.zips == [out / "pack" / "sixes" / "renamed-game-pack-a4.zip"]
    assert report.files and all(p.is_relative_to(out / "pack" / "sixes" / "a4") for p in report.files)
    metadata = PdfReader(a4).metadata
    assert metadata is not None and (metadata.title or "").startswith("Renamed Game")
    assert not list(out.glob(".sixes-pack-*"))
