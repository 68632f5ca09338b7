"""The packet's things (items, ability cards, money, sealed inserts, badges):
every mistake refused by the gather or `check` at file:line:col, all at once;
purses made with the fewest notes (against a brute-force oracle); and the
pack plan putting each card into its envelope's set of the card run and
counting it on the cover, without naming it."""
from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.gather import gather
from generator.game.pack_plan import PackChoices, plan_pack
from generator.game.packet_stuff import fewest_notes
from generator.game.settings import load_settings
from generator.render.fit.boxes import BADGE_STOCK
from generator.render.fit.packet_fit import packet_fit_problems
from generator.render.pdf.cards import grid_for
from test_packet_checks import line_of, packet_of, problems_of, shown, write


@pytest.fixture
def game(tmp_path) -> Path:
    target = tmp_path / "wreck"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", target / "sixes")
    shutil.copy(DEFAULT_DATA_DIR / "packet.yaml", target / "packet.yaml")
    (target / "sixes.yaml").write_text("paper: a4\n")
    return target


def test_every_mistake_with_the_things_is_reported_at_its_place_at_once(game):
    data = packet_of(game)
    sixes = data["sixes"]
    sixes["items"][1]["number"] = 1                                     # a number given twice
    sixes["items"][2].pop("holder")                                     # no holder
    sixes["items"][4]["place"] = "the vestry"                           # a holder and a place
    sixes["items"].append({"number": 9, "name": "A rope", "holder": "ned-tregath"})     # misspelt holder
    sixes["abilities"][0]["groups"] = ["The Islands"]                   # no such group
    sixes["money"] = {"currency": "crowns", "notes": [5, 20], "purses": {"kit-penhale": 7, "ned-tregarth": 25,
                                                                       "sally-brea": 100_000}}     # 5000 notes
    sixes["sealed"][0]["items"] = [6, 42]                               # no item 42
    write(game, data)
    found = shown(problems_of(game))
    text = "\n".join(found)
    assert f"(first on line {line_of(game, 'number: 1')})" in text
    expected = [
        ("item number 1 is given twice (first on line", None),
        ("item 3 (A bottle of laudanum) has no holder", None),
        ("item 5 (Jory's letter) has two holders: tamsin-penhale and the place 'the vestry'", "place: the vestry"),
        ("no character with the id 'ned-tregath'", "ned-tregath"),
        ("no group called 'The Islands'", "The Islands"),
        ("7 crowns cannot be made up with notes of 20, 5", "kit-penhale: 7"),
        ("no item numbered 42", None),
        ("this purse takes 5000 notes, and each is a card to print and stuff", "sally-brea: 100000"),
    ]
    for message, line_text in expected:
        hit = [p for p in found if message in p]
        assert hit, (message, found)
        if line_text is not None:
            assert hit[0].startswith(f"wreck/packet.yaml:{line_of(game, line_text)}:"), hit[0]
    assert len(found) == len(expected), found
    assert "ned-tregarth" in next(p for p in found if "ned-tregath" in p)          # did you mean
    assert "The Island" in next(p for p in found if "The Islands" in p)


def test_a_sealed_insert_cannot_hold_someone_elses_item_or_nothing(game):
    data = packet_of(game)
    sixes = data["sixes"]
    sixes["sealed"][0]["items"] = [3]                                   # Honoria's laudanum, in Jacca's insert
    sixes["sealed"].append({"holder": "kit-penhale", "trigger": "Open at dawn."})
    write(game, data)
    found = shown(problems_of(game))
    assert any("item 3 (A bottle of laudanum) starts with honoria-vane, not with this insert's holder" in p
               for p in found)
    assert any(p.startswith(f"wreck/packet.yaml:{line_of(game, 'Open at dawn.') - 1}:") and
               "this sealed insert has nothing inside" in p for p in found), found
    assert len(found) == 2


def test_a_card_text_or_a_badge_name_that_will_not_fit_is_refused_by_check(game):
    data = packet_of(game)
    sixes = data["sixes"]
    sixes["items"][0]["text"] = " ".join(["A very long description of an iron-bound box"] * 30)
    write(game, data)
    quick = game / "sixes" / "characters" / "absalom-quick.yaml"
    quick.write_text(quick.read_text().replace("name: Absalom Quick", "name: " + "Absalom Bartholomew " * 4 + "Quick"))
    from generator.commands.cli import main
    result = CliRunner().invoke(main, ["check", "--data", str(game)])
    assert result.exit_code == 1, result.output
    line = line_of(game, "A very long description")
    assert f"wreck/packet.yaml:{line}:" in result.output and "too long for item 1's card" in result.output
    named = line_of(game, "name: Absalom Bartholomew", "sixes/characters/absalom-quick.yaml")
    assert f"wreck/sixes/characters/absalom-quick.yaml:{named}:" in result.output, result.output
    assert "too long for the name on a name badge" in result.output


def test_the_example_packet_fits_its_boxes():
    gathered = gather(DEFAULT_DATA_DIR, load_settings(DEFAULT_DATA_DIR), (A4,), site=False)
    assert packet_fit_problems(gathered.packets.values()) == []


