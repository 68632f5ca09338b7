"""Reading a system's data folder: the steps every system shares.

Core layer (imports loading and validation only). Each problem is appended to
the caller's list, so a system still reports every mistake in one run.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import Problem
from .loading import YamlDocument, load_yaml
from .validation import validate

MISSING_FILE_HINT = "`sixes new DIR` writes a complete starter folder"


def display_path(path: Path, root: Path) -> str:
    """A path as errors show it: relative to the data folder's parent when possible."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def read_document(path: Path, display_root: Path, problems: list[Problem]) -> YamlDocument | None:
    """Parse one required YAML file; None (with a problem) when it is missing or unreadable."""
    if not path.is_file():
        problems.append(Problem(display_path(path, display_root), None, None, "file not found",
                                hint=MISSING_FILE_HINT))
        return None
    doc, found = load_yaml(path, display_path(path, display_root))
    problems.extend(found)
    return doc


def read_validated(path: Path, display_root: Path, model: type, problems: list[Problem]
                   ) -> tuple[Any | None, YamlDocument | None]:
    """Parse and validate one required file: (model or None, document or None)."""
    doc = read_document(path, display_root, problems)
    if doc is None:
        return None, None
    value, found = validate(model, doc)
    problems.extend(found)
    return value, doc


def entity_files(folder: Path) -> list[Path]:
    """The one-file-per-entity YAML files of a folder (characters/, heroes/, ...), in name order."""
    return sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
