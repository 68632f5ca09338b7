"""The one way the tests start a browser: Debian's Chromium, headless,
driven by Playwright, with the same flags everywhere (the `browser` fixture
in conftest.py uses it; a test that needs its own browser calls `chromium`)."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
MISSING = "Chromium is not installed (make test installs it)"


@contextmanager
def chromium() -> Iterator[Any]:
    """A running browser, closed (with Playwright's driver) on the way out."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
