"""The tool's words in every shipped language (core/i18n.py, generator/locales).

The catalogues are held to the code: every message the code marks is in its
domain's template and translated, whole, in French and German, with the
same placeholders; a message means the same in every domain of a language,
and a system's named terms (Rattled, SPD, Strikes) are said one way in its
labels, rulings, tracker and hand-written pages; numbers are written the
language's way. A game's own catalogue is checked
by `check` at its lines (game/catalogue.py).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from generator.core import i18n
from generator.core.i18n import Words, placeholders, speaking, stray_syntax, words_for
from generator.render.charts import fixed, percent
from generator.render.html import environment
from po_forms import forms

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [language for language in i18n.SHIPPED if language != i18n.SOURCE_LANGUAGE]


def catalogue(path: Path):
    with path.open("rb") as file:
        return read_po(file)


def test_the_catalogues_hold_every_message_the_code_marks():
    """Changing, adding or removing a message without running
    scripts/extract-messages fails here (the script's --check)."""
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "extract-messages"), "--check"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr


# A t()/tn() call's first argument in the tracker's scripts: string literals, maybe joined by "+".
JS_MESSAGE = re.compile(r'\btn?\(\s*("(?:[^"\\]|\\.)*"(?:\s*\+\s*"(?:[^"\\]|\\.)*")*)')
JS_COMMENT = re.compile(r"/\*.*?\*/|^\s*//.*?$", re.DOTALL | re.MULTILINE)


def script_messages(path: Path) -> list[str]:
    """The message ids a tracker script marks, read without Babel."""
    code = JS_COMMENT.sub("", path.read_text(encoding="utf-8"))
    return ["".join(json.loads(part) for part in re.findall(r'"(?:[^"\\]|\\.)*"', found))
            for found in JS_MESSAGE.findall(code)]


def test_every_message_the_tracker_scripts_mark_is_in_the_catalogue():
    """Babel's JavaScript extractor skips a t() nested in the arguments of
    another t(): such a message never reaches the catalogue and stays
    English on every page. Read here by a plainer reader, every message
    the tracker's scripts mark is in the tracker domain's template."""
    with (i18n.LOCALES_DIR / "tracker.pot").open("rb") as file:
        template = read_po(file)
    ids = {one for m in template if m.id for one in forms(m.id)}
    scripts = sorted((ROOT / "templates" / "sixes" / "tracker").glob("*.js"))
    marked = {(path.name, message) for path in scripts for message in script_messages(path)}
    assert len(marked) > 200
    assert sorted((name, message) for name, message in marked if message not in ids) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_whole_with_its_placeholders(language):
    faults = []
    for pot in sorted(i18n.LOCALES_DIR.glob("*.pot")):
        translated = catalogue(i18n.LOCALES_DIR / language / f"{pot.stem}.po")
        for message in catalogue(pot):
            if not message.id:
                continue
            found = translated.get(message.id, context=message.context)
            strings = [] if found is None else ([found.string] if isinstance(found.string, str) else found.string)
            ids = forms(message.id)
            where = f"{pot.stem}: {ids[0]!r}"
            if found is None or not strings or not all(strings) or found.fuzzy:
                faults.append(f"{where} is not translated")
                continue
            if any(placeholders(s) != placeholders(ids[0]) for s in strings):
                faults.append(f"{where}: placeholders {[placeholders(s) for s in strings]}")
            if any(stray_syntax(s) for s in strings):
                faults.append(f"{where}: {[stray_syntax(s) for s in strings]} is not a placeholder")
    assert faults == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_message_means_the_same_in_every_domain(language):
    """One word per idea in each language, as in English: the same English
    message is translated the same wherever it appears."""
    seen: dict[tuple, tuple[str, object]] = {}
    faults = []
    for po in sorted((i18n.LOCALES_DIR / language).glob("*.po")):
        for message in catalogue(po):
            if message.id and message.string:
                key = (message.id if isinstance(message.id, str) else message.id[0], message.context)
                if key in seen and seen[key][1] != message.string:
                    faults.append(f"{key[0]!r}: {seen[key][0]} says {seen[key][1]!r}, {po.stem} {message.string!r}")
                seen.setdefault(key, (po.stem, message.string))
    assert faults == []


