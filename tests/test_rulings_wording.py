"""Rulings are published for players: every ruling of every system, and
the rulings pages around them, speak of the game, never of the tool's
files, fields, commands, or "our copy" of a source, and show no ruling's
slug (slugs stay as the headings' anchors, out of sight)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.systems import SYSTEMS

# What a player should never read in a ruling: the tool's insides.
TOOL_WORDS = re.compile(r"\.ya?ml\b|\.py\b|`|\bour copy\b|missing from our|we do not have|\bsixes (check|build)\b"
                        r"|\bthe data\b|\bthe code\b|\bschema\b|\bresolver\b|\b(these|the) tools\b|\bissue \d", re.I)


def _rulings():
    """(package, ruling) for every rulings file beside a system's code."""
    import generator.systems
    from generator.core.rulings import load_rulings
    found = []
    for path in sorted(Path(generator.systems.__file__).parent.glob("*/rulings.yaml")):
        rulings, problems = load_rulings(path)
        assert not problems, (path, problems)
        found += [(path.parent.name, ruling) for ruling in rulings]
    return found


def _texts(ruling) -> list[str]:
    return [ruling.topic, ruling.source_says, *ruling.options, ruling.decision, ruling.why]


def test_every_system_has_rulings():
    assert len({package for package, _ in _rulings()}) == len(SYSTEMS)


@pytest.mark.parametrize("slug, ruling", _rulings(), ids=lambda v: getattr(v, "id", v))
def test_a_ruling_speaks_of_the_game_not_the_tool(slug, ruling):
    for text in _texts(ruling):
        found = TOOL_WORDS.search(text)
        assert found is None, (slug, ruling.id, found and found.group(0), text)


def test_no_ruling_shows_a_ruling_s_slug():
    slugs = {ruling.id for _, ruling in _rulings() if "-" in ruling.id}
    for slug, ruling in _rulings():
        for text in _texts(ruling):
            shown = [s for s in slugs if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)]
            assert not shown, (slug, ruling.id, shown)


def test_the_rulings_pages_and_credits_speak_to_players():
    from generator.core.paths import SITE_SOURCES_DIR, TEMPLATES_DIR
    pages = [*TEMPLATES_DIR.glob("*/site/rulings.md.j2"), TEMPLATES_DIR / "site" / "_rulings.md.j2",
             SITE_SOURCES_DIR / "credits.md"]
    assert len(pages) == len(SYSTEMS) + 2
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bour copy\b|we do not have|\.ya?ml\b", text, re.I), path
