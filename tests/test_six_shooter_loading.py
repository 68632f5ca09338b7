"""Six Shooter data: the example and starter load cleanly, and each kind of
mistake is reported at its file:line:column with a hint, all in one run."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.game.load import load_all
from generator.core.errors import DataError
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.six_shooter import SYSTEM
from generator.systems.six_shooter.dataset import load_game

OPS = "data/six-shooter/operators.yaml"
C = "data/six-shooter/challenges.yaml"


@pytest.fixture
def starter(tmp_path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SYSTEM.starter, data / "six-shooter")
    return data


def problems_with(data: Path, **files: str) -> list[str]:
    for name, text in files.items():
        (data / "six-shooter" / f"{name}.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_all(data)
    return [str(p) for p in caught.value.problems]


def operators(*entries: tuple) -> str:
    """(name, descriptor, numbers) or (name, descriptor, numbers, lost)."""
    lines = ["operators:"]
    for name, descriptor, numbers, *lost in entries:
        lines += [f"  - name: {name}", f"    descriptor: {descriptor}", "    archetype: Someone",
                  f"    lucky_numbers: {numbers}"]
        lines += [f"    lost_lucky_numbers: {n}" for n in lost]
    return "\n".join(lines) + "\n"


def test_the_starter_loads_without_any_problem(starter):
    loaded, problems = load_all(starter, strict=True)
    assert problems == []
    assert [item.system.slug for item in loaded] == ["six-shooter"]


def test_the_example_adventure_exercises_the_rules():
    adventure, problems = load_game(DEFAULT_DATA_DIR / "six-shooter", DEFAULT_DATA_DIR.parent)
    assert problems == [] and adventure is not None
    assert 4 <= len(adventure.operators) <= 6
    assert len(adventure.challenges) >= 12
    numbers = [n for c in adventure.challenges for n in c.critical_numbers.values()]
    # Every Critical Number from 2 to 7 and Impossible (1 is too easy to be worth a challenge).
    assert {2, 3, 4, 5, 6, 7, "impossible"} <= set(numbers)
    assert any(c.stages > 1 for c in adventure.challenges)
    assert {o.descriptor for o in adventure.operators} == {"Dangerous", "Sharp", "Sly", "Charming"}


def test_field_mistakes_are_reported_together(starter):
    found = problems_with(starter, operators="""operators:
  - name: Ada
    descriptor: Dangerus
    archetype: Boxer
    lucky_numbers: [7, 11]
""", challenges="""challenges:
  - name: Door
    description: A door.
    critical_numbers: {danger: 8, sharpness: impossibel, slyness: 0, charm: "7"}
    stage: 2
""")
    assert found == [
        f"{C}:4:32: error: challenges[0].critical_numbers.danger: found 8; "
        "a Critical Number is a whole number from 1 to 7, or impossible",
        f"{C}:4:46: error: challenges[0].critical_numbers.sharpness: found 'impossibel'; "
        "a Critical Number is a whole number from 1 to 7, or impossible; did you mean 'impossible'?",
        f"{C}:4:67: error: challenges[0].critical_numbers.slyness: found 0; "
        "a Critical Number is a whole number from 1 to 7, or impossible",
        f"{C}:4:77: error: challenges[0].critical_numbers.charm: found '7'; "
        "a Critical Number is a whole number from 1 to 7, or impossible; write the number without quotes",
        f"{C}:5:5: error: challenges[0].stage: unknown key 'stage'; did you mean 'stages'?",
        f"{OPS}:3:17: error: operators[0].descriptor: found 'Dangerus'; did you mean 'Dangerous'?",
        f"{OPS}:5:24: error: operators[0].lucky_numbers[1]: must be at most 10, found 11",
    ]


def test_a_missing_method_is_named(starter):
    found = problems_with(starter, challenges="""challenges:
  - name: Door
    description: A door.
    critical_numbers: {danger: 1, sharpness: impossible, slyness: 3}
