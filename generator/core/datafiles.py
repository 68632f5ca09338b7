"""Reading a system's data folder: the steps every system shares.

Core layer (imports loading and validation only). Each problem is appended to
the caller's list, so a system still reports every mistake in one run.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Collection, Hashable, Iterable, Iterator, Sequence, TypeVar

from .cast_order import by_name
from .errors import Problem, did_you_mean
from .loading import YamlDocument, load_yaml
from .naming import looks_key, slug
from .validation import validate

MISSING_FILE_HINT = "`sixes new DIR` writes a complete starter folder"
Member = TypeVar("Member")


def display_path(path: Path, root: Path) -> str:
    """A path as errors show it: relative to the data folder's parent when possible."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def read_document(path: Path, display_root: Path, problems: list[Problem]) -> YamlDocument | None:
    """Parse one required YAML file; None (with a problem) when it is missing or unreadable."""
    if not path.exists() and not path.is_symlink():     # anything else there, load_yaml names
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
    """The one-file-per-entity YAML files of a folder (characters/, heroes/, ...), in file-name order.
    Each name is read by load_yaml, which refuses what is not a regular file
    (a folder or a named pipe called x.yaml) with a problem, without waiting."""
    return sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))


def read_entities(folder: Path, display_root: Path, model: type, noun: str, problems: list[Problem]
                  ) -> list[tuple[Path, YamlDocument, Any | None]]:
    """Every parsed file of a one-file-per-entity folder with its validated
    model (None when invalid, so callers can still check references); an
    empty folder is a problem of its own."""
    files = entity_files(folder)
    if not files:
        problems.append(Problem(display_path(folder, display_root), None, None,
                                f"no {noun} files ({folder.name}/*.yaml)", hint=f"add one YAML file per {noun}"))
    entries = []
    for path in files:
        doc, found = load_yaml(path, display_path(path, display_root))
        problems.extend(found)
        if doc is None:
            continue
        value, found = validate(model, doc)
        problems.extend(found)
        entries.append((path, doc, value))
    return entries


def load_cast(folder: Path, display_root: Path, model: type, noun: str, problems: list[Problem],
              references: Callable[[YamlDocument, Any | None], list[Problem]],
              member: Callable[[str, YamlDocument, Any], tuple[Member | None, list[Problem]]]) -> list[Member]:
    """The cast of a one-file-per-entity folder, in cast order (by name:
    core/cast_order.py): the one loop
    every system shares. `references` runs on every parsed file, valid or not,
    so one run shows every bad reference; a file that is invalid or has one
    goes no further. The others get the shared checks (a unique name, a slug
    no other file prints to) and `member`, the system's own checks, which
    builds the entry from its slug (None leaves it out)."""
    cast: list[tuple[str, Member]] = []
    first_by_name: dict[str, str] = {}
    first_by_slug: dict[str, str] = {}
    for path, doc, value in read_entities(folder, display_root, model, noun, problems):
        bad = references(doc, value)
        problems.extend(bad)
        if value is None or bad:
            continue
        problems.extend(duplicate_name(doc, value.name, noun, first_by_name))
        key, found = entity_slug(path, doc, noun, first_by_slug)
        problems.extend(found)
        entry, found = member(key, doc, value)
        problems.extend(found)
        if entry is not None:
            cast.append((value.name, entry))
    return [entry for _, entry in by_name(cast, lambda named: named[0])]


def duplicate_name(doc: YamlDocument, name: str, noun: str, first_by_name: dict[str, str]) -> list[Problem]:
    """Names are unique regardless of case, accents and punctuation (they
    become file names and envelope labels: naming.slug); the first file to
    use one keeps it. Names that print alike (naming.looks_key: a Cyrillic
    'а' for a Latin 'a') are refused too: no one could tell them apart."""
    key, look = slug(name), "looks:" + looks_key(name)     # a slug holds no colon
    for seen, why in ((key, "differ only in case or punctuation"), (look, "look alike when printed")):
        if seen in first_by_name:
            return [doc.problem(("name",), f"duplicate {noun} name '{name}'",
                                hint=f"{first_by_name[seen]} already uses it (names may not {why})")]
    first_by_name[key] = first_by_name[look] = f"{doc.display} ('{name}')"
    return []


