"""I6 and D6xD6 in French and German: their starter documents and site pages,
rendered in-process in each language, hold none of the English messages of
their catalogues (the i6 and d6xd6 domains) whose translation differs, and
write their numbers the language's way; `sixes check` (the fit of text in
the cards' boxes) passes for a French and a German game of these two systems.

A message is found in the output by its fixed text (the parts between its
placeholders), as whole words. Data values (names, rules from YAML) are not
messages and stay as the game wrote them, so a part may be there by right:
a third rendering, where every message of the two domains prints as a mark,
counts those, and a translated rendering may hold a part no more often.
"""
from __future__ import annotations

import gettext
import html
import re
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from language_games import built_language_game
from whole_words import count

from generator.core import i18n
from generator.core.i18n import speaking, words_for
from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems import by_slug
from po_forms import forms

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("i6", "d6xd6")
LANGUAGES = ("fr", "de")
# A part of a message shorter than this is a word that data may hold by chance ("TN", "or").
SHORTEST_PART = 4
TAG = re.compile(r"<style.*?</style>|<[^>]+>", re.S)
SPACES = re.compile(r"[ \t\r\n]+")      # not the no-break spaces a language writes


class Marked(gettext.NullTranslations):
    """English, but every message of the two domains prints as a mark: what
    is left of a part in that rendering came from the data."""

    def __init__(self, ids: set[str]):
        super().__init__()
        self.ids = ids

    def gettext(self, message):
        return "\u00a4" if message in self.ids else message

    def ngettext(self, singular, plural, n):
        return "\u00a4" if singular in self.ids else (singular if n == 1 else plural)

    def pgettext(self, context, message):
        return self.gettext(message)


MARKED = "marked"


def words(language: str) -> i18n.Words:
    if language != MARKED:
        return words_for(language)
    ids = {english for slug in SYSTEMS for english, _ in messages(slug, "fr", every=True)}
    return i18n.Words("en", Marked(ids))


@lru_cache(maxsize=None)
def rendered(slug: str, language: str) -> dict[str, str]:
    """Every starter page and document of `slug`, as the text a reader sees, in `language`."""
    system = by_slug()[slug]
    with speaking(words(language)):
        game, problems = system.load(system.starter, system.starter.parent)
        assert game is not None, problems
        out = {}
        for page in system.pages(game):
            out[page.path] = render_template(page.template, {**page.context, "page_title": page.title,
                                                             "downloads": []})
        for doc in system.documents(game):
            out[f"{doc.folder}/{doc.slug}.html"] = document_html(doc)
    return {name: SPACES.sub(" ", html.unescape(TAG.sub(" ", text))) for name, text in out.items()}


def messages(slug: str, language: str, every: bool = False) -> list[tuple[str, str]]:
    """(English text, its translation) of each message of the domain whose
    translation differs (`every`: of each message)."""
    with (i18n.LOCALES_DIR / language / f"{slug}.po").open("rb") as file:
        catalogue = read_po(file)
    pairs = []
    for message in catalogue:
        if not message.id:
            continue
        ids = forms(message.id)
        strings = forms(message.string)
        pairs += [(english, text) for english, text in zip(ids, strings, strict=True) if every or english != text]
    return pairs


def parts(message: str) -> list[str]:
    """The fixed text of a message between its placeholders, long enough to mean it."""
    return [p.strip() for p in i18n.PLACEHOLDER.split(message)[::3] if len(p.strip()) >= SHORTEST_PART]




