"""The packet's secrets read back from every paper they could reach.

The example Sixes game is packed once with a marker word planted in every
text of packet.yaml that is not public. Which texts those are comes from
the models (core/audience.secret_fields over packet_models), so a secret
field added tomorrow is planted and looked for too. Each marker is then
read back (pypdf's text) from every envelope, cover, the GM pack, the
manifest, the labels, the roster, and from every file a build writes (the
site and its search index, the tracker, the PDFs): found exactly where its
audience is, nowhere else. A secret group's name, public text of its own,
follows its membership: its members' envelopes (not their covers) and the
GM pack only.
"""
from __future__ import annotations

import html
import shutil
from typing import Any, get_args

import pytest
import yaml
from pydantic import BaseModel

from generator.core.audience import secret_fields
from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.commands.pack import PackRequest, pack
from generator.game.packet_models import PacketGame
from pdf_text import page_texts, text

SECRET_GROUP = "Qxsecretgroup"


def _model_of(annotation: Any) -> Any:
    """The model a field of PacketGame holds: list[Group] -> Group, Money | None -> Money."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return next((m for m in map(_model_of, get_args(annotation)) if m is not None), None)


def _entries(section: dict, kind: str) -> list[tuple[int, dict]]:
    """A section's entries of one kind: a list's, or the one mapping (money, badges) as index 0."""
    value = section.get(kind)
    if isinstance(value, list):
        return list(enumerate(value))
    return [(0, value)] if isinstance(value, dict) else []


def plant(section: dict) -> dict[str, tuple[str, object]]:
    """A marker in every secret text of one game's section: marker ->
    (who reads it, the entry it belongs to, by kind and index, or its key).
    The fields come from the models (every entry of every kind PacketGame
    holds), so a secret field added tomorrow is planted too."""
    planted: dict[str, tuple[str, object]] = {}
    for kind, field in PacketGame.model_fields.items():
        model = _model_of(field.annotation)
        for i, entry in _entries(section, kind):
            for name, (reader, keyed) in secret_fields(model).items():
                if keyed:
                    for key in list(entry.get(name, {})):
                        marker = f"Qx{kind[:3]}{i}{name[:3]}{key.replace('-', '')}"
                        entry[name][key] = f"{marker} {entry[name][key]}"
                        planted[marker] = (reader, key)
                elif name in entry or model.model_fields[name].is_required() or kind in ("groups", "plots"):
                    marker = f"Qx{kind[:3]}{i}{name[:3]}"
                    entry[name] = f"{marker} {entry.get(name, '')}".strip()
                    planted[marker] = (reader, (kind, i))
    return planted


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    data = tmp_path_factory.mktemp("packet-privacy") / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", data / "sixes")
    (data / "sixes.yaml").write_text("paper: a4\nsite:\n  cast_list: true\n")
    packet = yaml.safe_load((DEFAULT_DATA_DIR / "packet.yaml").read_text())
    sixes = packet["sixes"]
    secret = next(g for g in sixes["groups"] if g.get("membership") == "secret")
    secret["name"] = f"The {SECRET_GROUP}"
    planted = plant(sixes)
    for i, group in enumerate(sixes["groups"]):     # a GM-only group has no members' sheet (check refuses one)
        if group.get("membership") == "gm-only":
            del group["sheet"]
            planted = {m: r for m, r in planted.items() if r != ("members", ("groups", i))}
    (data / "packet.yaml").write_text(yaml.safe_dump(packet, sort_keys=False, allow_unicode=True))
    report = pack(PackRequest(data, tmp_path_factory.mktemp("out"), (A4,), workers=1))
    return data, sixes, planted, report


@pytest.fixture(scope="module")
def built(packed, tmp_path_factory):
    """The same game built: its PDFs, its site with the cast list, its tracker."""
    from generator.commands.build import build
    from generator.commands.context import BuildConfig
    from generator.game.settings import load_settings
    data = packed[0]
    settings = load_settings(data)
    out = tmp_path_factory.mktemp("built")
    build(BuildConfig(data, out, (A4,), settings=settings, workers=1))
    return out


def holders_of(sixes: dict, kind: str, index: int, report) -> set[str]:
    """The envelopes (by character name) that start with an item, an ability or a sealed insert."""
    names = {e.sheet.slug: e.character for e in report.envelopes if e.sheet is not None}
    entry = sixes[kind][index]
    if kind == "abilities":
        groups = set(entry.get("groups", []))
        members = {m for g in sixes["groups"] if g["name"] in groups for m in g.get("members", [])}
        return {names[m] for m in {*entry.get("holders", []), *members}} | \
            {e.character for e in report.envelopes if e.faction in groups}
    return {names[entry["holder"]]} if entry.get("holder") else set()


def readers_of(sixes: dict, reader: str, owner: Any, report) -> tuple[str, set[str]]:
    """Who a text may reach: its audience (an item sealed in an insert is
    `sealed`), and the envelopes (by character name) it may reach."""
    names = {e.sheet.slug: e.character for e in report.envelopes if e.sheet is not None}
    if reader == "gm":
        return reader, set()
    if reader == "owner":
        return reader, {names[str(owner)]}
    kind, index = owner
    if reader in ("holder", "sealed"):
        sealed_items = {n for s in sixes.get("sealed", []) for n in s.get("items", [])}
        if kind == "items" and sixes["items"][index]["number"] in sealed_items:
            reader = "sealed"
        return reader, holders_of(sixes, kind, index, report)
    group = sixes[kind][index]
    listed = {names[m] for m in group.get("members", [])}
    return reader, listed | {e.character for e in report.envelopes if e.faction == group["name"]}    # a faction's


def card_run_pages(folder, report) -> dict[str, list[str]]:
    """Each envelope's pages of the card run (by character name): the sheets its set is on."""
    pages = page_texts(folder / "card-run.pdf")
    per_sheet = len(pages) // report.card_run.sheets
    found = {}
    for envelope in report.envelopes:
        ranges = report.card_run.ranges_of.get(envelope.number, ())
        found[envelope.character] = [page for first, last in ranges
                                     for page in pages[(first - 1) * per_sheet:last * per_sheet]]
    return found


