"""The one place YAML is read: plain data plus where every value came from.

Core layer: imports PyYAML and the project's errors module only. PyYAML's
composer keeps a start mark on every node; we walk the node tree ourselves so
each value (and each mapping key) keeps its line and column, which is what
lets a validation error say `characters/mara.yaml:7:5`.

Data files come from anyone (a shared game, a download), so reading one is
bounded: only regular files, of a stated size, nested a stated depth, with a
stated number of values however aliases repeat them, no text longer than a
stated length, and only the plain YAML types (no tags that build objects).
Each limit breached is a Problem, never a traceback or a hang.

`open_regular` is the one gate every file of a game folder passes through
(data, settings, casting, front matter, pages, images, portraits, handouts,
the logo): while `reading_game(folder)` is in force it also refuses a file
that a symbolic link (the file's own, or a folder's on its way) leads out of
that folder. tests/test_gather.py holds that nothing else opens game files.
"""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Protocol

import yaml

from .errors import Problem, Severity

# libyaml's composer keeps the same line/column marks and is about ten times
# faster; the pure-Python one is the fallback where libyaml is not built in.
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# The limits. The largest file shipped is 17 KiB with under 3,000 values, the
# longest text in it under 2,000 characters, nested five levels: each limit
# leaves a wide margin, yet the worst file within all of them loads in a
# fraction of a second.
MAX_YAML_BYTES = 256 * 1024
MAX_VALUES = 50_000          # per file, each use of an alias counted again (a "billion laughs" stops here)
MAX_DEPTH = 50               # lists and mappings inside one another
MAX_TEXT_CHARS = 20_000      # one text value, about ten printed pages

# Tags allowed on a value. A date (2024-05-01, which YAML 1.1 reads as a
# timestamp) is kept as the text it was written as; every other tag
# (!!binary, !!set, !!omap, !!python/..., a local !name) is refused, since
# the models take plain text, numbers, true/false, lists and mappings only.
YAML_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {YAML_TAG + name for name in ("str", "int", "float", "bool", "null")}
_TEXT_TAGS = {YAML_TAG + "timestamp"}
_MAPPING_TAG, _SEQUENCE_TAG = YAML_TAG + "map", YAML_TAG + "seq"
TAG_HINT = "plain values need no tag: write text, numbers, true/false, lists and mappings as they are"
DEPTH_HINT = "data files nest a few levels at most; check the brackets and the indentation"

Key = tuple[Any, ...]


@dataclass
class YamlDocument:
    """A parsed YAML file: its data and the positions of its values and keys."""

    path: Path
    display: str
    data: Any
    values: dict[Key, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Key, tuple[int, int]] = field(default_factory=dict)

    def position(self, loc: Key, *, key: bool = False) -> tuple[int, int]:
        """Line and column (1-based) of the value at `loc`, or of its key.

        Falls back to the nearest enclosing value, so an error about a missing
        key points at the mapping that lacks it.
        """
        loc = tuple(loc)
        if key and loc in self.keys:
            return self.keys[loc]
        while loc:
            if loc in self.values:
                return self.values[loc]
            loc = loc[:-1]
        return self.values.get((), (1, 1))

    def problem(self, loc: Key, message: str, *, hint: str | None = None,
                key: bool = False, severity: Severity = "error") -> Problem:
        line, column = self.position(loc, key=key)
        return Problem(self.display, line, column, message, field=format_loc(loc),
                       hint=hint, severity=severity)


def format_loc(loc: Key) -> str:
    """('characters', 3, 'hit_points') -> 'characters[3].hit_points'."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


class UnreadableFile(Exception):
    """A file that must not or cannot be read: what was found, and a hint."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint

    def problem(self, display: str) -> Problem:
        return Problem(display, None, None, self.message, hint=self.hint)


