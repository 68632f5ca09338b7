"""The documents and site pages Six Shooter contributes, as data.

Core layer: builds template contexts from a loaded adventure and the pure
rules; it never renders. Odds stay exact Fractions here; templates format.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Sequence, TypeVar

from ...core.i18n import N_, _
from ...core.privacy import public_only
from ..base import CARD_SHEET, Card, CastEntry, Document, Page, gm_notes_document
from .contest import ContestOdds, Side, contest_odds
from .dataset import Adventure, operator_slug
from .glossary import GLOSSARY, TERMS, descriptor_word
from .markov import Luck, expected_challenges, removal_within
from .models import LUCKY_VALUES, Challenge
from .rules import MAX_WAGER_TOTAL, RollOdds, StageOdds, effective_critical, odds, roll_odds, stage_odds

OPERATOR_SHEET = "operator-sheet"
GM_SHEET = "critical-number-sheet"
CHALLENGE_CARDS = "challenge-cards"
PLAYER_REFERENCE = "player-reference"
BASES = tuple(range(1, 8))
STRIKES = (0, 1, 2)
# How far the luck curves run, and the points the tables quote.
HORIZON = 30
CHECKPOINTS = (5, 10, 15, 20, 30)
# Chosen so the curves end well apart after CHART_HORIZON challenges (their labels sit at the ends).
CHART_BASES = (1, 2, 3, 5)
CHART_HORIZON = 20
LUCK_OPTIONS = ((N_("No Lucky Numbers"), Luck()), (N_("Two Lucky Numbers"), Luck(2)),
                (N_("Two Lucky Numbers, jokers in"), Luck(2, True)))
# Contests are shown late in an adventure: one card face-down, two up, three gone.
LATE_HAND = {"down": 1, "up": 2, "gone": 3}
T = TypeVar("T")


OUTCOMES = ("clean", "with_hand", "failure")
CONTEST = ("first_wins", "both_struck", "second_wins")


@dataclass(frozen=True)
class MethodOdds:
    method: str
    name: str              # as printed, e.g. Danger
    number: int | str      # 1-7 or "impossible"
    label: str             # the guide's short name for the number
    odds: RollOdds | None  # None when impossible
    stages: StageOdds | None


@dataclass(frozen=True)
class LuckRow:
    base: int
    expected: tuple[Fraction, ...]          # one per LUCK_OPTIONS
    curve: tuple[Fraction, ...]             # removed within 0..HORIZON challenges, no luck options
    checkpoints: tuple[Fraction, ...]

    @property
    def points(self) -> list[tuple[int, Fraction]]:
        return list(enumerate(self.curve[:CHART_HORIZON + 1]))


@dataclass(frozen=True)
class ContestRow:
    """One contest scenario; `key` is its English message id, kept in the
    cache (contest_rows) and translated when printed."""

    key: str
    result: ContestOdds

    @property
    def label(self) -> str:
        return _(self.key)


def titled(title: str, document: str) -> str:
    """A document's title after its game's ("Title: damage card"), punctuated the language's way."""
    return _("{title}: {document}").format(title=title, document=document)


def roll_table() -> list[tuple[int, list[tuple[int, RollOdds]]]]:
    """Per base Critical Number: (effective number, odds) at 0, 1 and 2 strikes."""
    return [(base, [(effective_critical(base, s), odds(base, s)) for s in STRIKES]) for base in BASES]


def card_table(adventure: Adventure) -> list[tuple[int, list[Fraction]]]:
    """Chance of success with no card and with each card, at no strikes."""
    return [(base, [odds(base).success] + [odds(base, reduction=c.reduction).success
                                           for c in adventure.card_values]) for base in BASES]


def wager_table() -> list[tuple[int, list[RollOdds]]]:
    """All Or Nothing at no strikes: wager 0 to 3."""
    return [(base, [odds(base, wager=w) for w in range(MAX_WAGER_TOTAL + 1)]) for base in BASES]


@lru_cache(maxsize=None)
def luck_rows() -> tuple[LuckRow, ...]:
    rows = []
    for base in BASES:
        curve = tuple(removal_within(base, HORIZON))
        rows.append(LuckRow(base, tuple(expected_challenges(base, luck) for _name, luck in LUCK_OPTIONS), curve,
                            tuple(curve[n] for n in CHECKPOINTS)))
    return tuple(rows)


@lru_cache(maxsize=None)
def contest_rows() -> tuple[ContestRow, ...]:
    them = Side(**LATE_HAND)
    scenarios = ((N_("Even: no strikes, no cards"), Side(**LATE_HAND)),
                 (N_("You play a 2-10 (-1)"), Side(reduction=1, **LATE_HAND)),
                 (N_("You play a Jack (-2)"), Side(reduction=2, **LATE_HAND)),
                 (N_("You play an Ace (-5)"), Side(reduction=5, **LATE_HAND)),
                 (N_("You wager 2 strikes"), Side(wager=2, **LATE_HAND)),
                 (N_("You hold 1 strike"), Side(strikes=1, **LATE_HAND)),
                 (N_("You hold 2 strikes"), Side(strikes=2, **LATE_HAND)))
    return tuple(ContestRow(label, contest_odds(you, them)) for label, you in scenarios)


def challenge_odds(adventure: Adventure, challenge: Challenge) -> list[MethodOdds]:
    guide: dict[str, str] = {g.critical_number: g.label for g in adventure.guide}
    out = []
    for method, number in challenge.critical_numbers.items():
        name = adventure.by_method[method].method_name
        if isinstance(number, str):      # IMPOSSIBLE, the one word a critical number may be
            out.append(MethodOdds(method, name, number, guide["impossible"], None, None))
            continue
        stages = stage_odds(number, challenge.stages) if challenge.stages > 1 else None
        out.append(MethodOdds(method, name, number, guide[str(number)], roll_odds(number), stages))
    return out


