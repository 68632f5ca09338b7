"""User-facing problems with data: where, what was found, what is allowed.

Core layer: imports nothing from the project but the standard library. Every
check in the project reports a Problem instead of raising, so one run can
show every mistake at once; DataError carries them to the command line.
Every failure a user reads (rather than a traceback) is a `UserError`: the
floors raise their own kinds of it and commands/failures.py prints them all
one way.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import ClassVar, Iterable, Literal

Severity = Literal["error", "warning"]

# Characters a terminal would act on rather than show: C0 controls (tab and
# newline too: one problem is one line), DEL, C1 controls, the bidi controls
# and marks that reorder the text around them (the "Trojan Source" set), and
# Unicode's line and paragraph separators.
_BIDI_CONTROLS = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_NAMED_ESCAPES = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_VISIBLE = {code: _NAMED_ESCAPES.get(code, f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
            for code in [*range(0x20), *range(0x7F, 0xA0), *_BIDI_CONTROLS]}


def visible(text: object) -> str:
    """`text` (or what str() makes of it) safe to print on a terminal: every control character shown as
    an escape (ESC as `\\x1b`, a right-to-left override as `\\u202e`), so
    data can neither recolour, move the cursor nor reorder a message. A
    `Drawing` (the tool's own, holding no text) is the one thing printed as it is."""
    if type(text) is Drawing:
        return text._drawn
    return str(text).translate(_VISIBLE)


# Explicit colours (ANSI 30/97 foreground, 40/107 background): dark black,
# light bright white, whatever the terminal's own colours.
_FG = {True: "30", False: "97"}
_BG = {True: "40", False: "107"}
_UPPER_HALF = "\u2580"
_MINT = object()


class Drawing:
    """Blocks the tool draws on a terminal itself (a QR code's modules), in
    its own colours: the terminal's escapes are its markup, so `visible`
    prints it unescaped. It holds no text at all: `half_blocks` makes one
    from booleans alone (anything else is a TypeError), and nothing else
    can, so no value from data can be printed raw by way of it. Used in any
    other way (str(), an f-string) it is escaped like any text."""

    __slots__ = ("_drawn",)

    def __init__(self, drawn: str, mint: object) -> None:
        if mint is not _MINT:
            raise TypeError("a Drawing is made by half_blocks() from booleans, never from text")
        self._drawn = drawn

    def __str__(self) -> str:
        return self._drawn.translate(_VISIBLE)


def half_blocks(rows: Iterable[Iterable[bool]]) -> Drawing:
    """`rows` of dark (True) and light (False) modules as lines of upper
    half blocks, each character two modules (the upper one's colour on the
    lower one's), an odd last row padded light."""
    grid = [list(row) for row in rows]
    if any(type(module) is not bool for row in grid for module in row):
        raise TypeError("half_blocks() draws booleans only")
    if len(grid) % 2:
        grid.append([False] * len(grid[0]))
    lines = ["".join(f"\x1b[{_FG[a]};{_BG[b]}m{_UPPER_HALF}" for a, b in zip(top, bottom, strict=True)) + "\x1b[0m"
             for top, bottom in zip(grid[::2], grid[1::2], strict=True)]
    return Drawing("\n".join(lines), _MINT)


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or suspicious) in the data, located as file:line:column."""

    file: str
    line: int | None
    column: int | None
    message: str
    field: str = ""
    hint: str | None = None
    severity: Severity = "error"

    @property
    def location(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        text = f"{self.location}: {self.severity}: {where}{self.message}"
        if self.hint:
            text += f"; {self.hint}"
        return visible(text)

    def sort_key(self) -> tuple:
        return (self.file, self.line or 0, self.column or 0, self.message)


class UserError(Exception):
    """A failure the user reads instead of a traceback: what went wrong
    (`message`), any further lines (`details`: one fault a line, each escaped
    on its own when printed) and the exit status. Every error a command may
    end with derives from it, so commands/failures.py converts this one type;
    an exception that is not one is a bug and keeps its traceback.

    A message is one line: a newline in it (a path from outside may hold
    one) is shown escaped, never obeyed, unless the class says its text is a
    message and its details (`multiline`), as a list of faults is."""

    exit_status: ClassVar[int] = 1
    # Whether a failure of this kind goes on to say what was left unchanged
    # (the command's stakes); False for a kind raised before anything is at stake.
    tells_unchanged: ClassVar[bool] = True
    # Whether a text of several lines given alone is the message (its first
    # line) and the details (the rest).
    multiline: ClassVar[bool] = False

    def __init__(self, message: str, details: Iterable[str] = ()):
        details = tuple(details)
        if self.multiline and not details:
            message, *rest = message.splitlines() or [""]
            details = tuple(rest)
        self.message, self.details = message, details
        super().__init__("\n".join([message, *details]))

    def __reduce__(self) -> tuple:
        # Rendering workers raise these in another process: rebuilt from the parts, not from str().
        return (type(self), (self.message, self.details))


class DataError(UserError):
    """The data is invalid; carries every problem found, not just the first
    (the command prints them as problems, not as a message)."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(problems, key=Problem.sort_key)
        first, *rest = [str(p) for p in self.problems] or [""]
        super().__init__(first, rest)

    def __reduce__(self) -> tuple:
        return (type(self), (self.problems,))


def errors_in(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


def close_matches(found: str, allowed: Iterable[str], most: int = 2) -> list[str]:
    """The allowed names nearest to `found`, case-insensitively, closest first.

    A clear winner stands alone; near ties are all offered, since spelling
    distance cannot tell 'once per fight' from 'once per game', but the user can.
    """
    by_lower = {a.lower(): a for a in allowed}
    wanted = str(found).lower()
    scored = sorted(((difflib.SequenceMatcher(None, wanted, c).ratio(), c) for c in by_lower), reverse=True)
    if not scored or scored[0][0] < 0.6:
        return []
    best = scored[0][0]
    return [by_lower[c] for score, c in scored[:most] if score >= 0.6 and score >= best - 0.1]


def did_you_mean(found: str, allowed: Iterable[str], most: int = 2) -> str | None:
    """A 'did you mean' hint for a near miss, or None."""
    close = close_matches(found, allowed, most)
    if not close:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


def allowed_hint(found: str, allowed: Iterable[str]) -> str:
    """The closest match if there is one, otherwise the list of what is allowed."""
    allowed = list(allowed)
    return did_you_mean(found, allowed) or "allowed: " + ", ".join(f"'{a}'" for a in allowed)


class BuildError(UserError):
    """The data was valid but something could not be built (a document that
    overflows its page, a template that fails); the message says what and
    where, a line for each fault after it."""

    multiline = True
