"""The players' answers: a form's CSV export (Google Forms, Microsoft Forms
saved as CSV) or the same answers written as YAML.

Game layer: reads through the one gate (core/loading.read_limited) and
reports at the CSV's line and column (the field names its header), every
problem at once. Only the mapped columns are read; a questionnaire's other
answers (personal notes, allergies, phone numbers) are never kept, so
nothing of them can reach a casting file, a report, the site or a pack.

A form's export has a header row, one row per submission, maybe blank rows
and a player who sent the form twice: the latest submission is kept (by the
timestamp column, else the later row) and the other named in a warning.
Character names are compared as people type them (naming.match_key: case,
accents, punctuation and the kind of apostrophe aside; a character's file
name too), players' names too; a player's name is kept with its spaces
collapsed, as it goes on the envelope.
"""
from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Mapping

from ..core import naming
from ..core.errors import Problem, did_you_mean
from ..core.glyphs import GLYPH_HINT, undrawn
from ..core.loading import UnreadableFile, parse_yaml, read_limited
from ..core.text import advice, unreadable
from ..core.validation import validate
from .answer_grid import RANK_HINT, grid_headers, grid_rank
from .cast_settings import AnswerColumns, QuestionnaireFile

MAX_ANSWERS_BYTES = 4 * 1024 * 1024     # a form of 5,000 submissions with long notes is under 2 MB
MAX_ROWS = 5000
MAX_CELL = 2000                         # a mapped cell: fifty names of forty letters; free text is never read
MAX_NAME = 200                          # a player's name, as the YAML form of the answers allows
SPLIT = re.compile(r"[;,\n]")           # how a form joins a checkbox question's answers in one cell
TIMESTAMP_HEADERS = ("timestamp", "completion time", "start time", "horodateur", "zeitstempel")
_ZONE = re.compile(r"\s*(GMT|UTC)([+-]\d{1,2}(:?\d{2})?)?$")
# Forms write their time in the form owner's locale: the first of these that reads every row is used.
_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y/%m/%d %I:%M:%S %p", "%Y/%m/%d %H:%M:%S",
            "%m/%d/%Y %H:%M:%S", "%d/%m/%Y %H:%M:%S", "%m/%d/%y %H:%M:%S", "%d/%m/%y %H:%M:%S",
            "%m/%d/%Y %I:%M:%S %p", "%d.%m.%Y %H:%M:%S", "%Y-%m-%d %H:%M", "%m/%d/%Y %H:%M", "%d/%m/%Y %H:%M")


@dataclass(frozen=True)
class Answer:
    """One player's answers, the characters as their slugs."""

    player: str
    choices: tuple[str, ...] = ()
    refuses: tuple[str, ...] = ()
    avoids: tuple[tuple[str, Problem], ...] = ()     # a name as written, and where (for a warning about it)
    attributes: Mapping[str, str] = field(default_factory=dict)
    at: str = ""                                    # "file:line", for the report and the players' problems


@dataclass
class _Row:
    line: int
    cells: list[str]
    stamp: str


def read_answers(path: Path, shown: str, columns: AnswerColumns, characters: Mapping[str, str]
                 ) -> tuple[list[Answer], list[Problem]]:
    """Every player's latest answers, and every problem. `characters` maps
    each character's name to its slug."""
    try:
        data = read_limited(path, MAX_ANSWERS_BYTES, "a questionnaire")
    except UnreadableFile as exc:
        return [], [exc.problem(shown)]
    text = _decoded(data, shown)
    if isinstance(text, Problem):
        return [], [text]
    if path.suffix.lower() in (".yaml", ".yml"):
        return _from_yaml(text, shown, path, characters)
    return _from_csv(text, shown, columns, characters)


def _decoded(data: bytes, shown: str) -> str | Problem:
    """The text of the file: UTF-8 (a byte-order mark or not), or UTF-16 with
    its byte-order mark (Excel's "Unicode text"). Another encoding (Excel's
    plain "CSV" on Windows writes Windows-1252) is refused at the first byte
    that is not UTF-8: guessing would print a player's name wrong on the envelope."""
    encoding = "utf-16" if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "utf-8-sig"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        name = "UTF-16" if encoding == "utf-16" else "UTF-8"
        return Problem(shown, line, column, f"the file is not {name} text (byte {exc.start + 1}: "
                       f"0x{data[exc.start]:02X})",
                       hint="export or save it as CSV UTF-8 (Excel: Save As > CSV UTF-8)")


