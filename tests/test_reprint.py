"""`sixes pack --since`, worked out from the records: what each pack's record
holds and what two records make the GM reprint, on the example game. No PDF
is rendered here (a record is the parts' HTML, game/pack_record.py); the
real packs and the reprint's files are in tests/test_reprint_pack.py."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.commands.pack import PackRequest, gather_for, plan_for, record_for
from generator.core.errors import DataError
from generator.core.paper import A4, LETTER
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.pack_history import read_record
from generator.game.pack_record import RECORD_FILE, checksum, record_text
from generator.game.reprint import reprint_of, step_lines

CHARACTERS = DEFAULT_DATA_DIR / "sixes" / "characters"


def example(folder: Path) -> Path:
    """A copy of the example game folder, to change."""
    shutil.copytree(DEFAULT_DATA_DIR, folder, ignore=shutil.ignore_patterns("out", "output"))
    return folder


def casting(path: Path, swap: bool = False, without: str | None = None) -> Path:
    """Everyone cast in file order, players A, B, C...; `swap`: the first two players change characters."""
    players = [f"Player {chr(65 + k)}" for k in range(16)]
    if swap:
        players[0], players[1] = players[1], players[0]
    names = [p.stem.replace("-", " ").title() for p in sorted(CHARACTERS.glob("*.yaml"))]
    lines = ["envelopes:"] + [f"  - player: {player}\n    character: {name}"
                              for player, name in zip(players, names, strict=True) if name != without]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def planned(game: Path, out: Path, cast: Path | None = None, paper=A4, labels: bool = True, covers: str = "full"):
    """The plan `sixes pack` would render, and its record as the record's file holds it."""
    request = PackRequest(game, out, (paper,), system="sixes", casting_file=cast, labels=labels,
                          find_casting_file=False, covers=covers)  # type: ignore[arg-type]
    config = request.config()
    plan = plan_for(config, request, gather_for(config, request))
    return plan, json.loads(record_text(record_for(plan, paper, config)))


def record(game: Path, out: Path, cast: Path | None = None, paper=A4, labels: bool = True) -> dict:
    """The record `sixes pack` would write, planned but not rendered."""
    return planned(game, out, cast, paper, labels)[1]


def printed(reprint) -> list[tuple[int | None, str]]:
    return sorted((step.number, change.kind) for step, change in reprint.printed())


