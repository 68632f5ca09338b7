"""Which entities become envelopes, and in which order, is each system's
plain statement (game/pack_plan.py): its `player` documents are its
character sheets, one envelope each, and its `recast` puts them in a
casting's order, so the GM documents list the characters as the envelopes
do. The pack once found that order by reversing the game's tuples and
watching the sheets; these tests hold the systems to saying it instead."""
from __future__ import annotations

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.load import load_all
from generator.game.pack_plan import plan_envelopes
from generator.systems import SYSTEMS


@pytest.fixture(scope="module")
def example_games():
    loaded, _ = load_all(DEFAULT_DATA_DIR)
    return {item.system.slug: item for item in loaded}


def sheet_slugs(item, game) -> list[str]:
    return [d.slug for d in item.system.documents(game) if d.audience == "player"]


@pytest.mark.parametrize("slug", [s.slug for s in SYSTEMS])
def test_a_system_with_character_sheets_says_how_to_put_them_in_casting_order(example_games, slug):
    item = example_games[slug]
    sheets = sheet_slugs(item, item.game)
    assert (item.system.recast is not None) == bool(sheets), \
        "a system with character sheets needs a `recast`; one without has none"
    if not sheets:
        return
    assert len(sheets) >= 3, "the example game must have characters enough to tell an order"
    wanted = [sheets[-1], sheets[0]]            # the casting names two; the rest follow in the data's order
    recast = item.system.recast(item.game, wanted)
    assert sheet_slugs(item, recast) == wanted + [s for s in sheets if s not in wanted]


def test_envelopes_follow_the_casting_then_the_characters_nobody_plays(example_games):
    from generator.game.casting import Casting
    item = example_games["sixes"]
    sheets = [d for d in item.system.documents(item.game) if d.audience == "player"]
    casting = [Casting("Ann", sheets[2].slug, ()), Casting("Bob", sheets[0].slug, ())]
    envelopes, warnings = plan_envelopes(sheets, casting, item.game.info.title)
    assert [(e.number, e.player, e.sheet and e.sheet.slug) for e in envelopes[:3]] == [
        (1, "Ann", sheets[2].slug), (2, "Bob", sheets[0].slug), (3, None, sheets[1].slug)]
    assert [e.sheet and e.sheet.slug for e in envelopes] == [sheets[2].slug, sheets[0].slug] + [s.slug for s in sheets
                                                                                     if s not in (sheets[0], sheets[2])]
    assert len(warnings) == len(sheets) - 2 and all("nobody is cast as" in w.message for w in warnings)
