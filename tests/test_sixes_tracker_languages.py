"""The fight tracker in the game's language: a French page (Debian's
Chromium at phone size, as tests/test_sixes_tracker_browser.py drives it)
shows no English sentence of the tracker's catalogue on any screen a round
goes through, and its script and log are resolver.py's, told in French,
line for line. The round's log in every language is held equal between the
two resolvers by tests/test_sixes_tracker_equality.py; this is the page
around it.
"""
from __future__ import annotations

import pytest

from generator.core.i18n import _, speaking, words_for
from generator.render.tracker import tracker_html

from browsers import CHROMIUM, MISSING
from test_sixes_tracker import example_game
from test_sixes_tracker_browser import Phone, declare, python_round
from tracker_words import english_left, english_pieces

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)

# What the page shows that is the game's data, not the tracker's words
# (a special's own rule text and the resolver's note on it).
VISIBLE_WORDS = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('.special-rule, script, noscript').forEach(n => n.remove());
  return copy.innerText;
}"""


@pytest.fixture
def french(browser, tmp_path):
    game = example_game()
    with speaking(words_for("fr")):
        html = tracker_html(game)
    page_file = tmp_path / "fight-tracker.html"
    page_file.write_text(html, encoding="utf-8")
    phone = Phone(browser, page_file.as_uri())
    yield phone
    phone.close()


def test_a_french_tracker_page_speaks_french_on_every_screen(french):
    page = french.page
    seen = [page.evaluate(VISIBLE_WORDS), page.title(), page.text_content("#storage-banner")]
    assert page.evaluate("document.documentElement.lang") == "fr"
    for g in range(page.locator(".faction").count()):
        page.click(f".faction[data-faction='{g}'] .faction-all")
    roster = [m.character.name for m in example_game().cast]
    seen.append(page.evaluate(VISIBLE_WORDS))
    page.click("#start")
    seen.append(page.evaluate(VISIBLE_WORDS))
    made = [declare(page, roster, "Absalom Quick", 5, "escape"),
            declare(page, roster, "Edmund Carrow", 4, "defend_other", "Judith Carrow"),
            declare(page, roster, "Honoria Vane", 2, "attack", "Kit Penhale"),
            declare(page, roster, "Judith Carrow", 3, "attack", "Kit Penhale", confirm=True),
            declare(page, roster, "Kit Penhale", 5, "defend_self", redirect="Ned Tregarth"),
            declare(page, roster, "Ned Tregarth", 3, "attack", "Kit Penhale", "Bone Rattler", "kill"),
            declare(page, roster, "Samuel Penhale", 4, "defend_self", special="Armoured Shell")]
    seen.append(page.evaluate(VISIBLE_WORDS))
    page.click(f".fighter[data-fighter='{roster.index('Ned Tregarth')}']")
    seen.append(page.evaluate(VISIBLE_WORDS))
    page.click("#done")
    page.click("#resolve")
    seen.append(page.evaluate(VISIBLE_WORDS))
    with speaking(words_for("fr")):
        fight, _slots, result = python_round(roster, made)
        lines = [str(line) for line in result.log]
        statuses = [_(c.status) for c in result.combatants]
    shown = page.locator(".script .lines li").all_text_contents() + [page.text_content(".script .end")]
    assert shown == [line.text for line in result.log]
    assert any("ouvrent les yeux." in line for line in shown)       # the plural rule reached the page
    rows = page.locator("table.roster tbody tr")
    assert [rows.nth(k).locator("td.status").inner_text() for k in range(rows.count())] == statuses
    page.click("[data-screen='log']")
    log = page.text_content("#log-text")
    seen.append(page.evaluate(VISIBLE_WORDS))
    for line in lines:
        assert line in log
    with speaking(words_for("fr")):
        assert english_pieces() and english_left("\n".join(seen)) == []
    assert french.errors == [] and french.dialogs == [] and french.outside() == []
    assert french.fits()