def test_every_secret_text_reaches_exactly_its_readers_and_the_gm(packed):
    data, sixes, planted, report = packed
    assert len(planted) > 80          # every side, snippet, sheet, note, card text, trigger and inside of the example
    folder = report.root / "a4"
    envelopes = {e.character: folder / "envelopes" / f"{e.stem}.pdf" for e in report.envelopes}
    bodies = {who: " ".join(page_texts(path)[1:]) for who, path in envelopes.items()}    # after the cover
    covers = {who: page_texts(path)[0] for who, path in envelopes.items()}
    gm = text(folder / "gm-pack.pdf")
    run = text(folder / "card-run.pdf")
    elsewhere = " ".join(text(p) for p in folder.glob("*.pdf") if p.name not in ("gm-pack.pdf", "card-run.pdf"))
    elsewhere += (folder / "manifest.csv").read_text(encoding="utf-8")
    elsewhere += (folder / "pack-record.json").read_text(encoding="utf-8")     # its titles, names and hashes
    cards = card_run_pages(folder, report)
    for marker, (reader, owner) in planted.items():
        reader, expected = readers_of(sixes, reader, owner, report)
        found = {who for who, body in bodies.items() if marker in body}
        on_cards = {who for who, pages in cards.items() if any(marker in page for page in pages)}
        if reader == "holder":       # on a card of the card run, or the holder's own pages: theirs only
            assert found <= expected and on_cards <= expected | _sharing(cards, on_cards, expected), (marker, owner)
            assert found | on_cards or not expected, (marker, owner)     # a place's item: the GM's only
        elif reader == "sealed":     # inside its insert in the holder's envelope, and the GM's
            assert found == expected, (marker, owner)
            assert marker not in run, marker
        else:
            assert found == expected, (marker, reader, owner)
            assert marker not in run, marker
        assert marker in gm, marker
        assert not any(marker in cover for cover in covers.values()), marker
        assert marker not in elsewhere, marker


