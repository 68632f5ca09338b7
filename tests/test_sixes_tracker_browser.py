"""The fight tracker in a real browser at phone size (Debian's Chromium,
headless, driven by Playwright), opened straight from the file system.

The GM's path through a big fight: fifteen fighters of the example cast
picked by faction (one taken out again), a full round declared in taps (a
special, a Defend Other, an Escape, a GM-adjudicated special among them),
the round resolved, and what the page shows (every line of the script, the
state after each slot, everyone at the end) checked against resolver.py
given the same declarations. Then: the next round carries the state, a
reload loses nothing, undo goes back, the log saves as text, an illegal
declaration is named at once, hostile names stay text, no screen is wider
than the phone, and nothing is requested from anywhere.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.render.site.tracker import tracker_html
from generator.systems.sixes.dataset import load_game
from generator.systems.sixes.resolver import Declaration, fresh, resolve_round

from browsers import CHROMIUM, MISSING
from test_sixes_tracker import HOSTILE, example_game, hostile_folder

PHONE = {"width": 390, "height": 844}
LEFT_OUT = "Wenna Hocking"     # the sixteenth of the cast, taken out again after picking every faction

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)


@pytest.fixture(scope="module")
def tracker(tmp_path_factory) -> Path:
    page = tmp_path_factory.mktemp("tracker") / "fight-tracker.html"
    page.write_text(tracker_html(example_game()), encoding="utf-8")
    return page


class Phone:
    """One page at phone size that records every request, error and dialog."""

    def __init__(self, browser, url: str):
        self.context = browser.new_context(viewport=PHONE, accept_downloads=True)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.language = ""                    # the language a test of languages serves it in
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", self._dialog)
        self.page.goto(url)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def outside(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("file:", "data:", "about:", "blob:"))]

    def fits(self) -> bool:
        return self.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    def close(self):
        self.context.close()


@pytest.fixture
def phone(browser, tracker):
    p = Phone(browser, tracker.as_uri())
    yield p
    p.close()


def pick_big_brawl(phone: Phone) -> list[str]:
    """Every faction, then one fighter out: fifteen. Returns the roster in order."""
    page = phone.page
    for g in range(page.locator(".faction").count()):
        page.click(f".faction[data-faction='{g}'] .faction-all")
    cast = [m.character.name for m in example_game().cast]
    page.click(f".pick[data-name-index='{cast.index(LEFT_OUT)}']")
    assert page.inner_text("#start") == "Start the fight with 15"
    assert phone.fits()
    page.click("#start")
    return [name for name in cast if name != LEFT_OUT]


def declare(page, roster, who, speed, action, target=None, special=None, finish=None, redirect=None,
            confirm=False) -> Declaration:
    """Enter one declaration by tapping, as the GM would; return the same
    declaration for resolver.py."""
    page.click(f".fighter[data-fighter='{roster.index(who)}']")
    page.click(f"[data-speed='{speed}']")
    page.click(f"[data-action='{action}']")
    profile = next(f for f in example_game().cast if f.character.name == who).character
    if target is not None:
        page.click(f"[data-target='{'self' if target == who else roster.index(target)}']")
    if special is not None:
        page.click(f"[data-special='{profile.specials.index(special)}']")
    if finish is not None:
        page.click(f"[data-finish='{finish}']")
    if redirect is not None:
        page.click(f"[data-redirect='{roster.index(redirect)}']")
    if confirm:
        page.click("[data-confirm='beside_ally']")
    assert page.inner_text("#dock-problems") == ""
    page.click("#done")
    return Declaration(who, action, speed, target, special, finish, redirect, ("beside_ally",) if confirm else ())


def first_round(page, roster) -> list[Declaration]:
    """Every one of the fifteen declares; the list is in roster order, as the tracker sends it."""
    made = [
        declare(page, roster, "Absalom Quick", 5, "escape"),
        declare(page, roster, "Brother Anselm", 3, "special", "Jacca Rowe", "Heal"),
        declare(page, roster, "Edmund Carrow", 4, "defend_other", "Judith Carrow"),
        declare(page, roster, "Honoria Vane", 2, "attack", "Kit Penhale"),
        declare(page, roster, "Jacca Rowe", 4, "special", "Ned Tregarth", "Boathook"),
        declare(page, roster, "Judith Carrow", 3, "attack", "Kit Penhale", confirm=True),
        declare(page, roster, "Kit Penhale", 5, "defend_self", redirect="Ned Tregarth"),
        declare(page, roster, "Lowenna Carrow", 2, "attack", "Mercy Pascoe"),
        declare(page, roster, "Matthew Lusk", 4, "attack", "Ned Tregarth"),
        declare(page, roster, "Mercy Pascoe", 1, "attack", "Lowenna Carrow"),
        declare(page, roster, "Morvoren Rowe", 3, "attack", "Judith Carrow"),
        declare(page, roster, "Ned Tregarth", 3, "attack", "Kit Penhale", "Bone Rattler", "kill"),
        declare(page, roster, "Sally Brea", 4, "attack", "Ned Tregarth", "Knife in the Sleeve"),
        declare(page, roster, "Samuel Penhale", 4, "defend_self", special="Armoured Shell"),
        declare(page, roster, "Tamsin Penhale", 3, "defend_other", "Samuel Penhale"),
    ]
    assert page.inner_text("#declared-count").startswith("15 of 15 declared")
    return made


def python_round(roster, declarations, before=None):
    game = example_game()
    cast = {m.character.name: m.character for m in game.cast}
    fight = before or tuple(fresh(cast[name], game.library) for name in roster)
    slots = []
    result = resolve_round(fight, declarations, on_slot=lambda s, f: slots.append((s, f)))
    return fight, slots, result


def shown_state(c) -> str:
    """How the tracker prints a fighter after a slot: name, hit points, a status chip unless Fighting."""
    return f"{c.name} {c.hp}/{c.profile.hit_points} HP" + ("" if c.status == "Fighting" else c.status)


def check_script(page, fight, slots, result):
    """The script on the page is resolver.py's log, line for line; each slot's
    'after' list names exactly who changed in it; the closing table is
    everyone's state after the round."""
    shown = page.locator(".script .lines li").all_text_contents() + [page.text_content(".script .end")]
    assert shown == [line.text for line in result.log]
    before = fight
    for s, after in slots:
        changed = [shown_state(c) for b, c in zip(before, after, strict=True)
                   if (b.hp, b.status, b.rattled) != (c.hp, c.status, c.rattled)]
        block = page.locator(f".after[data-after='{s}']")
        if block.count():
            assert block.locator(".state").all_text_contents() == changed, f"after Speed {s}"
        else:
            assert changed == [], f"Speed {s} changed someone but shows nothing"
        before = after
    rows = page.locator("table.roster tbody tr")
    table = [tuple(rows.nth(k).locator("td").all_text_contents()) for k in range(rows.count())]
    assert table == [(c.name, f"{c.hp}/{c.profile.hit_points}", c.status) for c in result.combatants]


