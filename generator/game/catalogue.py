"""A game folder's own catalogue of the tool's words: `locales/<language>.po`.

Game layer: reads one file through the gate (core/loading) and checks it
against the tool's messages (the `.pot` templates under generator/locales).
A group playing in a language the tool does not ship (Polish, Czech...)
translates the tool's words there, or overrides a shipped translation it
words otherwise; `sixes catalogue <language>` writes the file to start from.

The file is read as hostile input (game/po_file.py: its charset, line
ends, plural count and repeated messages). What `check` says of it, each
at file:line: a message the tool does not have (unused, a warning: often a
message the tool has since reworded), a translation whose placeholders
differ from its message's in name or kind (an error: it would print the
wrong value or fail), a translation holding a character no text may hold
or one the printed fonts cannot draw, one wider than the tool's layouts
have room for (game/catalogue_room.py), and how many of the tool's
messages it leaves untranslated (a warning at the file; those print in
the shipped language or in English).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from ..core import i18n
from ..core.errors import Problem
from ..core.loading import UnreadableFile, read_limited, reading_game
from ..core.text import advice, unreadable
from ..core.glyphs import GLYPH_HINT, MOST_SHOWN, undrawn
from .catalogue_room import printed, room_fault
from .po_file import read_po_file

CATALOGUE_FOLDER = "locales"
CATALOGUE_LIMIT = 2 * 1024 * 1024
MOST_LISTED = 5


@dataclass(frozen=True)
class OwnCatalogue:
    """The game's own catalogue, read and checked (None: it has none)."""

    catalogue: Catalog | None = None
    problems: list[Problem] = field(default_factory=list)


def catalogue_path(game_dir: Path, language: str) -> Path:
    return game_dir / CATALOGUE_FOLDER / f"{language}.po"


def read_own_catalogue(game_dir: Path | None, language: str) -> OwnCatalogue:
    """The game folder's catalogue for `language`, checked (its plural rule
    tried on every count a run may print); nothing when it has none."""
    if game_dir is None:
        return OwnCatalogue()
    path = catalogue_path(game_dir, language)
    if not (path.exists() or path.is_symlink()):
        return OwnCatalogue()
    shown = f"{CATALOGUE_FOLDER}/{language}.po"
    try:
        with reading_game(game_dir):
            data = read_limited(path, CATALOGUE_LIMIT, "a catalogue")
    except UnreadableFile as exc:
        return OwnCatalogue(None, [exc.problem(shown)])
    read = read_po_file(data, language, shown)
    if read.catalogue is None:
        return OwnCatalogue(None, read.problems)
    catalogue = read.catalogue
    problems = check_catalogue(catalogue, shown, language)
    if fault := i18n.plural_fault(language, catalogue):
        problems.append(Problem(shown, _header_line(read.text, "plural-forms:"), None, fault,
                                hint="the header's rule picks every message's form: e.g. \"Plural-Forms: "
                                     "nplurals=2; plural=(n != 1);\" (or n > 1, as French counts)"))
    return OwnCatalogue(catalogue, problems)


def _header_line(text: str, name: str) -> int | None:
    """The line of a .po file's header field `name` (lower case), if it has one."""
    at = text.lower().find(name)
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def read_po_checked(data: bytes, language: str) -> Catalog:
    """A .po file's messages, read as `check` reads them (game/po_file.py);
    ValueError with the first problem when it cannot be read."""
    read = read_po_file(data, language, f"{CATALOGUE_FOLDER}/{language}.po")
    if read.catalogue is None:
        raise ValueError(str(read.problems[0]))
    return read.catalogue


def check_catalogue(catalogue: Catalog, shown: str, language: str) -> list[Problem]:
    """Every problem of a game's catalogue, located at its message's line."""
    tool = tool_messages()
    problems: list[Problem] = []
    for message in catalogue:
        if not message.id:
            continue
        key = _key(message)
        if key not in tool:
            problems.append(Problem(shown, message.lineno, 1, f"the tool has no message \"{_first(message.id)}\"",
                                    hint="remove it, or compare with `sixes catalogue "
                                         f"{language}`, which lists the tool's messages", severity="warning"))
            continue
        faults = dict.fromkeys(fault for string in _strings(message)    # a plural's forms: each fault once
                               for fault in _string_faults(key, tool[key], message, string))
        problems += [Problem(shown, message.lineno, 1, f"the translation of \"{_short(key[0])}\" {fault}", hint=hint)
                     for fault, hint in faults]
    missing = [key for key in tool if not _translated(catalogue, key, language)]
    if missing:
        shown_ids = ", ".join(f'"{key[0]}"' for key in missing[:MOST_LISTED])
        problems.append(Problem(shown, None, None, f"{len(missing)} of the tool's {len(tool)} messages are not "
                                f"translated (first: {shown_ids})", hint="they print in English until translated; "
                                f"`sixes catalogue {language}` adds them to the file", severity="warning"))
    return problems