def _from_yaml(text: str, shown: str, path: Path, characters: Mapping[str, str]) -> tuple[list[Answer], list[Problem]]:
    doc, problems = parse_yaml(text, shown, path)
    if doc is None:
        return [], problems
    model, found = validate(QuestionnaireFile, doc)
    problems += found
    if model is None:
        return [], problems
    answers = []
    for i, item in enumerate(model.players):
        def cell(names: list[str], key: str, i: int = i) -> list[tuple[str, Problem]]:
            return [(name, doc.problem(("players", i, key, j), "")) for j, name in enumerate(names)]
        choices = _characters(cell(item.choices, "choices"), characters, problems)
        refuses = _characters(cell(item.refuses, "refuses"), characters, problems)
        line, _ = doc.position(("players", i))
        if (fault := name_fault(item.name)) is not None:
            problems.append(doc.problem(("players", i, "name"), fault[0], hint=fault[1]))
            continue
        answers.append(Answer(" ".join(item.name.split()), choices, refuses, tuple(cell(item.avoids, "avoids")),
                              {k.casefold(): v for k, v in item.attributes.items()}, f"{shown}:{line}"))
    return _latest([(a, _Row(0, [], "")) for a in answers], shown, None, problems)


def _from_csv(text: str, shown: str, columns: AnswerColumns, characters: Mapping[str, str]
              ) -> tuple[list[Answer], list[Problem]]:
    rows, stop = _rows(text, shown)
    problems: list[Problem] = [stop] if stop is not None else []
    if not rows:
        return [], problems or [Problem(shown, None, None, "the questionnaire is empty",
                                        hint="export the form's answers as CSV")]
    header, body = rows[0], rows[1:]
    if len(body) > MAX_ROWS:
        return [], [Problem(shown, body[MAX_ROWS].line, None, f"more than {MAX_ROWS} answers",
                            hint="a questionnaire holds one row per player; split the event into games")]
    index = _columns(header, columns, shown, problems)
    grid = _grid(header, columns, shown, characters, problems)
    if index is None or grid is None:
        return [], problems
    stamp_at = index.get("timestamp", [None])[0]
    found: list[tuple[Answer, _Row]] = []
    for row in body:
        row.stamp = row.cells[stamp_at].strip() if stamp_at is not None and stamp_at < len(row.cells) else ""
        answer = _answer(row, header, index, grid, shown, characters, problems)
        if answer is not None:
            found.append((answer, row))
    return _latest(found, shown, stamp_at, problems)


def _rows(text: str, shown: str) -> tuple[list[_Row], Problem | None]:
    """The non-blank records with the line each starts on (a quoted cell may
    span lines) and, where the CSV cannot be read on, a Problem at that line,
    so no answer is ever lost without a word."""
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=lambda d: (_outside_quotes(first).count(d), d == ","))
    # The module's own cap on a cell (128 KiB) would stop a long free-text
    # answer; the file's size (MAX_ANSWERS_BYTES) is the bound instead.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_ANSWERS_BYTES + 1))
    reader = csv.reader(io.StringIO(text, newline=""), csv.excel, delimiter=delimiter, strict=True)
    rows: list[_Row] = []
    line = 1
    try:
        for cells in reader:
            if any(c.strip() for c in cells):
                rows.append(_Row(line, cells, ""))
            line = reader.line_num + 1
    except csv.Error as exc:
        return rows, Problem(shown, line, None, f"the CSV cannot be read from this line on ({exc})",
                             hint='a quote (") opens a cell that never closes, or stands inside an unquoted '
                                  'cell; export the form again, or quote the cell and double its quotes')
    return rows, None


def _outside_quotes(line: str) -> str:
    """The header line without its quoted parts, where a delimiter may stand as text."""
    return "".join(part for i, part in enumerate(line.split('"')) if i % 2 == 0)


