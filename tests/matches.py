"""A pattern the test expects to find, found: `matched(re.search(...))`
fails the test with the pattern when it is not there (instead of an
AttributeError on None), and gives the type checker a match, not an Optional."""
from __future__ import annotations

import re


def matched(match: re.Match[str] | None) -> re.Match[str]:
    assert match is not None, "the expected text is not there"
    return match
