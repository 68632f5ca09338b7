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

from generator.core.audience import secret_fields
from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.commands.pack import PackRequest, pack
from generator.game.packet_models import PacketGame
from pdf_text import page_texts, text

SECRET_GROUP = "Qxsecretgroup"


def plant(section: dict) -> dict[str, tuple[str, object]]:
    """A marker in every secret text of one game's section: marker ->
    (who reads it, the entry it belongs to, by kind and index, or its key)."""
    planted: dict[str, tuple[str, object]] = {}
    for kind, field in PacketGame.model_fields.items():
        model = get_args(field.annotation)[0]          # list[Group] -> Group
        for i, entry in enumerate(section.get(kind, [])):
            for name, (reader, keyed) in secret_fields(model).items():
                if keyed:
                    for key in list(entry.get(name, {})):
                        marker = f"Qx{kind[:3]}{i}{name[:3]}{key.replace('-', '')}"
                        entry[name][key] = f"{marker} {entry[name][key]}"
                        planted[marker] = (reader, key)
                else:
                    marker = f"Qx{kind[:3]}{i}{name[:3]}"
                    entry[name] = f"{marker} {entry.get(name, '')}"
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


def readers_of(sixes: dict, reader: str, owner: Any, report) -> set[str]:
    """The envelopes (by character name) a text may reach."""
    names = {e.sheet.slug: e.character for e in report.envelopes if e.sheet is not None}
    if reader == "gm":
        return set()
    if reader == "owner":
        return {names[str(owner)]}
    kind, index = owner
    group = sixes[kind][index]
    listed = {names[m] for m in group.get("members", [])}
    return listed | {e.character for e in report.envelopes if e.faction == group["name"]}    # a faction's too


def test_every_secret_text_reaches_exactly_its_readers_and_the_gm(packed):
    data, sixes, planted, report = packed
    assert len(planted) > 60          # every side, snippet, sheet and note of the example
    folder = report.root / "a4"
    envelopes = {e.character: folder / "envelopes" / f"{e.stem}.pdf" for e in report.envelopes}
    bodies = {who: " ".join(page_texts(path)[1:]) for who, path in envelopes.items()}    # after the cover
    covers = {who: page_texts(path)[0] for who, path in envelopes.items()}
    gm = text(folder / "gm-pack.pdf")
    elsewhere = " ".join(text(p) for p in folder.glob("*.pdf") if p.name != "gm-pack.pdf")
    elsewhere += (folder / "manifest.csv").read_text(encoding="utf-8")
    for marker, (reader, owner) in planted.items():
        expected = readers_of(sixes, reader, owner, report)
        found = {who for who, body in bodies.items() if marker in body}
        assert found == expected, (marker, reader, owner)
        assert marker in gm, marker
        assert not any(marker in cover for cover in covers.values()), marker
        assert marker not in elsewhere, marker


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