def _sharing(cards: dict[str, list[str]], on_cards: set[str], expected: set[str]) -> set[str]:
    """Envelopes whose card-run sheets are the same pages as an expected envelope's (a sheet holds several sets)."""
    shared = {page for who in expected for page in cards[who]}
    return {who for who in on_cards if set(cards[who]) & shared}


def test_a_sealed_inside_is_found_only_inside_its_insert(packed):
    """Each sealed insert's inside (its text, the cards sealed in it) is on
    the pages after its outside in its holder's envelope, never on the
    outside page that carries the trigger, nor on any other page of any file."""
    data, sixes, planted, report = packed
    folder = report.root / "a4"
    inside = {m: owner for m, (reader, owner) in planted.items()
              if readers_of(sixes, reader, owner, report)[0] == "sealed"}
    assert len(inside) >= 4             # the two insides, and the name and text of the item sealed in one
    triggers = {owner[1]: m for m, (reader, owner) in planted.items()
                if isinstance(owner, tuple) and owner[0] == "sealed" and m.startswith("Qxsea") and m.endswith("tri")}
    for envelope in report.envelopes:
        pages = page_texts(folder / "envelopes" / f"{envelope.stem}.pdf")
        for marker in inside:
            at = [k for k, page in enumerate(pages) if marker in page]
            for k in at:
                outside = [m for m in triggers.values() if m in pages[k]]
                assert not outside, (marker, envelope.character, k)             # never beside a trigger
                assert any(m in " ".join(pages[:k]) for m in triggers.values()), (marker, k)   # after an outside
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix in (".pdf", ".csv") and path.name != "gm-pack.pdf" and \
                "envelopes" not in path.parts:
            body = text(path) if path.suffix == ".pdf" else path.read_text(encoding="utf-8")
            assert not [m for m in inside if m in body], path.name


def test_a_secret_group_is_named_only_to_its_members_and_the_gm(packed):
    data, sixes, planted, report = packed
    group = next(g for g in sixes["groups"] if g["name"] == f"The {SECRET_GROUP}")
    folder = report.root / "a4"
    names = {e.sheet.slug: e.character for e in report.envelopes if e.sheet is not None}
    members = {names[m] for m in group["members"]}
    for envelope in report.envelopes:
        pages = page_texts(folder / "envelopes" / f"{envelope.stem}.pdf")
        assert SECRET_GROUP not in pages[0]                              # its cover: "a secret group"
        assert (SECRET_GROUP in " ".join(pages[1:])) == (envelope.character in members), envelope.character
    assert SECRET_GROUP in text(folder / "gm-pack.pdf")
    record = (folder / "pack-record.json").read_text(encoding="utf-8")
    assert SECRET_GROUP.lower() not in record.lower()        # not even in a slug: the record may go to the print shop
    for path in folder.glob("*"):
        if path.is_file() and path.name != "gm-pack.pdf" and path.suffix in (".pdf", ".csv"):
            assert SECRET_GROUP not in (text(path) if path.suffix == ".pdf" else path.read_text()), path.name


def test_no_secret_of_the_packet_reaches_the_site_the_tracker_or_a_built_pdf(packed, built):
    _data, sixes, planted, _report = packed
    words = [*planted, SECRET_GROUP]
    read = 0
    for path in sorted(built.rglob("*")):
        if not path.is_file() or path.name == ".sixes-press.json":
            continue
        body = text(path) if path.suffix == ".pdf" else html.unescape(path.read_bytes().decode("utf-8", "replace"))
        leaked = [w for w in words if w.casefold() in body.casefold()]
        assert not leaked, (path.relative_to(built).as_posix(), leaked)
        read += 1
    assert (built / "site" / "search" / "search_index.json").is_file() and any((built / "gm").rglob("*.html"))
    assert read > 50


def test_the_cast_list_shows_open_groups_with_their_public_description(built):
    page = html.unescape((built / "site" / "sixes" / "cast-list.html").read_text(encoding="utf-8"))
    assert "The Wedding Party" in page and "Those who stand at the altar tonight" in page
    assert "House Carrow" in page and "richest family on this stretch of coast" in page
    for hidden in ("Witnesses of the Charity", SECRET_GROUP, "What every member knows"):
        assert hidden not in page
