"""The one way the tests start a browser: Debian's Chromium, headless,
driven by Playwright, with the same flags everywhere (the `browser` fixture
in conftest.py uses it; a test that needs its own browser calls `chromium`).

Every wait in it is a guard against a hang, not a measure: a page or
context it opens, and Playwright's `expect`, wait up to PATIENCE (a loaded
machine can stall a browser far past Playwright's 5- and 30-second defaults)."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from processes import PATIENCE

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
MISSING = "Chromium is not installed (make test installs it)"
PATIENCE_MS = PATIENCE * 1000


class PatientBrowser:
    """A Playwright browser whose new pages and contexts wait up to PATIENCE
    for whatever they are asked to wait for; everything else is the browser's."""

    def __init__(self, browser: Any):
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.set_default_timeout(PATIENCE_MS)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        page.set_default_timeout(PATIENCE_MS)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@contextmanager
def chromium() -> Iterator[Any]:
    """A running browser, closed (with Playwright's driver) on the way out."""
    from playwright.sync_api import expect, sync_playwright
    expect.set_options(timeout=PATIENCE_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield PatientBrowser(browser)
        finally:
            browser.close()
