"""The built site in a real browser (Debian's Chromium, headless, driven by
Playwright): opened straight from disk it searches, fetches nothing from the
network, and fits a phone screen without sideways scrolling."""
from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium")
PHONE = {"width": 360, "height": 740}
PAGES = ["index.html", "getting-started.html", "credits.html", "sixes/index.html", "sixes/game.html",
         "sixes/actions.html", "sixes/speed-slots.html", "sixes/specials.html", "sixes/rulings.html",
         "i6/index.html", "i6/odds.html", "i6/combat.html", "i6/heroes.html", "i6/rulings.html", "i6/downloads.html"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make test installs it)")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        yield browser
        browser.close()


def test_search_works_from_the_file_system_without_network(example_build, browser):
    page = browser.new_page()
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((example_build.out_dir / "site" / "index.html").as_uri())
    page.fill("input.md-search__input", "rattled")
    page.wait_for_function("document.querySelectorAll('.md-search-result__item').length > 0", timeout=10000)
    titles = page.locator(".md-search-result__item h1").all_inner_texts()
    assert any("rules" in t.lower() for t in titles), titles
    assert errors == []
    assert [u for u in requests if not u.startswith(("file:", "data:", "about:"))] == []
    page.close()


@pytest.mark.parametrize("rel", PAGES)
def test_pages_fit_a_phone_screen(example_build, browser, rel):
    page = browser.new_page(viewport=PHONE)
    page.goto((example_build.out_dir / "site" / rel).as_uri())
    page_width = page.evaluate("document.documentElement.scrollWidth")
    overflowing_tables = page.evaluate(
        "[...document.querySelectorAll('.md-typeset__scrollwrap')]"
        ".filter(w => w.scrollWidth > w.clientWidth + 1).length")
    assert page_width <= PHONE["width"]
    assert overflowing_tables == 0
    page.close()
