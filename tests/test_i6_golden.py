"""Rendered I6 pages and documents of the starter setting, compared as text with
reviewed copies in tests/golden/i6-starter/. Refresh only deliberately:
`pytest tests/test_i6_golden.py --update-golden`, then read `git diff tests/golden`."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from generator.render.html import document_html, render_template
from generator.systems.i6 import SYSTEM as I6

GOLDEN = Path(__file__).parent / "golden" / "i6-starter"


@lru_cache(maxsize=1)
def starter_outputs() -> dict[str, str]:
    game, problems = I6.load(I6.starter, I6.starter.parent, None)
    assert game is not None, problems
    rendered = {}
    for page in I6.pages(game):
        rendered[page.path] = render_template(page.template, {**page.context, "page_title": page.title,
                                                              "downloads": []})
    for doc in I6.documents(game):
        rendered[f"{doc.folder}/{doc.slug}.html"] = document_html(doc)
    return rendered


@pytest.mark.parametrize("name", sorted(starter_outputs()))
def test_rendered_output_matches_the_reviewed_copy(name, update_golden):
    text = starter_outputs()[name]
    golden = GOLDEN / name
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"no reviewed copy of {name}; run with --update-golden and review it"
    assert text == golden.read_text(encoding="utf-8")
