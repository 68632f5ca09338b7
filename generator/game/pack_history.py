"""An earlier pack's record, found and read back for `sixes pack --since`.

Game layer. A record is data from the output folder, which anyone may have
touched: it is read through the reading gate (core/loading.read_limited:
a regular file, its size bounded), parsed as JSON (never run), and refused
unless every field has the shape game/pack_record.py writes, its checksum
holds, and it is of this game and this paper. Every refusal names the file,
what was found, what is allowed, and what to do.

Where the records are: a full pack's in `pack/<game>/<paper>/`, a reprint's
in `pack/<game>/<paper>-reprint-<n>/`; the last pack of a game and paper is
its highest reprint, else the full pack (a full pack retires the reprints).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping

from ..core.errors import DataError, Problem
from ..core.loading import UnreadableFile, reading_game, read_limited
from .pack_record import KINDS, RECORD_FILE, RECORD_FORMAT, checksum

# A record of a 500-envelope pack is a few MiB; more is not one we wrote.
MAX_RECORD_BYTES = 32 * 1024 * 1024
REPRINT_FOLDER = re.compile(r"^(?P<paper>[a-z0-9]+)-reprint-(?P<n>[0-9]{1,6})$")
_START_AGAIN = "pack in full (without --since) to start a new record"


def reprint_folders(game_root: Path, paper: str) -> list[tuple[int, Path]]:
    """The reprints of one paper's pack, by number."""
    found = []
    if game_root.is_dir():
        for child in game_root.iterdir():
            match = REPRINT_FOLDER.match(child.name)
            if match and match["paper"] == paper and child.is_dir():
                found.append((int(match["n"]), child))
    return sorted(found)


def last_record(game_root: Path, paper: str) -> Path:
    """The record of the last pack of this game and paper."""
    reprints = reprint_folders(game_root, paper)
    folder = reprints[-1][1] if reprints else game_root / paper
    return folder / RECORD_FILE


def record_path(given: Path, paper: str) -> Path:
    """`--since PACK`: a record file, a pack's folder, or the game's folder of packs (this paper's in it)."""
    if given.is_dir():
        if (given / RECORD_FILE).exists() or not (given / paper).is_dir():
            return given / RECORD_FILE
        return last_record(given, paper)
    return given


def read_record(path: Path, shown: str, system: str, title: str, paper: str) -> dict[str, Any]:
    """The record at `path` (`shown` as the user knows it), or a DataError saying why not."""
    try:
        with reading_game(None):
            raw = read_limited(path, MAX_RECORD_BYTES, "a pack record")
    except UnreadableFile as exc:
        hint = exc.hint or ("pass --since the folder of an earlier pack of this game (it holds "
                            f"{RECORD_FILE}), or {_START_AGAIN}")
        raise DataError([Problem(shown, None, None, exc.message, hint=hint)]) from None
    try:
        record = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError([Problem(shown, exc.lineno, exc.colno, f"not a pack record: {exc.msg}",
                                 hint=f"use the {RECORD_FILE} a pack wrote, or {_START_AGAIN}")]) from None
    except (UnicodeDecodeError, RecursionError):
        raise DataError([Problem(shown, None, None, "not a pack record: not JSON text a pack writes",
                                 hint=f"use the {RECORD_FILE} a pack wrote, or {_START_AGAIN}")]) from None
    refuse_record(record, shown, system, title, paper)
    return record


def refuse_record(record: Any, shown: str, system: str, title: str, paper: str) -> None:
    """A record of another shape, edited by hand, of another game or another paper."""
    def refuse(message: str, hint: str) -> DataError:
        return DataError([Problem(shown, None, None, message, hint=hint)])
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise refuse(f"not a pack record: format {found!r}, expected {RECORD_FORMAT!r}",
                     f"use the {RECORD_FILE} a pack of this version wrote, or {_START_AGAIN}")
    if record.get("checksum") != checksum(record):
        raise refuse("the record was changed after the pack wrote it: its checksum does not match",
                     f"use the record as the pack wrote it (a copy from the pack's zip), or {_START_AGAIN}")
    if shape := _shape_problem(record):
        raise refuse(f"not a pack record: {shape}", f"use the {RECORD_FILE} a pack wrote, or {_START_AGAIN}")
    game = record["game"]
    if game["system"] != system or game["title"] != title:
        raise refuse(f"a record of another game: '{game['title']}' ({game['system']}); this pack is "
                     f"'{title}' ({system})",
                     f"pass --since a pack of '{title}', or {_START_AGAIN}")
    if record["paper"] != paper:
        raise refuse(f"a record of the {record['paper']} pack; this pack is on {paper}",
                     f"pass --since the {paper} pack (pack/{system}/{paper}/), or --paper {record['paper']}")


_ENVELOPE = {"number": int, "key": str, "player": str, "character": str, "file": str, "parts": list}
_PART = {"kind": str, "id": str, "title": str, "print": str, "facets": dict, "pages": int}


def _shape_problem(record: Mapping[str, Any]) -> str | None:
    """What in the record is not as a pack writes it, or None."""
    game = record.get("game")
    if not isinstance(game, dict) or not all(isinstance(game.get(k), str) for k in ("system", "title")):
        return "'game' must name a system and a title"
    if not isinstance(record.get("paper"), str) or not isinstance(record.get("options"), dict):
        return "'paper' and 'options' are missing"
    envelopes = record.get("envelopes")
    if not isinstance(envelopes, list):
        return "'envelopes' must be a list"
    for k, envelope in enumerate(envelopes):
        if not isinstance(envelope, dict) or any(not isinstance(envelope.get(f), t) for f, t in _ENVELOPE.items()):
            return f"envelopes[{k}] lacks one of {', '.join(_ENVELOPE)}"
        for j, part in enumerate(envelope["parts"]):
            if not isinstance(part, dict) or any(not isinstance(part.get(f), t) for f, t in _PART.items()) \
                    or part["kind"] not in KINDS:
                return f"envelopes[{k}].parts[{j}] is not a part a pack records"
    return None
