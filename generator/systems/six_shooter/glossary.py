"""Six Shooter's words for its own ideas (core/glossary.py): every sheet,
card, site page and pack print these, looked up by id.

Core layer: data only. The outcome words carry their legend line too (ruling
outcome-words): `TERMS` prints the legends, `GLOSSARY` the words alone, both
from this one table.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.glossary import Glossary, Term
from ...core.i18n import N_, _


@dataclass(frozen=True)
class Outcome:
    """A word printed for an outcome, and what it means: the legend line.
    Both are English message ids, translated when printed (core/i18n.py)."""

    word: str
    gloss: str

    @property
    def label(self) -> str:
        return _(self.word)

    @property
    def meaning(self) -> str:
        return _(self.gloss)


# A roll against a Critical Number has three outcomes, and two totals are
# printed: `overcome` = clean + costly, `roll_hand` = costly + fail. The keys
# match RollOdds: clean, with_hand, failure, success, hand_roll. "Win" is kept
# for contests between Operators, where someone loses.
TERMS = {
    "cn": Outcome(N_("CN"), N_("Critical Number for the method used, +1 per strike held (7 at most)")),
    "clean": Outcome(N_("Clean"), N_("die above the CN: overcome, no hand roll (a CN of 0 or less needs no roll)")),
    "with_hand": Outcome(N_("Costly"), N_("die equal to the CN: overcome, then roll your hand")),
    "failure": Outcome(N_("Fail"), N_("die below the CN: not overcome, and roll your hand")),
    "success": Outcome(N_("Overcome"), N_("die at or above the CN: the challenge is overcome")),
    "hand_roll": Outcome(N_("Roll hand"), N_("die at or below the CN: roll your hand")),
    "first_wins": Outcome(N_("You win"), N_("they gain a strike (or give in) before you do")),
    "both_struck": Outcome(N_("Both struck"), N_("both gain a strike in the same exchange, and both lose")),
    "second_wins": Outcome(N_("They win"), N_("you gain a strike (or give in) before they do")),
}

GLOSSARY = Glossary({
    **{key: Term(outcome.word) for key, outcome in TERMS.items()},
    # A player's sheet is an Operator's, never a character's.
    "sheet": Term("Operator sheet", avoid=(r"(?i)\bcharacter sheets?\b",)),
    # Two A4 pages for the GM are a sheet; a card is cut to card size.
    "gm_sheet": Term("Critical Number sheet", avoid=(r"\bCritical Number cards?\b",)),
    "challenge_cards": Term("challenge cards"),
    "reference": Term("player reference"),
    "lucky_numbers": Term("Lucky Numbers"),
})

# The four descriptors are named by id in the data (rules.yaml checks them
# against the rules' own four, in English); a sheet prints them in its language.
DESCRIPTOR_WORDS = {"Dangerous": N_("Dangerous"), "Sharp": N_("Sharp"), "Sly": N_("Sly"), "Charming": N_("Charming")}


def descriptor_word(name: str) -> str:
    """A descriptor's id as the sheet prints it ("Dangerous" is "Dangereux" in French)."""
    return _(DESCRIPTOR_WORDS[name])
