"""The fight tracker in the game's language: a French and a German page
(Debian's Chromium at phone size, as tests/test_sixes_tracker_browser.py
drives it) show no English sentence of the tracker's catalogue on any screen
a round goes through, refuse an illegal declaration with resolver.py's
reason in the page's language, and give resolver.py's script and log, told
in that language, line for line, on screens no wider than the phone. The
round's log and reasons in every language are held equal between the two
resolvers by tests/test_sixes_tracker_equality.py; this is the page around
them. SIXES_TRACKER_SHOTS=<folder> keeps a PNG of each screen walked.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.core.i18n import _, ngettext, speaking, words_for
from generator.render.site.tracker import tracker_html
from generator.systems.sixes.resolver import Declaration, fresh, validate

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


SHOTS = os.environ.get("SIXES_TRACKER_SHOTS")
TRANSLATED = ["fr", "de"]


@pytest.fixture(params=TRANSLATED)
def translated(request, browser, tmp_path):
    """A phone showing the example game's tracker made in a shipped language."""
    game = example_game()
    with speaking(words_for(request.param)):
        html = tracker_html(game)
    page_file = tmp_path / "fight-tracker.html"
    page_file.write_text(html, encoding="utf-8")
    phone = Phone(browser, page_file.as_uri())
    phone.language = request.param
    yield phone
    phone.close()


def look(phone, seen: list[str], screen: str) -> None:
    """What the screen shows, for the English check; every screen must fit
    the phone's width (long German words included), and is kept as a PNG
    when SIXES_TRACKER_SHOTS names a folder."""
    seen.append(phone.page.evaluate(VISIBLE_WORDS))
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shot = Path(SHOTS) / f"{phone.language}-{len(seen):02}-{screen}"
        phone.page.screenshot(path=f"{shot}.png")                          # as the phone shows it, dock and all
        phone.page.screenshot(path=f"{shot}-whole.png", full_page=True)
    assert phone.fits(), screen


def refused_on_the_page(phone, roster: list[str]) -> str:
    """Brother Anselm calls Heal as his Special with no one to heal: the
    page names the fault at once, in resolver.py's words in the page's
    language, then the draft is cleared. Returns the reason shown."""
    page = phone.page
    page.click(f".fighter[data-fighter='{roster.index('Brother Anselm')}']")
    page.click("[data-speed='3']")
    page.click("[data-action='special']")
    game = example_game()
    cast = {m.character.name: m.character for m in game.cast}
    fight = tuple(fresh(cast[name], game.library) for name in roster)
    with speaking(words_for(phone.language)):
        reasons = validate(fight, [Declaration("Brother Anselm", "special", 3, None, "Heal")])
    assert len(reasons) == 1 and "Heal" in reasons[0]
    assert page.inner_text("#dock-problems") == reasons[0]
    assert page.locator(".editor .problems li").all_text_contents() == reasons
    return reasons[0]


def test_a_translated_tracker_page_speaks_its_language_on_every_screen(translated):
    phone, language = translated, translated.language
    page = phone.page
    seen = [page.title(), page.text_content("#storage-banner")]
    look(phone, seen, "pick")
    assert page.evaluate("document.documentElement.lang") == language
    for g in range(page.locator(".faction").count()):
        page.click(f".faction[data-faction='{g}'] .faction-all")
    roster = [m.character.name for m in example_game().cast]
    look(phone, seen, "picked")
    page.click("#start")
    look(phone, seen, "declare")
    reason = refused_on_the_page(phone, roster)
    look(phone, seen, "refused")
    page.click("#done")
    assert page.locator(".fighter.wrong .problems li").all_text_contents() == [reason]
    look(phone, seen, "refused-list")
    page.click(f".fighter[data-fighter='{roster.index('Brother Anselm')}']")
    page.click("#clear")
    assert page.inner_text("#dock-problems") == ""
    page.click("#done")
    made = [declare(page, roster, "Absalom Quick", 5, "escape"),
            declare(page, roster, "Edmund Carrow", 4, "defend_other", "Judith Carrow"),
            declare(page, roster, "Honoria Vane", 2, "attack", "Kit Penhale"),
            declare(page, roster, "Jacca Rowe", 4, "special", "Ned Tregarth", "Boathook"),
            declare(page, roster, "Judith Carrow", 3, "attack", "Kit Penhale", confirm=True),
            declare(page, roster, "Kit Penhale", 5, "defend_self", redirect="Ned Tregarth"),
            declare(page, roster, "Ned Tregarth", 3, "attack", "Kit Penhale", "Bone Rattler", "kill"),
            declare(page, roster, "Samuel Penhale", 4, "defend_self", special="Armoured Shell")]
    look(phone, seen, "declared")
    page.click(f".fighter[data-fighter='{roster.index('Ned Tregarth')}']")
    look(phone, seen, "editor")
    page.click("#done")
    page.click("#resolve")
    look(phone, seen, "ruling")             # Boathook is the GM's: the script stops at its slot and asks
    with speaking(words_for(language)):
        fight, _slots, result = python_round(roster, made)
        lines = [str(line) for line in result.log]
    assert len(result.adjudications) == 1
    assert page.locator(".gm-ask .question").all_text_contents() == [result.adjudications[0] + "."]
    page.click("#ruling-none")
    look(phone, seen, "script")
    with speaking(words_for(language)):
        statuses = [_(c.status) for c in result.combatants]
        opened = ngettext("{names} opens their eyes.", "{names} open their eyes.", 2).replace("{names}", "")
    shown = page.locator(".script .lines li").all_text_contents() + [page.text_content(".script .end")]
    assert shown == [line.text for line in result.log]
    assert "eyes" not in opened and any(line.endswith(opened) for line in shown)   # the plural rule reached the page
    rows = page.locator("table.roster tbody tr")
    assert [rows.nth(k).locator("td.status").inner_text() for k in range(rows.count())] == statuses
    page.click("[data-screen='log']")
    log = page.text_content("#log-text")
    look(phone, seen, "log")
    for line in lines:
        assert line in log
    assert reason not in log                  # the refused draft was cleared, never played
    with speaking(words_for(language)):
        assert english_pieces() and english_left("\n".join(seen)) == []
    assert phone.errors == [] and phone.dialogs == [] and phone.outside() == []
