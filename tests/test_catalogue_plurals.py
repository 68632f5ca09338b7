"""A game catalogue's plural rule (its Plural-Forms header): Python's gettext
compiles it and every ngettext runs it, so `check` tries it on every count
first (core/i18n.plural_fault, game/catalogue.py) and refuses one that
gettext cannot read, that fails for a count or that names a form the
catalogue has not, at the header's line; a rule the fight tracker's page
does not know (Polish) leaves the page's screens in English, with a warning."""
from __future__ import annotations

import pytest

from generator.core import i18n
from generator.core.i18n import read_catalogue, script_catalogue, speaking, words_for
from generator.render.tracker import TRACKER_DOMAIN

from test_game_catalogue import sixes

POLISH = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"


@pytest.fixture()
def polish_game(tmp_path):
    """A starter game in Polish, with the catalogue `sixes new` writes for it."""
    result = sixes("new", str(tmp_path / "gra"), "--language", "pl")
    assert result.exit_code == 0, result.output
    return tmp_path / "gra"


def with_plural_forms(game, header: str) -> int:
    """The game's pl.po: a header with `header` as its Plural-Forms and no
    message; returns the header's line."""
    (game / "locales" / "pl.po").write_text(f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                                            f'"Plural-Forms: {header}\\n"\n', encoding="utf-8")
    return 4


@pytest.mark.parametrize("header, reason", [
    ("nplurals=2; plural=n/0;", "divides by zero"),
    ("nplurals=2; plural=(n%(n-1));", "divides by zero"),
    ("nplurals=2; plural=__import__;", "not one gettext reads"),
    ("nplurals=2; plural=-1;", "not one gettext reads"),
    ("nplurals=2; plural=" + "(" * 300 + "n" + ")" * 300 + ";", "not one gettext reads"),
    ("nplurals=2; plural=n>1 ? 5 : 0;", "gives form 5 for 2"),
    ("nplurals=0; plural=0;", "has 0 forms"),
])
def test_a_plural_rule_that_cannot_count_is_refused_at_its_line(polish_game, header, reason):
    line = with_plural_forms(polish_game, header)
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert f"locales/pl.po:{line}: error: " in result.output and reason in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("header", ["nplurals=2; plural=(n != 1);", "nplurals=2; plural=n > 1;"])
def test_a_rule_the_tracker_knows_checks_clean(polish_game, header):
    with_plural_forms(polish_game, header)
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 0, result.output
    assert "plural rule" not in result.output


def test_a_polish_game_checks_with_a_warning_and_its_tracker_speaks_english(polish_game):
    """The catalogue `sixes new --language pl` writes counts as Polish does
    (three forms): the PDFs do, and the tracker's page, which cannot,
    prints English rather than wrong forms, where it used to fail the build."""
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 0, result.output
    assert "warning: the fight tracker's page counts only by n != 1 or n > 1" in result.output
    polish = read_catalogue(f'msgid ""\nmsgstr ""\n"Plural-Forms: {POLISH}\\n"\n\n'
                            'msgid "Log"\nmsgstr "Dziennik"\n', "pl")
    assert i18n.plural_fault("pl", polish) is None
    with speaking(words_for("pl", polish)):
        assert script_catalogue(TRACKER_DOMAIN) == {"plural": "n != 1", "messages": [], "plurals": []}