def _string_faults(key: tuple[str, str | None], tool: Message, message: Message,
                   string: str) -> list[tuple[str, str]]:
    """(what, hint) of each fault of one translation `string` of `message`:
    what would fill in wrong, what no text may hold, and (for one that
    prints: not fuzzy) what the fonts cannot draw and what takes more room
    than the tool's layouts have."""
    if not string:
        return []
    english, faults = _first(message.id), []
    if i18n.placeholders(string) != i18n.placeholders(english):
        faults.append((f"has the placeholders {_named(string)} where the message has {_named(english)}",
                       "keep each placeholder as the message writes it, name and kind (%(hp)s stays %(hp)s, "
                       "{hp} stays {hp}): another prints as typed, without its value"))
    if stray := i18n.stray_syntax(string):
        faults.append((f"holds {stray}, which is not one of the message's placeholders",
                       "a translation is text with the message's placeholders only; leave out braces and %( )"))
    if fault := unreadable(string, "prose"):
        faults.append((f"holds {fault}", advice(string, "prose")))
    if message.fuzzy or not printed(tool):
        return faults           # not printed (until a translator clears the flag; or shown on a screen only)
    if missing := undrawn(string):
        names = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:MOST_SHOWN])
        more = f" and {len(missing) - MOST_SHOWN} more" if len(missing) > MOST_SHOWN else ""
        faults.append((f"has characters the printed fonts cannot show: {names}{more}", GLYPH_HINT))
    if room := room_fault(key, tool, string):
        faults.append((room, "the tool prints it in a box of fixed size (a card, a table's column) made for "
                             "its shipped wordings: say it in as little room"))
    return faults


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most - 1] + "\u2026"


def _translated(catalogue: Catalog, key: tuple[str, str | None], language: str) -> bool:
    """Translated in the game's catalogue or in the shipped one it completes."""
    own = catalogue.get(key[0], context=key[1])
    if own is not None and own.string and all(_strings(own)) and not own.fuzzy:
        return True
    return key in shipped_keys(language)


@lru_cache(maxsize=None)
def shipped_keys(language: str) -> frozenset[tuple[str, str | None]]:
    keys = set()
    for catalogue in i18n.shipped(language):
        for message in catalogue:
            if message.id and message.string and all(_strings(message)) and not message.fuzzy:
                keys.add(_key(message))
    return frozenset(keys)


@lru_cache(maxsize=1)
def tool_messages() -> dict[tuple[str, str | None], Message]:
    """Every message of the tool (all domains' templates), by (id, context)."""
    found: dict[tuple[str, str | None], Message] = {}
    for template in i18n.templates():
        for message in template:
            if message.id:
                found.setdefault(_key(message), message)
    return found


def template_catalogue(language: str, own: Catalog | None) -> Catalog:
    """The tool's messages as a catalogue for `language`: the game's own
    translations kept, the shipped ones filled in, the rest empty."""
    result = Catalog(locale=language.replace("-", "_"), project="sixes-press game catalogue")
    shipped = {}
    for catalogue in i18n.shipped(language):
        for message in catalogue:
            if message.id:
                shipped[_key(message)] = message.string
    for key, message in tool_messages().items():
        mine = own.get(key[0], context=key[1]) if own is not None else None
        string = mine.string if mine is not None and mine.string else shipped.get(key, message.string)
        result.add(message.id, string, auto_comments=message.auto_comments, context=message.context)
    return result


def _key(message: Message) -> tuple[str, str | None]:
    return _first(message.id), message.context


def _first(message_id: str | tuple | list) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _strings(message: Message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string or ())


def _named(text: str) -> str:
    names = i18n.placeholders(text)
    return ", ".join(names) if names else "none"
