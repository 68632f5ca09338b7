"""What `sixes new` writes always passes `sixes check` (commands/new.py):
whatever the folder is called (the site's name comes from it) and whatever
language code the settings accept (written quoted: `no` is not false)."""
from __future__ import annotations

import random
import unicodedata

import pytest
import yaml

from test_game_catalogue import sixes

AWKWARD = [
    "a" * 200,                                  # one word past the limit
    "long name " * 30,                          # many words past it
    "\ufb01" * 70 + "x",                         # ﬁ: one letter, two once title-cased, and not in the fonts
    "stra\u00dfe" * 25,                          # ß title-cases to "Ss"
    "\u00df" * 100,
    "no", "yes", "null", "~", "1e3", "0x10", "true", "on",
    "-leading-dash", "--", "_", "___",
    "日本語のゲーム", "Ελληνικά", "Ærøskøbing", "ǆungla", "caf\u0065\u0301",   # letters the fonts have, lack, combine
    "a: b # c", "'quoted'", '"double"', "[list]", "{map}", "&anchor", "*alias", "!tag", "%percent", "@at", "`tick`",
    "tab\there", "zero\u200bwidth", "rtl\u202eoverride",
]


def _generated(count: int) -> list[str]:
    """More folder names from a fixed seed: runs of letters, digits, punctuation and the characters above."""
    alphabet = "".join(AWKWARD) + "abc XYZ 019 -_.:#'\"!&*[]{}"
    chooser = random.Random(45)
    return ["".join(chooser.choice(alphabet) for _ in range(chooser.randint(1, 160))).strip("/") or "x"
            for _ in range(count)]


def _folder_safe(name: str) -> str:
    """A name the file system takes (no slash or NUL; at most 255 bytes)."""
    name = name.replace("/", "-").replace("\x00", "") or "x"
    while len(name.encode("utf-8")) > 255:
        name = name[:-1]
    return "x" if name in (".", "..") else name


@pytest.mark.parametrize("name", [_folder_safe(n) for n in AWKWARD + _generated(8)])
def test_new_then_check_passes_whatever_the_folder_is_called(tmp_path, name):
    game = tmp_path / name
    made = sixes("new", str(game))
    assert made.exit_code == 0, made.output
    settings = yaml.safe_load((game / "sixes.yaml").read_text(encoding="utf-8"))
    assert isinstance(settings["site"]["name"], str) and 0 < len(settings["site"]["name"]) <= 120
    assert all(unicodedata.category(c) not in ("Cc", "Cf") for c in settings["site"]["name"])
    checked = sixes("check", cwd=game)
    assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize("language", ["no", "nb", "yes", "on", "tlh", "en-GB", "fr-CA", "de-CH", "pt-BR", "sv"])
def test_new_in_any_accepted_language_then_check_passes(tmp_path, language):
    game = tmp_path / "game"
    made = sixes("new", str(game), "--language", language)
    assert made.exit_code == 0, made.output
    assert yaml.safe_load((game / "sixes.yaml").read_text(encoding="utf-8"))["language"] == language
    checked = sixes("check", cwd=game)
    assert checked.exit_code == 0, checked.output
