"""The tool's own words (the `tool` catalogue: page footers, envelope covers,
labels, the roster and manifest, the calibration sheet, the site's games
list, rulings framing, cast list, navigation and footer) in a French and a
German game made by `sixes new --language`. One site and one pack (the Sixes
starter, with labels, backs and its calibration sheet) per language: every
page and PDF is read as text and must hold none of the English messages
whose translation differs, and must hold the translation where the English
would be. The systems' own words are other catalogues, tested with them."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from game_sites import build_site_only, new_game
from generator.core import i18n
from generator.core.i18n import placeholders, speaking, words_for
from po_forms import forms

LANGUAGES = ("fr", "de")
TOOL_POT = i18n.LOCALES_DIR / "tool.pot"
_PLACEHOLDER = re.compile(i18n.PLACEHOLDER.pattern)


@dataclass(frozen=True)
class Made:
    language: str
    game: Path
    site: Path
    pack: Path


@pytest.fixture(scope="module", params=LANGUAGES)
def made(request, tmp_path_factory) -> Made:
    """A starter game in the language with its cast list and one page of its
    own; its site, and the Sixes game's pack (French: covers two a sheet)."""
    import yaml
    from generator.commands.cli import main
    language = request.param
    root = tmp_path_factory.mktemp(f"tool-{language}")
    game = new_game(root / "jeu", language)
    settings = yaml.safe_load((game / "sixes.yaml").read_text(encoding="utf-8"))
    settings["site"]["cast_list"] = True
    (game / "sixes.yaml").write_text(yaml.safe_dump(settings, allow_unicode=True), encoding="utf-8")
    (game / "pages").mkdir(exist_ok=True)
    (game / "pages" / "welcome.md").write_text("# Welcome\n\nSee you on Saturday.\n", encoding="utf-8")
    site = build_site_only(game, root / "site-out")
    covers = ["--covers", "half"] if language == "fr" else []
    result = CliRunner().invoke(main, ["pack", "--data", str(game), "--system", "sixes", "--paper", "a4",
                                       "--out", str(root / "out"), "--labels", "--backs", "--back-offset",
                                       "1.5,-0.5", "--jobs", "1", *covers])
    assert result.exit_code == 0, result.output
    return Made(language, game, site, root / "out" / "pack" / "sixes" / "a4")


# --- what an English message left behind looks like -------------------------------------------------------------

def _flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def _translations(language: str) -> list[tuple[list[str], list[str]]]:
    """(English forms, translated forms) of every tool message translated
    differently from its English in `language`."""
    words = words_for(language)
    found = []
    with TOOL_POT.open("rb") as handle:
        for message in read_po(handle):
            if not message.id:
                continue
            english = forms(message.id)
            if len(english) == 2:
                translated = [words.ngettext(english[0], english[1], n) for n in (1, 2)]
            elif message.context:
                translated = [words.pgettext(message.context, english[0])]
            else:
                translated = [words.gettext(english[0])]
            if translated != english:
                found.append((english, translated))
    return found


@lru_cache(maxsize=None)
def others_english() -> str:
    """English that is not the tool catalogue's to translate: the other
    catalogues' messages, the systems' templates and code, the shipped
    site pages (site/) and the starter games' data. A piece of a tool
    message found there cannot be told apart from theirs in the output."""
    from generator.core.paths import SITE_SOURCES_DIR, TEMPLATES_DIR
    from generator.systems import SLUGS
    texts = []
    for pot in sorted(i18n.LOCALES_DIR.glob("*.pot")):
        if pot != TOOL_POT:
            with pot.open("rb") as handle:
                texts += [" ".join(forms(m.id)) for m in read_po(handle) if m.id]
    sources = [TEMPLATES_DIR / slug for slug in SLUGS] + [SITE_SOURCES_DIR, Path(i18n.__file__).parents[1] / "systems"]
    for folder in sources:
        texts += [p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*"))
                  if p.suffix in (".html", ".j2", ".md", ".py", ".yaml", ".js")]
    return _flat(" ".join(texts))


def english_left(text: str, language: str) -> list[str]:
    """The English pieces of tool messages found in `text`: each run of two
    words or more between a message's placeholders that its translation does
    not itself hold and no other source of English holds (`others_english`;
    a single word may be the data's English: a name, a title)."""
    flat = _flat(text)
    left = []
    for english, translated in _translations(language):
        other = _flat(" ".join(translated))
        for form in english:
            for piece in _PLACEHOLDER.split(form):
                piece = _flat(piece or "").strip(" :;,.·(")
                if (len(piece.split()) >= 2 and piece not in other and piece in flat
                        and piece not in others_english()):
                    left.append(piece)
    return sorted(set(left))


def test_the_check_finds_english_where_it_is_left():
    """The scan itself: it finds a message's English between placeholders,
    and ignores the data's words and what the translation shares."""
    assert english_left("Envelope 3 of 12 — In this envelope", "fr") == ["In this envelope"]
    assert english_left("Page 3 sur 12 Dans cette enveloppe", "fr") == []
    assert "Roster: who plays whom" in english_left("Roster: who plays whom", "de")


# --- the site ----------------------------------------------------------------------------------------------------

