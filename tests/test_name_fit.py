"""A name that cannot fit where names print is refused by `check` at its
line, with its limit in letters (render/fit/name_fit.py), for every name field
of every system, found from the models; build and pack refuse it before
rendering, as check does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core.loading import load_yaml
from generator.core.text import kind_of
from generator.systems import SYSTEMS
from generator.render.fit.name_fit import name_fields, name_places
from generator.render.options import PrintOptions

LOCATED = re.compile(r"^(\S+\.yaml):(\d+):(\d+): error: (.*)$", re.M)
LONG = "x" * 2000
# The rules' own words, which a game may not rename (their values are checked against the rules' lists).
FIXED_FILES = {"traits.yaml"}


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], prog_name="sixes")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _walk(value, at=()):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*at, key), key, inner
            yield from _walk(inner, (*at, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _walk(inner, (*at, i))


def _renamed(value, old: dict[str, str]):
    """Every scalar (and mapping key) equal to a renamed name, renamed: the
    name and every reference to it stay one."""
    if isinstance(value, dict):
        return {old.get(k, k) if isinstance(k, str) else k: _renamed(v, old) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old) for v in value]
    return old.get(value, value) if isinstance(value, str) else value


def _fixed_words(data: dict[Path, object]) -> set[str]:
    fixed: set[str] = set()
    for path, content in data.items():
        if path.name in FIXED_FILES or (path.name == "rules.yaml" and isinstance(content, dict)
                                        and "descriptors" in content):
            fixed |= {v for _, key, v in _walk(content) if key == "name" and isinstance(v, str)}
    return fixed


def one_word_names(dest: Path, system) -> list[tuple[str, int]]:
    """The system's starter with every name (any field the models read as a
    name) made one word of about 2,000 letters, each its own, and every
    reference to it renamed with it. Returns (file, line) of each name."""
    assert main.main(["new", str(dest)], standalone_mode=False) in (None, 0)
    (dest / "sixes.yaml").write_text(f"systems: [{system.slug}]\n", encoding="utf-8")
    fields = name_fields(system.schemas.values())
    files = sorted((dest / system.slug).rglob("*.yaml"))
    data = {path: yaml.safe_load(path.read_text(encoding="utf-8")) for path in files}
    fixed = _fixed_words(data)
    old: dict[str, str] = {}
    for content in data.values():
        for _, key, value in _walk(content):
            if key in fields and isinstance(value, str) and value not in fixed and value not in old:
                old[value] = re.sub(r"\W", "", value) + LONG + str(len(old))
    expected = []
    for path, content in data.items():
        path.write_text(yaml.safe_dump(_renamed(content, old), sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
        doc, _ = load_yaml(path, path.name)
        assert doc is not None
        for at, key, value in _walk(doc.data):
            if key in fields and isinstance(value, str) and value in old.values():
                expected.append((path.name, doc.position(at)[0]))
    return expected


def test_the_name_fields_come_from_the_models():
    """A field is a name when the model says so (core/text.kind_of: its key,
    or NAME in its Annotated type), in nested models too; one of fixed
    words (a Literal) is not free text and is left to validation."""
    from typing import Annotated, Literal

    from pydantic import BaseModel

    from generator.core.text import NAME

    class Inner(BaseModel):
        ward_name: str
        motto: str

    class Outer(BaseModel):
        title: str
        kind: Literal["a", "b"]
        name: Literal["Dangerous", "Sly"]
        herald: Annotated[str, NAME]
        inner: list[Inner] | None = None
        notes: str = ""

    assert name_fields([Outer]) == {"title", "herald", "ward_name"}
    assert all(kind_of(key, []) == "name" for key in ("title", "ward_name"))
    fields = {system.slug: name_fields(system.schemas.values()) for system in SYSTEMS}
    assert all("name" in found for found in fields.values()), fields
    assert {"player", "method_name", "label"} <= fields["six-shooter"], fields


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.slug)
def test_every_name_of_one_word_of_2000_letters_is_refused_at_its_line(tmp_path, system):
    expected = one_word_names(tmp_path / "game", system)
    assert expected, system.slug
    code, said = run("check", "--data", tmp_path / "game")
    assert code == 1 and "Traceback" not in said, said
    named = {(Path(file).name, int(line)) for file, line, _, message in LOCATED.findall(said)
             if "letters is too long to print" in message or "too long for" in message}
    assert set(expected) <= named, (sorted(set(expected) - named), said)
    assert re.search(r"a name of \d{4} letters is too long to print: it takes \d+ lines of .* at \d+ pt, "
                     r"where a name may take \d+ \(at most about \d+ letters of this one\)", said), said


def test_a_2000_letter_character_name_stops_the_build_before_it_renders(tmp_path):
    """It used to build a sheet of four pages with only a warning."""
    game = tmp_path / "game"
    assert main.main(["new", str(game)], standalone_mode=False) in (None, 0)
    (game / "sixes.yaml").write_text("systems: [sixes]\n", encoding="utf-8")
    sheet = next((game / "sixes" / "characters").glob("*.yaml"))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(re.sub(r"^name: .*$", f"name: {LONG}", text, count=1, flags=re.M), encoding="utf-8")
    code, said = run("build", "--data", game, "--out", tmp_path / "out", "--no-site", "--paper", "a4")
    assert code == 1 and f"{sheet.name}:2:7: error: name: a name of 2000 letters" in said, said
    assert not (tmp_path / "out").exists()


def test_names_that_real_games_use_pass():
    """The measure leaves room for any real name: the longest names the
    other tests build whole (65 letters of one word, a German name of a
    dozen words) fit every place on the narrowest card."""
    from generator.render.fit.name_fit import NamePlace, _letters_that_fit
    from generator.core.measure import line_count
    for size in ("bridge", "poker", "tarot"):
        for place in name_places(PrintOptions(card_size=size)):
            assert isinstance(place, NamePlace)
            for name in (("Wolfeschlegelsteinhausenbergerdorff" * 2)[:65],
                         "Hauptmann der Stadtwache von Nordhafen und Beschützer der alten Brücke am Fluss"):
                assert line_count(name, place.width_mm, place.pt, weight=700) <= place.lines, (size, place)
            assert 80 < _letters_that_fit("W" * 2000, place) < 400
