"""The packet's faces (items, abilities, notes, a sealed insert's inside, a
name badge on each paper), found in the registry of declared faces
(render/fit/boxes.py FACES), not listed here: for each zone a data field
fills, the longest text the measure passes prints inside its zone and its
frame (WeasyPrint here), and a word more is refused. What `check` passes,
`pack` prints."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from generator.core.errors import Problem
from generator.core.paths import TEMPLATES_DIR
from generator.render.fit.boxes import FACES, Face
from generator.render.fit.faces import face_problems, face_texts
from generator.render.options import PrintOptions
from generator.render.pdf.lint import print_faults
from generator.render.pdf.weasy import find_overflows

OPTIONS = PrintOptions(card_size="poker")
WORDS = ("the keeper says a narrow stair behind the chapel leads down to the old vault where the tide "
         "comes in twice a day and nobody goes without a lamp").split()
# An ordinary entity of each kind of face, by the data file's fields (every face finds its own among them).
BASE = {"number": 3, "name": "A brass lantern with a cracked pane", "text": "Lights the way. It smells of oil.",
        "say": "You are dazzled.", "value": 20, "currency": "shillings", "trigger": "When the bell rings twice",
        "description": "The vicar of the parish.", "player": "Alex", "mark": None}
PACKET = {name: face for name, face in FACES.items() if face.file in ("packet.yaml", "")}


class _Anywhere:
    def problem(self, loc: Any, message: str, *, hint: str | None = None) -> Problem:
        return Problem("packet.yaml", 1, 1, message, hint=hint)


def _filled(face: Face) -> Iterator[str]:
    """The field of each zone a longer text can refuse: the room left's, and a growing one's with a limit of lines."""
    for zone in face.zones:
        if zone.height_mm is None and (zone.max_lines or not zone.grows):
            yield zone.field


# A currency is a name: it cannot outgrow a note (its measure is check's all the same).
CASES = [(name, field) for name, face in PACKET.items() for field in _filled(face) if field != "currency"]


def _passes(face: Face, item: dict) -> bool:
    return face_problems(face, face_texts(face, item, ()), _Anywhere(), OPTIONS, item) == []


def _longest(face: Face, field: str) -> dict:
    """The base entity with `field` as long as the measure passes (a name of words, a text of sentences)."""
    def entity(n: int) -> dict:
        text = " ".join(WORDS[i % len(WORDS)] for i in range(n))
        return {**BASE, field: text.capitalize() + "."}
    low, high = 1, 1
    while _passes(face, entity(high)):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if _passes(face, entity(middle)) else (low, middle)
    assert not _passes(face, entity(low + 1))
    return entity(low)


def _html(name: str, item: dict) -> str:
    """The face printed as the pack prints it: a card of the card run, a sealed insert, a sheet of badges."""
    from generator.game.packet_cards import packet_card_context
    from generator.render.html import render_template
    from generator.render.pdf.cards import render_card_sheet
    from generator.systems.base import Card, Document
    if name.endswith(".html"):
        doc = Document("cards", "cards", "cards/sheet.html", "player", packet_card_context("A game"), 1,
                       cards=(Card("a card", name, dict(item)),))
        return render_card_sheet(doc, OPTIONS)
    if name.startswith("sealed/"):
        return render_template("packet/sealed.html", {**item, "title": "A game", "time": "", "items": [],
                                                      "abilities": [], "form": name.split("/")[1],
                                                      "doc_title": "sealed"})
    return render_template("packet/badges.html", {"title": "A game", "doc_title": "badges",
                                                  "paper": name.split("/")[1], "sheets": [[item]]})


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _classes(box: Any) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


def _lines_outside(document: Any, frame: str, zones: set[str]) -> list[str]:
    """Each line of text below its zone (a zone clips it) or below its frame's content (or a card's foot)."""
    from weasyprint.formatting_structure.boxes import LineBox
    found = []
    for page in document.pages:
        for box in _boxes(page._page_box):
            if frame not in _classes(box):
                continue
            foot = [b for b in _boxes(box) if "foot" in _classes(b) or "sealed-card-foot" in _classes(b)]
            bottom = min([box.content_box_y() + box.height, *(b.position_y for b in foot)])
            for zone in (b for b in _boxes(box) if _classes(b) & zones):
                end = min(bottom, zone.border_box_y() + zone.border_height())
                found += [f"{sorted(_classes(zone))}: a line ends at {line.position_y + line.height:.1f}px, "
                          f"past {end:.1f}px" for line in _boxes(zone) if isinstance(line, LineBox)
                          and line.position_y + line.height > end + 0.5]
    return found


FRAMES = {"sealed": "sealed-box", "badge": "badge"}


@pytest.mark.parametrize("name, field", CASES, ids=[f"{n}-{f}" for n, f in CASES])
def test_the_longest_text_a_packet_face_passes_prints_inside_it(name, field):
    import weasyprint
    face = PACKET[name]
    item = _longest(face, field)
    assert len(item[field].split()) >= (2 if face.zones[0].max_lines else 20)      # a real text fits
    html = _html(name, item)
    document = weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render()
    zones = {zone.selector.split()[-1].split(".")[-1] for zone in face.zones}
    assert _lines_outside(document, FRAMES.get(name.split("/")[0], "card"), zones) == []
    assert find_overflows(document) == [] and print_faults(document) == []      # what the pack's lint says
    from weasyprint.formatting_structure.boxes import LineBox
    for zone in (z for z in face.zones if z.max_lines):     # a name in no more lines than its zone allows
        mine = zone.selector.split()[-1].split(".")[-1]
        printed = {id(line) for page in document.pages for box in _boxes(page._page_box) if mine in _classes(box)
                   for line in _boxes(box) if isinstance(line, LineBox)}
        assert 0 < len(printed) <= zone.max_lines


def test_the_packet_faces_are_found_in_the_registry():
    """Every packet template's face and the inserts' and badges' are registered (so the tests above find them)."""
    cards = {f"packet/cards/{p.name}" for p in (TEMPLATES_DIR / "packet" / "cards").glob("*.html")}
    assert cards <= set(PACKET) and {"sealed/insert", "sealed/fold", "badge/a4", "badge/letter"} <= set(PACKET)
    assert {(n, f) for n, f in CASES} >= {("packet/cards/item.html", "text"), ("packet/cards/ability.html", "say"),
                                          ("sealed/insert", "text"), ("badge/a4", "name"),
                                          ("badge/letter", "description")}