def entity_slug(path: Path, doc: YamlDocument, noun: str, first_by_slug: dict[str, str]
                ) -> tuple[str, list[Problem]]:
    """The file-name slug of a one-file-per-entity file: two files whose
    names differ only in case or punctuation would print to one PDF, so the
    second is refused, naming the first."""
    key = slug(path.stem)
    if key in first_by_slug:
        return key, [Problem(doc.display, None, None, f"this {noun} file would print to the same file as "
                             f"{first_by_slug[key]} ({key}.pdf)",
                             hint="rename one of the two files (names may not differ only in case or punctuation)")]
    first_by_slug[key] = doc.display
    return key, []


def duplicate_list_names(doc: YamlDocument, names: list[str], loc_of: Callable[[int], tuple], noun: str
                         ) -> list[Problem]:
    """Names in one file's list must be unique regardless of case, accents and
    punctuation (naming.slug); each repeat is reported where it stands, with
    the line of the first use."""
    repeats = dict(repeated_entries(doc, [slug(name) for name in names], loc_of))
    alike = {i: line for i, line in repeated_entries(doc, [looks_key(name) for name in names], loc_of)
             if i not in repeats}
    return [doc.problem(loc_of(i), f"duplicate {noun} name '{names[i]}'",
                        hint=f"it is already used on line {line}" if i in repeats
                        else f"it looks like the name on line {line} when printed")
            for i, line in sorted({**repeats, **alike}.items())]


def entry_key(prefix: tuple[Hashable, ...], suffix: tuple[Hashable, ...] = ("name",)
              ) -> Callable[[int], tuple[Hashable, ...]]:
    """Where a field of entry i of the list at `prefix` sits, for the checks
    that report repeats (a function, so a loop need not close over its index)."""
    return lambda i: (*prefix, i, *suffix)


def repeated_entries(doc: YamlDocument, keys: Sequence[Hashable], loc_of: Callable[[int], tuple]
                     ) -> Iterator[tuple[int, int]]:
    """For each entry of one file's list whose key an earlier entry already
    has: its index and the line of that first entry, so the repeat can be
    reported where it stands and point back at the one it repeats."""
    first: dict[Hashable, int] = {}
    for i, key in enumerate(keys):
        if key in first:
            yield i, doc.position(loc_of(first[key]))[0]
        else:
            first[key] = i


def unused_files(folder: Path, display_root: Path, known: Collection[str], where_else: str) -> list[Problem]:
    """A warning for each YAML file in `folder` the system does not read (a
    typo in a file name would otherwise be silently ignored)."""
    return [Problem(display_path(path, display_root), None, None, "file is not used",
                    hint=f"{where_else}; other files: " + ", ".join(sorted(known)), severity="warning")
            for path in sorted(folder.glob("*.y*ml")) if path.name not in known]


# Folders a data folder may hold besides the games: editor schemas (written by
# `sixes new`) and shared images and handouts.
NOT_SYSTEM_FOLDERS = frozenset({"schemas", "portraits", "handouts"})


def unknown_system_folders(data_dir: Path, slugs: Iterable[str], display_root: Path | None = None
                           ) -> list[Problem]:
    """A warning for each sub-folder of `data_dir` that holds YAML but is not
    a game system's (a misspelt `sixse/` would otherwise be silently left
    out of the build). Hidden folders, NOT_SYSTEM_FOLDERS and folders without
    YAML (in them or one level down) are not game data and pass unremarked."""
    slugs = list(slugs)
    display_root = display_root if display_root is not None else data_dir.parent
    problems = []
    for folder in sorted(data_dir.iterdir()):
        name = folder.name
        if name in slugs or name.startswith(".") or name in NOT_SYSTEM_FOLDERS or not folder.is_dir():
            continue
        if not any(p.suffix in (".yaml", ".yml") for pattern in ("*", "*/*") for p in folder.glob(pattern)):
            continue
        problems.append(Problem(display_path(folder, display_root), None, None,
                                f"folder '{name}' is not a game system, so nothing in it is read",
                                hint=did_you_mean(name, slugs) or "the game folders are " + ", ".join(slugs),
                                severity="warning"))
    return problems
