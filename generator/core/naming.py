"""The one way a name from the data becomes part of a path, a key or a URL.

Core layer: standard library only. Two entities whose names differ only in
case, accents or punctuation ("First Rival", "first-rival", "First_Rival")
get the same slug, so the loaders compare slugs, not raw names, and refuse
the second entity with an error naming both files: a slug therefore names
one entity only, and no two outputs can ever share a file.

Letters with no decomposition are written as a native reader spells them
without the mark ('Sœur' -> 'soeur', 'Łódź' -> 'lodz', 'Straße' -> 'strasse')
before accents are stripped, so no letter is dropped. The site's heading
anchors are made by the same function (`anchor`, MkDocs' toc `slugify`), so a
character's anchor and file name agree.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

from .text import looks

# Long enough to read, short enough for any file system with a folder prefix.
MAX_SLUG = 60
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
# File names Windows refuses whatever the extension (a zip is unpacked there too).
# Letters NFKD leaves whole, as they are spelled without their mark (after casefold: 'ß' is 'ss' already).
_SPELLED = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
                          "ħ": "h", "ŧ": "t", "ŋ": "ng", "ĸ": "k", "ŀ": "l", "ƒ": "f"})
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def slug(text: str) -> str:
    """Lowercase ASCII words joined by hyphens: 'Ned Tregarth' -> 'ned-tregarth'.

    Accents are dropped ('Zoë' -> 'zoe'), letters without a decomposition
    spelled out ('Sœur' -> 'soeur'). Where letters would be lost (a name
    in Hebrew or Chinese, partly or wholly) or a long name is cut short, a
    digest of the whole name is added, so distinct names in any script keep
    distinct slugs.
    """
    text = " ".join(unicodedata.normalize("NFKC", str(text)).casefold().translate(_SPELLED).split())
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = _NOT_SLUG.sub("-", ascii_text).strip("-")
    kept = sum(ch.isalnum() for ch in ascii_text)
    lossy = not words or kept < sum(ch.isalnum() for ch in text) or len(words) > MAX_SLUG
    if not lossy:
        return f"{words}-name" if words in _RESERVED else words
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    words = words[:MAX_SLUG - 11].rstrip("-")
    return f"{words}-{digest}" if words else f"u-{digest}"


# What keyboards, phones and word processors type for an apostrophe.
_APOSTROPHES = dict.fromkeys(map(ord, "'\u2019\u2018\u02bc\u0060\u00b4\u2032"))


def match_key(text: str) -> str:
    """The key a name typed by a person is matched on (a player naming a
    character in a form, an organiser naming a player): the slug, with
    every kind of apostrophe dropped first, so "O'Brien", "O’Brien" and
    "OBrien" are one name (the slug alone splits at a straight apostrophe
    and drops a curly one). For matching only: paths keep using `slug`."""
    return slug(str(text).translate(_APOSTROPHES))


def anchor(text: str, separator: str = "-") -> str:
    """A heading's anchor on the site: its slug (MkDocs' toc `slugify`,
    set by render/site/mkdocs_build.py), so anchors keep every letter too."""
    return slug(text).replace("-", separator)


def looks_key(name: str) -> str:
    """A key two names share when they print alike (core/text.looks: Greek
    and Cyrillic look-alikes, format characters, NFKC) or would share a file
    (slug): the key the loaders refuse a second name on."""
    return slug(looks(name))


def same_name(a: str, b: str) -> bool:
    """Whether two names would collide as file names or look alike on a sheet."""
    return slug(a) == slug(b) or looks_key(a) == looks_key(b)
