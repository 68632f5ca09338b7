"""A game in French or German shows none of the tool's English words
(issue 33): `sixes new --language fr` built whole (every system's PDFs, the
site) and packed, and every text read back, PDFs with pdftotext and pages
as a reader sees them, scanned for each English message of the catalogues
whose translation differs. Numbers read the language's way everywhere.

The starter's own data stays English (it is the GM's text, not the
tool's), so a message that also occurs in the data cannot tell the two
apart and is not looked for; the rest are.
"""
from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from processes import PATIENCE

from generator.core import i18n
from generator.core.paths import SITE_SOURCES_DIR
from generator.game.catalogue import tool_messages
from language_games import built_language_game
from whole_words import found as found_whole

SHIPPED = ["fr", "de"]
# A fragment of a message worth looking for: two words, or one long word.
_WORDS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


class _Text(HTMLParser):
    """A page's text as a reader sees it: no script, style or template."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template", "svg"):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "svg") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def page_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return _spaced(" ".join(parser.parts))


def pdf_text(path: Path) -> str:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True, timeout=PATIENCE).stdout
    return _spaced(text)


def _spaced(text: str) -> str:
    """Runs of breaking whitespace as one space; no-break spaces stay (56,3 %)."""
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip()


def english_fragments(language: str, data_text: str) -> dict[str, str]:
    """fragment -> its message: the English words of each message whose
    translation differs, cut at placeholders, that the data does not hold."""
    words = i18n.words_for(language)
    # Words the language's own translations use too (a French "round" is French): never the tool's English.
    theirs = " ".join(str(m.string) for po in sorted((i18n.LOCALES_DIR / language).glob("*.po"))
                      for m in read_po(BytesIO(po.read_bytes())) if m.id and m.string)
    theirs += " ".join(p.read_text(encoding="utf-8") for p in SITE_SOURCES_DIR.rglob(f"*.{language}.md"))
    found: dict[str, str] = {}
    for (message_id, context), _message in tool_messages().items():
        shown = words.pgettext(context, message_id) if context else words.gettext(message_id)
        if shown == message_id:
            continue
        for fragment in re.split(r"%\(\w+\)[sdif]|\{\w*\}", message_id):
            fragment = " ".join(fragment.split()).strip(" .,:;!?()")
            names = _WORDS.findall(fragment)
            if (len(names) >= 2 or any(len(n) >= 6 for n in names)) and fragment.lower() not in data_text \
                    and not found_whole(fragment, theirs):
                found[fragment] = message_id
    return found


@pytest.fixture(scope="module", params=SHIPPED)
def game(request, tmp_path_factory):
    return built_language_game(request.param, tmp_path_factory, request.config)


def test_no_english_word_of_the_tool_in_any_pdf_or_page(game):
    fragments = english_fragments(game.language, game.data_text)
    assert len(fragments) > 50          # the catalogues hold the tool's words: the scan has something to find
    texts = {p.relative_to(game.out).as_posix(): pdf_text(p) for p in sorted(game.out.rglob("*.pdf"))}
    texts |= {p.relative_to(game.out).as_posix(): page_text(p) for p in sorted((game.out / "site").rglob("*.html"))}
    assert len(texts) > 40
    left = {}
    for name, text in texts.items():
        if hits := sorted(f for f in fragments if found_whole(f, text)):
            left[name] = hits[:8]
    assert left == {}


def test_percentages_are_written_the_languages_way(game):
    odds = [p for p in (game.out / "site").rglob("odds*.html")]
    assert odds
    text = " ".join(page_text(p) for p in odds)
    assert re.search(r"\d,\d\u00a0%", text), text[:400]
    assert not re.search(r"\d\.\d%", text)
    pdfs = " ".join(pdf_text(p) for p in game.out.rglob("*odds*.pdf"))
    assert re.search(r"\d,\d\s?%", pdfs) and not re.search(r"\d\.\d%", pdfs)


def test_every_page_and_pdf_says_its_language(game):
    for page in (game.out / "site").rglob("*.html"):
        assert f'<html lang="{game.language}"' in page.read_text(encoding="utf-8")[:2000], page
    for pdf in sorted(game.out.rglob("*.pdf")):
        language, title = pdf_language_and_title(pdf)
        assert language == game.language and title.strip(), pdf


def test_every_link_within_the_site_reaches_its_anchor(game):
    """A heading's id comes from its words, so a translated heading moves
    its anchor: every heading another page links to carries a fixed id."""
    site = game.out / "site"
    ids = {p: set(re.findall(r'\bid="([^"]+)"', p.read_text(encoding="utf-8"))) for p in site.rglob("*.html")}
    broken = []
    for page, text in ((p, p.read_text(encoding="utf-8")) for p in ids):
        for target, anchor in re.findall(r'href="([^":?#]*\.html|)#([^"]+)"', text):
            path = (page.parent / target).resolve() if target else page
            if path in ids and anchor not in ids[path]:
                broken.append(f"{page.relative_to(site)} -> {target}#{anchor}")
    assert broken == []


def test_every_pdf_in_the_language_passes_the_independent_pdf_ua_check(game):
    """Tagged in French and German too: the language, the title, the
    structure, the icons' alternative text (in the language), checked by
    the `pdfua` package on every PDF of the build and the pack."""
    from test_pdf_accessibility import failures
    pdfs = sorted(game.out.rglob("*.pdf"))
    assert len(pdfs) > 20 and failures(pdfs) == {}


def pdf_language_and_title(path: Path) -> tuple[str, str]:
    """The PDF's declared /Lang and its document title."""
    import pikepdf
    with pikepdf.open(path) as pdf:
        return str(pdf.Root.get("/Lang", "")), str(pdf.open_metadata().get("dc:title", ""))