class _Text(HTMLParser):
    """A page's visible text (scripts and styles left out) and its <html lang>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.lang: str | None = None
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag in ("script", "style", "svg"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "alt", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "svg") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def page_text(path: Path) -> _Text:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_site_page_is_in_the_language(made):
    pages = sorted(made.site.rglob("*.html"))
    assert len(pages) > 20
    faults = {}
    for path in pages:
        parsed = page_text(path)
        left = english_left(" ".join(parsed.parts), made.language)
        if parsed.lang != made.language or left:
            faults[path.relative_to(made.site).as_posix()] = (parsed.lang, left)
    assert faults == {}


def test_the_sites_own_words_are_translated_where_they_stand(made):
    """Not only no English: the translation is there (the games list, a
    rulings page's framing, the cast list, the footer, the nav)."""
    with speaking(words_for(made.language)):
        home = _flat(" ".join(page_text(made.site / "index.html").parts))
        rulings = _flat(" ".join(page_text(made.site / "sixes" / "rulings.html").parts))
        cast = _flat(" ".join(page_text(made.site / "sixes" / "cast-list.html").parts))
        expected = {
            "home": (home, [i18n._("How to play"), i18n._("Who is who: the cast list"),
                            i18n._("More from the organisers"), i18n._("Made with Sixes Press"),
                            i18n._("Credits and licences"), i18n._("Permanent link"), i18n._("Dark mode")]),
            "rulings": (rulings, [i18n._("What was unclear:"), i18n._("The choices we had:"),
                                  i18n._("What we decided:"), i18n._("Why:")]),
            "cast": (cast, [i18n._("Cast list")]),
        }
    missing = {name: [w for w in wanted if _flat(w) not in text] for name, (text, wanted) in expected.items()}
    assert missing == {name: [] for name in expected}


# --- the pack ----------------------------------------------------------------------------------------------------

def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_every_pdf_of_the_pack_is_in_the_language(made):
    pdfs = sorted(made.pack.rglob("*.pdf"))
    names = {p.name for p in pdfs}
    assert {"manifest.pdf", "gm-pack.pdf", "labels.pdf", "card-run.pdf", "duplex-calibration.pdf"} <= names
    assert ("covers.pdf" in names) == (made.language == "fr")
    faults = {p.relative_to(made.pack).as_posix(): english_left(pdf_text(p), made.language) for p in pdfs}
    assert {name: left for name, left in faults.items() if left} == {}


def test_the_packs_own_words_are_translated_where_they_stand(made):
    """Covers, labels, roster, manifest and page footers say it in the language."""
    envelope = next(iter(sorted((made.pack / "envelopes").glob("*.pdf"))))
    covers = made.pack / "covers.pdf" if made.language == "fr" else envelope      # German: a cover a page
    texts = {"manifest": pdf_text(made.pack / "manifest.pdf"), "gm": pdf_text(made.pack / "gm-pack.pdf"),
             "labels": pdf_text(made.pack / "labels.pdf"), "envelope": pdf_text(envelope), "covers": pdf_text(covers)}
    with speaking(words_for(made.language)):
        page = i18n._("Page {page} of {pages}").format(page=1, pages="")
        expected = {
            "manifest": [i18n._("Stuffing manifest"), i18n._("What goes in"), i18n._("In all")],
            "gm": [i18n._("Roster: who plays whom"), i18n._("In envelope order."), page],
            "labels": [i18n._("Envelope %(number)s of %(count)s") % {"number": 1, "count": ""}],
            "envelope": [page],
            "covers": [i18n._("In this envelope"), i18n._("This cover")],
        }
    missing = {name: [w for w in wanted if _flat(w) not in _flat(texts[name])] for name, wanted in expected.items()}
    assert missing == {name: [] for name in expected}


def test_numbers_on_the_calibration_sheet_are_the_languages(made):
    """The offset read back (1.5, -0.5 mm) with the language's decimal comma."""
    text = _flat(pdf_text(made.pack / "duplex-calibration.pdf"))
    assert "+1,5" in text and "-0,5" in text and "1.5" not in text


def test_every_placeholder_of_the_scanned_messages_is_kept():
    """What the scan compares holds the same placeholders in every language
    (test_catalogues holds it for all; here it guards the split above)."""
    for language in LANGUAGES:
        for english, translated in _translations(language):
            assert all(placeholders(t) == placeholders(english[0]) for t in translated), english


def test_the_themes_words_are_all_marked_and_change_with_the_language():
    """Every palette toggle mkdocs.yml names is a marked message (the site
    writer looks each up), and the words differ by language, so the site's
    cache key (which takes them) does too."""
    import yaml
    from generator.core.paths import MKDOCS_CONFIG
    from generator.render.site.mkdocs_build import theme_words
    theme = yaml.safe_load(MKDOCS_CONFIG.read_text(encoding="utf-8"))["theme"]
    toggles = {scheme["toggle"]["name"] for scheme in theme["palette"] if "toggle" in scheme}
    assert toggles and toggles <= set(theme_words())
    spoken = {}
    for language in ("en", *LANGUAGES):
        with speaking(words_for(language)):
            spoken[language] = theme_words()
    assert len({tuple(words.values()) for words in spoken.values()}) == 3
