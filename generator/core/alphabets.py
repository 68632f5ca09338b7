"""Which letters each language writes, and which of them the printed fonts lack.

Core layer: facts (the letters of each supported Latin-script language, in
both cases) and one question asked of the shipped fonts through
core/glyphs.py (fontTools). A game written in a language whose letters a
font face cannot draw would print boxes or another font's letters in the
middle of a word, so `sixes check` asks `undrawn_letters` for the game's
language before anything renders. The letters are the language's alphabet
plus the accented letters its ordinary spelling uses (French œ and ÿ,
Spanish ü, Dutch ë), with the basic Latin a-z in every language: loanwords
and names use them all.

A language code is matched on its primary subtag, case-insensitively
(`pt-BR` is Portuguese, `NB` Norwegian Bokmål); a code not listed here has
no known alphabet, and only the game's own text is then checked.
"""
from __future__ import annotations

import unicodedata

from .glyphs import undrawn

_BASIC = "abcdefghijklmnopqrstuvwxyz"
# Vietnamese: every vowel (plain, breve, circumflex, horn) takes one of five
# tone marks or none; đ is its one extra consonant.
_VI_VOWELS = "aăâeêioôơuưy"
_VI_TONES = ("", "\u0300", "\u0301", "\u0309", "\u0303", "\u0323")     # grave, acute, hook above, tilde, dot below
_VIETNAMESE = "đ" + "".join(unicodedata.normalize("NFC", vowel + tone)
                            for vowel in _VI_VOWELS for tone in _VI_TONES)

# The lower-case letters each language adds to a-z.
_EXTRA: dict[str, str] = {
    "en": "",
    "fr": "àâæçéèêëîïôœùûüÿ",
    "de": "äöüß",
    "es": "áéíñóúü",
    "it": "àèéìíîòóùú",
    "pt": "áâãàçéêíóôõú",
    "nl": "áéíóúàèëïöü",
    "ca": "àçèéíïòóúü",
    "da": "æøåé",
    "sv": "åäöé",
    "nb": "æøåéèêóòô",
    "fi": "åäöšž",
    "is": "áðéíóúýþæö",
    "et": "šžõäöü",
    "lt": "ąčęėįšųūž",
    "lv": "āčēģīķļņšūž",
    "pl": "ąćęłńóśźż",
    "cs": "áčďéěíňóřšťúůýž",
    "sk": "áäčďéíĺľňóôŕšťúýž",
    "sl": "čšžćđ",
    "hr": "čćđšž",
    "hu": "áéíóöőúüű",
    "ro": "ăâîșțşţ",           # ș ț with the comma below; ş ţ (cedilla) as older text writes them
    "tr": "çğıöşüâîû",
    "vi": _VIETNAMESE,
}
# Another code for a language listed above.
_SAME_AS = {"no": "nb", "nn": "nb"}
# Capitals that str.upper() does not give as one letter: Turkish's dotted and
# dotless i (i -> İ, ı -> I); German ß has none in ordinary spelling (SS;
# the capital ẞ of 2017 is rare, and the fonts lack it: a text that uses it
# is still refused by the text check).
_CAPITAL = {"de": {"ß": ""}, "tr": {"i": "İ", "ı": "I"}}


def language_key(code: str) -> str | None:
    """The entry of `code` in the table ('pt-BR' -> 'pt', 'nn' -> 'nb'), or None."""
    primary = code.replace("_", "-").split("-")[0].lower()
    primary = _SAME_AS.get(primary, primary)
    return primary if primary in _EXTRA else None


def known_languages() -> list[str]:
    """Every language code with a known alphabet."""
    return sorted(_EXTRA)


def letters(code: str) -> str | None:
    """Every letter of the language, lower case then capitals, or None when
    the language is not known."""
    key = language_key(code)
    if key is None:
        return None
    lower = _BASIC + _EXTRA[key]
    capital = _CAPITAL.get(key, {})
    upper = "".join(capital.get(letter, letter.upper()) for letter in lower)
    return "".join(dict.fromkeys(lower + upper))


def undrawn_letters(code: str) -> str:
    """The letters of the language that some shipped font face (regular,
    bold, italic, bold italic) cannot draw; '' when the fonts cover it or
    the language is not known."""
    alphabet = letters(code)
    return "".join(undrawn(alphabet)) if alphabet else ""
