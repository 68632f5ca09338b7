"""The fight tracker as it reaches a phone (issue 32), in Debian's Chromium
at phone size: served by `sixes tracker`'s server, refused without the
secret, still working after the server is gone; a banner when the browser
refuses storage; a countdown that sounds and buzzes where it can and never
fails where it cannot; a wake lock asked for again when the page comes
back; the script's words true to the state; specials offered only with an
action they may ride on.
"""
from __future__ import annotations

import threading

import pytest
from playwright.sync_api import Error, expect

from generator.commands.tracker import make_server, new_secret
from generator.render.site.tracker import tracker_html
from generator.systems.sixes.resolver import Declaration

from test_sixes_tracker import example_game
from browsers import CHROMIUM, MISSING
from test_sixes_tracker_browser import PHONE, Phone, declare, pick_big_brawl, python_round, tracker  # noqa: F401

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)

# Storage refused as an opaque origin refuses it: reading localStorage throws.
NO_STORAGE = """
Object.defineProperty(window, "localStorage", {configurable: true, get: function () {
  throw new DOMException("The operation is insecure.", "SecurityError");
}});
"""
# Records what the countdown asks of the phone: vibrations and tones.
RECORDER = """
window.__buzz = []; window.__tones = [];
Object.defineProperty(navigator, "vibrate", {configurable: true,
                                            value: function (ms) { window.__buzz.push(ms); return true; }});
window.AudioContext = function () {
  var node = function (extra) { return Object.assign({connect: function () {}}, extra); };
  this.state = "running"; this.currentTime = 0; this.destination = {};
  this.createGain = function () {
    return node({gain: {setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {}}});
  };
  this.createOscillator = function () {
    return node({frequency: {}, start: function () { window.__tones.push(this.frequency.value); },
                 stop: function () {}});
  };
};
"""
# Neither vibration nor audio: the countdown must still run, without an error.
NEITHER = """
Object.defineProperty(navigator, "vibrate", {configurable: true, value: undefined});
window.AudioContext = undefined; window.webkitAudioContext = undefined;
"""
# A wake lock that counts its requests and can be released from the test.
WAKE_LOCK = """
window.__locks = 0;
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: function (kind) {
  window.__locks += 1; window.__lock = new EventTarget(); window.__lockKind = kind;
  return Promise.resolve(window.__lock);
}}});
"""


class ServedPhone(Phone):
    """A phone whose context may run a script before the page's own."""

    def __init__(self, browser, url: str | None = None, init: str = ""):
        self.context = browser.new_context(viewport=PHONE, accept_downloads=True)
        if init:
            self.context.add_init_script(init)
        self.page = self.context.new_page()
        self.requests, self.errors, self.dialogs = [], [], []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", self._dialog)
        self.response = self.page.goto(url) if url else None


