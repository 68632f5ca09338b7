"""The Sixes material in French and German: the starter game in each
language (the shared build of tests/language_games.py), checked (the fit
check), and no English message of the `sixes` catalogue domain whose translation differs
left in the PDFs' text (pdftotext) or the Sixes site pages; numbers read the
language's way. The starter's data stays English (a game's own words are its
data), so English that the data itself holds is no leak."""
from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner
from language_games import built_language_game
from whole_words import found as found_whole

from generator.commands.cli import main
from generator.core.i18n import LOCALES_DIR, _, speaking, words_for
from po_forms import forms

LANGUAGES = ("fr", "de")
SYSTEM = "sixes"
# A placeholder of a template (%(name)s) or Python ({name}) message.
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module", params=LANGUAGES)
def built(request, tmp_path_factory) -> tuple[str, Path, str]:
    """The starter game in the language as every language test reads it
    (tests/language_games.py: built once per run, shared by the workers):
    its folder's fit check, and its built output folder."""
    game = built_language_game(request.param, tmp_path_factory, request.config)
    checked = CliRunner().invoke(main, ["check", "--data", str(game.folder)])
    return game.language, game.out, checked.output + f"\n(exit {checked.exit_code})"


def pdf_texts(out: Path) -> dict[str, str]:
    pdfs = sorted((out / "pdf" / "a4" / SYSTEM).rglob("*.pdf"))
    assert {p.stem for p in pdfs} >= {"hand-signal-cards", "rules-reference", "gm-cheat-sheet", "balance-report",
                                      "first-rival"}
    return {p.name: words(subprocess.run(["pdftotext", "-raw", str(p), "-"], capture_output=True, text=True,
                                         check=True).stdout) for p in pdfs}


# The pages templates/sixes/site/ writes. The system's hand-written page
# (site/sixes/index.md) is a Markdown file, not messages: not this domain's.
PAGES = ("game", "actions", "speed-slots", "specials", "fights", "rulings")


def page_texts(out: Path) -> dict[str, str]:
    pages = [out / "site" / SYSTEM / f"{name}.html" for name in PAGES]
    assert all(p.is_file() for p in pages)
    return {str(p.relative_to(out)): words(html.unescape(re.sub(r"<[^>]+>", " ", p.read_text(encoding="utf-8"))))
            for p in pages}


def data_text(folder: Path, language: str) -> str:
    """Where English is expected: every word of the game's own data, and the
    English the rulings' translations quote on purpose ("tours (rounds)",
    where a ruling weighs the source's own words)."""
    with (LOCALES_DIR / language / f"{SYSTEM}-rulings.po").open("rb") as file:
        quoted = [str(message.string) for message in read_po(file, locale=language) if message.id]
    own = [f.read_text(encoding="utf-8") for f in sorted(folder.rglob("*.yaml"))
           if "output" not in f.relative_to(folder).parts]
    return words(" ".join(own + quoted))


def english_fragments(language: str) -> list[str]:
    """The English text of each message this domain translates differently,
    cut at its placeholders: what would show if the message were left English."""
    with (LOCALES_DIR / language / f"{SYSTEM}.po").open("rb") as file:
        catalogue = read_po(file, locale=language)
    fragments = set()
    for message in catalogue:
        if not message.id:
            continue
        ids = forms(message.id)
        strings = forms(message.string)
        for english, translated in zip(ids, strings, strict=False):
            if english == translated:
                continue
            for part in PLACEHOLDER.split(english):
                part = words(part).strip(" .,:;()\"")
                if len(part) >= 3 and part not in translated:
                    fragments.add(part)
    return sorted(fragments)


def leaks(fragments: list[str], texts: dict[str, str], data: str) -> list[str]:
    found = []
    for fragment in fragments:
        if found_whole(fragment, data):
            continue
        found += [f"{name}: {fragment!r}" for name, text in texts.items() if found_whole(fragment, text)]
    return found


def test_the_starter_game_fits_its_boxes_in_the_language(built):
    language, out, checked = built
    assert "(exit 0)" in checked and "OK:" in checked, checked


def test_no_english_message_is_left_in_the_pdfs(built):
    language, out, _ = built
    texts = pdf_texts(out)
    assert leaks(english_fragments(language), texts, data_text(out.parent, language)) == []


def test_no_english_message_is_left_in_the_site_pages(built):
    language, out, _ = built
    texts = page_texts(out)
    assert leaks(english_fragments(language), texts, data_text(out.parent, language)) == []


def test_the_translations_are_printed_and_numbers_read_the_languages_way(built):
    """The check above would pass on empty output: here the translated words
    are there, and a percentage is written as the language writes it."""
    language, out, _game = built
    texts = pdf_texts(out)
    sheet, cards, report = texts["first-rival.pdf"], texts["hand-signal-cards.pdf"], texts["balance-report.pdf"]
    english = ("Your speed slots", "Killing blows.", "Fight balance report")
    with speaking(words_for(language)):
        expected = tuple(_(message) for message in english)
    assert set(expected).isdisjoint(english), expected      # each is translated
    assert expected[0] in sheet and expected[1].rstrip(".") in cards and expected[2] in report
    # 56 %: French puts a (narrow) no-break space before the sign; German writes 56 %.
    assert re.search(r"\d[\u202f\u00a0 ]%", report) and not re.search(r"\d%", report)
