"""I6 data: point costs, the budget, and every defect reported at file:line:column
with a hint. Each case file in tests/data/i6-invalid/ replaces one file of the
starter setting (two heroes, no warnings); the expected lines were written by
hand from the case files."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.errors import Problem
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.i6 import SYSTEM as I6
from generator.systems.i6.dataset import load_game
from generator.systems.i6.points import spend, trait_cost

INVALID = Path(__file__).parent / "data" / "i6-invalid"
HERO, TRAITS, GEAR, GAME = "heroes/first-hero.yaml", "traits.yaml", "gear.yaml", "game.yaml"
H, T, R, G = (f"data/i6/{x}" for x in (HERO, TRAITS, GEAR, GAME))

CASES = [
    ("hero-over-budget", HERO, [
        f"{H}:1:7: error: name: spends 21 points, 1 over the budget of 20 (traits 18, features 0, gear 3); "
        "lower a trait (a 5 costs 6 points), or drop a feature or some gear"]),
    ("hero-unknown-names", HERO, [
        f"{H}:4:3: error: traits.Fencng: unknown trait 'Fencng'; did you mean 'Fencing'?",
        f"{H}:5:12: error: features[0]: unknown feature 'Tuogh'; did you mean 'Tough'?",
        f"{H}:6:15: error: gear[1]: unknown gear 'Bandage'; did you mean 'Bandages'?"]),
    ("hero-rating-six", HERO, [
        f"{H}:4:12: error: traits.Fencing: must be at most 5, found 6",
        f"{H}:5:10: error: traits.Dodge: must be at least 1, found 0",
        f"{H}:6:7: error: gear: 'Sword' is listed twice"]),
    ("traits-missing-brawn", TRAITS, [
        "data/i6/heroes/first-hero.yaml:10:3: error: traits.Brawn: unknown trait 'Brawn'; did you mean 'brawl'?",
        "data/i6/heroes/second-hero.yaml:8:3: error: traits.Brawn: unknown trait 'Brawn'; did you mean 'brawl'?",
        f"{T}:2:3: error: traits: missing traits the rules use: brawn (brawn: taken off each hit's damage, and "
        "sets the healing TN); add each with its id and a name in the setting's language, e.g. '- id: brawn' "
        "with 'name:' and 'description:' (the name may be left out: the tool's word is printed)"]),
    ("gear-bad-weapon", GEAR, [
        f"{R}:5:38: error: gear[0].weapon.damage: must be at least 1, found 0",
        f"{R}:5:56: error: gear[0].weapon.reach: found 'close'; allowed: 'melee', 'ranged'"]),
    ("gear-unknown-trait", GEAR, [
        f"{R}:5:21: error: gear[0].weapon.trait: unknown trait 'Fenzing'; did you mean 'Fencing'?",
        f"{R}:9:11: error: gear[2].name: duplicate gear name 'sword'; it is already used on line 2"]),
    ("game-key-typo", GAME, [
        f"{G}:4:1: error: wound_box: unknown key 'wound_box'; did you mean 'wound_boxes'?"]),
    ("game-medical-typo", GAME, [
        f"{G}:5:16: error: medical_trait: unknown trait 'Medicne'; did you mean 'Medicine'?"]),
]


@pytest.fixture
def starter(tmp_path) -> Path:
    target = tmp_path / "data" / "i6"
    shutil.copytree(I6.starter, target)
    return target


def problems_of(folder: Path) -> list[Problem]:
    game, problems = load_game(folder, folder.parent.parent)
    if any(p.severity == "error" for p in problems):
        assert game is None
    return sorted(problems, key=Problem.sort_key)


def test_the_starter_and_the_example_load_without_any_problem(starter):
    assert problems_of(starter) == []
    game, problems = load_game(DEFAULT_DATA_DIR / "i6", DEFAULT_DATA_DIR.parent)
    assert problems == [] and game is not None
    assert 4 <= len(game.heroes) <= 6
    assert all(entry.spend.left == 0 for entry in game.heroes)


def test_every_case_file_has_a_case():
    assert sorted(p.stem for p in INVALID.glob("*.yaml")) == sorted(c for c, _, _ in CASES)


@pytest.mark.parametrize("case, target, expected", [pytest.param(*c, id=c[0]) for c in CASES])
def test_each_defect_is_reported_exactly(starter, case, target, expected):
    shutil.copy(INVALID / f"{case}.yaml", starter / target)
    assert [str(p) for p in problems_of(starter)] == expected


def test_unspent_points_are_a_warning_that_says_how_many(starter):
    hero = starter / HERO
    hero.write_text(hero.read_text(encoding="utf-8").replace("Fencing: 5", "Fencing: 3"), encoding="utf-8")
    (problem,) = problems_of(starter)
    assert problem.severity == "warning"
    assert str(problem) == (f"{H}:2:7: warning: name: spends 17 of 20 points, 3 left unspent "
                            "(traits 14, features 0, gear 3); fine if intended")


def test_a_missing_hero_folder_and_file_are_reported(starter):
    shutil.rmtree(starter / "heroes")
    (starter / "features.yaml").unlink()
    messages = [p.message for p in problems_of(starter)]
    assert messages == ["file not found", "no hero files (heroes/*.yaml)"]


# --- costs, written out by hand from the rule: levels cost 1, the fifth costs 2 ----------------

@pytest.mark.parametrize("rating, cost", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 6)])
def test_trait_costs(rating, cost):
    assert trait_cost(rating) == cost


@pytest.mark.parametrize("rating", [0, 6, -1])
def test_ratings_outside_one_to_five_have_no_cost(rating):
    with pytest.raises(ValueError):
        trait_cost(rating)


def test_spend_adds_traits_features_and_gear():
    points = spend({"A": 5, "B": 4, "C": 1}, [3, 2], [4], budget=20)
    assert (points.traits, points.features, points.gear, points.total, points.left) == (11, 5, 4, 20, 0)
    assert spend({"A": 5}, [], [], budget=4).left == -2


def test_left_out_traits_are_rated_one_and_wound_boxes_add_features():
    game, _ = load_game(DEFAULT_DATA_DIR / "i6", DEFAULT_DATA_DIR.parent)
    assert game is not None
    mott = next(e for e in game.heroes if e.hero.name == "Mott")
    assert list(mott.ratings) == [t.key for t in game.traits]
    assert mott.ratings["Lore"] == 1 and mott.ratings["brawn"] == 5
    # Iron Constitution adds three boxes to the setting's six.
    assert mott.wound_boxes == 9
    assert (mott.spend.traits, mott.spend.features, mott.spend.gear) == (22, 4, 4)


# --- JSON Schemas for editors -----------------------------------------------------------------

def _i6_files() -> list[Path]:
    return sorted((DEFAULT_DATA_DIR / "i6").rglob("*.yaml")) + sorted(I6.starter.rglob("*.yaml"))


@pytest.mark.parametrize("path", _i6_files(), ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_each_file_points_at_its_schema(path):
    import re
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, first
    kind = "hero" if path.parent.name == "heroes" else path.stem
    assert kind in I6.schemas
    resolved = (path.parent / match.group(1)).resolve()
    if DEFAULT_DATA_DIR in path.parents:
        assert resolved == DEFAULT_DATA_DIR.parent / "output" / "schemas" / f"i6-{kind}.schema.json"
    else:
        assert resolved == I6.starter.parent / "schemas" / f"i6-{kind}.schema.json"


def test_hero_schema_says_what_the_model_enforces():
    schema = I6.schemas["hero"].model_json_schema()
    assert schema["additionalProperties"] is False
    assert sorted(schema["required"]) == ["concept", "name"]
    rating = schema["properties"]["traits"]["patternProperties"]["\\S"]
    assert (rating["type"], rating["minimum"], rating["maximum"]) == ("integer", 1, 5)
    gear = I6.schemas["gear"].model_json_schema()
    assert gear["$defs"]["Weapon"]["properties"]["reach"]["enum"] == ["melee", "ranged"]
