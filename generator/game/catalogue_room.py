"""How much room a game's translation of the tool's words may take on paper.

Game layer (core/measure.py's font widths, core/i18n.py's shipped
catalogues). The tool's own words land in boxes no data field measures: a
card's heading and legend, a table's column heads, the statuses card. Their
layouts are proven for the wordings the tool ships (English, French and
German: tests/test_fit.py and tests/test_language_whole.py build each and
read the print lint), so a game's translation of a message that reaches a
PDF may be as wide as the widest of those wordings, and no wider: on one
line in the printed font, and in its longest word (a column breaks a
word only past its whole width). The check measures with the same widths
as the fit check, placeholders left out (the value they hold is the same
width in every language).

Which messages reach a PDF is read from where the tool uses them (the
templates' `#:` locations): those used only by the site's pages, the
fight tracker or the rulings (published on the site) flow on a screen and
take any length.
"""
from __future__ import annotations

from functools import lru_cache

from babel.messages.catalog import Message

from ..core import i18n
from ..core.measure import text_width

SIZE_PT = 10.0
# Where a message used only there never reaches a PDF.
SCREEN_ONLY = ("/site/", "templates/sixes/tracker/", "rulings.yaml", "generator/render/site")


def printed(message: Message) -> bool:
    """Whether the tool prints `message` on a PDF somewhere (or may: a message without locations)."""
    places = [place for place, _line in message.locations]
    return not places or any(not any(mark in place for mark in SCREEN_ONLY) for place in places)


def room_fault(key: tuple[str, str | None], message: Message, string: str) -> str | None:
    """Why `string`, a translation of `message`, is too wide for the boxes
    the tool prints it in, or None."""
    if not printed(message):
        return None
    line, word = _widths(string)
    most_line, most_word, widest = widest_shipped(key)
    if word > most_word + 0.05:
        longest = max(_words(string), key=lambda w: text_width(w, SIZE_PT))
        return (f"has the word \"{longest}\", {word:.1f} mm wide at {SIZE_PT:.0f} pt, where the widest word of the "
                f"wordings the tool's layouts are made for is {most_word:.1f} mm")
    if line > most_line + 0.05:
        return (f"is {line:.1f} mm wide on one line at {SIZE_PT:.0f} pt, where the widest wording the tool's "
                f"layouts are made for ({widest}) is {most_line:.1f} mm")
    return None


@lru_cache(maxsize=None)
def widest_shipped(key: tuple[str, str | None]) -> tuple[float, float, str]:
    """(widest line, widest word, whose) of the shipped wordings of a message:
    its English forms and each shipped language's translation."""
    wordings = _shipped_wordings().get(key) or [(i18n.SOURCE_LANGUAGE, key[0])]
    widths = [(_widths(text), language) for language, text in wordings]
    (line, _), whose = max(widths, key=lambda item: item[0][0])
    return line, max(width[1] for width, _ in widths), _LANGUAGE_NAMES.get(whose, whose)


@lru_cache(maxsize=1)
def _shipped_wordings() -> dict[tuple[str, str | None], list[tuple[str, str]]]:
    """Every message's shipped wordings, (language, text), read once."""
    wordings: dict[tuple[str, str | None], list[tuple[str, str]]] = {}
    for language in i18n.SHIPPED:
        english = language == i18n.SOURCE_LANGUAGE
        for catalogue in i18n.templates() if english else i18n.shipped(language):
            for message in catalogue:
                if not message.id:
                    continue
                first = message.id if isinstance(message.id, str) else message.id[0]
                texts = message.id if english else message.string
                listed = wordings.setdefault((first, message.context), [])
                listed += [(language, text) for text in ([texts] if isinstance(texts, str) else texts or ()) if text]
    return wordings


_LANGUAGE_NAMES = {"en": "the English", "fr": "the French", "de": "the German"}


def _words(text: str) -> list[str]:
    return i18n.PLACEHOLDER.sub(" ", text).split() or [""]


def _widths(text: str) -> tuple[float, float]:
    """(the whole text on one line, its widest word), in mm, placeholders left out."""
    bare = " ".join(i18n.PLACEHOLDER.sub(" ", text).split())
    return text_width(bare, SIZE_PT), max(text_width(word, SIZE_PT) for word in _words(text))
