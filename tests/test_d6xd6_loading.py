"""D6xD6 loading and validation: each file in tests/data/d6xd6-invalid/ holds
one defect and replaces one file of the starter folder; the errors it causes
are listed below in full, written by hand from the case files."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from generator.commands.build import export_schemas
from generator.core.paths import DEFAULT_DATA_DIR, PROJECT_ROOT
from generator.systems.d6xd6 import SYSTEM as D6

INVALID = Path(__file__).parent / "data" / "d6xd6-invalid"
DAMAGE, ARMOUR, CHARS, WEAPONS, COMBAT, GAME = (
    "data/d6xd6/damage.yaml", "data/d6xd6/armour.yaml", "data/d6xd6/characters.yaml",
    "data/d6xd6/weapons/core.yaml", "data/d6xd6/combat.yaml", "data/d6xd6/game.yaml")
TARGETS = {"damage": "damage.yaml", "armour": "armour.yaml", "characters": "characters.yaml",
           "weapon": "weapons/core.yaml", "combat": "combat.yaml", "game": "game.yaml"}
LADDER = "graze, stun, hit, wound, knockout, kill"

CASES = [
    ("damage-short-ladder", [f"{DAMAGE}:2:3: error: levels: the levels must be exactly {LADDER} in that order; "
                             "found graze, stun"]),
    ("damage-penalties-shrink", [f"{DAMAGE}:2:3: error: levels: penalties must not shrink as damage grows; "
                                 "found 2, 1, 3, 4"]),
    ("damage-no-effect", [f"{DAMAGE}:2:3: error: levels: level 'knockout' needs a penalty or an effect"]),
    ("damage-level-misspelt", [f"{DAMAGE}:3:11: error: levels[1].key: found 'stunn'; did you mean 'stun'?"]),
    ("armour-out-of-order", [f"{ARMOUR}:2:3: error: armour: list the armour lightest first, each with more steps "
                             "than the one before; found steps 2, 1"]),
    ("armour-steps-word", [f"{ARMOUR}:3:12: error: armour[0].steps: expected a whole number, found 'one'"]),
    ("characters-misspelt-key",
     [f"{CHARS}:3:5: error: characters[0].armor: unknown key 'armor'; did you mean 'armour'?"]),
    ("characters-unknown-armour", [
        f"{CHARS}:3:13: error: characters[0].armour: unknown armour 'Meduim'; did you mean 'Medium'?",
        f"{CHARS}:5:13: error: characters[1].armour: unknown armour 'Kevlar'; allowed: 'Light', 'Medium', 'Heavy'"]),
    ("characters-duplicate", [f"{CHARS}:3:11: error: characters[1].name: duplicate character name 'ana'"]),
    ("weapon-damage-misspelt", [f"{WEAPONS}:7:30: error: categories[0].weapons[0].damage: found 'graz'; "
                                "did you mean 'graze'?"]),
    ("weapon-two-damages", [f"{WEAPONS}:7:9: error: categories[0].weapons[0]: 'Blunderbuss' needs either damage "
                            "(one level) or damage_by_band (a level per band)"]),
    ("weapon-beyond-reach", [
        f"{WEAPONS}:8:9: error: categories[0].weapons[1]: 'Whip' names the throwing band, beyond the reach of "
        "brawling weapons; allowed here: brawling",
        f"{WEAPONS}:10:16: error: categories[0].weapons[2].name: duplicate weapon name 'fist' in brawling; "
        "it is already used on line 7"]),
    ("weapon-band-gap", [
        f"{WEAPONS}:8:25: error: categories[0].weapons[0].damage_by_band: 'Scattergun' gives no damage at "
        "throwing; add those bands, or list them in unusable_at",
        f"{WEAPONS}:9:47: error: categories[0].weapons[1].unusable_at: 'Bow' is unusable at every band it reaches"]),
    ("weapon-category-twice", [f"{WEAPONS}:3:3: error: categories: each category may appear once; repeated: brawling"]),
    ("combat-yards-and-miles", [f"{COMBAT}:5:5: error: distances[0]: give yards or miles, not both"]),
    ("combat-bands-out-of-order", [f"{COMBAT}:5:3: error: distances: the distances must be exactly brawling, "
                                   "throwing, shooting, viewing, lost in that order"]),
    ("game-no-title", [f"{GAME}:1:1: error: missing required key 'title'"]),
]


def load_with(tmp_path: Path, case: str):
    data = tmp_path / "data"
    shutil.copytree(D6.starter, data / "d6xd6")
    shutil.copy(INVALID / f"{case}.yaml", data / "d6xd6" / TARGETS[case.split("-")[0]])
    return D6.load(data / "d6xd6", tmp_path)


def test_every_case_file_is_listed():
    assert sorted(p.stem for p in INVALID.glob("*.yaml")) == sorted(case for case, _ in CASES)


@pytest.mark.parametrize("case, expected", CASES, ids=[c for c, _ in CASES])
def test_each_defect_is_reported_at_its_line(tmp_path, case, expected):
    game, problems = load_with(tmp_path, case)
    assert game is None
    assert [str(p) for p in problems if p.severity == "error"] == expected


def test_the_example_data_and_starter_load_cleanly():
    for folder, root in ((DEFAULT_DATA_DIR / "d6xd6", DEFAULT_DATA_DIR.parent), (D6.starter, D6.starter.parent)):
        game, problems = D6.load(folder, root)
        assert problems == [] and game is not None, problems
    game, _ = D6.load(DEFAULT_DATA_DIR / "d6xd6", DEFAULT_DATA_DIR.parent)
    # The example exercises the shotgun's per-band damage, a setting's own table and characters with armour.
    assert [t.title for t in game.tables] == ["Core weapons", "Vesta Ring kit"]
    shotgun = next(w for c in game.tables[0].categories for w in c.weapons if w.name == "Shotgun")
    assert [shotgun.damage_at(b) for b in ("brawling", "throwing", "shooting")] == ["wound", "hit", "stun"]
    bow = next(w for c in game.tables[0].categories for w in c.weapons if w.name == "Small bow or sling")
    assert bow.damage_at("brawling") is None and bow.damage_at("shooting") == "stun"
    rifle = next(w for c in game.tables[0].categories for w in c.weapons if w.name == "Rifle")
    assert (rifle.penalty_at("brawling"), rifle.penalty_at("shooting")) == (2, 0)


def test_an_ability_no_table_names_is_a_warning_with_a_hint(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(D6.starter, data / "d6xd6")
    chars = data / "d6xd6" / "characters.yaml"
    chars.write_text("characters:\n  - name: Ana\n    focused: [Shoting]\n", encoding="utf-8")
    game, problems = D6.load(data / "d6xd6", tmp_path)
    assert game is not None
    assert [str(p) for p in problems] == [
        f"{CHARS}:3:15: warning: characters[0].focused[0]: 'Shoting' is not named by any weapon table; "
        "did you mean 'Shooting'?"]


def test_a_missing_file_and_a_stray_file_are_reported(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(D6.starter, data / "d6xd6")
    (data / "d6xd6" / "armour.yaml").unlink()
    (data / "d6xd6" / "notes.yaml").write_text("x: 1\n", encoding="utf-8")
    game, problems = D6.load(data / "d6xd6", tmp_path)
    assert game is None
    assert [str(p) for p in problems] == [
        "data/d6xd6/armour.yaml: error: file not found; `sixes new DIR` writes a complete starter folder",
        "data/d6xd6/notes.yaml: warning: file is not used; weapon tables go in weapons/; other files: "
        "armour.yaml, characters.yaml, combat.yaml, damage.yaml, game.yaml"]


# --- JSON Schemas --------------------------------------------------------------

KINDS = ("game", "damage", "weapons", "armour", "combat", "characters")
SCHEMA_COMMENT = re.compile(r"# yaml-language-server: \$schema=(\S+)")


def test_schemas_are_written_for_every_file_kind(tmp_path):
    written = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in export_schemas(tmp_path)}
    for kind in KINDS:
        schema = written[f"d6xd6-{kind}.schema.json"]
        assert schema["additionalProperties"] is False
        for name, sub in schema.get("$defs", {}).items():
            if sub.get("type") == "object":
                assert sub["additionalProperties"] is False, name
    weapon = written["d6xd6-weapons.schema.json"]["$defs"]["Weapon"]["properties"]
    assert weapon["damage"]["anyOf"][0]["enum"] == ["graze", "stun", "hit", "wound", "knockout", "kill"]


def _kind(path: Path) -> str:
    return "weapons" if path.parent.name == "weapons" else path.stem


@pytest.mark.parametrize("path", sorted((DEFAULT_DATA_DIR / "d6xd6").rglob("*.yaml"))
                         + sorted(D6.starter.rglob("*.yaml")),
                         ids=lambda p: p.relative_to(PROJECT_ROOT).as_posix())
def test_data_files_point_at_their_schema(path):
    match = SCHEMA_COMMENT.fullmatch(path.read_text(encoding="utf-8").splitlines()[0])
    assert match, path
    target = (path.parent / match.group(1)).resolve()
    name = f"d6xd6-{_kind(path)}.schema.json"
    if DEFAULT_DATA_DIR in path.parents:
        assert target == PROJECT_ROOT / "output" / "schemas" / name
    else:
        assert target == D6.starter.parent / "schemas" / name
