"""A game folder's own catalogue of the tool's words (game/catalogue.py):
`sixes catalogue` writes it, `sixes new --language` starts a game in a
language, and `check` reports each problem of the file at its line."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core import i18n
from generator.game.catalogue import read_po_checked, tool_messages
from matches import matched


def sixes(*args: str, cwd: Path | None = None):
    """The command line in-process, run in `cwd` (the game folder) if given."""
    before = os.getcwd()
    os.chdir(cwd or before)
    try:
        return CliRunner().invoke(main, list(args), prog_name="sixes")
    finally:
        os.chdir(before)


@pytest.fixture()
def polish_game(tmp_path) -> Path:
    """A starter game in Polish: no shipped catalogue, so `new` writes one to translate."""
    game = tmp_path / "gra"
    result = sixes("new", str(game), "--language", "pl")
    assert result.exit_code == 0, result.output
    assert "locales/pl.po" in result.output
    return game


def placeholder_message() -> str:
    found = [key for key, message in tool_messages().items() if i18n.placeholders(key[0]) and key[1] is None
             and isinstance(message.id, str)]
    assert found, "the tool has no message with a placeholder to test with"
    return found[0][0]


def po_entry(msgid: str, msgstr: str) -> str:
    quote = lambda text: text.replace("\\", "\\\\").replace('"', '\\"')      # noqa: E731
    return f'\nmsgid "{quote(msgid)}"\nmsgstr "{quote(msgstr)}"\n'


def test_new_in_a_shipped_language_sets_it_and_writes_no_catalogue(tmp_path):
    result = sixes("new", str(tmp_path / "jeu"), "--language", "fr")
    assert result.exit_code == 0, result.output
    assert "language: fr" in (tmp_path / "jeu" / "sixes.yaml").read_text(encoding="utf-8")
    assert not (tmp_path / "jeu" / "locales").exists()


def test_new_refuses_what_is_not_a_language_code_and_writes_nothing(tmp_path):
    result = sixes("new", str(tmp_path / "x"), "--language", "fr;rm")
    assert result.exit_code == 1 and "not a language code" in result.output
    assert not (tmp_path / "x").exists()


def test_the_written_catalogue_lists_every_message_and_checks_clean(polish_game):
    catalogue = read_po_checked((polish_game / "locales" / "pl.po").read_bytes(), "pl")
    assert {message.id if isinstance(message.id, str) else message.id[0] for message in catalogue if message.id} \
        == {key[0] for key in tool_messages()}
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 0, result.output
    assert f"of the tool's {len(tool_messages())} messages are not translated" in result.output   # a warning


def test_check_reports_each_problem_of_the_catalogue_at_its_line(polish_game):
    path = polish_game / "locales" / "pl.po"
    message = placeholder_message()
    text = path.read_text(encoding="utf-8").replace(f'msgid "{message}"\nmsgstr ""\n', "", 1)
    text += po_entry("A message the tool never had", "Nic") + po_entry(message, "bez zmiennych")
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    unknown = lines.index('msgid "A message the tool never had"') + 1
    wrong = lines.index(f'msgid "{message}"') + 1
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1, result.output
    assert f"locales/pl.po:{unknown}:1: warning: the tool has no message" in result.output, result.output
    assert f"locales/pl.po:{wrong}:1: error: the translation of" in result.output, result.output
    assert "has the placeholders none where the message has" in result.output


def test_a_control_character_in_a_translation_is_refused(polish_game):
    path = polish_game / "locales" / "pl.po"
    first = next(iter(tool_messages()))[0]
    text = path.read_text(encoding="utf-8").replace(f'msgid "{first}"\nmsgstr ""',
                                                    f'msgid "{first}"\nmsgstr "a\u202eb"')
    path.write_text(text, encoding="utf-8")
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1 and "error: the translation of" in result.output, result.output


def test_a_catalogue_that_is_not_po_is_one_clear_error(polish_game):
    (polish_game / "locales" / "pl.po").write_text('msgid "x"\nmsgstr "y"\n\nnot a keyword\n', encoding="utf-8")
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1, result.output
    assert "locales/pl.po:4: error: cannot read the catalogue: Unknown or misformatted keyword" in result.output


def test_catalogue_again_keeps_the_groups_translations(polish_game):
    path = polish_game / "locales" / "pl.po"
    first = next(iter(tool_messages()))[0]
    path.write_text(path.read_text(encoding="utf-8").replace(f'msgid "{first}"\nmsgstr ""',
                                                             f'msgid "{first}"\nmsgstr "Przetłumaczone"'),
                    encoding="utf-8")
    result = sixes("catalogue", "pl", cwd=polish_game)
    assert result.exit_code == 0, result.output
    kept = read_po_checked(path.read_bytes(), "pl").get(first)
    assert kept is not None and kept.string == "Przetłumaczone"
    assert i18n.words_for("pl", read_po_checked(path.read_bytes(), "pl")).gettext(first) == "Przetłumaczone"


def test_language_and_site_language_must_agree(polish_game):
    settings = polish_game / "sixes.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("site:\n", "site:\n  language: de\n"),
                        encoding="utf-8")
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1 and "site.language 'de' disagrees with language 'pl'" in result.output


@pytest.mark.parametrize("stray", ["{%s:>999999999}", "{%s.__class__}", "{%s!r} {0}", "%%(%s)d"])
def test_a_translation_holding_formatting_syntax_is_refused(polish_game, stray):
    """A translation is filled in by Python's str.format or a template: any
    syntax beyond the message's own placeholders (a huge width, an attribute
    lookup, a positional field) is refused at check, never formatted."""
    key = next(key for key in tool_messages() if re.search(r"\{(\w+)\}", key[0]) and key[1] is None)
    name = matched(re.search(r"\{(\w+)\}", key[0])).group(1)
    path = polish_game / "locales" / "pl.po"
    quoted = key[0].replace('"', '\\"')
    text = path.read_text(encoding="utf-8")
    assert f'msgid "{quoted}"\nmsgstr ""' in text
    translation = key[0].replace("{%s}" % name, stray % name).replace('"', '\\"')
    path.write_text(text.replace(f'msgid "{quoted}"\nmsgstr ""', f'msgid "{quoted}"\nmsgstr "{translation}"'),
                    encoding="utf-8")
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1, result.output
    assert "error: the translation of" in result.output
    own = read_po_checked(path.read_bytes(), "pl")
    assert i18n.words_for("pl", own).gettext(key[0]) == key[0]      # never taken, however it arrives


def test_a_catalogue_that_is_a_link_out_of_the_game_folder_is_refused(polish_game, tmp_path):
    """Read through the game folder's one gate: a link leading outside is refused like any data file."""
    outside = tmp_path / "elsewhere.po"
    outside.write_bytes((polish_game / "locales" / "pl.po").read_bytes())
    (polish_game / "locales" / "pl.po").unlink()
    (polish_game / "locales" / "pl.po").symlink_to(outside)
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1 and "locales/pl.po" in result.output and "outside" in result.output, result.output