def _columns(header: _Row, columns: AnswerColumns, shown: str, problems: list[Problem]) -> dict[str, list[int]] | None:
    """Each mapped column's position, by role; a header not found is a
    problem at the header row, with the headers that are there."""
    heads = [h.strip() for h in header.cells]
    keyed = {h.casefold(): i for i, h in reversed(list(enumerate(heads)))}
    wanted: dict[str, list[str]] = {"player": [columns.player], "choices": columns.choices,
                                    "refuses": columns.refuses, "avoids": columns.avoids,
                                    "attributes": columns.attributes}
    if columns.timestamp:
        wanted["timestamp"] = [columns.timestamp]
    if columns.grid and "choices" not in columns.model_fields_set:
        del wanted["choices"]           # the grid ranks the characters instead
    index: dict[str, list[int]] = {}
    for role, names in wanted.items():
        for name in names:
            if name.strip().casefold() in keyed:
                index.setdefault(role, []).append(keyed[name.strip().casefold()])
            else:
                problems.append(Problem(shown, header.line, None, f"no column '{name}' (the casting's {role})",
                                        hint=did_you_mean(name, heads) or
                                        "the columns: " + ", ".join(f"'{h}'" for h in heads[:12] if h),
                                        field="header"))
    if "timestamp" not in wanted:
        found = next((keyed[h] for h in TIMESTAMP_HEADERS if h in keyed), None)
        if found is not None:
            index["timestamp"] = [found]
    return None if problems else index


def _grid(header: _Row, columns: AnswerColumns, shown: str, characters: Mapping[str, str],
          problems: list[Problem]) -> list[tuple[int, str, str]] | None:
    """The grid question's columns: (column, character slug, name as headed),
    each header's character matched like any answer (an error at the header)."""
    if not columns.grid:
        return []
    found = grid_headers(header.cells, columns.grid)
    if not found:
        near = [h.strip() for h in header.cells if "[" in h] or [h.strip() for h in header.cells if h.strip()]
        problems.append(Problem(shown, header.line, None, f"no columns '{columns.grid} [Character]' (the casting's "
                                "grid)", field="header", hint=did_you_mean(columns.grid, near) or
                                "the columns: " + ", ".join(f"'{h}'" for h in near[:12])))
        return None
    before = len(problems)
    slugs = [_characters([(name, Problem(shown, header.line, i + 1, "", field=header.cells[i].strip()))],
                         characters, problems) for i, name in found]
    if len(problems) > before:
        return None
    return [(i, slug[0], name) for (i, name), slug in zip(found, slugs, strict=True) if slug]


def _ranked(row: _Row, header: _Row, grid: list[tuple[int, str, str]], shown: str,
            problems: list[Problem]) -> tuple[str, ...]:
    """One row's grid: the characters it ranks, best first (a tie kept in
    the columns' order, with a warning); a cell that is no rank, an error."""
    ranked = []
    for i, slug, name in grid:
        value, why = grid_rank(row.cells[i] if i < len(row.cells) else "", len(grid))
        if why is not None:
            problems.append(Problem(shown, row.line, i + 1, why, field=header.cells[i].strip(), hint=RANK_HINT))
        elif value is not None:
            ranked.append((value, i, slug, name))
    ranked.sort()
    for (value, _, _, first), (again, i, _, name) in zip(ranked, ranked[1:], strict=False):
        if value == again:
            problems.append(Problem(shown, row.line, i + 1, f"'{first}' and '{name}' are both ranked {value}: the "
                                    "columns' order decides", field=header.cells[i].strip(), severity="warning",
                                    hint="ask the player, or give each character its own rank"))
    return tuple(slug for _, _, slug, _ in ranked)


def _answer(row: _Row, header: _Row, index: dict[str, list[int]], grid: list[tuple[int, str, str]], shown: str,
            characters: Mapping[str, str], problems: list[Problem]) -> Answer | None:
    def cells(role: str) -> list[tuple[str, Problem]]:
        found = []
        for i in index.get(role, []):
            text = row.cells[i] if i < len(row.cells) else ""
            if len(text) > MAX_CELL:
                problems.append(Problem(shown, row.line, i + 1, f"the cell holds {len(text):,d} characters, more "
                                        f"than the {MAX_CELL:,d} a column of names may", field=header.cells[i].strip(),
                                        hint="this column should hold names only: map the right column"))
                continue
            names = [n.strip() for n in SPLIT.split(text)] if role != "player" else [" ".join(text.split())]
            found += [(n, Problem(shown, row.line, i + 1, "", field=header.cells[i].strip())) for n in names if n]
        return found

    player = cells("player")
    if not player:
        problems.append(Problem(shown, row.line, index["player"][0] + 1, "an answer without a player's name",
                                field=header.cells[index["player"][0]].strip(),
                                hint="fill in the name, or delete the row"))
        return None
    name, where = player[0]
    if (fault := name_fault(name)) is not None:
        problems.append(_at(where, *fault))
        return None
    attributes = {header.cells[i].strip().casefold(): (row.cells[i].strip() if i < len(row.cells) else "")
                  for i in index.get("attributes", [])}
    choices = _characters(cells("choices"), characters, problems)
    choices += tuple(slug for slug in _ranked(row, header, grid, shown, problems) if slug not in choices)
    return Answer(name, choices, _characters(cells("refuses"), characters, problems), tuple(cells("avoids")),
                  attributes, f"{shown}:{row.line}")


