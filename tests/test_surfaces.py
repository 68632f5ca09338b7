"""Surfaces found, not listed: every field that holds text or names a file,
found by walking the models, gets the same battery.

The models are found as every `DataModel` subclass the package defines (the
settings, the casting and sides files, every system's file kinds), so a
model or a field added later is attacked the day it is added; a self-test
below proves a new field is found. For text the battery is the characters
that change how text reads or act on a terminal (core/text.py refuses them
at `check`, at their file:line:column, and the terminal shows them escaped)
and markup (accepted as text: tests/test_hostile_site.py proves the site
shows it inert). For fields that name a file it is the files a gate must
refuse; each case says which gate holds it.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import re
import shutil
import stat
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, Union, get_args, get_origin

import pytest
import yaml
from click.testing import CliRunner
from pydantic import BaseModel

import generator
from generator.commands.cli import main
from generator.core.errors import visible
from generator.core.loading import Key, YamlDocument, load_yaml
from generator.core.text import kind_of
from generator.core.validation import DataModel, validate
from generator.systems import SYSTEMS

from test_hostile_site import _pick, _unwrap, file_model

# What a terminal or a layout would act on: each must be refused wherever it stands.
REFUSED = {
    "bidi override": "\u202e", "bidi isolate": "\u2067", "bidi mark": "\u200f",
    "line separator": "\u2028", "paragraph separator": "\u2029",
    "escape sequence": "\x1b[31m", "bell": "\x07", "C1 CSI": "\x9b2J", "DEL": "\x7f",
}
# Format characters real prose uses: refused in names and file names only.
NAMES_ONLY = {"soft hyphen": "\u00ad", "zero-width joiner": "\u200d", "zero-width space": "\u200b"}
# Markup is text: check takes it as written; the site shows it inert.
MARKUP = {"script": "<script>alert(1)</script>", "javascript link": "[x](javascript:alert(1))"}
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


# --- the models, found -------------------------------------------------------

def data_models() -> list[type[DataModel]]:
    """Every DataModel subclass in the package, after importing all of it."""
    for info in pkgutil.walk_packages(generator.__path__, "generator."):
        if info.name.startswith(("generator.commands", "generator.render")):
            continue        # edges: no data models there (and heavy imports)
        importlib.import_module(info.name)
    found, todo = [], list(DataModel.__subclasses__())
    while todo:
        model = todo.pop()
        if model.__module__.startswith("generator.") and model not in found:
            found.append(model)
        todo += model.__subclasses__()
    return sorted(found, key=lambda m: (m.__module__, m.__name__))


def top_models() -> list[type[DataModel]]:
    """The models a file is validated against: those no other model holds."""
    models = data_models()
    held = {inner for model in models for inner in _held(model)}
    return [m for m in models if m not in held]


def _held(model: type[BaseModel]) -> Iterator[type]:
    for info in model.model_fields.values():
        yield from _inside(info.annotation)


def _inside(tp: Any) -> Iterator[type]:
    """The models a field's type holds (in lists, mappings, unions)."""
    tp, _ = _unwrap(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        yield tp
    for arg in get_args(tp):
        yield from _inside(arg)


def text_fields(tp: Any, path: str = "", kind: str = "prose") -> dict[str, str]:
    """Every str position under a model type, by path (`Model.field[]`,
    `{key}`, `{}`), mapped to the kind core/text.py reads it as."""
    tp, _ = _unwrap(tp)
    origin = get_origin(tp)
    found: dict[str, str] = {}
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            found.update(text_fields(info.annotation, f"{path or tp.__name__}.{name}",
                                     kind_of(name, list(info.metadata))))
    elif origin in (Union, types.UnionType):
        for arm in get_args(tp):
            found.update(text_fields(arm, path, kind))
    elif origin in (list, tuple):
        found.update(text_fields(get_args(tp)[0], path + "[]", kind))
    elif origin is dict:
        key, value = get_args(tp)
        found.update(text_fields(key, path + "{key}", "name"))
        found.update(text_fields(value, path + "{}", kind))
    elif tp is str:
        found[path] = kind
    return found


def file_fields() -> dict[str, type[BaseModel]]:
    """Every field marked as naming a file, by path, with its top model."""
    return {path: model for model in top_models() for path, kind in text_fields(model).items()
            if kind == "file name"}


# --- the data: where its strings stand -----------------------------------------

@dataclass(frozen=True)
class Spot:
    loc: Key
    kind: str
    is_key: bool


def spots(data: Any, tp: Any, loc: Key = (), kind: str = "prose") -> Iterator[Spot]:
    """Every string in `data` that the model reads as text, where it stands."""
    tp, _ = _pick(tp, data)
    origin = get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(data, dict):
        for key, value in data.items():
            if key in tp.model_fields:
                info = tp.model_fields[key]
                yield from spots(value, info.annotation, loc + (key,), kind_of(key, list(info.metadata)))
    elif origin in (list, tuple) and isinstance(data, list):
        for i, item in enumerate(data):
            yield from spots(item, get_args(tp)[0], loc + (i,), kind)
    elif origin is dict and isinstance(data, dict):
        key_type, value_type = get_args(tp)
        for key, value in data.items():
            if _unwrap(key_type)[0] is str:
                yield Spot(loc + (key,), "name", True)
            yield from spots(value, value_type, loc + (key,), kind)
    elif tp is str and isinstance(data, str):
        yield Spot(loc, kind, False)


def sample(tp: Any) -> Any:
    """A value of type `tp` with text in every str position it can hold
    and a plain number or false elsewhere: the widest file a model reads."""
    tp, _ = _unwrap(tp)
    origin = get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        values = {name: sample(info.annotation) for name, info in tp.model_fields.items()}
        return {name: value for name, value in values.items() if value is not None}
    if origin in (Union, types.UnionType):
        return next((value for arm in get_args(tp) if (value := sample(arm)) is not None), None)
    if origin in (list, tuple):
        item = sample(get_args(tp)[0])      # two: a list may need more than one
        return None if item is None else [item, _second(item)]
    if origin is dict:
        key_type = _unwrap(get_args(tp)[0])[0]
        key, value = sample(key_type), sample(get_args(tp)[1])
        # A second key: another of the literal's ids where the keys are ids (`_second` would make one up).
        other = get_args(key_type)[1] if get_origin(key_type) is Literal and len(get_args(key_type)) > 1 else None
        return None if key is None else {key: value, (other or _second(key)): _second(value)}
    if origin is Literal:
        return get_args(tp)[0]
    return {str: "Sample", int: 1, float: 1.0, bool: False}.get(tp) if isinstance(tp, type) else None


def _second(item: Any) -> Any:
    """Another item like `item`, its text changed (so no repeat is refused)."""
    if isinstance(item, str):
        return item + "s"
    if isinstance(item, dict):
        return {k: _second(v) for k, v in item.items()}
    return item


def with_payload(data: Any, model: type[BaseModel], kinds: set[str], payload: str) -> tuple[Any, list[Spot]]:
    """`data` with `payload` inside every string of `kinds` (after its first
    character, where no stripping of blanks can lose it), and where each of
    those strings stands in the new data (a mapping key changes with it)."""
    found = [s for s in spots(data, model) if s.kind in kinds]
    values = {s.loc for s in found if not s.is_key}
    keys = {s.loc for s in found if s.is_key}
    new = _put(data, values, keys, lambda text: text[:1] + payload + (text[1:] or "x"))
    return new, [s for s in spots(new, model) if s.kind in kinds]


def _put(data: Any, values: set[Key], keys: set[Key], change: Callable[[str], str], loc: Key = ()) -> Any:
    if isinstance(data, dict):
        return {(change(k) if loc + (k,) in keys else k): _put(v, values, keys, change, loc + (k,))
                for k, v in data.items()}
    if isinstance(data, list):
        return [_put(item, values, keys, change, loc + (i,)) for i, item in enumerate(data)]
    return change(data) if isinstance(data, str) and loc in values else data


def dump(path: Path, data: Any) -> None:
    """YAML with every control written as an escape (so the file itself is
    plain text, as a user's double-quoted value would be)."""
    path.write_text(yaml.safe_dump(data, allow_unicode=False, sort_keys=False, width=10 ** 6), encoding="utf-8")


def where(doc: YamlDocument, spot: Spot) -> str:
    line, column = doc.position(spot.loc, key=spot.is_key)
    return f"{doc.display}:{line}:{column}: error:"


# --- every model, validated on its own ----------------------------------------

def test_the_models_are_found_and_hold_text():
    models = {m.__name__ for m in top_models()}
    assert {"SettingsFile", "CastingFile", "SidesFile", "Character", "Hero", "Combatant"} <= models
    fields = {path for model in top_models() for path in text_fields(model)}
    assert {"SettingsFile.output", "SettingsFile.site.name", "Character.name", "CastingFile.envelopes[].player",
            "Hero.traits{key}"} <= fields


@pytest.mark.parametrize("case", sorted(REFUSED) + sorted(NAMES_ONLY))
@pytest.mark.parametrize("model", [m for m in top_models() if text_fields(m)],
                         ids=lambda m: f"{m.__module__.rsplit('.', 2)[-2]}.{m.__name__}")
def test_every_text_field_of_every_model_refuses_what_changes_how_text_reads(tmp_path, model, case):
    """Each str position of the model's widest file holds the payload; each
    (and only those the class covers) is refused where it stands."""
    payload = REFUSED.get(case) or NAMES_ONLY[case]
    kinds = {"prose", "name", "file name"} if case in REFUSED else {"name", "file name"}
    data, attacked = with_payload(sample(model), model, kinds, payload)
    spared = [s for s in spots(data, model) if s.kind not in kinds]
    path = tmp_path / "file.yaml"
    dump(path, data)
    doc, problems = load_yaml(path, "file.yaml")
    assert not problems and doc is not None
    _, problems = validate(model, doc)
    shown = "\n".join(str(p) for p in problems)
    missed = [s.loc for s in attacked if where(doc, s) not in shown]
    assert not missed, f"not refused at {missed}:\n{shown}"
    assert not RAW.search(shown), visible(shown)
    unread = [p.location for p in problems if "invisible character" in p.message]
    wrongly = [s.loc for s in spared if where(doc, s).removesuffix(": error:") in unread]
    assert not wrongly, f"prose refused {visible(payload)} at {wrongly}"


def test_a_field_added_to_a_model_tomorrow_is_found_and_guarded(tmp_path):
    """The walker finds a new field, and the one base refuses it with no
    code of its own: a model subclass with an extra field stands for it."""
    from generator.systems.sixes.models import Character

    class Tomorrow(Character):
        motto: str = ""
        aliases: dict[str, list[str]] = {}

    Tomorrow.__module__ = Character.__module__       # as if written in the package
    try:
        assert Tomorrow in data_models()
    finally:
        Tomorrow.__module__ = __name__              # the other tests walk the package's own models
    assert {"Tomorrow.motto", "Tomorrow.aliases{key}", "Tomorrow.aliases{}[]"} <= set(text_fields(Tomorrow))
    path = tmp_path / "c.yaml"
    path.write_text('name: Ned\ndescription: A smith.\nhit_points: 4\nmotto: "Fair \\u202eplay"\n'
                    'aliases:\n  "N\\u00add": ["x\\ey"]\n', encoding="utf-8")
    doc, _ = load_yaml(path, "c.yaml")
    assert doc is not None
    _, problems = validate(Tomorrow, doc)
    assert [p.location for p in problems] == ["c.yaml:4:8", "c.yaml:6:3", "c.yaml:6:16"], problems


# --- the shipped systems end to end: check, its exit and what it prints ---------

def hostile_copy(target: Path, payload: str, kinds: set[str]) -> dict[str, list[tuple[YamlDocument, Spot]]]:
    """Every system's starter copied with the payload in every string of
    `kinds`, and where each stands, by system."""
    placed: dict[str, list[tuple[YamlDocument, Spot]]] = {}
    for system in SYSTEMS:
        shutil.copytree(system.starter, target / system.slug)
        for path in sorted((target / system.slug).rglob("*.yaml")):
            rel = path.relative_to(target / system.slug)
            model = file_model(system, rel)
            data, found = with_payload(yaml.safe_load(path.read_text(encoding="utf-8")), model, kinds, payload)
            dump(path, data)
            doc, _ = load_yaml(path, f"data/{system.slug}/{rel}")
            assert doc is not None
            placed.setdefault(system.slug, []).extend((doc, s) for s in found)
    return placed


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_check_refuses_each_starter_string_holding_it_at_its_place(tmp_path, monkeypatch, case):
    placed = hostile_copy(tmp_path / "data", REFUSED[case], {"prose", "name", "file name"})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--data", "data"])
    assert result.exit_code == 1 and not result.exception or isinstance(result.exception, SystemExit)
    assert not RAW.search(result.output), visible(result.output)
    missed = {slug: [visible(s.loc) for doc, s in spots_ if where(doc, s) not in result.output]
              for slug, spots_ in placed.items()}
    assert not any(missed.values()), f"{missed}\n{result.output[:3000]}"


@pytest.mark.parametrize("case", sorted(MARKUP))
def test_markup_in_every_starter_string_is_text_to_check(tmp_path, monkeypatch, case):
    """Markup is not refused as unreadable text (the site escapes it) and
    check never ends in a traceback over it."""
    hostile_copy(tmp_path / "data", MARKUP[case], {"prose"})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--data", "data"])
    assert result.exit_code in (0, 1) and (result.exception is None or isinstance(result.exception, SystemExit))
    assert "invisible character" not in result.output


def test_settings_hold_no_text_that_changes_how_text_reads(tmp_path, monkeypatch):
    """Every str field of the settings, found from SettingsFile, at once."""
    from generator.game.settings import SettingsFile
    data, found = with_payload(sample(SettingsFile), SettingsFile, {"prose", "name", "file name"}, "\x1b]0;x\x07")
    shutil.copytree(SYSTEMS[2].starter, tmp_path / SYSTEMS[2].slug)
    dump(tmp_path / "sixes.yaml", data)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1, visible(result.output)
    assert not RAW.search(result.output), visible(result.output)
    doc, _ = load_yaml(tmp_path / "sixes.yaml", "sixes.yaml")
    assert doc is not None
    missed = [s.loc for s in found if f"{where(doc, s)}" not in result.output]
    assert not missed, f"{missed}\n{visible(result.output)}"


# --- fields that name a file: what each gate must refuse ----------------------
#
# Every field marked FILE_NAME (core/text.py) is found from the models; each
# needs a way to point it at a file (PLACES) and says which gate refuses each
# case. A case another branch's gate closes is xfail(strict=False) naming that
# gate: when it lands the case passes and the mark can go.

GATHER = "the one reader of the game folder (issue 28: links, FIFOs, devices, sizes)"
# Active content is not refused by `check` but taken out where the file leaves
# the tool: on the site (re-encoded, an SVG rewritten from an allow-list) and
# in a pack (a handout's scripts and actions removed, the manifest says so).
PUBLISH = "publish"
HANDOUTS = "handouts"
OUTSIDE = "outside"


def _png() -> bytes:
    from test_hostile_inputs import png
    return png(2, 2)


def _pdf(script: bool = False) -> bytes:
    from test_hostile_inputs import pdf
    data = pdf()
    if script:      # an open action running JavaScript: what a pack must not carry
        data = data.replace(b"/Type /Catalog", b"/Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >>", 1)
    return data


def _link_out(path: Path, content: bytes) -> None:
    outside = path.parents[2] / OUTSIDE / path.name
    outside.parent.mkdir(parents=True, exist_ok=True)
    outside.write_bytes(content)
    path.symlink_to(outside)


def _folder_out(path: Path, content: bytes) -> None:
    outside = path.parents[2] / OUTSIDE / "pages"
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.md").write_text("# Private\n", encoding="utf-8")
    path.symlink_to(outside, target_is_directory=True)


def _device(path: Path) -> None:
    """A character device (/dev/zero's numbers) in the game folder; where
    making one is not allowed, a link to /dev/zero."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except PermissionError:
        path.symlink_to("/dev/zero")


def _oversize(path: Path, limit: int) -> None:
    with open(path, "wb") as file:
        file.truncate(limit + 1)


# What each kind of file reference points at, good and hostile.
IMAGE_CASES: dict[str, Callable[[Path], object]] = {
    "link out of the folder": lambda p: _link_out(p, _png()),
    "FIFO": lambda p: os.mkfifo(p),
    "device": _device,
    "oversize": lambda p: _oversize(p, 16 * 1024 * 1024),
    "active content": lambda p: p.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', encoding="utf-8"),
}
PDF_CASES: dict[str, Callable[[Path], object]] = {
    "link out of the folder": lambda p: _link_out(p, _pdf()),
    "FIFO": lambda p: os.mkfifo(p),
    "device": _device,
    "oversize": lambda p: _oversize(p, 64 * 1024 * 1024),
    "active content": lambda p: p.write_bytes(_pdf(script=True)),
}
FOLDER_CASES: dict[str, Callable[[Path], object]] = {
    "link out of the folder": lambda p: _folder_out(p, b""),
    "FIFO": lambda p: os.mkfifo(p),
}


@dataclass(frozen=True)
class Place:
    """How to make a game whose field names a file: where the file goes, the
    YAML file and key path that name it, how (given the name), the cases."""

    file: str                   # where the named file goes, in the game folder (an SVG case: .svg)
    yaml_file: str              # the file that names it
    loc: Key                    # where in that file
    cases: dict[str, Callable[[Path], object]]
    gates: dict[str, str]       # case -> the gate that neutralises it where it leaves (not refused by check)
    write: Callable[[Path, str], None]


def _character(game: Path, ref: str, key: str) -> None:
    path = game / "sixes" / "characters" / "first-rival.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data[key] = [ref] if key == "handouts" else ref
    dump(path, data)


def _settings(game: Path, **site: str) -> None:
    dump(game / "sixes.yaml", {"paper": "a4", "site": site})


def _casting(game: Path, ref: str) -> None:
    dump(game / "casting.yaml", {"envelopes": [{"player": "Ann", "character": "First Rival", "handouts": [ref]}]})


PLACES: dict[str, Place] = {
    "Character.portrait": Place("sixes/portrait.png", "sixes/characters/first-rival.yaml", ("portrait",),
                                IMAGE_CASES, {"active content": PUBLISH}, lambda g, r: _character(g, r, "portrait")),
    "Character.handouts[]": Place("sixes/handout.pdf", "sixes/characters/first-rival.yaml", ("handouts", 0),
                                  PDF_CASES, {"active content": HANDOUTS}, lambda g, r: _character(g, r, "handouts")),
    "CastingFile.envelopes[].handouts[]": Place("handout.pdf", "casting.yaml", ("envelopes", 0, "handouts", 0),
                                                PDF_CASES, {"active content": HANDOUTS}, _casting),
    "SettingsFile.site.logo": Place("logo.png", "sixes.yaml", ("site", "logo"), IMAGE_CASES,
                                    {"active content": PUBLISH},
                                    lambda g, r: _settings(g, logo=r)),
    "SettingsFile.site.pages": Place("pages", "sixes.yaml", ("site", "pages"), FOLDER_CASES,
                                     {}, lambda g, r: _settings(g, pages=r)),
    # Written, not read: the one writer (commands/output.py) and its tests hold them.
    "SettingsFile.output": Place("output", "sixes.yaml", ("output",), {}, {}, lambda g, r: None),
    "SettingsFile.deploy.folder": Place("published", "sixes.yaml", ("deploy", "folder"), {}, {}, lambda g, r: None),
}


def test_every_field_that_names_a_file_has_a_place_in_the_battery():
    """A file field added to a model fails here until it says how it is attacked."""
    found = set(file_fields())
    assert found == set(PLACES), f"found: {sorted(found)}"


FILE_CASES = [pytest.param(field, case, id=f"{field}-{case}")
              for field, place in PLACES.items() for case in place.cases if case not in place.gates]
NEUTRALISED = [pytest.param(field, case, id=f"{field}-{case}")
               for field, place in PLACES.items() for case in place.gates]


@pytest.mark.parametrize("field, case", NEUTRALISED)
def test_active_content_in_a_named_file_is_taken_out_by_its_gate(tmp_path, field, case):
    """What check lets through (an SVG with a script, a handout with
    JavaScript) leaves the tool only through its gate, with nothing active."""
    place = PLACES[field]
    target = tmp_path / place.file
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix == ".png":
        target = target.with_suffix(".svg")
    place.cases[case](target)
    if place.gates[case] == PUBLISH:
        from generator.render.site.publish import publish_image
        out = publish_image(target, tmp_path / "published" / target.name, target.name)
        text = out.read_text(encoding="utf-8")
        assert "<svg" in text and "script" not in text.lower() and "alert" not in text
    else:
        from pypdf import PdfReader, PdfWriter

        from generator.render.pack.handouts import find_active_content, strip_active_content
        assert find_active_content(PdfReader(target)), "the hostile handout carries nothing to remove"
        writer = PdfWriter()
        writer.append(PdfReader(target))        # as a pack merges it (render/pack/assembly.py merge)
        strip_active_content(writer)
        cleaned = tmp_path / "cleaned.pdf"
        writer.write(cleaned)
        assert find_active_content(PdfReader(cleaned)) == []


@pytest.mark.parametrize("field, case", FILE_CASES)
def test_check_refuses_a_hostile_file_named_by_any_file_field(tmp_path, monkeypatch, field, case):
    place = PLACES[field]
    game = tmp_path / "games" / "game"
    shutil.copytree(SYSTEMS[0].starter, game / "sixes")
    _settings(game)
    target = game / place.file
    if case == "active content" and target.suffix == ".png":
        target = target.with_suffix(".svg")
    place.write(game, target.relative_to(game).as_posix())      # every path from the game folder (core/game_paths.py)
    place.cases[case](target)
    monkeypatch.chdir(game)
    result = CliRunner().invoke(main, ["check"])
    doc, _ = load_yaml(game / place.yaml_file, place.yaml_file)
    assert doc is not None
    line, _ = doc.position(place.loc)
    assert result.exit_code == 1, visible(result.output)
    assert f"{place.yaml_file}:{line}:" in result.output, visible(result.output)