def test_numbers_are_written_the_languages_way():
    cases = {"en": ("56.3%", "2.3", "<0.1%"), "fr": ("56,3\u00a0%", "2,3", "<0,1\u00a0%"),
             "de": ("56,3\u00a0%", "2,3", "<0,1\u00a0%"), "tr": ("%56,3", "2,3", "<%0,1")}
    for language, expected in cases.items():
        with speaking(Words(language)):
            assert (percent(Fraction(9, 16)), fixed(Fraction(9, 4)), percent(Fraction(1, 10**6))) == expected
    assert percent(Fraction(9, 16)) == "56.3%"          # English again after the block


def test_a_translation_is_text_never_markup():
    """A game may bring its own catalogue: what it says is escaped like data,
    in a PDF's HTML and in a site page's Markdown."""
    from babel.messages.catalog import Catalog
    own = Catalog(locale="pl")
    own.add("%(name)s attacks", "<script>x</script>[a](javascript:1) %(name)s")
    with speaking(words_for("pl", own)):
        html = environment().from_string('{{ _("%(name)s attacks", name="<b>") }}').render()
        markdown = environment(markdown=True).from_string('{{ _("%(name)s attacks", name="[c](d)") }}').render()
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;b&gt;" in html
    assert "](" not in markdown and "[" not in markdown


def test_the_language_is_the_runs_and_only_inside_it():
    assert i18n.current().language == "en"
    with speaking(words_for("fr")) as words:
        assert i18n.current() is words
        with speaking(Words("de")):
            assert i18n.current().language == "de"
        assert i18n.current().language == "fr"
    assert i18n.current().language == "en"


def test_one_template_speaks_each_runs_language():
    """One environment serves every language: nothing a template prints in
    one language may be frozen into it when it compiles (Jinja folds a
    filter on a literal, `{{ 1 | percent(0) }}`, unless the filter takes
    the render's context)."""
    template = environment().from_string('{{ 1 | percent(0) }} {{ 0.5 | fixed(2) }} {{ _("Rulings") | upper }}')
    english = template.render()
    with speaking(words_for("fr")):
        french = template.render()
    assert english == "100% 0.50 RULINGS"
    assert french == "100\u00a0% 0,50 " + words_for("fr").gettext("Rulings").upper() and "RULINGS" not in french


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_character_of_a_translation_is_in_the_printed_fonts(language):
    """Spaces included: the fonts have no narrow no-break space (U+202F), so
    French writes a no-break space (U+00A0) before its colons and percents,
    and its numbers are grouped with one too. The tracker's words are shown by
    a phone's browser in its own fonts, not printed (its arrows stay)."""
    from generator.core.glyphs import face_coverage
    drawn = frozenset.intersection(*face_coverage().values()) | {ord("\n")}
    faults = set()
    for po in sorted(p for p in (i18n.LOCALES_DIR / language).glob("*.po") if p.stem != "tracker"):
        for message in catalogue(po):
            for string in forms(message.string):
                faults |= {f"{po.stem}: U+{ord(c):04X}" for c in string if ord(c) not in drawn}
    assert faults == set()
    with speaking(words_for(language)):
        assert all(ord(c) in drawn for c in i18n.grouped(1234567) + percent(Fraction(9, 16)))


# -- one word per named idea, in every catalogue of a system -------------------

