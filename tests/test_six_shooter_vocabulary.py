"""Six Shooter's words for the outcome of a roll (issue 18, point 9): one
name per quantity on every card, sheet, chart and site page, and a legend
wherever such a name is printed. Read from the rendered HTML and Markdown of
the example adventure (no PDF engine needed)."""
from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser
from typing import Any

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.charts import percent
from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems.six_shooter import SYSTEM
from generator.systems.six_shooter.outputs import TERMS
from generator.systems.six_shooter.rules import odds, roll_odds

# The source's three cases, by hand, as (die compared with the CN) -> (overcome?, roll the hand?).
# Above: overcome, no hand roll. Equal: overcome, and roll the hand. Below: not overcome, roll the hand.
CASES = {"above": (True, False), "equal": (True, True), "below": (False, True)}
# Which quantity each printed word stands for, as written in this test:
# a word names one case, or the cases it adds up.
MEANS = {"Clean": ("above",), "Costly": ("equal",), "Fail": ("below",),
         "Overcome": ("above", "equal"), "Roll hand": ("equal", "below")}


@lru_cache(maxsize=None)
def outputs() -> dict[str, str]:
    """Every Six Shooter document (HTML) and site page (Markdown) of the example adventure."""
    game, problems = SYSTEM.load(DEFAULT_DATA_DIR / "six-shooter", DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    out = {}
    for page in SYSTEM.pages(game):
        out[page.path] = render_template(page.template, {**page.context, "page_title": page.title, "downloads": []})
    for doc in SYSTEM.documents(game):
        out[f"{doc.folder}/{doc.slug}.html"] = document_html(doc)
    return out


def visible(text: str) -> str:
    """Text as a reader sees it: no tags, no SVG, entities decoded, Markdown bold dropped."""
    import html
    text = re.sub(r"<svg.*?</svg>", " ", text, flags=re.S)
    text = re.sub(r"</?(b|i|em|strong|span)\b[^>]*>", "", text)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("**", "")
    return " ".join(text.split())


def chance(case_names: tuple[str, ...], effective: int):
    """The chance of the named cases at an effective Critical Number, counted on the die here."""
    if effective <= 0:
        return 1 if "above" in case_names else 0
    hits = 0
    for die in range(1, 7):
        case = "above" if die > effective else "equal" if die == effective else "below"
        hits += case in case_names
    from fractions import Fraction
    return Fraction(hits, 6)


def test_the_words_match_the_sources_three_cases():
    """A die above the CN overcomes the challenge; equal overcomes it "but the
    player must Roll Their Hand"; below does not overcome it, and the hand is
    rolled. Each printed word names exactly the cases this test gives it."""
    for label, cases in MEANS.items():
        term = next(t for t in TERMS.values() if t.label == label)
        overcome = {CASES[c][0] for c in cases}
        hand = {CASES[c][1] for c in cases}
        if overcome == {True}:
            assert "overcome" in term.meaning and "not overcome" not in term.meaning, label
        if hand == {True}:
            assert "roll your hand" in term.meaning, label
        if hand == {False}:
            assert "no hand roll" in term.meaning, label
    for effective in range(0, 8):
        o = roll_odds(effective)
        for label, attr in (("Clean", "clean"), ("Costly", "with_hand"), ("Fail", "failure"),
                            ("Overcome", "success"), ("Roll hand", "hand_roll")):
            assert getattr(o, attr) == chance(MEANS[label], effective), (label, effective)
            assert TERMS[attr].label == label


@pytest.mark.parametrize("name", sorted(outputs()))
def test_win_is_only_said_of_contests(name):
    """"Win" once meant a clean success on the Critical Number sheet and any
    success on the challenge cards and site. The text only speaks of a
    contest's loser, so win is kept for contests and nothing else."""
    if name == "rulings.md":
        return   # the ruling on these words discusses the old usage
    text = visible(outputs()[name])
    words = re.findall(r"\b(\w+ )?(wins?|winning|won)\b", text, flags=re.I)
    if name == "contests.md":
        assert words and all(before.strip().lower() in ("you", "they", "operator") for before, _ in words), words
    else:
        assert words == [], words


class Tables(HTMLParser):
    """Rows of cell texts of every table, and the texts of every SVG."""

    def __init__(self):
        super().__init__()
        self.tables: list[Any] = []
        self.svgs: list[list[str]] = []
        self._cell: list | None = None
        self._svg: list[str] | None = None
        self._in_text = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = [tag, dict(attrs), ""]
        elif tag == "svg":
            self._svg = []
        elif tag == "text" and self._svg is not None:
            self._svg.append("")
            self._in_text = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append((self._cell[0], self._cell[1], " ".join(self._cell[2].split())))
            self._cell = None
        elif tag == "text":
            self._in_text = False
        elif tag == "svg" and self._svg is not None:
            self.svgs.append(self._svg)
            self._svg = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data
        if self._in_text and self._svg is not None:
            self._svg[-1] += data


def parsed(name: str) -> Tables:
    parser = Tables()
    parser.feed(outputs()[name])
    return parser


def markdown_tables(text: str) -> list[list[list[str]]]:
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip().replace("**", "") for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-:") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


LABELS = {t.label: key for key, t in TERMS.items() if key in ("clean", "with_hand", "failure", "success", "hand_roll")}


def test_the_critical_number_card_names_each_column_by_what_it_holds():
    """On the GM's card each strike group's columns hold exactly what their
    word means: Clean is above the number only, never every success."""
    table = parsed("public/critical-number-sheet.html").tables[0]
    labels = [c[2] for c in table[1]]
    assert labels == ["Clean", "Costly", "Fail"] * 3
    checked = 0
    for row in table[2:]:
        cells = [c[2] for c in row]
        if not cells[0].isdigit():
            continue
        base = int(cells[0])
        for i, label in enumerate(labels):
            cases = MEANS[label]
            from generator.systems.six_shooter.rules import effective_critical
            assert cells[2 + i] == percent(chance(cases, effective_critical(base, i // 3)), 0), (base, label)
            assert cells[2 + i] == percent(getattr(odds(base, i // 3), LABELS[label]), 0)
            checked += 1
    assert checked == 7 * 9


def test_challenge_cards_and_the_site_give_one_word_one_number():
    """The challenge cards and the site's example challenges print the same
    two words, and each holds the chance of the cases its word names."""
    seen = 0
    for table in parsed("gm/challenge-cards.html").tables:
        labels = [c[2] for c in table[0]]
        assert labels == ["Method", "CN", "Overcome", "Roll hand"]
        for row in table[1:]:
            cells = [c[2] for c in row]
            if cells[1] == "Impossible":
                continue
            for label, value in zip(labels[2:], cells[2:], strict=True):
                assert value == percent(chance(MEANS[label], int(cells[1])), 0), (cells, label)
                seen += 1
    for table in markdown_tables(outputs()["challenges.md"]):
        labels = table[0]
        assert labels[:4] == ["Method", "CN", "Overcome", "Roll hand"]
        for cells in table[1:]:
            if cells[1] == "impossible":
                continue
            number = int(cells[1].split()[0])
            for label, value in zip(labels[2:4], cells[2:4], strict=True):
                assert value == percent(chance(MEANS[label], number)), (cells, label)
                seen += 1
    assert seen > 40


def test_the_odds_page_uses_the_cards_words():
    seen = 0
    for table in markdown_tables(outputs()["odds.md"]):
        if table[0][:2] != ["CN", "Faced as"]:
            continue
        assert table[0][2:] == ["Clean", "Costly", "Fail"]
        for cells in table[1:]:
            for label, value in zip(table[0][2:], cells[2:], strict=True):
                assert value == percent(chance(MEANS[label], int(cells[1]))), (cells, label)
                seen += 1
    assert seen == 3 * 7 * 3


# Which words each output prints, and so must explain.
LEGENDS = {
    "public/critical-number-sheet.html": ("cn", "clean", "with_hand", "failure"),
    "gm/challenge-cards.html": ("success", "hand_roll"),
    "public/operator-sheet.html": ("cn", "success"),
    "public/player-reference.html": ("cn", "success"),
    "odds.md": ("cn", "clean", "with_hand", "failure", "success", "hand_roll"),
    "challenges.md": ("cn", "success", "hand_roll"),
    "contests.md": ("first_wins", "both_struck", "second_wins"),
}


@pytest.mark.parametrize("name", sorted(outputs()))
def test_every_card_sheet_and_page_explains_the_words_it_prints(name):
    """A legend beside every table of outcomes: each word a heading or a
    chart's key uses is explained, in the same words, in the same output."""
    text = visible(outputs()[name])
    used = set(LEGENDS.get(name, ()))
    tables = parsed(name)
    headings = {c[2] for t in tables.tables for row in t for c in row if c[0] == "th"}
    headings |= {c for t in markdown_tables(outputs()[name]) for c in t[0]}
    keys_by_label = {t.label: k for k, t in TERMS.items()}
    used |= {keys_by_label[h] for h in headings if h in keys_by_label}
    for key in used:
        term = TERMS[key]
        assert f"{term.label}: {term.meaning}." in text, (name, key)
    if name == "gm/challenge-cards.html":     # the deck's key card explains it once for every card (issue 27)
        legend = f"{TERMS['success'].label}: {TERMS['success'].meaning}."
        assert text.count(legend) == 1 and text.index("Reading these cards") < text.index(legend), text


@pytest.mark.parametrize("name", sorted(outputs()))
def test_every_chart_has_a_key(name):
    """Bar charts carry a key of their series, even a single one; line charts
    a key that pairs each line's label with its dash and marker."""
    for texts in parsed(name).svgs:
        labels = {t.label for t in TERMS.values()}
        if any(t in labels for t in texts):
            continue
        lines = [t for t in texts if t.startswith("CN ")]
        assert lines and all(texts.count(t) == 2 for t in lines), texts   # in the key and at the line's end


def test_the_site_has_charts_to_check():
    assert sum(len(parsed(n).svgs) for n in outputs()) >= 6
