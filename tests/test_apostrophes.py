"""One apostrophe in printed French: the typographic ’ (U+2019), never the
typewriter ' (U+0027), in the tool's translations and the French starters,
so a page or a manifest never mixes the two.

The shipped catalogues are scanned message by message (every translation of
every domain, French and German), and the French Sixes starter is packed
and its stuffing manifest (CSV and PDF) read back: the catalogue's words
and the starter's names meet there.
"""
from __future__ import annotations

import csv

import pytest
from babel.messages.pofile import read_po
from language_games import built_language_game
from pdf_text import text

from generator.core.i18n import LOCALES_DIR, SHIPPED

STRAIGHT, CURLY = "'", "\u2019"


@pytest.mark.parametrize("language", [lang for lang in SHIPPED if lang != "en"])
def test_no_translation_holds_a_typewriter_apostrophe(language):
    found = []
    for po in sorted((LOCALES_DIR / language).glob("*.po")):
        with open(po, "rb") as handle:
            catalogue = read_po(handle)
        for message in catalogue:
            strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
            found += [f"{po.name}: {s[:80]}" for s in strings if s and STRAIGHT in s]
    assert found == []


def test_the_french_starter_packs_a_manifest_with_one_apostrophe(tmp_path_factory, request):
    """The French starter as the language tests build and pack it
    (tests/language_games.py: `sixes new --language fr`, then its Sixes
    pack on A4), shared with them rather than packed again."""
    game = built_language_game("fr", tmp_path_factory, request.config)
    press = game.out / "pack" / "sixes" / "a4"
    with open(press / "manifest.csv", newline="", encoding="utf-8") as handle:
        rows = " ".join(" ".join(row.values()) for row in csv.DictReader(handle))
    printed = text(press / "manifest.pdf")
    assert CURLY in printed
    assert STRAIGHT not in printed and STRAIGHT not in rows