def bf_fewest(amount: int, notes: tuple[int, ...]) -> int | None:
    """Brute force: the fewest notes summing to `amount`, trying every count of each."""
    best = None
    ranges = [range(amount // n + 1) for n in notes]
    for counts in itertools.product(*ranges):
        if sum(c * n for c, n in zip(counts, notes, strict=True)) == amount:
            best = sum(counts) if best is None else min(best, sum(counts))
    return best


@pytest.mark.parametrize("notes", [(1, 5, 20), (1, 3, 4), (5, 20), (2, 7)])
def test_a_purse_is_made_with_the_fewest_notes(notes):
    ordered = tuple(sorted(notes, reverse=True))
    for amount in range(0, 45):
        made = fewest_notes(amount, ordered)
        oracle = bf_fewest(amount, ordered)
        if oracle is None:
            assert made is None, amount
        else:
            assert made is not None and sum(c for _n, c in made) == oracle, (amount, made)
            assert sum(n * c for n, c in made) == amount


def plan(data: Path = DEFAULT_DATA_DIR):
    gathered = gather(data, load_settings(data, data.parent), (A4,), site=False, pack=True, system="sixes")
    return gathered, plan_pack(gathered, PackChoices((A4,)), grid_for("poker", False), None,
                               lambda paper: BADGE_STOCK[paper.name].per_sheet)


def test_each_envelope_gets_its_own_cards_in_the_card_run_beside_the_hand_signals():
    gathered, packed = plan()
    stuff = gathered.packets["sixes"].stuff
    run = packed.run
    assert run is not None and len(run.documents) >= 2          # the decks, then the packet's own cards
    decks, own = run.documents[:-1], run.documents[-1]
    labels = [c.label for c in own.cards]
    for envelope in packed.envelopes:
        who = envelope.sheet.slug
        items = [f"Item {i.number}" for i in stuff.items_of(who)]
        notes = sum(c for _n, c in stuff.purses[who].bills) if who in stuff.purses else 0
        assert run.own_cards[envelope.number] == len(items) + len(stuff.abilities_of(who)) + notes
        for label in items:
            assert label in labels
    assert all(c.front != "packet/cards/item.html" for d in decks for c in d.cards)
    assert not any("holder" in c.context or "gm_notes" in c.context for c in own.cards)     # a card names no owner
    # Item 6 is sealed in Jacca's insert: inside it, not in the card run.
    assert "Item 6" not in labels and "Item 4" not in labels        # item 4 starts in a place
    assert len(own.cards) == sum(run.own_cards.values())


def test_covers_count_the_things_and_name_none():
    gathered, packed = plan()
    pages = {p["envelope"].character: p for p in packed.covers.context["pages"]}
    jacca = " | ".join(pages["Jacca Rowe"]["inside"])
    assert "1 sealed envelope" in jacca and "Money: 4 shillings in 4 notes" in jacca and "Name badge" in jacca
    honoria = " | ".join(pages["Honoria Vane"]["inside"])
    assert "1 item card" in honoria and "Money: 60 shillings in 3 notes" in honoria
    everything = str([p["inside"] for p in pages.values()])
    for secret in ("laudanum", "chapel bell", "strongbox", "Mrs Carrow's hand"):
        assert secret not in everything
    index = next(d for d in packed.gm_order if d.slug == "packet--items-and-triggers")
    totals = index.context["totals"]
    assert totals["sealed"] == 2 and totals["badges"] == 16 and totals["items"] == 4
    assert totals["money"] == sum(p.amount for p in gathered.packets["sixes"].stuff.purses.values())
    assert set(packed.badge_docs) == {A4} and packed.badge_docs[A4].max_pages == 2


def test_a_note_or_a_purse_of_exactly_one_takes_the_singular_name(game):
    """`one:` names an amount of exactly 1 (a 1-shilling note, a purse of 1)
    on the notes, the covers and the owner's page; any other amount keeps
    the currency's name, and without `one:` every amount does."""
    data = packet_of(game)
    data["sixes"]["money"]["purses"]["kit-penhale"] = 1
    write(game, data)
    gathered, packed = plan(game)
    stuff = gathered.packets["sixes"].stuff
    cards = packed.run.documents[-1].cards
    notes = {c.context["value"]: c.context["currency"] for c in cards if c.context.get("kind") == "note"}
    assert notes == {1: "shilling", 5: "shillings", 20: "shillings"}
    pages = {p["envelope"].character: p for p in packed.covers.context["pages"]}
    assert "Money: 1 shilling in 1 note" in pages["Kit Penhale"]["inside"]
    assert "Money: 4 shillings in 4 notes" in pages["Jacca Rowe"]["inside"]
    assert stuff.money_name(1) == "shilling" and stuff.money_name(2) == "shillings"
    del data["sixes"]["money"]["one"]
    write(game, data)
    assert gather(game, load_settings(game, game.parent), site=False).packets["sixes"].stuff.money_name(1) == \
        "shillings"


def test_a_purse_may_be_given_as_its_notes(game):
    data = packet_of(game)
    purses = data["sixes"]["money"]["purses"]
    purses["ned-tregarth"] = {5: 2}                         # as the data says, not the fewest (10 would be 2 x 5)
    purses["kit-penhale"] = {3: 1}                          # not one of the notes
    write(game, data)
    found = shown(problems_of(game))
    assert len(found) == 1 and found[0].startswith(f"wreck/packet.yaml:{line_of(game, '3: 1')}:") and \
        "3 is not one of the game's notes" in found[0], found
    purses["kit-penhale"] = 6
    write(game, data)
    gathered = gather(game, load_settings(game, game.parent), site=False)
    purse = gathered.packets["sixes"].stuff.purses["ned-tregarth"]
    assert purse.amount == 10 and purse.bills == ((5, 2),)


def test_the_pack_chooses_the_form_of_a_sealed_insert_the_data_leaves_open():
    gathered, _packed = plan()
    forms = {}
    for chosen in (None, "fold"):
        packed = plan_pack(gathered, PackChoices((A4,), sealed_form=chosen), grid_for("poker", False))
        forms[chosen] = {d.slug: d.context["form"] for e in packed.envelopes for d in e.extra
                         if d.slug.startswith("sealed--")}
    assert forms[None] == {"sealed--1": "insert", "sealed--2": "fold"}     # the second's data says fold
    assert forms["fold"] == {"sealed--1": "fold", "sealed--2": "fold"}
