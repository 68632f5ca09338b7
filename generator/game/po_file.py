"""A game's `.po` file read as hostile input: bytes to messages, each fault at its line.

Game layer (Babel's reader, the standard library). Babel reads a catalogue
trusting it: the declared charset decodes the bytes (an unknown one is a
LookupError, a wrong one garbles every accent), `nplurals` sizes a list
before anything checks it (a billion forms is a MemoryError), a second
copy of a message is merged into the first, and lines end at "\\n" only
(an old Mac's CR file is one comment). So this reads it in two passes:

1. the header alone, from the bytes read as Latin-1 (every byte is a
   character, and the header is ASCII), for its charset and plural count:
   the charset must be one Python knows that writes ASCII as ASCII, and
   `nplurals` a number from 1 to MOST_FORMS;
2. the whole file decoded in that charset (a UTF-8 byte-order mark
   dropped; CR, LF and CRLF each end a line), refusing bytes the charset
   cannot read, a file declared in another charset whose bytes read as
   UTF-8, and a message given twice (at the second, naming the first).

What comes back is a Catalog whose charset is UTF-8 whatever the file
declared, so compiling it never meets a letter its charset lacks.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from email import message_from_string

from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, PoFileParser

from ..core.errors import Problem

# gettext's languages have at most six plural forms (Arabic); CLDR's too.
MOST_FORMS = 6
UTF8_BOM = b"\xef\xbb\xbf"
_ASCII_SAMPLE = 'msgid "" msgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'
READ_HINT = "a catalogue is a gettext .po file; start from `sixes catalogue {language}`"
CHARSET_HINT = ("save the file as UTF-8 and say so in its header: \"Content-Type: text/plain; charset=UTF-8\\n\" "
                "(any PO editor, such as Poedit, does both)")


@dataclass
class PoRead:
    """A catalogue read from bytes, or None with the problems that stopped it."""

    catalogue: Catalog | None = None
    problems: list[Problem] = field(default_factory=list)
    text: str = ""                          # the file's text, every line ended by "\n"


class _Stop(Exception):
    """The header has been read (pass 1), or a fault stops the reading."""

    def __init__(self, line: int | None = None, message: str = "", hint: str | None = None):
        super().__init__(message)
        self.line, self.message, self.hint = line, message, hint


class _Parser(PoFileParser):
    """Babel's parser that stops after the header (`header_only`), bounds
    its plural count before any message is sized by it, and keeps the first
    of two copies of a message, noting the second."""

    def __init__(self, catalog: Catalog, lines: list[str], header_only: bool = False):
        super().__init__(catalog, abort_invalid=True)
        self.lines, self.header_only = lines, header_only
        self.seen: dict[tuple[str, str | None], int] = {}
        self.twice: list[tuple[int, int, str]] = []         # (line, first line, message)

    def _add_message(self) -> None:
        line = self.offset + 1
        first = self.messages[0].denormalize() if self.messages else ""
        key = (first, self.context.denormalize() if self.context else None)
        if not self.obsolete:
            if key in self.seen:
                self.twice.append((line, self.seen[key], first))
                self._reset_message_state()
                return
            self.seen[key] = line
        header = key == ("", None) and not self.obsolete
        if header and self.translations:
            self._bound_forms(self.translations[0][1].denormalize(), line)
        try:
            super()._add_message()
        except (ValueError, LookupError, TypeError) as exc:
            raise _Stop(line, f"cannot read the catalogue's header: {exc}") from None
        if header:
            if not 1 <= self.catalog.num_plurals <= MOST_FORMS:       # CLDR's count for the header's language
                raise _Stop(self.field_line("language:", line), f"the catalogue's language has "
                            f"{self.catalog.num_plurals} plural forms; a language has 1 to {MOST_FORMS}")
            if self.header_only:
                raise _Stop()

    def _bound_forms(self, header: str, line: int) -> None:
        """Every `nplurals` of the header's Plural-Forms a number from 1 to
        MOST_FORMS, before Babel reads one (int() takes any digits, and it
        sizes each plural message's list of forms by it)."""
        for field_name, value in message_from_string(header).items():
            if field_name.lower() != "plural-forms":
                continue
            for forms in re.findall(r"nplurals\s*=\s*([^;]*)", value, re.IGNORECASE) or ["2"]:
                if not (re.fullmatch(r"\s*[0-9]{1,2}\s*", forms) and 1 <= int(forms) <= MOST_FORMS):
                    raise _Stop(self.field_line("plural-forms", line), f"the catalogue's plural rule has "
                                f"{_short(forms.strip(), 20)} forms (nplurals); a language has 1 to {MOST_FORMS}",
                                "e.g. \"Plural-Forms: nplurals=2; plural=(n != 1);\\n\" (Polish has 3, Arabic 6)")

    def field_line(self, name: str, header: int) -> int:
        """The line of the header's field `name` (lower case), else the header's own."""
        for number in range(header - 1, len(self.lines)):
            text = self.lines[number].lower()
            if name in text:
                return number + 1
            if number >= header and text.startswith(("msgid", "msgctxt", "#")):
                break
        return header

    def _process_keyword_line(self, lineno, line, obsolete=False) -> None:   # type: ignore[no-untyped-def]
        try:
            super()._process_keyword_line(lineno, line, obsolete)
        except ValueError as exc:       # msgstr[x]: Babel's int() of the index
            raise _Stop(lineno + 1, f"cannot read the catalogue: {exc}") from None


def lines_of(text: str) -> list[str]:
    """The text's lines, whichever of CR, LF or CRLF ends them (and only those)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def line_at(data: bytes, index: int) -> int:
    """The line of byte `index`, counting CR, LF and CRLF as one line end each."""
    before = data[:index]
    return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1


def read_po_file(data: bytes, language: str, shown: str) -> PoRead:
    """The catalogue in `data`, or the problems that keep it from being read (each at its line)."""
    hint = READ_HINT.format(language=language)
    data = data[len(UTF8_BOM):] if data.startswith(UTF8_BOM) else data
    try:
        charset = _header_charset(data, language)
        text = _decoded(data, charset)
        catalogue, parser = _parse(lines_of(text), language)
    except _Stop as stop:
        return PoRead(None, [Problem(shown, stop.line, None, stop.message, hint=stop.hint or hint)])
    except PoFileError as exc:
        where = re.search(r" on (\d+)$", str(exc))          # Babel counts lines from 0
        return PoRead(None, [Problem(shown, int(where.group(1)) + 1 if where else None, None,
                                     "cannot read the catalogue: " + re.sub(r" on \d+$", "", str(exc)), hint=hint)])
    catalogue.charset = "utf-8"
    problems = [Problem(shown, line, 1, f"the message \"{_short(message)}\" is given twice: first at line {first}",
                        hint="keep one of the two (gettext's msgfmt refuses a catalogue with both)")
                for line, first, message in parser.twice]
    return PoRead(None if problems else catalogue, problems, "\n".join(lines_of(text)))


def _parse(lines: list[str], language: str, header_only: bool = False) -> tuple[Catalog, _Parser]:
    catalogue = Catalog(locale=language.replace("-", "_"))
    parser = _Parser(catalogue, lines, header_only)
    try:
        parser.parse(lines)
    except _Stop as stop:
        if stop.message:
            raise
    return catalogue, parser


def _header_charset(data: bytes, language: str) -> str:
    """The charset the header declares (UTF-8 when it declares none), once
    it is known to be one Python reads and to write ASCII as ASCII."""
    catalogue, parser = _parse(lines_of(data.decode("latin-1")), language, header_only=True)
    charset = catalogue.charset or "utf-8"
    header = parser.seen.get(("", None))
    line = parser.field_line("charset=", header) if header else None
    try:
        codecs.lookup(charset)
        ascii_safe = _ASCII_SAMPLE.encode(charset) == _ASCII_SAMPLE.encode("ascii")
    except (LookupError, UnicodeError, ValueError):
        raise _Stop(line, f"the catalogue's header names the charset '{_short(charset)}', which is not an "
                    "encoding Python knows", CHARSET_HINT) from None
    if not ascii_safe:
        raise _Stop(line, f"the catalogue's header names the charset '{_short(charset)}', which does not write "
                    "plain ASCII as ASCII (a .po file's keywords must read as written)", CHARSET_HINT)
    return charset


def _decoded(data: bytes, charset: str) -> str:
    """`data` in `charset`; a byte it cannot read, or a declared charset
    that is not UTF-8 over bytes that read as UTF-8, refused at its line."""
    try:
        text = data.decode(charset)
    except UnicodeDecodeError as exc:
        raise _Stop(line_at(data, exc.start), f"byte 0x{data[exc.start]:02X} cannot be read in the catalogue's "
                    f"charset '{_short(charset)}' ({exc.reason})", CHARSET_HINT) from None
    if codecs.lookup(charset).name != "utf-8" and not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return text
        first = next(i for i, byte in enumerate(data) if byte > 0x7F)
        raise _Stop(line_at(data, first), f"the catalogue's header names the charset '{_short(charset)}' but the "
                    "file is written in UTF-8: every accented letter would print garbled", CHARSET_HINT)
    return text


def _short(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most - 1] + "\u2026"