def test_a_fifteen_fighter_round_entered_by_taps_matches_the_python_resolver(phone):
    page = phone.page
    roster = pick_big_brawl(phone)
    declarations = first_round(page, roster)
    assert phone.fits()
    page.click("#resolve")
    # Boathook is the GM's: the script stops at its slot and asks.
    ask = page.locator(".gm-ask")
    assert ask.count() == 1
    assert "Jacca Rowe uses Boathook on Ned Tregarth at Speed 4." in ask.inner_text()
    assert page.locator(".slot[data-slot='3']").inner_text().startswith("Speed 3")     # still waiting
    assert phone.fits()
    page.click("#ruling-none")
    fight, slots, result = python_round(roster, declarations)
    assert result.adjudications == ("Jacca Rowe uses Boathook on Ned Tregarth at Speed 4",)
    check_script(page, fight, slots, result)
    text = page.inner_text(".script")
    for words in ("Absalom Quick escapes", "Edmund Carrow starts defending Judith Carrow",
                  "Sally Brea attacks Ned Tregarth with Knife in the Sleeve", "(Armoured Shell: doubled)"):
        assert words in text
    assert phone.fits()
    assert phone.errors == [] and phone.dialogs == [] and phone.outside() == []


def test_the_next_round_carries_the_state_a_reload_keeps_it_and_undo_goes_back(phone):
    page = phone.page
    roster = pick_big_brawl(phone)
    declarations = first_round(page, roster)
    page.click("#resolve")
    page.click("#ruling-none")
    page.click("#next-round")
    fight, _, first = python_round(roster, declarations)

    def hp() -> list[str]:
        return page.locator(".fighter .hp").all_text_contents()
    carried = [f"{c.hp}/{c.profile.hit_points} HP" + ("" if c.status == "Fighting" else c.status)
               for c in first.combatants]
    assert hp() == carried

    # Round two: the Rattled fighter's Attack is refused with the resolver's words, at once.
    rattled = next(c.name for c in first.combatants if c.status == "Rattled")
    page.click(f".fighter[data-fighter='{roster.index(rattled)}']")
    page.click("[data-speed='3']")
    page.click("[data-action='attack']")
    page.click(f"[data-target='{roster.index('Ned Tregarth')}']")
    assert page.inner_text("#dock-problems") == f"{rattled} is Rattled and may only Escape or Recover, not Attack"
    page.click("#done")
    assert page.is_disabled("#resolve")
    page.click("#first-problem")
    page.click("[data-speed='1']")
    page.click("[data-action='recover']")
    assert page.inner_text("#dock-problems") == ""
    page.click("#done")
    second = [Declaration(rattled, "recover", 1),
              declare(page, roster, "Ned Tregarth", 2, "attack", "Samuel Penhale"),
              declare(page, roster, "Samuel Penhale", 4, "defend_self")]
    second.sort(key=lambda d: roster.index(d.actor))

    page.reload()                                  # the phone locks, the page reloads: nothing is lost
    assert page.inner_text("#declared-count").startswith("3 of ")
    page.click("#resolve")
    _, slots, result = python_round(roster, second, first.combatants)
    check_script(page, first.combatants, slots, result)
    # The header names the round being read while its script shows (it said
    # "Round 3" here, the round not yet declared), and the next one after.
    assert page.inner_text("#bar-round") == "Round 2: the script"
    page.click("#next-round")
    assert page.inner_text("#bar-round").startswith("Round 3 \u00b7 ")
    page.click("#last-script")
    assert page.inner_text("#bar-round") == "Round 2: the script"

    page.click("#undo")                            # back to round two's declarations, state as after round one
    assert hp() == carried
    assert page.inner_text("#declared-count").startswith("3 of ")
    assert phone.errors == [] and phone.outside() == []