@pytest.fixture(scope="module")
def before(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("reprint")
    return record(DEFAULT_DATA_DIR, folder / "out", casting(folder / "casting.yaml"))


def test_the_same_game_packed_again_reprints_nothing_whatever_the_date_or_folder(before, tmp_path, monkeypatch):
    """A new commit or date (SOURCE_DATE_EPOCH) and a game folder moved elsewhere change no fingerprint."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")
    moved = example(tmp_path / "elsewhere")
    again = record(moved, tmp_path / "out", casting(tmp_path / "casting.yaml"))
    assert again == before
    assert reprint_of(before, again).nothing


def test_one_word_in_one_background_reprints_that_sheet_only(before, tmp_path):
    game = example(tmp_path / "game")
    sheet = game / "sixes" / "characters" / "absalom-quick.yaml"
    text = sheet.read_text(encoding="utf-8")
    assert "You are not brave" in text
    sheet.write_text(text.replace("You are not brave", "You are not bold"), encoding="utf-8")
    reprint = reprint_of(before, record(game, tmp_path / "out", casting(tmp_path / "casting.yaml")))
    assert printed(reprint) == [(1, "sheet")]
    assert step_lines(reprint.steps[0]) == ["Replace character sheet: changed: background"]


def test_two_players_swapping_reprint_their_covers_labels_name_stamps_and_badges_not_their_sheets(before, tmp_path):
    """The example's badges print the player (packet.yaml badges.player), so they change too."""
    reprint = reprint_of(before, record(DEFAULT_DATA_DIR, tmp_path / "out", casting(tmp_path / "c.yaml", swap=True)))
    assert printed(reprint) == [(n, kind) for n in (1, 2) for kind in sorted(("badge", "cover", "label", "stamp"))]
    first = step_lines(reprint.steps[0])
    assert "Replace cover: changed: player, file name" in first
    assert not any(c.old is False for _s, c in reprint.printed())      # each replaces a copy in the envelope


def test_a_character_cut_from_the_game_is_one_envelope_to_set_aside(before, tmp_path):
    game = example(tmp_path / "game")
    (game / "sixes" / "characters" / "sally-brea.yaml").unlink()
    packet = game / "packet.yaml"
    text = re.sub(r"    - between: \[sally-brea, jacca-rowe\]\n(      .*\n)+", "", packet.read_text(encoding="utf-8"))
    packet.write_text("".join(line for line in text.splitlines(keepends=True) if "sally-brea:" not in line),
                      encoding="utf-8")
    after = record(game, tmp_path / "out", casting(tmp_path / "casting.yaml", without="Sally Brea"))
    reprint = reprint_of(before, after)
    aside = [s for s in reprint.steps if s.number is None]
    assert [(s.was, s.character) for s in aside] == [(13, "Sally Brea")]
    assert step_lines(aside[0]) == ["Set envelope 13 aside: Sally Brea (Player M) is no longer in the game."]
    moved = [s for s in reprint.steps if s.number is not None and s.was != s.number]
    assert [(s.was, s.number) for s in moved] == [(14, 13), (15, 14), (16, 15)]
    for step in moved:      # its number is on the cover, the label and the name stamp; not on the sheet
        assert {c.kind for c in step.printed} <= {"cover", "label", "stamp", "page", "badge"}, step
        assert f"moved from envelope {step.was} to envelope {step.number}" in " ".join(step_lines(step))
    kept = [c for s in reprint.steps for c in s.changes if c.action == "keep"]
    assert kept and all(c.why == "only the count of envelopes differs: keep it" for c in kept)


def test_an_item_given_to_another_character_moves_its_card(before, tmp_path):
    game = example(tmp_path / "game")
    packet = game / "packet.yaml"
    text = packet.read_text(encoding="utf-8")
    assert text.count("      holder: absalom-quick\n") == 1
    packet.write_text(text.replace("      holder: absalom-quick\n", "      holder: honoria-vane\n"), encoding="utf-8")
    plan, after = planned(game, tmp_path / "out", casting(tmp_path / "casting.yaml"))
    reprint = reprint_of(before, after)
    from generator.render.pack.reprint import reprint_documents
    (cards,) = reprint_documents(plan, reprint, A4, 8).cards         # the one card to print, on a sheet of its own
    assert [c.context["name"] for c in cards.cards] == ["The marriage settlement"]
    quick, vane = reprint.steps[0], reprint.steps[3]
    gone = [c for c in quick.changes if c.kind == "card"]
    given = [c for c in vane.changes if c.kind == "card"]
    assert [(c.title, c.action) for c in gone] == [("item card", "remove")]
    assert [(c.title, c.action) for c in given] == [("item card", "print")] and gone[0].ident == given[0].ident
    assert "Take out and throw away: item card." in step_lines(quick)
    assert "Put in item card: new in this envelope" in step_lines(vane)


# --- records refused -----------------------------------------------------------------

def written(path: Path, record: dict) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def refused(path: Path, system: str = "sixes", title: str = "Low Water at Saint Brannoc's", paper: str = "a4") -> str:
    with pytest.raises(DataError) as caught:
        read_record(path, str(path), system, title, paper)
    assert len(caught.value.problems) == 1
    problem = caught.value.problems[0]
    assert problem.file == str(path) and problem.hint
    return f"{problem.message} | {problem.hint}"


def test_a_record_edited_by_hand_is_refused(before, tmp_path):
    edited = json.loads(json.dumps(before))
    edited["envelopes"][0]["parts"][1]["print"] = "0" * 16
    assert "checksum does not match" in refused(written(tmp_path / RECORD_FILE, edited))
    assert read_record(written(tmp_path / "good.json", before), "good.json", "sixes",
                       "Low Water at Saint Brannoc's", "a4") == before


def test_a_record_of_another_game_or_paper_is_refused(before, tmp_path):
    other = json.loads(json.dumps(before))
    other["game"] = {"system": "six-shooter", "title": "Another Heist"}
    other["checksum"] = checksum(other)
    message = refused(written(tmp_path / "game.json", other))
    assert message.startswith("a record of another game: 'Another Heist' (six-shooter); this pack is "
                              "'Low Water at Saint Brannoc's' (sixes)")
    assert "--since a pack of" in message
    message = refused(written(tmp_path / "paper.json", before), paper="letter")
    assert message == ("a record of the a4 pack; this pack is on letter | pass --since the letter pack "
                       "(pack/sixes/letter/), or --paper a4")


@pytest.mark.parametrize("content, found", [
    (b"{not json", "not a pack record: Expecting property name"),
    (b"[1, 2]", "not a pack record: format 'list'"),
    (b"\xff\xfe", "not JSON text"),
    (b"[" * 100000 + b"]" * 100000, "not JSON text"),
])
def test_what_is_no_record_is_refused_as_data(tmp_path, content, found):
    path = tmp_path / RECORD_FILE
    path.write_bytes(content)
    assert found in refused(path)


def test_a_broken_part_is_refused_even_with_its_checksum(before, tmp_path):
    broken = json.loads(json.dumps(before))
    broken["envelopes"][0]["parts"][0]["kind"] = "poster"
    broken["checksum"] = checksum(broken)
    assert "envelopes[0].parts[0] is not a part a pack records" in refused(written(tmp_path / "r.json", broken))


def test_the_command_refuses_a_record_of_another_paper_with_exit_1_and_writes_nothing(before, tmp_path):
    out = tmp_path / "out"
    record_file = written(tmp_path / RECORD_FILE, before)
    result = CliRunner().invoke(main, ["pack", "--data", str(DEFAULT_DATA_DIR), "--system", "sixes", "--out", str(out),
                                       "--paper", "letter", "--since", str(record_file), "--dry-run"])
    assert result.exit_code == 1, result.output
    assert "a record of the a4 pack; this pack is on letter" in result.output
    assert not (out / "pack").exists()
    result = CliRunner().invoke(main, ["pack", "--data", str(DEFAULT_DATA_DIR), "--out", str(out), "--dry-run"])
    assert result.exit_code == 2 and "pass --since too" in result.output


def test_letter_and_a4_records_differ_only_in_their_paper_and_labels(before, tmp_path):
    letter = record(DEFAULT_DATA_DIR, tmp_path / "out", casting(tmp_path / "casting.yaml"), paper=LETTER)
    assert letter["paper"] == "letter"
    same = {k: v for k, v in letter.items() if k not in ("paper", "checksum")}
    assert same == {k: v for k, v in before.items() if k not in ("paper", "checksum")}


def test_a_swap_reprints_half_covers_on_one_sheet_and_labels_from_the_first_place(before, tmp_path):
    """The reprint's own documents (render/pack/reprint.py), made from the plan: only the changed envelopes'."""
    from generator.render.pack.reprint import reprint_documents
    plan, after = planned(DEFAULT_DATA_DIR, tmp_path / "out", casting(tmp_path / "c.yaml", swap=True), covers="half")
    reprint = reprint_of(before, after)
    docs = reprint_documents(plan, reprint, A4, 8)
    covers, labels, stamps, badges = docs.covers, docs.labels, docs.stamps, docs.badges
    assert covers is not None and labels is not None and stamps is not None and badges is not None
    assert [p["envelope"].number for p in covers.context["pages"]] == [1, 2]
    assert covers.max_pages == 1 and len(covers.context["sheets"]) == 1       # two halves, one sheet
    placed = labels.context["sheets"]
    assert [(e.number, e.label) for sheet in placed for e, _x, _y in sheet] == [(1, "Player B"), (2, "Player A")]
    assert [(x, y) for e, x, y in placed[0]] == [(7.25, 15.15), (7.25 + 63.5 + 2.5, 15.15)]
    assert [e.number for e in stamps.context["envelopes"]] == [1, 2]
    assert [b["player"] for sheet in badges.context["sheets"] for b in sheet] == ["Player B", "Player A"]
    assert docs.cards == [] and docs.whole == {}
