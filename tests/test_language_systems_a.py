"""The Sixes System and Six Shooter speak French and German: every PDF and
site page of their starter games, rendered in-process in each language,
holds none of their domains' English messages whose translation differs,
writes its numbers the language's way (56,3 %), and `sixes check` (the fit of
every text in its box) passes for a starter game in that language.

The starter data stays English (it is the GM's words, not the tool's): its
texts are taken out of the page before looking, and a message is looked for
by its literal words between placeholders, only where those hold at least
two words (a single word, "Dice", could be a name).
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

import pytest
import yaml
from babel.messages.pofile import read_po
from click.testing import CliRunner
from po_forms import forms
from whole_words import found as found_whole

from generator.commands.cli import main
from generator.core.i18n import LOCALES_DIR, PLACEHOLDER, speaking, words_for
from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems import by_slug

SYSTEMS = ("sixes-system", "six-shooter")
LANGUAGES = ("fr", "de")


def page_text(rendered: str) -> str:
    """What a reader sees of a rendered page or document: no tags, styles,
    charts' drawing or Markdown emphasis; entities decoded; one space a run."""
    text = re.sub(r"<style.*?</style>|<svg.*?</svg>", " ", rendered, flags=re.S)
    text = re.sub(r"<[^>]+>|\*\*", " ", text)
    return re.sub(r"[ \t\r\n\f\v]+", " ", html.unescape(html.unescape(text))).strip()   # keeping no-break spaces


def data_texts(slug: str) -> list[str]:
    """Every text of the system's starter data of two words or more, longest first."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.append(" ".join(value.split()))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in by_slug()[slug].starter.parent.rglob("*.yaml"):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return sorted({text for text in found if len(text.split()) >= 2}, key=len, reverse=True)


@lru_cache(maxsize=None)
def rendered(slug: str, language: str) -> dict[str, str]:
    """Every site page and document of the system's starter game, as text, in `language`."""
    system = by_slug()[slug]
    out = {}
    with speaking(words_for(language)):
        game, problems = system.load(system.starter, system.starter.parent)
        assert game is not None, problems
        for page in system.pages(game):
            markdown = render_template(page.template, {**page.context, "page_title": page.title, "downloads": []})
            if page.path == "rulings.md":      # the rulings themselves are data (rulings.yaml): title and intro only
                markdown = "\n\n".join(markdown.split("\n\n")[:2])
            out[page.path] = page_text(markdown)
        for doc in system.documents(game):
            out[doc.slug] = doc.title + " " + page_text(document_html(doc))
    for name, text in out.items():
        for data in data_texts(slug):
            text = text.replace(data, " ")
        out[name] = text
    return out


def english_phrases(slug: str, language: str) -> list[str]:
    """The literal runs of at least two words of the domain's messages that
    the language translates differently (a run the translation keeps, such
    as "A =", is no sign of English)."""
    with (LOCALES_DIR / f"{slug}.pot").open("rb") as file:
        template = read_po(file)
    words = words_for(language)
    phrases = []
    for message in template:
        if not message.id:
            continue
        ids = forms(message.id)
        for n, english in enumerate(ids, start=1):
            if message.context:
                translated = words.pgettext(message.context, english)
            elif len(ids) > 1:
                translated = words.ngettext(ids[0], ids[1], n)
            else:
                translated = words.gettext(english)
            if translated == english:
                continue
            for run in PLACEHOLDER.split(english):
                run = " ".join((run or "").split()).strip(" .,:;()")
                if len(run.split()) >= 2 and run not in " ".join(translated.split()):
                    phrases.append(run)
    return sorted(set(phrases))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SYSTEMS)
def test_no_english_message_is_left(slug, language):
    phrases = english_phrases(slug, language)
    assert len(phrases) > 100                 # the catalogue is there: the check below is not empty
    left = [f"{name}: {phrase!r}" for name, text in rendered(slug, language).items() for phrase in phrases
            if found_whole(phrase, text)]
    assert left == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SYSTEMS)
def test_numbers_read_the_languages_way(slug, language):
    texts = rendered(slug, language)
    everything = " ".join(texts.values())
    documents = " ".join(text for name, text in texts.items() if not name.endswith(".md"))
    assert re.search(r"\d\u00a0%", documents), "no percentage written 56 % (a no-break space) on a PDF"
    assert re.search(r"\d,\d\s%", everything), "no percentage with decimals written 56,3 %"
    assert re.search(r"(?<![\d.])\d+,\d+(?![\d\u00a0%])", everything), "no decimal written 3,5"
    english = [f"{name}: {m.group(0)}" for name, text in texts.items()
               for m in re.finditer(r"\d+\.\d+|\d%", text)]
    assert english == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fit_check_passes(language, tmp_path):
    """A starter game of these two systems in `language`: every text fits its box."""
    game = tmp_path / "game"
    made = CliRunner().invoke(main, ["new", str(game), "--language", language])
    assert made.exit_code == 0, made.output
    settings = game / "sixes.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + f"systems: [{', '.join(SYSTEMS)}]\n", encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", "--data", str(game), "--strict"])
    assert checked.exit_code == 0, checked.output
    assert "Six Shooter" in checked.output and "Sixes System" in checked.output
