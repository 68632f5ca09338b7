"""The tool's own words in the game's language: one catalogue per language.

Core layer: the standard library and Babel (message catalogues and the
locale data of CLDR), nothing that renders. Every word the tool writes onto
player and GM material and the site is an English message id marked with
`_()` (or `ngettext()`, or a glossary `Term`), extracted by
`scripts/extract-messages` into `generator/locales/<domain>.pot`, and
translated in `generator/locales/<language>/<domain>.po`. One domain per
system plus `tool` for what they share, so the catalogue of one system can
be written without touching another's; at run time a language's domains
are one catalogue (tests/test_catalogues.py holds that a message id means
the same in every domain).

The language is chosen once per run (`speaking`), from the game's settings,
before anything is rendered: Python code, the Jinja templates (Jinja's i18n
extension calls the same functions) and the number formats all read it, so
no function needs the language handed down. The command line's own messages
stay English. Catalogues are read from their `.po` text and compiled in
memory, so no compiled file is shipped or read back.
"""
from __future__ import annotations

import gettext as _gettext
import io
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, parse_pattern

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
SOURCE_LANGUAGE = "en"
# The languages whose catalogues ship complete (tests/test_catalogues.py).
SHIPPED = ("en", "fr", "de")


@dataclass(frozen=True)
class Words:
    """A language's catalogue and number formats. `language` is the code
    the game asked for (`pt-BR`); `locale` what CLDR knows of it."""

    language: str = SOURCE_LANGUAGE
    translations: _gettext.NullTranslations = field(default_factory=_gettext.NullTranslations, compare=False)

    @property
    def locale(self) -> Locale:
        return _locale(self.language)

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations.pgettext(context, message)


ENGLISH = Words()
_current: ContextVar[Words] = ContextVar("sixes_words", default=ENGLISH)


def current() -> Words:
    """The language of the run under way (English until one is chosen)."""
    return _current.get()


@contextmanager
def speaking(words: Words) -> Iterator[Words]:
    """Everything inside writes in `words`' language; the one before comes back after."""
    token = _current.set(words)
    try:
        yield words
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """A message in the current language; the id is the English text."""
    return _current.get().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """`singular` or `plural` as the current language counts `n`."""
    return _current.get().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message whose English is ambiguous, told apart by `context`."""
    return _current.get().pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; translated where it is printed."""
    return message


# --- the catalogues ----------------------------------------------------------------------------------------------

def language_folder(language: str) -> str | None:
    """The shipped catalogue folder for `language` ("pt-BR" falls back to
    "pt"); None for English (the message ids) and for a language not shipped."""
    for code in (language.replace("-", "_"), language.split("-")[0]):
        if code != SOURCE_LANGUAGE and (LOCALES_DIR / code).is_dir():
            return code
    return None


def shipped_catalogues(language: str) -> list[Path]:
    """The `.po` files of a shipped language, one per domain, in a fixed order."""
    folder = language_folder(language)
    return sorted((LOCALES_DIR / folder).glob("*.po")) if folder else []


def read_catalogue(text: bytes | str, language: str) -> Catalog:
    """A `.po` file's text as a Catalog (Babel's reader keeps each message's line)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return read_po(io.BytesIO(data), locale=_babel_code(language), abort_invalid=False)


def words_for(language: str, own: Catalog | None = None) -> Words:
    """The Words of `language`: its shipped catalogues (if any), then the
    game's own catalogue `own` over them."""
    if own is None:
        return _shipped_words(language)
    catalogues = [*shipped(language), own]
    return Words(language, _compile(_merge(catalogues, language)))


@lru_cache(maxsize=None)
def _shipped_words(language: str) -> Words:
    """A shipped language's Words, compiled once per process (a watch rebuilds often)."""
    catalogues = shipped(language)
    return Words(language, _compile(_merge(catalogues, language))) if catalogues else Words(language)


def shipped(language: str) -> list[Catalog]:
    """The tool's own catalogues of `language`, one per domain (none for English)."""
    return [_shipped(path, language) for path in shipped_catalogues(language)]


def templates() -> list[Catalog]:
    """The tool's message templates, one per domain: every message it prints."""
    return [_shipped(path, SOURCE_LANGUAGE) for path in sorted(LOCALES_DIR.glob("*.pot"))]


