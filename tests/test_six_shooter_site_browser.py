"""The Six Shooter pages in headless Chromium: each fits a phone screen
without sideways scrolling, tables included."""
from __future__ import annotations

import pytest

from browsers import CHROMIUM, MISSING
from test_site_browser import PHONE

PAGES = ["index", "adventure", "odds", "luck", "contests", "challenges", "rulings"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)


@pytest.mark.parametrize("name", PAGES)
def test_six_shooter_pages_fit_a_phone_screen(example_build, browser, name):
    page = browser.new_page(viewport=PHONE)
    page.goto((example_build.out_dir / "site" / "six-shooter" / f"{name}.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    wide = page.evaluate("[...document.querySelectorAll('.md-typeset__scrollwrap')]"
                         ".filter(w => w.scrollWidth > w.clientWidth + 1).length")
    assert wide == 0
    page.close()
