"""Finding a message's English as whole words in rendered text, for every
language test: "Speed" is found in "Speed 5" and not in "Speedy". A plain
substring test first, so the thousands of fragments a catalogue yields cost
a regular expression only where they might be."""
from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=None)
def _pattern(fragment: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(fragment)}(?!\w)")


def found(fragment: str, text: str) -> bool:
    """`fragment` is in `text` as whole words."""
    return fragment in text and _pattern(fragment).search(text) is not None


def count(fragment: str, text: str) -> int:
    """How many times `fragment` is in `text` as whole words."""
    return len(_pattern(fragment).findall(text)) if fragment in text else 0
