"""JSON Schema export (for editor completion) and the schema comments that
point each shipped data file at its schema.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from generator.commands.build import export_schemas
from generator.systems import SYSTEMS
from generator.systems.sixes.models import Character

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = PROJECT_ROOT / "data"
STARTER_DIR = PROJECT_ROOT / "generator" / "systems" / "sixes" / "starter"

SIXES_SCHEMA_FILES = ("sixes-game.schema.json", "sixes-specials.schema.json",
                      "sixes-actions.schema.json", "sixes-character.schema.json")
# Every registered system's kinds; Sixes' own four must be among them.
SCHEMA_FILES = ("settings.schema.json", "packet.schema.json",
                *(f"{s.slug}-{kind}.schema.json" for s in SYSTEMS for kind in s.schemas))
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_COMMENT = re.compile(r"# yaml-language-server: \$schema=(\S+)")


@pytest.fixture(scope="module")
def schemas(tmp_path_factory) -> dict[str, dict]:
    assert set(SIXES_SCHEMA_FILES) <= set(SCHEMA_FILES)
    target = tmp_path_factory.mktemp("schemas")
    written = export_schemas(target)
    assert sorted(p.name for p in written) == sorted(SCHEMA_FILES)
    assert all(p.parent == target for p in written)
    assert sorted(p.name for p in target.iterdir()) == sorted(SCHEMA_FILES)
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in written}


def test_export_creates_its_target_folder(tmp_path):
    target = tmp_path / "not" / "yet" / "there"
    written = export_schemas(target)
    assert sorted(p.name for p in written) == sorted(SCHEMA_FILES)
    assert all(p.is_file() for p in written)


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_each_schema_is_draft_2020_12_json_object(schemas, name):
    schema = schemas[name]
    assert schema["$schema"] == DRAFT_2020_12
    assert schema["type"] == "object"


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_extra_keys_are_forbidden_at_every_level(schemas, name):
    schema = schemas[name]
    assert schema["additionalProperties"] is False
    for definition, sub in schema.get("$defs", {}).items():
        assert sub["additionalProperties"] is False, definition


def test_character_schema_required_keys_and_hit_point_range(schemas):
    character = schemas["sixes-character.schema.json"]
    assert sorted(character["required"]) == ["description", "hit_points", "name"]
    hit_points = character["properties"]["hit_points"]
    assert hit_points["type"] == "integer"
    assert hit_points["minimum"] == 1
    assert hit_points["maximum"] == 10


def test_character_schema_agrees_with_the_model():
    """The schema says what the model enforces: an unknown key and 0 or 11 hit points fail."""
    valid = {"name": "Probe", "description": "A test character.", "hit_points": 5}
    Character.model_validate(valid)
    for broken in ({**valid, "hitpoints": 5}, {**valid, "hit_points": 0}, {**valid, "hit_points": 11},
                   {"name": "Probe", "hit_points": 5}):
        with pytest.raises(ValidationError):
            Character.model_validate(broken)


def test_specials_usage_enum_is_exactly_the_three_usage_words(schemas):
    specials = schemas["sixes-specials.schema.json"]
    item = specials["properties"]["specials"]["items"]
    assert item == {"$ref": "#/$defs/Special"}
    usage = specials["$defs"]["Special"]["properties"]["usage"]
    assert usage["enum"] == ["unlimited", "once per combat", "once per game"]
    assert usage["default"] == "unlimited"


def _data_files() -> list[Path]:
    files = []
    for root in (DATA_DIR / "sixes", STARTER_DIR):
        files += sorted(root.rglob("*.yaml")) + sorted(root.rglob("*.yml"))
    return files


def _expected_schema(path: Path) -> str:
    if path.parent.name == "characters":
        return "sixes-character.schema.json"
    return f"sixes-{path.stem}.schema.json"


def test_the_shipped_data_files_are_found():
    names = {p.relative_to(PROJECT_ROOT).as_posix() for p in _data_files()}
    for expected in ("data/sixes/game.yaml", "data/sixes/specials.yaml", "data/sixes/actions.yaml",
                     "generator/systems/sixes/starter/game.yaml"):
        assert expected in names
    assert sum(p.parent.name == "characters" for p in _data_files()) >= 2


@pytest.mark.parametrize("path", _data_files(), ids=lambda p: p.relative_to(PROJECT_ROOT).as_posix())
def test_data_file_starts_with_its_schema_comment(path):
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    match = SCHEMA_COMMENT.fullmatch(first_line)
    assert match, f"{path.name}: first line is {first_line!r}"
    expected = _expected_schema(path)
    assert expected in SCHEMA_FILES
    resolved = (path.parent / match.group(1)).resolve()
    if DATA_DIR in path.parents:
        # The example data points at what `sixes build` writes by default.
        assert resolved == PROJECT_ROOT / "output" / "schemas" / expected
    else:
        # A starter written by `sixes new DIR` points at DIR/schemas, which `new` writes.
        assert resolved == STARTER_DIR.parent / "schemas" / expected
