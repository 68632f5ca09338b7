"""The Sixes System's data: the example and starter load, and broken files
are reported at file:line:column with a hint, all at once."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes_system import SYSTEM
from generator.systems.sixes_system.dataset import load_game

EXAMPLE = DEFAULT_DATA_DIR / "sixes-system"


def load(folder: Path):
    return load_game(folder, folder.parent)


@pytest.fixture
def copy(tmp_path) -> Path:
    target = tmp_path / "sixes-system"
    shutil.copytree(EXAMPLE, target)
    return target


def messages(folder: Path) -> list[str]:
    campaign, problems = load(folder)
    return [str(p) for p in problems]


def test_example_and_starter_load_cleanly():
    for folder in (EXAMPLE, SYSTEM.starter):
        campaign, problems = load(folder)
        assert problems == [], problems
        assert len(campaign.modes.matrix) == 16
        assert {c.level for c in campaign.modes.cover} == {"none", "partial", "substantial", "total"}
        assert campaign.cast
    campaign, _ = load(EXAMPLE)
    assert {k: float(v) for k, v in campaign.info.base_a.items()} == {"standard": 3, "gentler": 3.5, "grittier": 2.75}


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_a_matrix_pair_listed_twice_and_one_missing(copy):
    modes = copy / "modes.yaml"
    replace(modes, "{attack: finesse, defence: finesse,", "{attack: finesse, defence: force,")
    found = messages(copy)
    first = line_of(modes, "{attack: finesse, defence: force,")
    assert any(m.startswith("sixes-system/modes.yaml:") and "finesse against force is listed twice" in m
               and f"already on line {first}" in m for m in found), found
    assert any("missing: finesse vs finesse" in m for m in found), found


def test_a_cover_level_listed_twice_and_one_missing(copy):
    modes = copy / "modes.yaml"
    replace(modes, "{level: substantial,", "{level: partial,")
    errors = [m for m in messages(copy) if ": error: " in m]
    assert errors == [
        f"sixes-system/modes.yaml:{line_of(modes, 'Most of the target')}:13: error: cover[2].level: "
        f"cover level 'partial' is listed twice; it is already on line {line_of(modes, 'covers part')}",
        f"sixes-system/modes.yaml:{line_of(modes, 'Out in the open')}:3: error: cover: "
        "every cover level needs an entry; missing: substantial"]


def test_an_unknown_mode_gets_a_did_you_mean_with_its_line(copy):
    modes = copy / "modes.yaml"
    replace(modes, "{attack: maneuver, defence: dodge,", "{attack: manoeuvre, defence: dodge,")
    line = line_of(modes, "manoeuvre")
    found = messages(copy)
    assert any(m.startswith(f"sixes-system/modes.yaml:{line}:") and "found 'manoeuvre'" in m
               and "did you mean 'maneuver'?" in m for m in found), found


def test_an_a_adjustment_off_the_quarter_grid(copy):
    replace(copy / "modes.yaml", "a: -0.5, note: Out in the open.", "a: -0.4, note: Out in the open.")
    found = messages(copy)
    assert any("cover[0].a" in m and "A values come in quarters" in m for m in found), found


def test_every_base_setting_is_required(copy):
    replace(copy / "game.yaml", "  grittier: 2.75\n", "")
    found = messages(copy)
    assert any("base_a" in m and "missing: grittier" in m for m in found), found


def test_base_a_stays_below_six(copy):
    replace(copy / "game.yaml", "gentler: 3.5", "gentler: 6")
    found = messages(copy)
    assert any("base_a.gentler" in m and "less than 6" in m for m in found), found


def test_weapon_with_a_misspelt_stat_and_skill_and_a_typo_key_all_reported(copy):
    dora = copy / "combatants" / "dora-quill.yaml"
    replace(dora, "stat: dexterity, skill: sabre, dice: 3", "stat: dexterty, skill: sabr, dice: 3")
    replace(copy / "combatants" / "brick-halloran.yaml", "armour: 1", "armor: 1")
    found = messages(copy)
    line = line_of(dora, "dexterty")
    assert any(m.startswith(f"sixes-system/combatants/dora-quill.yaml:{line}:") and "weapons[0].stat" in m
               and "did you mean 'dexterity'?" in m for m in found), found
    assert any("weapons[0].skill: unknown skill 'sabr'; did you mean 'sabre'?" in m for m in found), found
    assert any("brick-halloran.yaml" in m and "unknown key 'armor'; did you mean 'armour'?" in m for m in found), found


def test_armour_above_five_and_missing_purpose(copy):
    vane = copy / "combatants" / "inspector-vane.yaml"
    replace(vane, "armour: 2", "armour: 7")
    replace(vane, "defend: 3, ", "")
    found = messages(copy)
    assert any("inspector-vane.yaml" in m and "armour: must be at most 5, found 7" in m for m in found), found
    assert any("inspector-vane.yaml" in m and "missing: defend" in m for m in found), found


def test_an_improvised_force_weapon_is_only_a_warning(copy):
    replace(copy / "combatants" / "brick-halloran.yaml", "{name: Flower pot, mode: finesse",
            "{name: Flower pot, mode: force")
    campaign, problems = load(copy)
    assert campaign is not None
    assert [p.severity for p in problems] == ["warning"]
    assert "nearly always finesse" in str(problems[0])


def test_no_combatants_is_an_error(copy):
    shutil.rmtree(copy / "combatants")
    campaign, problems = load(copy)
    assert campaign is None
    assert "no combatant files" in str(problems[0])


def test_schemas_are_offered_for_each_file_kind():
    assert set(SYSTEM.schemas) == {"game", "modes", "healing", "combatant"}
    schema = SYSTEM.schemas["modes"].model_json_schema()
    assert "matrix" in schema["required"]


@pytest.mark.parametrize("path", sorted(EXAMPLE.rglob("*.yaml")) + sorted(SYSTEM.starter.rglob("*.yaml")),
                         ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_each_data_file_names_its_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    kind = "combatant" if path.parent.name == "combatants" else path.stem
    target = (path.parent / first.split("=", 1)[1]).resolve()
    assert target.name == f"sixes-system-{kind}.schema.json"
    root = EXAMPLE.parent.parent / "output" if path.is_relative_to(EXAMPLE) else SYSTEM.starter.parent
    assert target.parent == root / "schemas"


# --- healing.yaml and the cast's healing tools ------------------------------------

def test_the_example_has_healers_and_the_source_numbers():
    campaign, problems = load(EXAMPLE)
    assert problems == []
    healing = campaign.healing
    assert (healing.rank_limits.paramedic_below_first_aid, healing.rank_limits.surgery_below_paramedic) == (1, 2)
    assert (healing.intervention.healing_dice_per_rank, healing.intervention.critical_failure_dice) == (1, 2)
    assert [(g.grade, g.stable_hours) for g in healing.wound_grades] == [(1, 3), (2, 6), (3, 12), (4, 18)]
    assert sorted((s.multiplier, s.bonus) for s in healing.supports) == [(1, 2), (2, 0), (3, 0), (4, 0)]
    skills = {t.skill for m in campaign.cast for t in m.combatant.healing}
    assert skills == {"first-aid", "paramedic"}


def test_a_paramedic_tool_above_first_aid_minus_one_is_reported_at_its_line(copy):
    """'Paramedic Ranks cannot be higher than First Aid -1.'"""
    vane = copy / "combatants" / "inspector-vane.yaml"
    replace(vane, "skill: paramedic, ranks: 2,", "skill: paramedic, ranks: 3,")
    line = line_of(vane, "skill: paramedic, ranks: 3,")
    column = vane.read_text(encoding="utf-8").splitlines()[line - 1].index("ranks: 3") + len("ranks: ") + 1
    found = messages(copy)
    assert found == [f"sixes-system/combatants/inspector-vane.yaml:{line}:{column}: error: healing[1].ranks: "
                     "'Wartime ambulance service' has 3 ranks of Paramedic; Paramedic may have at most First Aid - 1, "
                     "which is 2 here ('Police first-aid course', 3); lower it to 2, or raise First Aid to 4"], found


def test_surgery_without_paramedic_and_above_paramedic_minus_two(copy):
    """'Surgeon or Surgery cannot be higher than Paramedic -2.'"""
    dora = copy / "combatants" / "dora-quill.yaml"
    dora.write_text(dora.read_text(encoding="utf-8")
                    + "  - {name: Field surgery, skill: surgery, ranks: 0, stat: wits}\n", encoding="utf-8")
    vane = copy / "combatants" / "inspector-vane.yaml"
    vane.write_text(vane.read_text(encoding="utf-8")
                    + "  - {name: Operating theatre, skill: surgery, ranks: 1, stat: nerve}\n", encoding="utf-8")
    found = messages(copy)
    assert any(m.startswith(f"sixes-system/combatants/dora-quill.yaml:{line_of(dora, 'Field surgery')}:")
               and "'Field surgery' counts as Surgery, which needs Paramedic first" in m
               and "add a Paramedic skill of at least 2 ranks" in m for m in found), found
    assert any(m.startswith(f"sixes-system/combatants/inspector-vane.yaml:{line_of(vane, 'Operating theatre')}:")
               and "may have at most Paramedic - 2, which is 0 here" in m for m in found), found


def test_a_healing_tool_with_a_misspelt_stat(copy):
    dora = copy / "combatants" / "dora-quill.yaml"
    replace(dora, "ranks: 2, stat: wits", "ranks: 2, stat: wit")
    found = messages(copy)
    line = line_of(dora, "stat: wit}")
    assert any(m.startswith(f"sixes-system/combatants/dora-quill.yaml:{line}:") and "healing[0].stat" in m
               and "did you mean 'wits'?" in m for m in found), found


def test_a_healing_tool_with_a_misspelt_skill(copy):
    dora = copy / "combatants" / "dora-quill.yaml"
    replace(dora, "skill: first-aid,", "skill: first aid,")
    found = messages(copy)
    line = line_of(dora, "skill: first aid,")
    assert any(m.startswith(f"sixes-system/combatants/dora-quill.yaml:{line}:") and "healing[0].skill" in m
               and "did you mean 'first-aid'?" in m for m in found), found


def test_a_support_that_both_multiplies_and_adds(copy):
    healing = copy / "healing.yaml"
    replace(healing, "    multiplier: 2\n", "    multiplier: 2\n    bonus: 1\n")
    found = messages(copy)
    assert any(m.startswith("sixes-system/healing.yaml:") and "supports[1]" in m
               and "either multiplies" in m for m in found), found


def test_medication_above_three_is_refused(copy):
    replace(copy / "healing.yaml", "bonus: 2", "bonus: 5")
    found = messages(copy)
    assert any("supports[0].bonus: must be at most 3, found 5" in m for m in found), found


def test_wound_grades_once_each_and_graver_takes_longer(copy):
    healing = copy / "healing.yaml"
    replace(healing, "  - grade: 3\n    stable_hours: 12", "  - grade: 2\n    stable_hours: 12")
    found = messages(copy)
    first = line_of(healing, "  - grade: 2")
    assert any("wound_grades[2].grade: wound grade 2 is listed twice" in m and f"already on line {first}" in m
               for m in found), found


def test_a_grade_needing_fewer_hours_than_a_lighter_one_is_a_warning(copy):
    replace(copy / "healing.yaml", "stable_hours: 18", "stable_hours: 10")
    campaign, problems = load(copy)
    assert campaign is not None
    assert [p.severity for p in problems] == ["warning"]
    assert "grade 4 asks for 10 stable hours, fewer than grade 3's 12" in str(problems[0])


def test_healing_yaml_is_required(copy):
    (copy / "healing.yaml").unlink()
    campaign, problems = load(copy)
    assert campaign is None
    assert [str(p) for p in problems][0].startswith("sixes-system/healing.yaml: error: file not found")


def test_an_empty_mapping_that_needs_an_entry_says_so_in_words(copy):
    path = sorted((copy / "combatants").glob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    stats = re.search(r"^stats:.*$", text, re.M)
    assert stats is not None
    path.write_text(text.replace(stats[0], "stats: {}"), encoding="utf-8")
    assert any(m.endswith("error: stats: must have at least 1 entry, found 0") for m in messages(copy)), messages(copy)
