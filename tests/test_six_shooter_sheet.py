"""The Operator sheet's Lucky Numbers (issue 32): every box under the
heading says what it records. There is one box per value a Lucky Number may
take (a card's value, 2 to 10), labelled with it; an Operator's sheet fills
the boxes of the numbers they hold. Read from the rendered HTML."""
from __future__ import annotations

import re

from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.pdf.jobs import document_html
from generator.systems.six_shooter import SYSTEM
from generator.systems.six_shooter.outputs import OPERATOR_SHEET


def _sheets():
    adventure, problems = SYSTEM.load(DEFAULT_DATA_DIR / "six-shooter", DEFAULT_DATA_DIR.parent)
    assert adventure is not None, problems
    by_name = {op.name: op for op in adventure.operators}
    for doc in SYSTEM.documents(adventure):
        if doc.template == "six-shooter/operator_sheet.html":
            operator = by_name.get(doc.title.split(": ", 1)[1]) if doc.slug != OPERATOR_SHEET else None
            yield doc, operator


def _lucky_section(html: str) -> str:
    return html.split('<div class="lucky">', 1)[1].split('<div class="strikes">', 1)[0]


def test_every_lucky_number_box_is_labelled_with_the_value_it_records():
    sheets = list(_sheets())
    assert len(sheets) > 1 and any(op is None for _, op in sheets)
    for doc, operator in sheets:
        section = _lucky_section(document_html(doc))
        values = [int(v) for v in re.findall(r'<span class="n">(\d+)</span>', section)]
        boxes = re.findall(r'<span class="box( held)?"></span>', section)
        assert values == list(range(2, 11)), doc.slug
        assert len(boxes) == len(values), doc.slug          # no box without its value
        held = [v for v, mark in zip(values, boxes, strict=True) if mark]
        assert held == sorted(operator.lucky_numbers if operator else []), doc.slug
        assert "Tick each value you hold" in section