def _common(adventure: Adventure) -> dict:
    """What every document and page may show: nothing secret."""
    return {
        "title": adventure.info.title,
        "blurb": adventure.info.blurb,
        "descriptors": adventure.descriptors,
        "descriptor_word": descriptor_word,
        "card_values": adventure.card_values,
        "guide": adventure.guide,
        "guide_by": {g.critical_number: g for g in adventure.guide},
        "jokers": adventure.info.jokers,
        "lucky_number_cap": adventure.info.lucky_number_cap,
        "lucky_values": LUCKY_VALUES,
        "strike_levels": STRIKES,
        "roll_table": roll_table(),
        "max_wager": MAX_WAGER_TOTAL,
        "terms": TERMS,
        "glossary": GLOSSARY,
        "outcomes": OUTCOMES,
        "contest_outcomes": CONTEST,
    }


def documents(adventure: Adventure) -> list[Document]:
    common = _common(adventure)
    by_descriptor = adventure.by_descriptor
    # A key card first: the words every challenge card uses, explained in full once.
    cards = (Card(_("Key: reading the challenge cards"), "six-shooter/cards/key.html"),) + tuple(
        Card(_("Challenge: {name}").format(name=c.name), "six-shooter/cards/challenge.html",
             {"challenge": c, "methods": challenge_odds(adventure, c), "index": i})
        for i, c in enumerate(adventure.challenges))
    docs = [
        Document(GM_SHEET, titled(adventure.info.title, GLOSSARY["gm_sheet"]), "six-shooter/gm_sheet.html",
                 "public", common, max_pages=2),
        Document(PLAYER_REFERENCE, titled(adventure.info.title, GLOSSARY["reference"]), "six-shooter/reference.html",
                 "public", {**common, "card_table": card_table(adventure)}, max_pages=1),
        Document(OPERATOR_SHEET, _("{title}: blank {sheet}").format(title=adventure.info.title,
                                                                    sheet=GLOSSARY["sheet"]),
                 "six-shooter/operator_sheet.html", "public", {**common, "operator": None, "descriptor": None},
                 max_pages=1),
        # Challenge cards carry GM notes and the numbers a GM may keep hidden.
        Document(CHALLENGE_CARDS, titled(adventure.info.title, GLOSSARY["challenge_cards"]), CARD_SHEET, "gm",
                 {**common, "card_css": "six-shooter/cards.css"},
                 max_pages=(len(cards) + 8) // 9, cards=cards),
    ]
    for op in adventure.operators:
        docs.append(Document(operator_slug(op.name), titled(adventure.info.title, op.name),
                             "six-shooter/operator_sheet.html", "player",
                             {**common, "operator": op, "descriptor": by_descriptor[op.descriptor]}, max_pages=1))
    return docs + gm_notes_document(adventure.info.title, [(op.name, op.gm_notes) for op in adventure.operators])


def on_site(adventure: Adventure, items: Sequence[T]) -> tuple[T, ...]:
    """What of `items` (Operators, challenges) the site may show: the public
    ones of a public adventure. A challenge is private unless it says not."""
    return public_only(items) if adventure.info.visibility == "public" else ()


def cast_list(adventure: Adventure) -> list[CastEntry]:
    """The public crew for the site's cast list: name, descriptor, archetype."""
    return [CastEntry(op.name, descriptor_word(op.descriptor), op.archetype)
            for op in on_site(adventure, adventure.operators)]


def pages(adventure: Adventure) -> list[Page]:
    common = _common(adventure)
    shown = on_site(adventure, adventure.challenges)
    examples = [(c, challenge_odds(adventure, c)) for c in shown]
    return [
        Page("adventure.md", adventure.info.title, "six-shooter/site/adventure.md.j2",
             {**common, "operators": on_site(adventure, adventure.operators), "by_descriptor": adventure.by_descriptor,
              "adventure_shown": adventure.info.visibility == "public", "challenges_shown": bool(shown)},
             downloads=(OPERATOR_SHEET, PLAYER_REFERENCE)),
        Page("odds.md", _("Odds of a roll"), "six-shooter/site/odds.md.j2",
             {**common, "card_table": card_table(adventure), "wager_table": wager_table()},
             downloads=(GM_SHEET, PLAYER_REFERENCE)),
        Page("luck.md", _("How long does my luck last?"), "six-shooter/site/luck.md.j2",
             {**common, "luck": luck_rows(), "luck_options": [_(name) for name, _luck in LUCK_OPTIONS],
              "checkpoints": CHECKPOINTS, "chart_bases": CHART_BASES, "horizon": HORIZON}),
        Page("contests.md", _("Contests and multi-stage challenges"), "six-shooter/site/contests.md.j2",
             {**common, "contests": contest_rows(), "late_hand": LATE_HAND,
              "stage_rows": [(b, [stage_odds(b, k) for k in (2, 3, 4)]) for b in BASES]}),
        Page("challenges.md", _("Example challenges"), "six-shooter/site/challenges.md.j2",
             {**common, "examples": examples, "kept": len(adventure.challenges) - len(shown)}, shown=bool(examples)),
        Page("rulings.md", _("Rulings"), "six-shooter/site/rulings.md.j2", {**common, "rulings": adventure.rulings}),
    ]