def name_fault(name: str) -> tuple[str, str] | None:
    """(message, hint) when a player's name cannot go on an envelope: a
    character that changes how text reads, or one the printed fonts lack
    (what `sixes check` would refuse in the casting file, said at the cell),
    or a name too long for an envelope."""
    if len(name) > MAX_NAME:
        return f"the name is {len(name):,d} characters long, more than {MAX_NAME}", "write the player's name only"
    if (why := unreadable(name, "name")) is not None:
        return why, advice(name, "name")
    missing = undrawn(name)
    if missing:
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:4])
        return f"the name has characters the printed fonts cannot show: {shown}", GLYPH_HINT
    return None


def _at(where: Problem, message: str, hint: str | None = None, severity: str = "error") -> Problem:
    return Problem(where.file, where.line, where.column, message, field=where.field, hint=hint,
                   severity="warning" if severity == "warning" else "error")


def _characters(named: list[tuple[str, Problem]], characters: Mapping[str, str],
                problems: list[Problem]) -> tuple[str, ...]:
    """The slugs of the characters named, in order, once each; a name that
    is no character is an error at its cell, with a did-you-mean."""
    by_slug = {naming.match_key(name): slug for name, slug in characters.items()}
    by_slug.update({slug: slug for slug in characters.values()})
    found: list[str] = []
    for name, where in named:
        slug = by_slug.get(naming.match_key(name))
        if slug is None:
            problems.append(_at(where, f"no character called '{name}'",
                                did_you_mean(name, list(characters)) or "name a character as its file writes it"))
        elif slug in found:
            problems.append(_at(where, f"'{name}' is listed twice; the first place counts", severity="warning"))
        else:
            found.append(slug)
    return tuple(found)


def _latest(found: list[tuple[Answer, _Row]], shown: str, stamp_at: int | None,
            problems: list[Problem]) -> tuple[list[Answer], list[Problem]]:
    """One answer per player: the latest submission (by timestamp, else
    the later row), the others named in a warning."""
    order = _times([row.stamp for _, row in found]) if stamp_at is not None else None
    if stamp_at is not None and order is None:
        problems.append(Problem(shown, None, None, "the timestamps are in no format known here; "
                                "where a player answered twice, the later row is kept", severity="warning"))
    kept: dict[str, int] = {}
    for i, (answer, _) in enumerate(found):
        key = naming.match_key(answer.player)
        if key not in kept:
            kept[key] = i
            continue
        j = kept[key]
        later = i if order is None or order[i] >= order[j] else j
        dropped = j if later == i else i
        kept[key] = later
        problems.append(Problem(shown, int(found[dropped][0].at.rsplit(":", 1)[1]), None,
                                f"'{found[later][0].player}' answered twice: the later answer "
                                f"(line {found[later][0].at.rsplit(':', 1)[1]}) is kept, this one ignored",
                                severity="warning", hint="delete the row you do not mean"))
    ignored = {f"{a.at}" for n, (a, _) in enumerate(found) if n not in kept.values()}
    problems[:] = [p for p in problems if f"{p.file}:{p.line}" not in ignored or p.severity == "warning"
                   and "answered twice" in p.message]
    return [found[i][0] for i in sorted(kept.values())], problems


def _times(stamps: list[str]) -> list[datetime] | None:
    """The timestamps read with the first format that reads them all."""
    cleaned = [_ZONE.sub("", s.strip()) for s in stamps]
    for form in _FORMATS:
        try:
            return [datetime.strptime(s, form) for s in cleaned]
        except ValueError:
            continue
    return None