_FILE_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
               (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def size_text(size: float) -> str:
    """1536 -> '1.5 KiB', 300_000 -> '293 KiB'."""
    unit = "bytes"
    for larger in ("KiB", "MiB", "GiB"):
        if size < 1024:
            break
        size, unit = size / 1024, larger
    return f"{size:.1f} {unit}" if size < 10 and size != int(size) else f"{size:.0f} {unit}"


# The game folder being read, while `reading_game` is in force: a file a link
# leads out of it is refused. A context variable rather than a parameter, so
# every system's loader is held to it without passing the folder down.
_GAME_FOLDER: ContextVar[Path | None] = ContextVar("sixes_game_folder", default=None)
OUTSIDE_HINT = "copy the file into the game folder: nothing outside it is read"


@contextmanager
def reading_game(folder: Path | None) -> Iterator[None]:
    """Every file opened inside this block must lie inside `folder` once
    links are followed (None: no folder to keep to, for a file the user named
    on the command line)."""
    token = _GAME_FOLDER.set(Path(os.path.realpath(folder)) if folder is not None else None)
    try:
        yield
    finally:
        _GAME_FOLDER.reset(token)


def leads_outside(path: Path, folder: Path | None = None) -> bool:
    """Whether `path`, once every link on its way is followed, lies outside
    `folder` (by default the game folder being read; no folder, never)."""
    folder = folder if folder is not None else _GAME_FOLDER.get()
    if folder is None:
        return False
    return not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def open_regular(path: Path, limit: int, what: str) -> BinaryIO:
    """Open `path` for reading if it is a regular file of at most `limit`
    bytes, inside the game folder being read (reading_game) once links are
    followed; otherwise raise UnreadableFile saying what it is. The open
    never waits (a named pipe would block a plain open), and a symbolic link
    is judged by what it leads to. `what` names the kind of file, for the hint."""
    try:
        _refuse_irregular(path, os.stat(path).st_mode, what)    # what a link leads to, said first
    except OSError:
        pass                                                    # the open below says why
    if leads_outside(path):
        raise UnreadableFile("found a link leading outside the game folder", hint=OUTSIDE_HINT)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise UnreadableFile(f"cannot read the file ({exc.strerror})") from None
    try:
        mode, size = (info := os.fstat(fd)).st_mode, info.st_size
        _refuse_irregular(path, mode, what)
        if _opened_outside(fd):
            raise UnreadableFile("found a link leading outside the game folder", hint=OUTSIDE_HINT)
        if size > limit:
            raise UnreadableFile(f"the file is {size_text(size)}, more than the {size_text(limit)} allowed "
                                 f"for {what}")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _refuse_irregular(path: Path, mode: int, what: str) -> None:
    """Refuse anything but a regular file (a folder, a pipe, a device, a
    socket), naming where a link to it leads."""
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _FILE_KINDS if test(mode)), "not a file")
        link = f"a link to {kind} ({os.path.realpath(path)})" if os.path.islink(path) else kind
        raise UnreadableFile(f"found {link}, not a regular file", hint=f"{what} must be a plain file")


def _opened_outside(fd: int) -> bool:
    """Where the system says the open file is (Linux's /proc), so a link
    swapped in between the check and the open is caught too."""
    folder = _GAME_FOLDER.get()
    if folder is None or not os.path.isdir("/proc/self/fd"):
        return False
    try:
        return not Path(os.readlink(f"/proc/self/fd/{fd}")).is_relative_to(folder)
    except OSError:
        return False