@lru_cache(maxsize=None)
def _shipped(path: Path, language: str) -> Catalog:
    """One of the tool's own catalogue files, read once per process."""
    return read_catalogue(path.read_bytes(), language)


def _merge(catalogues: list[Catalog], language: str) -> Catalog:
    """One catalogue of several: a later one's translation wins."""
    merged = Catalog(locale=_babel_code(language))
    for catalogue in catalogues:
        if any(name.lower() == "plural-forms" for name, _value in catalogue.mime_headers):
            merged.mime_headers = catalogue.mime_headers      # the catalogue's own plural rule, not CLDR's
        for message in catalogue:
            if message.id and message.string and not message.fuzzy and _complete(message.string) and _safe(message):
                merged[message.id] = message
    return merged


def _safe(message: Message) -> bool:
    """A translation with the message's placeholders and no other syntax
    (`check` refuses any other in a game's catalogue; this keeps one out
    however the catalogue arrived)."""
    english = message.id if isinstance(message.id, str) else message.id[0]
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    return all(placeholders(s) == placeholders(english) and stray_syntax(s) is None for s in strings if s)


def _complete(string: str | tuple | list) -> bool:
    return all(string) if isinstance(string, (tuple, list)) else bool(string)


def _compile(catalogue: Catalog) -> _gettext.GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def _babel_code(language: str) -> str:
    return language.replace("-", "_")


@lru_cache(maxsize=None)
def _locale(language: str) -> Locale:
    """CLDR's data for the language, or its base language, or English."""
    for code in (_babel_code(language), language.split("-")[0]):
        try:
            return Locale.parse(code)
        except (UnknownLocaleError, ValueError):
            continue
    return Locale.parse(SOURCE_LANGUAGE)


# --- a domain's messages for a page's script ------------------------------------------------------------------

# The plural rules a script knows (templates/sixes/tracker/resolver.js's
# PLURAL_RULES): a fixed set of expressions, so a page runs no code of a
# catalogue's. gettext's rule for English and German, then French's.
SCRIPT_PLURALS = {"n != 1": lambda n: int(n != 1), "n > 1": lambda n: int(n > 1)}


# The counts a plural rule is tried on before a run counts by it
# (plural_fault), and a script's table of forms when the language's rule is
# none of SCRIPT_PLURALS: a count from 1000 on takes the form of 1000 + its
# last three digits, right for every rule gettext's catalogues write (they
# read n, n % 10, n % 100 and small numbers).
PLURAL_TABLE = 2000


def script_catalogue(domain: str) -> dict:
    """The current language's translations of one domain's messages, as JSON
    data for a page's script: {plural, messages: [[id, text]], plurals:
    [[singular, [form 0, form 1, ...]]]}. `plural` names a rule of
    SCRIPT_PLURALS, or is None and `forms` gives the form of each count to
    PLURAL_TABLE (Polish has three). The ids are the domain's template
    (generator/locales/<domain>.pot); only translations that differ from the
    English travel, and English needs none."""
    words = _current.get()
    named = script_plural(words)
    rule = getattr(words.translations, "plural", None) or SCRIPT_PLURALS["n != 1"]
    counted = [int(rule(n)) for n in range(PLURAL_TABLE)]
    example: dict[int, int] = {}                # each form: the first count that takes it
    for n, form in enumerate(counted):
        example.setdefault(form, n)
    messages, plurals = [], []
    for message in _shipped(LOCALES_DIR / f"{domain}.pot", SOURCE_LANGUAGE):
        if not message.id or message.context:
            continue
        if isinstance(message.id, (tuple, list)):
            singular, plural = message.id[:2]
            forms = [words.ngettext(singular, plural, example.get(form, 2)) for form in range(max(counted) + 1)]
            if forms != [singular, plural]:
                plurals.append([singular, forms])
        elif words.gettext(message.id) != message.id:
            messages.append([message.id, words.gettext(message.id)])
    return {"plural": named, **({} if named else {"forms": counted}), "messages": sorted(messages),
            "plurals": sorted(plurals)}