""")
    assert found == [f"{C}:4:23: error: challenges[0].critical_numbers: "
                     "every method needs a Critical Number or impossible; missing: charm"]


def test_a_card_rank_and_a_guide_number_given_twice_leave_one_missing(starter):
    rules = starter / "six-shooter" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("{rank: jack, reduction: 2}", "{rank: queen, reduction: 2}", 1)
    text = text.replace('critical_number: "1"', 'critical_number: "0"', 1)
    found = problems_with(starter, rules=text)
    card_line = next(i for i, line in enumerate(text.splitlines(), 1) if line == "card_values:") + 1
    guide_line = next(i for i, line in enumerate(text.splitlines(), 1) if line == "guide:") + 1
    assert found == [f"data/six-shooter/rules.yaml:{card_line}:3: error: card_values: "
                     "every card rank needs a reduction; missing: jack",
                     f"data/six-shooter/rules.yaml:{guide_line}:3: error: guide: "
                     "the guide needs an entry for every Critical Number; missing: 1"]


def test_lucky_number_rules_of_the_table(starter):
    found = problems_with(starter, operators=operators(
        ("Ada", "Dangerous", [7, 3]), ("Bo", "Sly", [7, 4, 4]), ("ada", "Sharp", [5, 6, 8])))
    assert found == [
        f"{OPS}:9:21: error: operators[1].lucky_numbers[0]: starting Lucky Number 7 is already Ada's; "
        "no two Operators at the table start with the same number",
        f"{OPS}:9:27: error: operators[1].lucky_numbers[2]: Lucky Number 4 is listed twice; "
        "an Operator holds each number at most once",
        f"{OPS}:10:11: error: operators[2].name: duplicate Operator name 'ada'; it is already used on line 2",
    ]


def test_a_third_lucky_number_needs_the_rest_of_the_table_at_two(starter):
    found = problems_with(starter, operators=operators(
        ("Ada", "Dangerous", [7, 3, 9]), ("Bo", "Sly", [2, 4]), ("Cy", "Sharp", [5])))
    assert found == [
        f"{OPS}:5:20: error: operators[0].lucky_numbers: Ada holds 3 Lucky Numbers, but Cy has never held 2, "
        "counting those lost; past 2, an Operator gains one only while every other Operator holds at least as many "
        "as they do; record numbers given up after three Strikes with lost_lucky_numbers"]


def accepted(data: Path, text: str) -> None:
    (data / "six-shooter" / "operators.yaml").write_text(text, encoding="utf-8")
    loaded, problems = load_all(data, strict=True)
    assert problems == [] and loaded


def test_an_operator_may_lose_lucky_numbers_after_the_table_caught_up(starter):
    # v0.03: Bo and Cy reached 2 so Ada could take a third; then Cy, taken out by three Strikes,
    # gave one up to come back. Ada's three stay legal.
    accepted(starter, operators(("Ada", "Dangerous", [7, 3, 9]), ("Bo", "Sly", [2, 4]), ("Cy", "Sharp", [5], 1)))
    # The same table without Cy's loss could not have let Ada gain her third.
    assert problems_with(starter, operators=operators(
        ("Ada", "Dangerous", [7, 3, 9]), ("Bo", "Sly", [2, 4]), ("Cy", "Sharp", [5])))


def test_three_strikes_and_no_lucky_number_left_is_a_state_the_rules_allow(starter):
    accepted(starter, operators(("Ada", "Dangerous", [7]), ("Bo", "Sly", [], 1)))
    # The lost one may have been the starting number: a later one may match another's start.
    accepted(starter, operators(("Ada", "Dangerous", [7, 3]), ("Bo", "Sly", [7], 1)))


def test_sixes_check_accepts_an_operator_with_no_lucky_number(starter):
    (starter / "sixes.yaml").write_text("paper: a4\n", encoding="utf-8")
    (starter / "six-shooter" / "operators.yaml").write_text(
        operators(("Ada", "Dangerous", [7, 3, 9]), ("Bo", "Sly", [], 2), ("Cy", "Sharp", [5, 6])), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--data", str(starter)], prog_name="sixes")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("OK: ")


def test_no_lucky_number_needs_one_lost(starter):
    found = problems_with(starter, operators=operators(("Ada", "Dangerous", [7]), ("Bo", "Sly", [])))
    assert found == [f"{OPS}:9:20: error: operators[1].lucky_numbers: Bo holds no Lucky Number and has lost none; "
                     "every Operator starts with one; an Operator who gave up their last after three Strikes "
                     "records it with lost_lucky_numbers"]


def test_more_lucky_numbers_are_fine_once_everyone_has_them(starter):
    (starter / "six-shooter" / "operators.yaml").write_text(operators(
        ("Ada", "Dangerous", [7, 3, 9, 10]), ("Bo", "Sly", [2, 4, 7]), ("Cy", "Sharp", [5, 6, 8])),
        encoding="utf-8")
    loaded, problems = load_all(starter, strict=True)
    assert problems == [] and loaded


def test_the_gm_can_lower_the_cap(starter):
    found = problems_with(starter, game="title: T\nblurb: B\nlucky_number_cap: 1\n",
                          operators=operators(("Ada", "Dangerous", [7, 3]), ("Bo", "Sly", [2])))
    assert found == [f"{OPS}:5:20: error: operators[0].lucky_numbers: Ada holds 2 Lucky Numbers; the cap is 1; "
                     "lucky_number_cap in game.yaml sets it"]


def test_a_missing_file_is_named(starter):
    (starter / "six-shooter" / "challenges.yaml").unlink()
    assert problems_with(starter) == [
        f"{C}: error: file not found; `sixes new DIR` writes a complete starter folder"]


def test_rules_file_needs_each_descriptor_once(starter):
    path = starter / "six-shooter" / "rules.yaml"
    text = path.read_text(encoding="utf-8").replace("suit: spades", "suit: clubs")
    found = problems_with(starter, rules=text)
    assert len(found) == 1 and "each descriptor needs its own suit; repeated: clubs" in found[0]
    assert found[0].startswith("data/six-shooter/rules.yaml:")


@pytest.mark.parametrize("keep", [3, 5])
def test_a_list_of_the_wrong_length_says_how_many_it_takes_in_words(starter, keep):
    """pydantic's own wording ("List should have at most 4 items after
    validation") never reaches the GM: the message says how many the list
    takes and how many it holds."""
    import yaml
    path = starter / "six-shooter" / "rules.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["descriptors"] = (data["descriptors"] * 2)[:keep]
    found = problems_with(starter, rules=yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert any(p.endswith(f"error: descriptors: must have exactly 4 items, found {keep}") for p in found), found
    assert not any("validation" in p for p in found), found