def read_limited(path: Path, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, reading no more
    than one byte past the limit (a file may grow, or report no size)."""
    with open_regular(path, limit, what) as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise UnreadableFile(f"the file is more than the {size_text(limit)} allowed for {what}")
    return data


def load_yaml(path: Path, display: str | None = None) -> tuple[YamlDocument | None, list[Problem]]:
    """Read one YAML file safely. Returns the document or the problems that
    stop it: no document when the file breaks a limit or uses a tag."""
    display = display or str(path)
    try:
        raw = read_limited(path, MAX_YAML_BYTES, "a YAML data file")
    except UnreadableFile as exc:
        return None, [exc.problem(display)]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(display, line, column, f"not UTF-8 text ({exc.reason})",
                              hint="save the file as UTF-8")]
    return parse_yaml(text, display, path)


def parse_yaml(text: str, display: str, path: Path | None = None, *, first_line: int = 1
               ) -> tuple[YamlDocument | None, list[Problem]]:
    """YAML text already read (a whole file, or a page's front matter that
    starts on `first_line` of its file), with the same limits and refusals
    as a file, and positions in the file it came from."""
    if len(text) > MAX_YAML_BYTES:
        return None, [Problem(display, first_line, 1, f"the YAML is more than the {size_text(MAX_YAML_BYTES)} "
                              "allowed", hint="shorten it")]
    node, problem = _compose_checked("\n" * (first_line - 1) + text, display)
    if problem is not None:
        return None, [problem]
    doc = YamlDocument(path or Path(display), display, None)
    if node is None:
        doc.values[()] = (first_line, 1)
        return doc, []
    converter = _Converter(doc)
    try:
        doc.data = converter.convert(node, ())
    except _Refused as exc:
        return None, [exc.problem]
    if converter.refusals:
        return None, converter.refusals
    return doc, converter.problems


def _compose_checked(text: str, display: str) -> tuple[yaml.Node | None, Problem | None]:
    """The node tree, or the problem that prevents it."""
    if FAST_LOADER is yaml.SafeLoader:
        # Without libyaml, the composer recurses once per level (a Python
        # stack overflow, slowly), so the depth is measured from the events first.
        deep = _too_deep_events(text, display, yaml.SafeLoader)
        if deep is not None:
            return None, deep
    try:
        return _compose(text, FAST_LOADER), None
    except yaml.MarkedYAMLError as exc:
        first: yaml.YAMLError = exc
        if "maximum nesting depth" in str(exc.problem):
            # libyaml's own limit (1,000 levels), met while it reads ahead:
            # the pure-Python events find where ours is passed.
            return None, _too_deep_events(text, display, yaml.SafeLoader) or _too_deep(display, exc.problem_mark)
    except yaml.reader.ReaderError as exc:
        return None, _reader_problem(display, text, exc)
    except yaml.YAMLError as exc:
        first = exc
    except RecursionError:      # the pure-Python composer recurses once per level
        return None, _too_deep(display, None)
    # The pure-Python parser words syntax errors the way our messages (and
    # their tests) expect, so a broken file is parsed again by it; it may
    # give up on depth where libyaml did not, and then libyaml's words stand.
    try:
        _compose(text, yaml.SafeLoader)
        error = first
    except yaml.YAMLError as exc:
        error = exc
    except RecursionError:
        error = first
    if isinstance(error, yaml.reader.ReaderError):
        return None, _reader_problem(display, text, error)
    if isinstance(error, yaml.MarkedYAMLError):
        return None, _syntax_problem(display, error)
    return None, Problem(display, None, None, f"YAML syntax: {error}")


class _Mark(Protocol):
    """Where a node starts, as the pure-Python and the libyaml loader both say it."""
    line: int
    column: int


def _compose(text: str, loader_class: Callable[[str], Any]) -> yaml.Node | None:
    loader = loader_class(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _too_deep(display: str, mark: _Mark | None) -> Problem:
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
    return Problem(display, line, col, f"values nest more than {MAX_DEPTH} levels deep", hint=DEPTH_HINT)


def _too_deep_events(text: str, display: str, loader_class: Callable[[str], Any]) -> Problem | None:
    """A problem at the first collection nested past MAX_DEPTH (where the
    node walk would refuse it), read from the parser's events, which take no
    stack; None when the nesting is fine or the syntax fails (said later)."""
    loader = loader_class(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH + 1:       # the top collection is depth 1, its location ()
                    return _too_deep(display, event.start_mark)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


def _reader_problem(display: str, text: str, exc: yaml.reader.ReaderError) -> Problem:
    """A character YAML does not allow in a file (a control character, often
    pasted from a terminal), located by line and column."""
    position = max(0, min(exc.position, len(text)))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character)
    return Problem(display, line, column, f"YAML syntax: character U+{ord(char):04X} is not allowed in a YAML file",
                   hint="remove it, or write it as an escape inside double quotes (\"\\e\")")


def _syntax_problem(display: str, exc: yaml.MarkedYAMLError) -> Problem:
    """Point at the problem; when that is the end of the file (an unclosed
    quote or bracket), point where the unfinished thing began instead."""
    problem = exc.problem or "invalid YAML"
    mark = exc.problem_mark
    hint = "check indentation and quoting around this point"
    if "\t" in problem or "'\\t'" in problem:
        hint = "YAML indents with spaces; replace the tab with spaces"
    if exc.context_mark is not None and (mark is None or "end of stream" in problem or "<stream end>" in problem):
        mark = exc.context_mark
        problem = f"{exc.context} that never ends" if exc.context else problem
        hint = "close the quote or bracket that starts here"
    line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
    return Problem(display, line, col, f"YAML syntax: {problem}", hint=hint)


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Refused(Exception):
    """A limit was breached: stop converting at once."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def tag_text(tag: str) -> str:
    """'tag:yaml.org,2002:binary' -> '!!binary', as it is written in a file."""
    return "!!" + tag[len(YAML_TAG):] if tag.startswith(YAML_TAG) else tag


class _Converter:
    """Turns a node tree into plain data, recording every value's position.

    Aliases share one node object, so the count of values converted counts
    every use of an alias: that is what bounds a billion laughs. Problems
    that leave the file usable (a duplicate key) are `problems`; refusals
    (a tag, an overlong text) are collected in `refusals` and withhold the
    whole document; a breached count or depth raises _Refused at once.
    """

    def __init__(self, doc: YamlDocument):
        self.doc = doc
        self.constructor = yaml.SafeLoader("")
        self.problems: list[Problem] = []
        self.refusals: list[Problem] = []
        self.count = 0

    def refuse(self, node: yaml.Node, message: str, hint: str | None = None, loc: Key = ()) -> None:
        line, col = _mark(node)
        self.refusals.append(Problem(self.doc.display, line, col, message, field=format_loc(loc), hint=hint))

    def convert(self, node: yaml.Node, loc: Key) -> Any:
        doc = self.doc
        self.count += 1
        if self.count > MAX_VALUES:
            line, col = doc.position(loc[:1], key=True)
            raise _Refused(Problem(doc.display, line, col, f"the file holds more than {MAX_VALUES:,} values "
                                   "(each use of an alias counted again)",
                                   hint="an alias (*name) repeats everything under its anchor (&name): "
                                   "write the values out, or split the file"))
        if len(loc) > MAX_DEPTH:
            raise _Refused(_too_deep(doc.display, node.start_mark))
        doc.values[loc] = _mark(node)
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAPPING_TAG:
                return self.refuse(node, f"unknown YAML tag '{tag_text(node.tag)}'", TAG_HINT, loc)
            return self.mapping(node, loc)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQUENCE_TAG:
                return self.refuse(node, f"unknown YAML tag '{tag_text(node.tag)}'", TAG_HINT, loc)
            return [self.convert(item, loc + (i,)) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)     # YAML has three kinds of node
        return self.scalar(node, loc)

    def mapping(self, node: yaml.MappingNode, loc: Key) -> dict[Any, Any]:
        doc = self.doc
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == YAML_TAG + "merge":
                line, col = _mark(key_node)
                self.problems.append(Problem(doc.display, line, col,
                                             "only plain keys are supported here (no merge keys or complex keys)"))
                continue
            key = self.scalar(key_node, loc)
            if not isinstance(key, str):
                key = str(key)
            if key in result:
                line, col = _mark(key_node)
                first_line = doc.keys[loc + (key,)][0]
                self.problems.append(Problem(doc.display, line, col, f"duplicate key '{key}'",
                                             field=format_loc(loc + (key,)),
                                             hint=f"it is already set on line {first_line}"))
                continue
            doc.keys[loc + (key,)] = _mark(key_node)
            result[key] = self.convert(value_node, loc + (key,))
        return result

    def scalar(self, node: yaml.ScalarNode, loc: Key) -> Any:
        if node.tag in _TEXT_TAGS:
            value: Any = node.value
        elif node.tag not in _SCALAR_TAGS:
            return self.refuse(node, f"unknown YAML tag '{tag_text(node.tag)}'", TAG_HINT, loc)
        else:
            try:
                value = self.constructor.construct_object(node)
            except (ValueError, KeyError, yaml.YAMLError):
                # `!!int abc`, `!!bool maybe`, or a number of more digits than Python reads.
                shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
                return self.refuse(node, f"'{shown}' is not a valid {tag_text(node.tag)}",
                                   "plain values need no tag; put text that looks like a number in quotes", loc)
        if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            return self.refuse(node, f"the text is {len(value):,} characters long, more than the "
                               f"{MAX_TEXT_CHARS:,} allowed", "shorten it", loc)
        return value