def plural_fault(language: str, own: Catalog) -> str | None:
    """What is wrong with the plural rule `words_for(language, own)` would
    count by (the game's own Plural-Forms, else the shipped catalogue's,
    else CLDR's), or None: gettext cannot read it, or it fails or names a
    form the catalogue does not have for a count."""
    merged = _merge([*shipped(language), own], language)
    forms = merged.num_plurals
    expression = merged.plural_expr if len(merged.plural_expr) <= 60 else merged.plural_expr[:59] + "\u2026"
    if forms < 1:
        return f"the catalogue's plural rule has {forms} forms (nplurals); a language has one or more"
    try:
        rule = _gettext.c2py(merged.plural_expr)
    except (ValueError, RecursionError) as exc:
        return f"the plural rule \"{expression}\" is not one gettext reads ({exc})"
    for n in range(PLURAL_TABLE):
        try:
            form = rule(n)
        except ArithmeticError:
            return f"the plural rule \"{expression}\" cannot count {n} (it divides by zero)"
        if not 0 <= form < forms:
            return (f"the plural rule \"{expression}\" gives form {form} for {n}, where the catalogue has "
                    f"{forms} (nplurals), 0 to {forms - 1}")
    return None


def script_plural(words: Words) -> str | None:
    """Which of SCRIPT_PLURALS the language counts by (its catalogue's
    Plural-Forms); None for a rule outside them (script_catalogue then
    gives the script a table of forms)."""
    rule = getattr(words.translations, "plural", None)
    if rule is None:
        return "n != 1"
    for name, known in SCRIPT_PLURALS.items():
        if all(rule(n) == known(n) for n in range(PLURAL_TABLE)):
            return name
    return None


# --- numbers, the language's way ---------------------------------------------------------------------------------

def decimal_text(value: Decimal, places: int) -> str:
    """An already rounded number with exactly `places` decimals, in the current
    language's decimal sign and digits (56.3 -> "56,3" in French); no
    thousands separator, as the rules' tables have none."""
    locale = _current.get().locale
    pattern = parse_pattern(locale.decimal_formats[None].pattern)
    pattern.frac_prec = (places, places)
    return _printable(pattern.apply(value, locale, group_separator=False))


def percent_text(value: Decimal, places: int) -> str:
    """An already rounded percentage (56.3 for 56.3 %) written the current
    language's way: "56.3%", "56,3 %" (French, German), "%56,3" (Turkish)."""
    locale = _current.get().locale
    pattern = parse_pattern(locale.percent_formats[None].pattern)
    pattern.frac_prec = (places, places)
    return _printable(pattern.apply(value / 100, locale, group_separator=False))


def grouped(value: int) -> str:
    """A whole number with the current language's thousands separator, for
    a large figure in prose ("1,000,000" in English, "1 000 000" in French)."""
    return _printable(format_decimal(value, locale=_current.get().locale))


# A placeholder is `{name}` (Python messages, the tracker's) or `%(name)s`
# (templates'), nothing more: no format spec, conversion, attribute or index.
def _printable(number: str) -> str:
    """CLDR's narrow no-break space (French 1 000 000) as a no-break space:
    the printed fonts have no narrow one, and a fallback font would draw it."""
    return number.replace("\u202f", "\u00a0")


PLACEHOLDER = re.compile(r"%\((\w+)\)s|\{(\w+)\}")


def placeholders(text: str) -> list[str]:
    """The placeholders of a message as written, sorted: `%(hp)s` and
    `{hp}` are two (a template fills only the first kind, Python's format
    only the second), so a translation keeps each one's kind and name."""
    return sorted(found.group(0) for found in PLACEHOLDER.finditer(text))


def stray_syntax(text: str) -> str | None:
    """What in a translation a formatter would read as syntax but is not a
    placeholder (`{0}`, `{name!r}`, `{name:>999}`, a lone brace, `%(x)d`):
    a game's catalogue may hold none, so filling a message in can only put
    the values in."""
    rest = PLACEHOLDER.sub("", text)
    for found in re.finditer(r"[{}]|%\(", rest):
        return f"'{found.group(0)}'"
    return None


def fill(message: str, **values: object) -> str:
    """A translated message's `%(name)s` placeholders filled in; anything
    else in it is text (a French "50 %" included)."""
    return re.sub(r"%\((\w+)\)s", lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), message)


def line_start(text: str) -> str:
    """`text` as it reads at the start of a line or a list item: the tool's
    words are kept lower-case for the middle of a sentence ("one set of
    hand-signal cards"), so a cover's checklist or a heading raises only
    their first letter ("Hand-signal cards", "Fiche de personnage")."""
    return text[:1].upper() + text[1:]
