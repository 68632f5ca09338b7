"""Rendered pages and documents of every system's starter game compared, as
text, with reviewed copies in tests/golden/<system>-starter/. A change in any
template or rule shows up here as a diff; refresh the copies only
deliberately: `pytest tests/test_golden.py --update-golden`, then read
`git diff tests/golden` before committing."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems import SYSTEMS, by_slug

GOLDEN = Path(__file__).parent / "golden"


@lru_cache(maxsize=None)
def starter_outputs(slug: str) -> dict[str, str]:
    system = by_slug()[slug]
    game, problems = system.load(system.starter, system.starter.parent)
    assert game is not None, problems
    rendered = {}
    for page in system.pages(game):
        rendered[page.path] = render_template(page.template, {**page.context, "page_title": page.title,
                                                              "downloads": []})
    for doc in system.documents(game):
        rendered[f"{doc.folder}/{doc.slug}.html"] = document_html(doc)
    return rendered


CASES = [(system.slug, name) for system in SYSTEMS for name in sorted(starter_outputs(system.slug))]


@pytest.mark.parametrize("slug, name", CASES, ids=[f"{s}/{n}" for s, n in CASES])
def test_rendered_output_matches_the_reviewed_copy(slug, name, update_golden):
    text = starter_outputs(slug)[name]
    golden = GOLDEN / f"{slug}-starter" / name
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"no reviewed copy of {slug}/{name}; run with --update-golden and review it"
    assert text == golden.read_text(encoding="utf-8")


def test_no_stale_reviewed_copies():
    """A reviewed copy whose page or document no longer exists is deleted, not left to rot."""
    expected = {GOLDEN / f"{slug}-starter" / name for slug, name in CASES}
    assert sorted(str(p) for p in GOLDEN.rglob("*") if p.is_file() and p not in expected) == []
