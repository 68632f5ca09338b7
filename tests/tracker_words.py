"""What the tracker tests ask of a translated page or log: which English
words of the tracker's catalogue domain are left in a text.

A message whose translation in the current language differs from its
English is looked for by its literal pieces (the text between its
placeholders) of at least MIN_PIECE characters: shorter pieces ("HP",
"Copy") could be part of a name or of the translation itself.
"""
from __future__ import annotations

import re

from babel.messages.pofile import read_po

from generator.core import i18n
from generator.render.site.tracker import TRACKER_DOMAIN
from po_forms import forms

MIN_PIECE = 8
_PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def english_pieces() -> list[str]:
    """The literal pieces of every tracker message the current language translates differently."""
    with (i18n.LOCALES_DIR / f"{TRACKER_DOMAIN}.pot").open("rb") as file:
        template = read_po(file)
    words = i18n.current()
    pieces: set[str] = set()
    for message in template:
        if not message.id:
            continue
        ids = forms(message.id)
        translated = ([words.gettext(ids[0])] if len(ids) == 1
                      else [words.ngettext(ids[0], ids[1], 1), words.ngettext(ids[0], ids[1], 2)])
        for english, text in zip(ids, translated, strict=True):
            if english != text:
                pieces.update(p.strip() for p in _PLACEHOLDER.split(english) if len(p.strip()) >= MIN_PIECE)
    return sorted(pieces)


def english_left(text: str) -> list[str]:
    """The English pieces of the tracker's messages found in `text` (none, in a well translated page)."""
    return [piece for piece in english_pieces() if piece in text]
