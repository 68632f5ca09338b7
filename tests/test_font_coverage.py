"""The printed fonts write the game's language, or `check` says they cannot.

Every language with a known alphabet (core/alphabets.py) is either drawn
(one real build: a Sixes starter whose character's description holds every letter of every
language the fonts are said to cover; each letter must come out of the PDF's
text as written, set in an embedded Atkinson font, never a fallback) or
refused at `check` at the line of `site.language` with its missing letters
named. Which side a language is on comes from the fonts: a language wrongly
said to be covered puts letters in the build that the build cannot draw.
Any character of any text field (found from the models, as
tests/test_surfaces.py finds them) that a face lacks is refused where it
stands.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from generator.commands.cli import main
from generator.core import glyphs
from generator.core.alphabets import known_languages, language_key, letters, undrawn_letters
from generator.core.errors import visible
from generator.systems import SYSTEMS

from test_surfaces import hostile_copy, where

# The languages issue 33 names, besides the Western ones.
NAMED = ("pl", "cs", "hu", "tr", "is", "vi", "en", "fr", "de", "es", "it", "pt", "nl", "da", "sv", "nb", "fi")
COVERED = [code for code in known_languages() if not undrawn_letters(code)]
REFUSED = [code for code in known_languages() if undrawn_letters(code)]
SIXES = next(system for system in SYSTEMS if system.slug == "sixes")
TITLE = "Łąka Ørsted Şükür Ősz"       # above the sheet heading and in every page footer


def _settings(game: Path, language: str) -> None:
    (game / "sixes.yaml").write_text(f"site:\n  name: Test\n  language: {language}\nsystems: [sixes]\n",
                                     encoding="utf-8")


def _game(root: Path, language: str) -> Path:
    game = root / "game"
    shutil.copytree(SIXES.starter, game / "sixes")
    _settings(game, language)
    return game


def _pitch() -> str:
    """Every letter of every covered language once, in words of eight (a character's description)."""
    chars = "".join(dict.fromkeys("".join(letters(code) or "" for code in COVERED)))
    return " ".join(chars[i:i + 8] for i in range(0, len(chars), 8))


# --- the facts ------------------------------------------------------------------

def test_the_named_languages_are_known_in_both_cases():
    assert set(NAMED) <= set(known_languages())
    for code in known_languages():
        alphabet = letters(code) or ""
        assert set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") <= set(alphabet), code
        assert all(unicodedata.category(c) in ("Ll", "Lu") for c in alphabet), code
        lower = [c for c in alphabet if c.islower()]
        upper = [c for c in alphabet if c.isupper()]
        assert len(upper) == len(lower) - (code == "de"), code      # ß has no capital in ordinary German


def test_letters_that_tell_languages_apart():
    assert {"İ", "ı", "I", "i", "ş", "ğ"} <= set(letters("tr") or "")
    assert {"ő", "Ű"} <= set(letters("hu") or "") and "ő" not in (letters("de") or "")
    assert {"ð", "Þ"} <= set(letters("is") or "") and {"ł", "Ż"} <= set(letters("pl") or "")
    assert {"ơ", "Ự", "đ", "ẫ"} <= set(letters("vi") or "") and len(letters("vi") or "") == 2 * (26 + 1 + 12 * 6 - 6)
    assert language_key("pt-BR") == "pt" and language_key("NN") == "nb" and language_key("pt_PT") == "pt"
    assert language_key("xx") is None and letters("xx") is None and undrawn_letters("xx") == ""


def test_a_character_is_drawn_only_when_every_face_draws_it(monkeypatch):
    """A letter in the regular face but not the bold one would print as a box in a heading."""
    faces = {"regular": frozenset(map(ord, "ab ł")), "bold": frozenset(map(ord, "ab ")),     # every face has a space
             "italic": frozenset(map(ord, "ab ł"))}
    monkeypatch.setattr(glyphs, "face_coverage", lambda: faces)
    glyphs._coverage.cache_clear()
    try:
        assert glyphs.undrawn("a łb ł\u200b") == ["ł"]
    finally:
        glyphs._coverage.cache_clear()


def test_plain_ascii_is_drawn_by_every_face_so_an_english_check_reads_no_font():
    """`undrawn` skips the fonts for plain ASCII: that holds only while every face draws all of it."""
    assert not glyphs._uncovered({chr(code) for code in range(0x20, 0x7F)})
    code = ("import sys; from generator.core.alphabets import undrawn_letters; "
            "assert undrawn_letters('en') == ''; print('fontTools' in sys.modules)")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "False"


# --- refused at check ------------------------------------------------------------

@pytest.mark.parametrize("code", REFUSED)
def test_check_refuses_a_language_the_fonts_cannot_write_naming_its_letters(tmp_path, monkeypatch, code):
    game = _game(tmp_path, code)
    monkeypatch.chdir(game)
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1, result.output
    line = next(row for row in result.output.splitlines() if "site.language" in row)
    assert line.startswith("sixes.yaml:3:13: error:"), line
    named = line.split(f"'{code}': ")[1].split(";")[0].split()
    assert named == list(undrawn_letters(code)) and named
    drawn = glyphs.face_coverage()
    assert all(any(ord(letter) not in points for points in drawn.values()) for letter in named)


def test_the_refused_languages_today():
    """Vietnamese (tone marks, horns), Turkish (capital İ) and Slovak (ĺ, Ĺ)."""
    assert {"vi", "tr", "sk"} <= set(REFUSED) and {"pl", "cs", "hu", "is", "de", "fr"} <= set(COVERED)
    assert undrawn_letters("tr") == "İ" and set(undrawn_letters("sk")) == {"ĺ", "Ĺ"}


def test_an_unknown_language_is_not_refused_only_its_text_is(tmp_path, monkeypatch):
    game = _game(tmp_path, "tlh")
    monkeypatch.chdir(game)
    assert CliRunner().invoke(main, ["check"]).exit_code == 0
    path = game / "sixes" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("My New Game", "Qapla\u01a1"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1 and "'ơ' (U+01A1)" in result.output, result.output
    assert re.search(r"sixes/game\.yaml:\d+:\d+: error:", result.output), result.output


# --- every text field, found from the models --------------------------------------

def test_a_character_no_face_draws_is_refused_in_every_text_field(tmp_path, monkeypatch):
    placed = hostile_copy(tmp_path / "data", "ơ", {"prose", "name"})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--data", "data"])
    assert result.exit_code == 1, result.output[:2000]
    missed = {slug: [visible(s.loc) for doc, s in found if where(doc, s) not in result.output]
              for slug, found in placed.items()}
    assert sum(map(len, placed.values())) > 50 and not any(missed.values()), f"{missed}\n{result.output[:3000]}"


def test_a_player_name_no_face_draws_is_refused_in_the_casting(tmp_path, monkeypatch):
    game = _game(tmp_path, "en")
    names = [c.stem for c in sorted((game / "sixes" / "characters").glob("*.yaml"))]
    character = yaml.safe_load((game / "sixes" / "characters" / f"{names[0]}.yaml").read_text(encoding="utf-8"))
    (game / "casting.yaml").write_text(f"envelopes:\n  - player: Nguyễn Văn Ơn\n    character: {character['name']}\n",
                                       encoding="utf-8")
    monkeypatch.chdir(game)
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1, result.output
    assert "casting.yaml:2:13: error:" in result.output and "'ễ' (U+1EC5), 'Ơ' (U+01A0)" in result.output


# --- drawn in a real PDF -------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory) -> list[Path]:
    """One build: a Sixes starter in Polish whose first character's
    description holds every covered letter, and whose title some of them."""
    root = tmp_path_factory.mktemp("fonts")
    game = _game(root, "pl")
    for path, field, text in ((game / "sixes" / "game.yaml", "title", TITLE),
                              (game / "sixes" / "characters" / "first-rival.yaml", "description", _pitch())):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data[field] = text
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--data", str(game), "--out", str(root / "out"), "--no-site",
                                       "--paper", "a4", "--no-cache", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    return sorted((root / "out" / "pdf").rglob("*.pdf"))


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def _drawn_by_embedded_fonts(pdf: Path) -> dict[str, set[str]]:
    """Each embedded font's name and the characters its ToUnicode map says
    its glyphs draw (glyph 0, the empty box, never counts)."""
    fonts: dict[str, set[str]] = {}
    for page in PdfReader(pdf).pages:
        resources = page["/Resources"]
        assert isinstance(resources, DictionaryObject)
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant["/FontDescriptor"] or "/FontFile3" in descendant["/FontDescriptor"] \
                or "/FontFile" in descendant["/FontDescriptor"], f"{font['/BaseFont']} is not embedded"
            drawn = fonts.setdefault(str(font["/BaseFont"]), set())
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
                for glyph, code in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                    if int(glyph, 16):
                        drawn.add(bytes.fromhex(code).decode("utf-16-be"))
            for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
                for low, high, code in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                    start = ord(bytes.fromhex(code).decode("utf-16-be"))
                    drawn.update(chr(start + i) for i in range(int(high, 16) - int(low, 16) + 1)
                                 if int(low, 16) + i)
    return fonts


def test_the_build_writes_the_pitch_and_title_back_exactly(built):
    texts = {pdf: _text(pdf) for pdf in built}
    with_pitch = [pdf for pdf, text in texts.items() if _pitch().split()[-1] in text]
    assert with_pitch, "no PDF prints the character's description"
    for pdf in with_pitch:
        words = texts[pdf].split()
        missing = [word for word in _pitch().split() if word not in words]
        assert not missing, f"{pdf.name}: {missing}"
    assert all(TITLE in text for text in texts.values()), "the title (page footer) did not read back"


@pytest.mark.parametrize("code", COVERED)
def test_every_letter_of_a_covered_language_is_drawn_by_an_embedded_atkinson_font(built, code):
    fonts: dict[str, set[str]] = {}
    for pdf in built:
        for name, drawn in _drawn_by_embedded_fonts(pdf).items():
            fonts.setdefault(name, set()).update(drawn)
    assert fonts and all("AtkinsonHyperlegible" in re.sub(r"[- ]", "", name) for name in fonts), sorted(fonts)
    drawn = set().union(*fonts.values())
    assert not [letter for letter in letters(code) or "" if letter not in drawn], code


def test_the_guide_lists_the_languages_the_fonts_write_and_those_they_cannot():
    guide = (Path(__file__).parent.parent / "docs" / "pages" / "guide" / "languages.md").read_text(encoding="utf-8")
    section = guide.split("\n## What the printed fonts write")[1].split("\n## ")[0]
    written, refused = section.split("The fonts lack letters of")
    refused = refused.split("A language code not in these lists")[0]
    assert set(re.findall(r"`([a-z]{2,3})`", written)) - {"nn", "no"} == set(COVERED)
    assert set(re.findall(r"`([a-z]{2,3})`", refused)) == set(REFUSED)