def _named_terms(catalogue_) -> dict[str, str]:
    """A system's names for its own ideas, from its labels' catalogue: every
    message of one or two capitalised words or an abbreviation (an action, a
    condition, a stat, an outcome, SPD) with the one translation it has there."""
    seen: dict[str, set[str]] = {}
    for message in catalogue_:
        if isinstance(message.id, str) and message.string and re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?|[A-Z]{2,4}",
                                                                          message.id):
            seen.setdefault(message.id, set()).add(message.string)
    return {term: next(iter(words)) for term, words in seen.items() if len(words) == 1}


def _stems(translation: str) -> list[str]:
    """Each word of a term's translation less an inflected ending, so
    "Strafpunkte" is found in "Strafpunkten" and "Numéros fétiches" in
    "aucun Numéro fétiche"."""
    return [word[:-2] if len(word) > 6 else word for word in translation.casefold().split()]


def _named_mid_sentence(term: str, text: str) -> bool:
    """`term` appears as a name: capitalised and not merely opening a
    sentence ("Roll 1d6" is the verb; "meet the Scale" is the name)."""
    return any(not re.search(r"(^|[.:;!?]\s+|\n)$", text[:m.start()])
               for m in re.finditer(rf"\b{re.escape(term)}\b", text))


def _system_domains() -> dict[str, list[str]]:
    from generator.render.site.tracker import TRACKER_DOMAIN
    from generator.systems import SYSTEMS
    return {s.slug: [s.slug, f"{s.slug}-rulings"] + ([TRACKER_DOMAIN] if s.slug == "sixes" else [])
            for s in SYSTEMS}


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_system_calls_each_of_its_named_ideas_one_way_in_every_catalogue(language):
    """A player reads "Andere verteidigen" on the card and must find the same
    words in the rulings and the tracker: a named term of a system (its
    labels' translation) is how every catalogue of that system says it."""
    drift = []
    for slug, domains in _system_domains().items():
        folder = i18n.LOCALES_DIR / language
        terms = _named_terms(catalogue(folder / f"{slug}.po"))
        assert len(terms) > 10, f"{slug}: too few named terms found to hold anything"
        for domain in domains:
            for message in catalogue(folder / f"{domain}.po"):
                ids = forms(message.id)
                strings = forms(message.string)
                said = " ".join(strings).casefold()
                for term, translation in terms.items():
                    if ids and _named_mid_sentence(term, ids[0]) \
                            and not all(stem in said for stem in _stems(translation)):
                        drift.append(f"{domain}: {term!r} is {translation!r} on the labels, not in {ids[0][:60]!r}")
    assert drift == []


def _written_pages(slug: str, language: str) -> list[tuple[str, str, str]]:
    """(name, English, translated) for each rules page a system ships written
    out in the language rather than as messages (site/<system>/index.<language>.md).
    Starter games are left out: their names are data, and a language may keep
    a game's own names in English on purpose (the French D6xD6 skills)."""
    from generator.core.paths import SITE_SOURCES_DIR
    from generator.systems import system as system_of
    pages = []
    for page in system_of(slug).hand_written:
        english = SITE_SOURCES_DIR / slug / page
        translated = english.with_name(f"{english.stem}.{language}.md")
        if translated.is_file():
            pages.append((str(translated.relative_to(ROOT)), english.read_text(encoding="utf-8"),
                          translated.read_text(encoding="utf-8")))
    return pages


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_rules_pages_written_in_a_language_use_its_named_terms(language):
    """The hand-written rules page is in the same words as the cards: a
    named term the English page uses is in the translation."""
    drift = []
    for slug in _system_domains():
        terms = _named_terms(catalogue(i18n.LOCALES_DIR / language / f"{slug}.po"))
        texts = _written_pages(slug, language)
        assert texts, f"{slug} ships nothing written in {language}"
        for name, english, translated in texts:
            said = translated.casefold()
            drift += [f"{name}: {term!r} is {translation!r} on the labels, never said here"
                      for term, translation in terms.items()
                      if _named_mid_sentence(term, english) and not all(s in said for s in _stems(translation))]
    assert drift == []
