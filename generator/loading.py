"""The one place YAML is read: plain data plus where every value came from.

Core layer: imports PyYAML and the project's errors module only. PyYAML's
composer keeps a start mark on every node; we walk the node tree ourselves so
each value (and each mapping key) keeps its line and column, which is what
lets a validation error say `characters/mara.yaml:7:5`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Problem

# libyaml's composer keeps the same line/column marks and is about ten times
# faster; the pure-Python one is the fallback where libyaml is not built in.
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Key = tuple[Any, ...]


@dataclass
class YamlDocument:
    """A parsed YAML file: its data and the positions of its values and keys."""

    path: Path
    display: str
    data: Any
    values: dict[Key, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Key, tuple[int, int]] = field(default_factory=dict)

    def position(self, loc: Key, *, key: bool = False) -> tuple[int | None, int | None]:
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
                key: bool = False, severity: str = "error") -> Problem:
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


def load_yaml(path: Path, display: str | None = None) -> tuple[YamlDocument | None, list[Problem]]:
    """Read one YAML file safely. Returns the document or the problems that stop it."""
    display = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(display, None, None, f"cannot read the file ({exc.strerror})")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(display, line, column, f"not UTF-8 text ({exc.reason})",
                              hint="save the file as UTF-8")]
    try:
        try:
            node = _compose(text, FAST_LOADER)
        except yaml.YAMLError:
            # The pure-Python parser words syntax errors the way our messages
            # (and their tests) expect, so a broken file is parsed again by it.
            node = _compose(text, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        return None, [_syntax_problem(display, exc)]
    except yaml.YAMLError as exc:
        return None, [Problem(display, None, None, f"YAML syntax: {exc}")]
    doc = YamlDocument(path, display, None)
    if node is None:
        doc.values[()] = (1, 1)
        return doc, []
    problems: list[Problem] = []
    doc.data = _convert(node, (), doc, yaml.SafeLoader(""), problems)
    return doc, problems


def _compose(text: str, loader_class) -> yaml.Node | None:
    loader = loader_class(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


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


def _convert(node: yaml.Node, loc: Key, doc: YamlDocument, constructor: yaml.SafeLoader,
             problems: list[Problem]) -> Any:
    doc.values[loc] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                line, col = _mark(key_node)
                problems.append(Problem(doc.display, line, col,
                                        "only plain keys are supported here (no merge keys or complex keys)"))
                continue
            key = constructor.construct_object(key_node)
            if not isinstance(key, str):
                key = str(key)
            if key in result:
                line, col = _mark(key_node)
                first_line = doc.keys[loc + (key,)][0]
                problems.append(Problem(doc.display, line, col, f"duplicate key '{key}'",
                                        field=format_loc(loc + (key,)),
                                        hint=f"it is already set on line {first_line}"))
                continue
            doc.keys[loc + (key,)] = _mark(key_node)
            result[key] = _convert(value_node, loc + (key,), doc, constructor, problems)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, loc + (i,), doc, constructor, problems)
                for i, item in enumerate(node.value)]
    return constructor.construct_object(node)