@pytest.fixture
def server():
    """The tracker of the example game, served as `sixes tracker` serves it."""
    secret = new_secret()
    made = make_server(tracker_html(example_game()), secret, "127.0.0.1", 0)
    thread = threading.Thread(target=made.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{made.server_address[1]}"

    def stop():
        made.shutdown()
        made.server_close()
        thread.join()
    yield base, secret, stop
    if thread.is_alive():
        stop()


def one_round_of_two(phone, roster) -> None:
    """A round in which the first fighter Recovers without being Rattled and
    the second attacks the third; everyone else is off-guard."""
    page = phone.page
    declare(page, roster, roster[0], 1, "recover")
    declare(page, roster, roster[1], 3, "attack", roster[2])
    page.click("#resolve")


def test_the_served_page_needs_the_secret_and_keeps_working_after_the_server_stops(browser, server):
    base, secret, stop = server
    for path in ("/", "/" + new_secret(), "/" + secret[:-2]):
        refused = ServedPhone(browser)
        statuses = []
        # The page is closed before the next path: its responses all land in this path's list.
        refused.page.on("response", lambda r: statuses.append(r.status))  # noqa: B023
        with pytest.raises(Error, match="ERR_HTTP_RESPONSE_CODE_FAILURE"):     # an empty 404: nothing to show
            refused.page.goto(base + path)
        assert statuses == [404] and refused.page.locator("#app").count() == 0
        refused.close()
    phone = ServedPhone(browser, f"{base}/{secret}")
    try:
        assert phone.response is not None and phone.response.status == 200
        assert phone.page.title().endswith("fight tracker (GM only)")
        roster = pick_big_brawl(phone)
        stop()                                           # the laptop goes: nothing listens any more
        asked = len(phone.requests)
        one_round_of_two(phone, roster)
        _, _, result = python_round(roster, [Declaration(roster[0], "recover", 1),
                                             Declaration(roster[1], "attack", 3, roster[2])])
        shown = phone.page.locator(".script .lines li").all_text_contents() + [phone.page.text_content(".script .end")]
        assert shown == [line.text for line in result.log]
        phone.page.click("#next-round")
        assert phone.page.inner_text("#bar-round").startswith("Round 2")
        assert phone.requests[asked:] == [] and phone.errors == []
        assert phone.outside() == [f"{base}/{secret}"]       # the one request: the page itself
        assert phone.page.locator("#storage-banner").is_hidden()
    finally:
        phone.close()


def test_a_recover_without_rattled_says_only_the_hit_point(browser, tracker):
    phone = ServedPhone(browser, tracker.as_uri())
    try:
        roster = pick_big_brawl(phone)
        one_round_of_two(phone, roster)
        text = phone.page.inner_text(".script")
        assert f"{roster[0]} takes Recover: 1 hit point back." in text
        assert "Rattled ends" not in text and "themself" not in text
        assert phone.errors == []
    finally:
        phone.close()


def test_a_banner_says_so_when_the_browser_refuses_storage(browser, tracker):
    phone = ServedPhone(browser, tracker.as_uri(), NO_STORAGE)
    try:
        banner = phone.page.locator("#storage-banner")
        assert banner.is_visible()
        assert "only until the page is reloaded" in banner.inner_text()
        roster = pick_big_brawl(phone)                   # the fight still runs, in memory
        one_round_of_two(phone, roster)
        assert phone.page.locator(".script").count() == 1 and banner.is_visible()
        phone.page.reload()                              # and, as the banner said, a reload loses it
        assert phone.page.locator(".pick").count() > 0 and phone.page.locator("#storage-banner").is_visible()
        assert phone.errors == []
    finally:
        phone.close()


def test_no_banner_when_storage_works(browser, tracker):
    phone = ServedPhone(browser, tracker.as_uri())
    try:
        assert phone.page.locator("#storage-banner").is_hidden()
        assert phone.page.get_attribute("html", "data-storage") is None
    finally:
        phone.close()


def test_the_countdown_beeps_and_buzzes_each_second(browser, tracker):
    phone = ServedPhone(browser, tracker.as_uri(), RECORDER)
    try:
        pick_big_brawl(phone)
        phone.page.click("#countdown-start")
        expect(phone.page.locator("#countdown")).to_have_text("Declare!")
        assert phone.page.evaluate("window.__buzz") == [60, 60, 60, 60, 60, 400]
        assert phone.page.evaluate("window.__tones") == [660, 660, 660, 660, 660, 990]
        assert phone.errors == []
    finally:
        phone.close()


def test_the_countdown_runs_silent_where_there_is_neither_sound_nor_vibration(browser, tracker):
    phone = ServedPhone(browser, tracker.as_uri(), NEITHER)
    try:
        pick_big_brawl(phone)
        phone.page.click("#countdown-start")
        expect(phone.page.locator("#countdown")).to_have_text("Declare!")
        assert phone.errors == []
    finally:
        phone.close()


def test_the_screen_is_kept_awake_and_the_lock_asked_for_again_when_the_page_returns(browser, tracker):
    phone = ServedPhone(browser, tracker.as_uri(), WAKE_LOCK)
    page = phone.page
    try:
        root = page.locator("html")
        expect(root).to_have_attribute("data-wake-lock", "held")
        assert page.evaluate("[window.__locks, window.__lockKind]") == [1, "screen"]
        page.evaluate("window.__lock.dispatchEvent(new Event('release'))")      # the phone was locked
        expect(root).to_have_attribute("data-wake-lock", "released")
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # and comes back
        expect(root).to_have_attribute("data-wake-lock", "held")
        assert page.evaluate("window.__locks") == 2 and phone.errors == []
    finally:
        phone.close()


def test_a_special_is_offered_only_with_an_action_it_may_ride_on(browser, tracker):
    """Boathook says 'declare a Special': never offered beside an Attack.
    Pistol Ball rides on an Attack (rides_on: attack in the example data)."""
    phone = ServedPhone(browser, tracker.as_uri())
    page = phone.page
    cast = {m.character.name: m.character for m in example_game().cast}
    try:
        roster = pick_big_brawl(phone)

        def offered(who: str, action: str) -> list[str]:
            page.click(f".fighter[data-fighter='{roster.index(who)}']")
            page.click("[data-speed='3']")
            page.click(f"[data-action='{action}']")
            found = [cast[who].specials[int(i)] for i in
                     page.locator("[data-special]").evaluate_all("(bs) => bs.map(b => b.dataset.special)")
                     if i != "none"]
            page.click("#done")
            return found

        assert "Boathook" not in offered("Jacca Rowe", "attack")
        assert "Boathook" in offered("Jacca Rowe", "special")
        assert "Pistol Ball" in offered("Matthew Lusk", "attack")
        assert "Pistol Ball" not in offered("Matthew Lusk", "defend_self")
    finally:
        phone.close()