@pytest.mark.parametrize("slug", SYSTEMS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_message_is_left_in_the_output(slug, language):
    data_only = " ".join(rendered(slug, MARKED).values())
    translated = " ".join(rendered(slug, language).values())
    left = []
    # Words the language's own translations also use (German "Band" in a ruling) are its words too.
    theirs = " ".join(text for domain in sorted(p.stem for p in (i18n.LOCALES_DIR / language).glob("*.po"))
                      for _english, text in messages(domain, language, every=True))
    for message, translation in messages(slug, language):
        for part in parts(message):
            if part in translation or count(part, theirs):      # the language writes it the same ("Initiative")
                continue
            # Data that holds the words too ("Shooting", an ability) cannot tell them apart: counting
            # them would not either, since a translated card may run to a continuation card.
            if count(part, translated) and not count(part, data_only):
                left.append(part)
    assert sorted(set(left)) == []


def test_the_english_rendering_holds_the_messages_the_check_looks_for():
    """The check above can fail: the English output holds most of the
    messages' parts more often than the data alone does."""
    for slug in SYSTEMS:
        english = " ".join(rendered(slug, "en").values())
        data_only = " ".join(rendered(slug, MARKED).values())
        found = [part for message, _ in messages(slug, "fr") for part in parts(message)
                 if count(part, english) > count(part, data_only)]
        assert len(found) > 80, slug


# A percentage: "56,3 %" (no-break space) in French and German, never "56.3%".
PERCENT = {"fr": re.compile(r"\d,\d\u00a0%"), "de": re.compile(r"\d,\d\u00a0%")}
ENGLISH_PERCENT = re.compile(r"\d\.\d%")


@pytest.mark.parametrize("slug", SYSTEMS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_numbers_are_written_the_languages_way(slug, language):
    text = " ".join(rendered(slug, language).values())
    assert PERCENT[language].search(text)
    assert not ENGLISH_PERCENT.search(text)


def test_a_large_figure_is_grouped_the_languages_way():
    """The odds page's one chance in a million million, grouped by a no-break space in French."""
    assert "1,000,000,000,000" in rendered("i6", "en")["odds.md"]
    assert re.search(r"1(\u00a0000){4}\b", rendered("i6", "fr")["odds.md"])
    assert "1.000.000.000.000" in rendered("i6", "de")["odds.md"]


def test_the_hero_sheet_speaks_french():
    """Spot checks that the catalogue is the one read: headings, a plural, a placeholder."""
    sheet = next(text for name, text in rendered("i6", "fr").items() if name.startswith("players/"))
    assert "Atouts et équipement" in sheet
    assert "Vos chances" in sheet
    assert re.search(r"Cases de blessure\u00a0: \d+", sheet)


SIXES = Path(sys.executable).parent / "sixes"


@pytest.fixture(scope="module")
def two_system_game(tmp_path_factory):
    """A new game (`sixes new --language`) in each language, cut down to I6 and D6xD6."""
    games = {}
    for language in LANGUAGES:
        folder = tmp_path_factory.mktemp(f"game-{language}") / "game"
        result = subprocess.run([str(SIXES), "new", str(folder), "--language", language], capture_output=True,
                                text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert f"language: {language}" in (folder / "sixes.yaml").read_text(encoding="utf-8")
        for slug in ("sixes", "six-shooter", "sixes-system"):
            shutil.rmtree(folder / slug)
        games[language] = folder
    return games


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fit_check_passes(two_system_game, language):
    result = subprocess.run([str(SIXES), "check"], capture_output=True, text=True, timeout=600,
                            cwd=two_system_game[language])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(D6xD6, I6)" in result.stdout


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdfs_build_without_overlaps(language, tmp_path_factory, request):
    """The build's own lint (text over a card's footer, a box overflowing):
    `check` measures the bounded fields only, not every card's fixed text.
    The starter in the language is built once for every language test
    (tests/language_games.py); a build with a lint fault would have failed."""
    game = built_language_game(language, tmp_path_factory, request.config)
    for slug in SYSTEMS:
        pdfs = sorted((game.out / "pdf" / "a4" / slug).rglob("*.pdf"))
        assert pdfs and all(p.stat().st_size > 1000 for p in pdfs), slug
    assert (game.out / "pdf" / "a4" / "i6" / "public" / "odds-card.pdf").is_file()
