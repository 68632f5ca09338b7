"""A game's catalogue is input like any YAML (game/po_file.py,
game/catalogue.py, game/catalogue_room.py): what it holds that would print
wrong, print in boxes or garbled, not fit, or stop a run is refused by
`sixes check` at its file:line, all at once, before anything renders."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.core import i18n
from generator.game.catalogue import read_po_checked

from test_game_catalogue import sixes

HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={charset}\\n"\n'
          '"Plural-Forms: {plural}\\n"\n')
POLISH_PLURAL = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
HIT_POINTS = "Hit points: %(hp)s"           # templates/sixes/character_sheet.html
SPEED_HAND = "Speed hand"                   # the heading of the Sixes hand-signal card
TRACKER_ONLY = "Next fighter →"             # the fight tracker's button: a screen, not a PDF


@pytest.fixture()
def game(tmp_path) -> Path:
    result = sixes("new", str(tmp_path / "gra"), "--language", "pl")
    assert result.exit_code == 0, result.output
    return tmp_path / "gra"


def entry(msgid: str, msgstr: str) -> str:
    quote = lambda text: text.replace("\\", "\\\\").replace('"', '\\"')      # noqa: E731
    return f'\nmsgid "{quote(msgid)}"\nmsgstr "{quote(msgstr)}"\n'


def write(game: Path, *entries: str, charset: str = "UTF-8", plural: str = POLISH_PLURAL,
          encoding: str = "utf-8", newline: str = "\n", prefix: bytes = b"") -> list[str]:
    """The game's pl.po: a header and `entries`; returns its lines (numbered from 1 at [0])."""
    text = HEADER.format(charset=charset, plural=plural) + "".join(entries)
    data = text.replace("\n", newline).encode(encoding)
    (game / "locales" / "pl.po").write_bytes(prefix + data)
    return text.split("\n")


def check(game: Path):
    result = sixes("check", cwd=game)
    assert "Traceback" not in result.output and not isinstance(result.exception, (MemoryError, LookupError))
    return result


def line_of(lines: list[str], text: str) -> int:
    return lines.index(text) + 1


def refused_at(game: Path, line: int, *words: str) -> str:
    result = check(game)
    assert result.exit_code == 1, result.output
    found = [row for row in result.output.splitlines() if row.startswith(f"locales/pl.po:{line}:")]
    assert found and all(word in found[0] for word in words), result.output
    return found[0]


# --- what a translation holds ---------------------------------------------------------------------------------

@pytest.mark.parametrize("wrong", ["Punkty życia: {hp}", "Punkty życia: %(hp)d", "Punkty życia: %(pz)s",
                                   "Punkty życia", "Punkty życia: %(hp)s / %(max)s"])
def test_a_placeholder_of_another_kind_or_name_is_refused_and_never_prints(game, wrong):
    lines = write(game, entry(HIT_POINTS, wrong))
    refused_at(game, line_of(lines, f'msgid "{HIT_POINTS}"'), "error:", "Hit points")
    catalogue = i18n.read_catalogue("\n".join(lines), "pl")
    assert i18n.words_for("pl", catalogue).gettext(HIT_POINTS) == HIT_POINTS     # English, never "{hp}" printed


def test_the_same_placeholders_pass(game):
    write(game, entry(HIT_POINTS, "Punkty życia: %(hp)s"))
    assert check(game).exit_code == 0


def test_letters_the_printed_fonts_lack_are_refused_where_they_print(game):
    lines = write(game, entry(HIT_POINTS, "Điểm sống của ơ: %(hp)s"), entry(TRACKER_ONLY, "Następny ơ →"))
    refused_at(game, line_of(lines, f'msgid "{HIT_POINTS}"'), "cannot show", "U+01A1")
    tracker = line_of(lines, 'msgid "' + TRACKER_ONLY + '"')
    assert f"locales/pl.po:{tracker}:" not in check(game).output        # shown on a screen only


def test_a_translation_wider_than_the_layouts_were_made_for_is_refused(game):
    lines = write(game, entry(SPEED_HAND, "Ręka prędkości, którą pokazujesz sędziemu przed każdą rundą walki"))
    refused_at(game, line_of(lines, f'msgid "{SPEED_HAND}"'), "mm wide on one line", "the widest wording")


def test_one_word_wider_than_any_shipped_word_is_refused(game):
    lines = write(game, entry("HP", "Punktyżyciabohateraigracza"))
    refused_at(game, line_of(lines, 'msgid "HP"'), "has the word")