def test_the_log_saves_as_text_and_every_screen_fits_the_phone(phone):
    page = phone.page
    roster = pick_big_brawl(phone)
    declarations = first_round(page, roster)
    page.click(".fighter[data-fighter='0']")
    assert phone.fits()
    page.click("#done")
    page.click("#resolve")
    page.click("#ruling-none")
    page.click("[data-screen='log']")
    assert phone.fits()
    with page.expect_download() as saved:
        page.click("#download")
    text = Path(saved.value.path()).read_text(encoding="utf-8")
    _, _, result = python_round(roster, declarations)
    assert text.startswith("Low Water at Saint Brannoc's: fight log")
    assert "Round 1" in text
    assert "  Ned Tregarth: Speed 3 \u00b7 Attack \u2192 Kit Penhale \u00b7 Bone Rattler \u00b7 kill" in text
    for line in result.log:
        assert str(line) in text
    assert text == page.text_content("#log-text")
    page.click("[data-screen='pick']")
    assert phone.fits()
    assert phone.errors == [] and phone.outside() == []


def test_hostile_names_are_only_text(browser, tmp_path):
    data = hostile_folder(tmp_path)
    game, problems = load_game(data / "sixes", data)
    assert game is not None, problems
    page_file = tmp_path / "fight-tracker.html"
    page_file.write_text(tracker_html(game), encoding="utf-8")
    phone = Phone(browser, page_file.as_uri())
    page = phone.page
    try:
        shown = page.inner_text("main")
        for text in (HOSTILE["character"], HOSTILE["second"], HOSTILE["proto"], HOSTILE["faction"]):
            assert text in shown
        assert page.title().startswith(HOSTILE["title"])
        for g in range(page.locator(".faction").count()):
            page.click(f".faction[data-faction='{g}'] .faction-all")
        page.click("#start")
        roster = [m.character.name for m in game.cast]
        who, aim = HOSTILE["character"], HOSTILE["proto"]
        page.click(f".fighter[data-fighter='{roster.index(who)}']")
        page.click("[data-speed='2']")
        page.click("[data-action='attack']")
        page.click(f"[data-target='{roster.index(aim)}']")
        page.click("[data-special='0']")
        assert HOSTILE["rule"] in page.inner_text(".special-rule")
        page.click("#done")
        page.click("#resolve")
        assert f"{who} attacks {aim} with {HOSTILE['special']}" in page.text_content(".script")
        page.click("[data-screen='log']")
        assert who in page.text_content("#log-text")
        assert page.evaluate("document.querySelectorAll('img, svg, iframe, object, embed').length") == 0
        assert page.evaluate("document.scripts.length") == 3
        assert phone.dialogs == [] and phone.errors == [] and phone.outside() == []
    finally:
        phone.close()
