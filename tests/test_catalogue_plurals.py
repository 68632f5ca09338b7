"""A game catalogue's plural rule (its Plural-Forms header): Python's gettext
compiles it and every ngettext runs it, so `check` tries it on every count
first (core/i18n.plural_fault, game/catalogue.py) and refuses one that
gettext cannot read, that fails for a count or that names a form the
catalogue has not, at the header's line; a rule of more forms (Polish)
reaches the fight tracker's page as a table of forms."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from processes import PATIENCE

from generator.core import i18n
from generator.core.i18n import read_catalogue, script_catalogue, speaking, words_for
from generator.core.paths import TEMPLATES_DIR
from generator.render.site.tracker import TRACKER_DOMAIN

from test_game_catalogue import sixes

NODE = shutil.which("node")
RESOLVER_JS = TEMPLATES_DIR / "sixes" / "tracker" / "resolver.js"
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


def test_a_polish_game_checks_clean_and_its_tracker_counts_in_polish(polish_game, tmp_path):
    """The catalogue `sixes new --language pl` writes counts as Polish does
    (three forms). The PDFs and the site count by it through gettext, and
    the tracker's page by the table of forms it is given (core/i18n.py
    script_catalogue): its script picks, for every count, the form gettext
    picks, past a thousand too."""
    result = sixes("check", cwd=polish_game)
    assert result.exit_code == 0 and "plural rule" not in result.output, result.output
    catalogue = (f'msgid ""\nmsgstr ""\n"Plural-Forms: {POLISH}\\n"\n\n'
                 'msgid "{names} opens their eyes."\nmsgid_plural "{names} open their eyes."\n'
                 'msgstr[0] "{names} otwiera oczy."\nmsgstr[1] "{names} otwierają oczy (2-4)."\n'
                 'msgstr[2] "{names} otwiera oczy (5+)."\n')
    polish = read_catalogue(catalogue, "pl")
    assert i18n.plural_fault("pl", polish) is None
    words = words_for("pl", polish)
    with speaking(words):
        page = script_catalogue(TRACKER_DOMAIN)
    assert page["plural"] is None and len(page["forms"]) == i18n.PLURAL_TABLE
    assert ["{names} opens their eyes.", ["{names} otwiera oczy.", "{names} otwierają oczy (2-4).",
                                          "{names} otwiera oczy (5+)."]] in page["plurals"]
    counts = [0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 102, 112, 999, 1000, 1001, 1002, 1012, 1022, 2004, 12345]
    wanted = [words.ngettext("{names} opens their eyes.", "{names} open their eyes.", n) for n in counts]
    if NODE is None:
        pytest.skip("Node.js is not installed (make test installs it)")
    script = (f"const R = require({json.dumps(str(RESOLVER_JS))});\n"
              f"const T = R.translator({json.dumps(page)});\n"
              f"process.stdout.write(JSON.stringify({json.dumps(counts)}.map(n => "
              "T.tn('{names} opens their eyes.', '{names} open their eyes.', n, {}))));\n")
    (tmp_path / "counts.js").write_text(script, encoding="utf-8")
    done = subprocess.run([NODE, str(tmp_path / "counts.js")], capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == wanted
