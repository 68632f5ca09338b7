"""A game system's words for its own ideas: one word per idea, looked up by id.

Core layer: pure data, no rendering imports. Each system keeps a `GLOSSARY`
in its `glossary.py`; every template that prints one of these ideas asks the
glossary by id (`{{ terms.speed }}`, `{{ terms["sheet"] }}`) instead of
typing the word, so a sheet, a card, a site page and the fight tracker
cannot drift apart, and a later translation swaps the words of one table.
Each term also lists the other words once used for the same idea (`avoid`):
tests/test_glossary.py reads the example game's documents, pages and tracker
and fails on any of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Mapping

from .i18n import _


@dataclass(frozen=True)
class Term:
    """One idea: the word printed for it, and the words it must not be called.
    `avoid` holds regular expressions matched case-sensitively, so a heading
    ("Fingers") can be refused while the prose word ("fingers") stays."""

    word: str
    avoid: tuple[str, ...] = ()


class Glossary(Mapping[str, str]):
    """Term id -> the word printed. Unknown ids raise KeyError, which Jinja's
    StrictUndefined turns into a failed render: a misspelt id never prints
    nothing."""

    def __init__(self, terms: Mapping[str, Term]):
        self.terms = dict(terms)

    def __getitem__(self, term_id: str) -> str:
        """The word in the game's language (core/i18n.py: the term's English word is its message id)."""
        return _(self.terms[term_id].word)

    def __iter__(self) -> Iterator[str]:
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def other_words(self) -> Iterator[tuple[str, re.Pattern[str]]]:
        """(term id, pattern) for every word the documents must not use."""
        for term_id, term in self.terms.items():
            for pattern in term.avoid:
                yield term_id, re.compile(pattern)

    def misnamed(self, text: str) -> list[str]:
        """'speed: "Fingers" where the glossary says "Speed"' for each other
        word found in `text`, once per word."""
        found = []
        for term_id, pattern in self.other_words():
            for match in dict.fromkeys(m.group(0) for m in pattern.finditer(text)):
                found.append(f'{term_id}: "{match}" where the glossary says "{self[term_id]}"')
        return found
