"""A form's grid question read as ranked choices.

Game layer, standard library only. Google Forms exports a grid question
("Rank the characters": a row per character, a column per rank) as one
column per character, headed `Rank the characters [Honoria Vane]`, each cell
holding the rank that player gave it, as the organiser labelled the grid's
columns: `1`, `1st`, `1st choice`, `First`, `Choice 1`. Microsoft Forms'
"Ranking" question exported as CSV has the same shape when each character
is a column. A blank cell means the character was not ranked.

A rank is a whole number from 1 to the number of characters in the grid,
written in any script's decimal digits (`٣` is 3), or an English ordinal
word; anything else (`1e9`, `-1`, `0`, `²`, `2.5`) is refused at its cell,
never guessed.
"""
from __future__ import annotations

import re

_HEADER = re.compile(r"^(.*?)\s*\[([^\[\]]+)\]\s*$", re.DOTALL)
# `\d` is any script's decimal digit (Unicode category Nd), which int() reads;
# a superscript or a fraction is not one.
_RANK = re.compile(r"(?:(?:choice|rank|preference|no\.?|#)\s*)?(\d{1,4})\s*(?:st|nd|rd|th|\.)?"
                   r"(?:\s*(?:choice|preference|pick|place|option))?")
_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
          "eleventh", "twelfth")
_WORD = re.compile(r"(" + "|".join(_WORDS) + r")(?:\s*(?:choice|preference|pick|place|option))?")
RANK_HINT = "a rank is a whole number from 1 (the favourite), or 1st, 2nd… or First, Second…"


def grid_headers(headers: list[str], question: str) -> list[tuple[int, str]]:
    """(column index, the name in brackets) of each column of the grid
    question (`question [name]`; the question compared without case)."""
    wanted = " ".join(question.split()).casefold()
    found = []
    for i, header in enumerate(headers):
        match = _HEADER.match(header.strip())
        if match and " ".join(match.group(1).split()).casefold() == wanted:
            found.append((i, " ".join(match.group(2).split())))
    return found


def grid_rank(text: str, most: int) -> tuple[int | None, str | None]:
    """The rank a cell gives (None for a blank cell), or why it is no rank.
    `most`: the grid's number of characters, the worst rank there is."""
    cell = " ".join(text.split()).casefold()
    if not cell:
        return None, None
    digits, word = _RANK.fullmatch(cell), _WORD.fullmatch(cell)
    if digits is None and word is None:
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "…"
        return None, f"'{shown}' is not a rank"
    value = int(digits.group(1)) if digits is not None else _WORDS.index(word.group(1)) + 1 if word else 0
    if not 1 <= value <= most:
        return None, f"rank {value} is outside 1 to {most} (the characters in the grid)"
    return value, None
