"""How the pack's own pages read (issue 32): an envelope label's name as
large as the label holds, so it is read across a table, and never past it;
the manifest's card set on one line. The templates are rendered with
WeasyPrint here, from contexts shaped as game/pack_plan.py makes them."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.game.pack_plan import LABEL_STOCK
from generator.core.measure import PT_PER_MM
from generator.core.paths import TEMPLATES_DIR
from generator.render.html import render_template
from generator.render.fit.labels import (GAP, LINE_HEIGHT, LINE_PT, LINES, NAME_LINE_HEIGHT, NAME_STEPS, PAD_Y, name_pt,
                                     name_room)
from generator.render.pdf.lint import find_overlaps

NAMES = ("Jo Li", "Robin Ash", "Florentyna Grzegorczyk", "Anne-Marie Kowalczyk-Brennan",
         "Maximilian Featherstonehaugh-Whitmore", "Oluwaseun Adeyemi-Okonkwo")


def _render(html: str):
    import weasyprint
    return weasyprint.HTML(string=html, base_url=TEMPLATES_DIR.as_uri() + "/").render()


def _boxes(box, cls: str, inside: bool = False):
    """The text boxes inside elements of class `cls`."""
    from weasyprint.formatting_structure.boxes import TextBox
    element = getattr(box, "element", None)
    inside = inside or (element is not None and cls in (element.get("class") or "").split())
    if isinstance(box, TextBox):
        if inside:
            yield box
        return
    for child in getattr(box, "children", ()):
        yield from _boxes(child, cls, inside)


def _label_sheet(paper: str, names=NAMES):
    stock = LABEL_STOCK[paper]
    envelopes = [SimpleNamespace(label=name, number=n) for n, name in enumerate(names, 1)]
    sheet = [(e, *stock.origin(k)) for k, e in enumerate(envelopes)]
    return render_template("pack/labels.html", {"title": "Low Water at Saint Brannoc's", "sheets": [sheet],
                                                "doc_title": "labels",
                                                "stock": stock, "count": len(names)})


def test_a_short_name_takes_the_largest_size_and_a_long_one_steps_down():
    """Twice the 12 pt a label printed every name at before, when it fits."""
    stock = LABEL_STOCK["a4"]
    assert name_pt("Jo Li", stock.width, stock.height) == NAME_STEPS[0] >= 24
    sizes = [name_pt(n, stock.width, stock.height) for n in NAMES]
    assert sizes[-1] < sizes[0] and min(sizes) >= 12
    # More words never make a name larger.
    for shorter, longer in (("Robin", "Robin Ash"), ("Anne-Marie", "Anne-Marie Kowalczyk-Brennan")):
        assert name_pt(longer, stock.width, stock.height) <= name_pt(shorter, stock.width, stock.height)


@pytest.mark.parametrize("paper", sorted(LABEL_STOCK))
def test_every_name_prints_at_its_measured_size_inside_its_label(paper):
    """WeasyPrint sets each name at the size render/fit/labels.py chose, and the
    name with its two lines stays inside the label, clear of each other."""
    stock = LABEL_STOCK[paper]
    document = _render(_label_sheet(paper))
    assert find_overlaps(document) == []
    names = list(_boxes(document.pages[0]._page_box, "label-name"))
    px_per_pt = 96 / 72
    by_name: dict[str, list] = {}
    for box in names:
        by_name.setdefault(box.element.text, []).append(box)
    _, room = name_room(stock.width, stock.height)
    for name in NAMES:
        size = name_pt(name, stock.width, stock.height)
        boxes = by_name[name]
        assert {round(b.style["font_size"] / px_per_pt, 2) for b in boxes} == {size}, name
        top = min(b.position_y for b in boxes)
        bottom = max(b.position_y + b.height for b in boxes)
        assert (bottom - top) / (96 / 25.4) <= room + 1.0, (name, size)


def test_the_writing_covers_at_least_half_the_label():
    """At 12 pt a short name and its two lines covered about 13 mm of the
    33 mm inside an A4 label, leaving more than half of it empty."""
    stock = LABEL_STOCK["a4"]
    inside = stock.height - 2 * PAD_Y
    under = LINES * LINE_PT * LINE_HEIGHT / PT_PER_MM + GAP

    def covered(size: float) -> float:
        return size * NAME_LINE_HEIGHT / PT_PER_MM + under
    assert covered(12) < inside / 2
    for name in ("Robin Ash", "Jo Li", "Sam Dale"):
        assert covered(name_pt(name, stock.width, stock.height)) >= inside / 2, name


def _manifest(rows) -> str:
    run = SimpleNamespace(decks=["hand-signal cards"], cards=72, sheets=14, cuts=64, cuts_per_sheet=(8,),
                          where=lambda n: "sheet 1" if n == 1 else f"sheets {n + 10}-{n + 11}")
    return render_template("pack/manifest.html", {
        "title": "Low Water", "doc_title": "manifest", "lang": "en", "rows": rows, "run": run, "labels": None,
        "label_sheets": 0, "badges": False,
        "backs": False, "duplex": True, "paper_name": "A4", "totals": {"pages": 1, "sheets": 1}, "cover_sheets": None})


def test_the_manifests_card_set_is_never_broken_over_two_lines():
    """The longest entries ("sheets 12-13") beside long names and contents."""
    contents = "cover (1 p); character sheet (1 p); rules reference (2 p); Handout: Tide table (3 p)"
    rows = [{"envelope": n, "player": "Wilhelmina Hargreaves-Lyle Featherstonehaugh", "character":
             "Brother Anselm the Younger of the Island", "contents": contents, "pages": 8, "sheets": 4}
            for n in range(1, 4)]
    document = _render(_manifest(rows))
    cells: dict[int, set[float]] = {}
    for box in _boxes(document.pages[0]._page_box, "set"):
        cells.setdefault(id(box.element), set()).add(round(box.position_y, 1))
    assert len(cells) == 1 + len(rows)          # the head and each envelope's cell
    assert all(len(lines) == 1 for lines in cells.values()), cells