def test_a_translation_as_wide_as_a_shipped_one_passes(game):
    german = {m.id: m.string for c in i18n.shipped("de") for m in c if m.id}[SPEED_HAND]
    assert isinstance(german, str)
    write(game, entry(SPEED_HAND, german), entry("HP", "PŻ"))
    assert check(game).exit_code == 0, check(game).output


# --- the file itself -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("forms", ["7", "1000000000", "9" * 5000])
def test_a_plural_count_past_six_is_refused_at_its_line_before_anything_is_sized_by_it(game, forms):
    plural = f"nplurals={forms}; plural=(n != 1);"
    write(game, '\nmsgid "%(count)s hit"\nmsgid_plural "%(count)s hits"\nmsgstr[0] "x"\n', plural=plural)
    refused_at(game, 4, "error:")


@pytest.mark.parametrize("charset", ["klingon", "utf-16", "CHARSET\\u0000"])
def test_a_charset_python_cannot_read_as_a_po_file_is_refused_at_its_line(game, charset):
    write(game, entry(HIT_POINTS, "Punkty: %(hp)s"), charset=charset)
    refused_at(game, 3, "charset")


def test_a_declared_charset_the_bytes_are_not_in_is_refused_not_garbled(game):
    lines = write(game, entry("HP", "PŻ"), charset="ISO-8859-1")
    refused_at(game, line_of(lines, 'msgstr "PŻ"'), "ISO-8859-1".lower(), "garbled")


def test_bytes_the_declared_charset_cannot_read_are_refused_at_their_line(game):
    lines = write(game, entry("HP", "P\u017b"), encoding="iso-8859-2")     # Ż as Latin-2 bytes, declared UTF-8
    refused_at(game, line_of(lines, 'msgstr "PŻ"'), "byte 0xAF")


def test_a_catalogue_in_its_own_declared_charset_reads_right(game):
    write(game, entry("HP", "PŻ"), charset="ISO-8859-2", encoding="iso-8859-2")
    assert check(game).exit_code == 0
    catalogue = read_po_checked((game / "locales" / "pl.po").read_bytes(), "pl")
    message = catalogue.get("HP")
    assert message is not None and message.string == "PŻ"
    assert i18n.words_for("pl", catalogue).gettext("HP") == "PŻ"


def test_a_message_given_twice_is_refused_at_the_second_naming_the_first(game):
    lines = write(game, entry("HP", "PŻ"), entry(HIT_POINTS, "Punkty: %(hp)s"), entry("HP", "Życie"))
    first = line_of(lines, 'msgid "HP"')
    second = len(lines) - lines[::-1].index('msgid "HP"')
    assert second > first
    refused_at(game, second, "twice", f"first at line {first}")


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_cr_and_crlf_line_ends_are_lines(game, newline):
    lines = write(game, entry("HP", "PŻ"), entry(SPEED_HAND, "{x}"), newline=newline)
    refused_at(game, line_of(lines, f'msgid "{SPEED_HAND}"'), "placeholders")
    write(game, entry("HP", "PŻ"), newline=newline)
    assert check(game).exit_code == 0
    message = read_po_checked((game / "locales" / "pl.po").read_bytes(), "pl").get("HP")
    assert message is not None and message.string == "PŻ"


def test_a_utf8_byte_order_mark_is_accepted(game):
    write(game, entry("HP", "PŻ"), prefix=b"\xef\xbb\xbf")
    assert check(game).exit_code == 0, check(game).output


# --- `sixes catalogue` writes only inside the game folder -------------------------------------------------------

def test_catalogue_never_writes_through_a_locales_link_leaving_the_game(game, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (game / "locales" / "pl.po").unlink()
    (game / "locales").rmdir()
    os.symlink(outside, game / "locales")
    result = sixes("catalogue", "pl", cwd=game)
    assert result.exit_code == 1 and "outside the game folder" in result.output, result.output
    assert list(outside.iterdir()) == []


def test_catalogue_never_replaces_a_po_link(game, tmp_path):
    outside = tmp_path / "theirs.po"
    outside.write_bytes((game / "locales" / "pl.po").read_bytes())
    before = outside.read_bytes()
    (game / "locales" / "pl.po").unlink()
    os.symlink(outside, game / "locales" / "pl.po")
    result = sixes("catalogue", "pl", cwd=game)
    assert result.exit_code == 1, result.output
    assert outside.read_bytes() == before and (game / "locales" / "pl.po").is_symlink()