# --- check and pack agree on the example's packet, every text and every name longer ---------------

def _example(dest, factor: float = 1.0, extra: str = ""):
    """The example game's Sixes and its packet, every text of packet.yaml of
    four words or more `factor` times as long, or every name (items,
    abilities, characters: the badges) longer by `extra`."""
    import shutil

    import yaml

    from fit_games import _longer, _names, _renamed
    from generator.core.paths import DEFAULT_DATA_DIR
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", dest / "sixes")
    (dest / "sixes.yaml").write_text("paper: a4\n", encoding="utf-8")
    packet = yaml.safe_load((DEFAULT_DATA_DIR / "packet.yaml").read_text(encoding="utf-8"))
    files = {dest / "packet.yaml": packet}
    if extra:
        files.update({p: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (dest / "sixes" / "characters").glob(
            "*.yaml")})
        names = set().union(*(_names(content) for content in files.values()))
        files = {p: _renamed(content, names, " " + extra) for p, content in files.items()}
    else:       # a trigger is a line of at most 120 characters, checked as such: it keeps its length
        files = {p: _longer(content, factor, "en") for p, content in files.items()}
        for entry, before in zip(files[dest / "packet.yaml"]["sixes"]["sealed"], packet["sixes"]["sealed"],
                                 strict=True):
            entry["trigger"] = before["trigger"]
    for path, content in files.items():
        path.write_text(yaml.safe_dump(content, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return dest


def _agree(game) -> str:
    """`check` and `pack` agree: both pass (and the pack prints), or both
    refuse with the same located errors, the pack before rendering."""
    from test_fit import LOCATED, run
    code, said = run("check", "--data", game)
    out = game / "out"
    packed, report = run("pack", "--data", game, "--system", "sixes", "--out", out, "--paper", "a4", "--jobs", "1")
    if code == 0:
        assert packed == 0, report
        assert list((out / "pack").rglob("badges.pdf")) and list((out / "pack").rglob("card-run.pdf")), report
    else:
        located = LOCATED.findall(said)
        assert code == 1 and located, said
        assert packed == 1 and not list(out.rglob("*.pdf")), report
        assert set(LOCATED.findall(report)) >= {hit for hit in located if "packet.yaml" in hit[0]}
    return said


@pytest.mark.parametrize("factor", [1.5, 12.0])
def test_check_and_pack_agree_with_every_packet_text_longer(tmp_path, factor):
    said = _agree(_example(tmp_path / "game", factor))
    if factor < 2:
        assert "error:" not in said, said
    else:
        assert "too long for item" in said and "too long for the card of the ability" in said, said


def test_check_and_pack_agree_with_every_packet_name_longer(tmp_path):
    """Item, ability and character names a lot longer: the badges' names past two lines are refused at the
    character's line, and pack refuses the same before it renders."""
    said = _agree(_example(tmp_path / "game", extra="of the Far Marches and the Western Isles"))
    assert "too long for the name on a name badge" in said, said
