"""The site is built while the workers render, unless a PDF it offers is
still being made (commands/build._render): a reworded description builds
the site before its character's sheet is rendered, and an edit that renders
a public document offers the new PDF, the same bytes as the build's own."""
from __future__ import annotations

import pytest

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.layout import DocumentPdf
from generator.core.paper import A4
from generator.game.settings import load_settings
from starter_games import public_cast_starter


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def game(tmp_path):
    return public_cast_starter(tmp_path / "data")


def site_build(data, out, events):
    """A build with two rendering processes, its progress labels in order."""
    return build(BuildConfig(data, out, (A4,), settings=load_settings(data), workers=2, cache=True),
                 lambda label, done, total: events.append((label, done)))


def test_the_site_waits_only_for_the_pdfs_it_offers(game, tmp_path):
    out, events = tmp_path / "out", list[tuple[str, int]]()
    site_build(game, out, events)

    character = game / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("description: A sharp-tongued", "description: A sly"))
    events.clear()
    report = site_build(game, out, events)
    assert report.site_built and [label.split("/")[-1] for label in report.rendered] == ["first-rival.pdf"]
    order = [label for label, done in events if label == "site" or label.endswith("first-rival.pdf")]
    assert order == ["site", "site", "a4 sixes/players/first-rival.pdf"]      # made meanwhile

    actions = game / "sixes" / "actions.yaml"
    text = actions.read_text()
    assert "rule: " in text
    actions.write_text(text.replace("rule: ", "rule: Newly worded. ", 1))
    events.clear()
    report = site_build(game, out, events)
    assert "a4 sixes/public/rules-reference.pdf" in report.rendered
    order = [label for label, done in events if label in ("site", "a4 sixes/public/rules-reference.pdf")]
    assert order[0] == "a4 sixes/public/rules-reference.pdf" and order[-2:] == ["site", "site"]
    pdf = out / "pdf" / "a4" / "sixes" / "public" / "rules-reference.pdf"
    offered = out / "site" / DocumentPdf(A4, "sixes", "public", "rules-reference").download
    assert offered.read_bytes() == pdf.read_bytes()
