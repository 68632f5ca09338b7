"""Rule-by-rule scenarios for the round resolver, written as data.

Each file in tests/scenarios/sixes/ holds scenarios: the fighters, their
declarations, and what must be true after the round (hit points, statuses,
uses left, key log lines) or the reason the declarations are refused. Each
scenario names the rule it checks; coverage.yaml lists every rule of the
source's Actions, Damage, Armour, Statuses and Fight Structure sections (and
our rulings and the specials vocabulary) with the scenarios that check it,
and a test below fails if any rule has none.

The specials come from the shipped data/sixes/specials.yaml, so the six
example specials of the source are tested as the GM will use them.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes.models import Character, SpecialsFile
from generator.systems.sixes.resolver import Declaration, IllegalDeclaration, fresh, resolve_round

SCENARIOS = Path(__file__).parent / "scenarios" / "sixes"
COVERAGE = SCENARIOS / "coverage.yaml"
FIGHTER_KEYS = {"name", "hp", "now", "armour", "damage", "specials", "status", "uses"}
SCENARIO_KEYS = {"name", "rule", "also", "says", "fighters", "declarations", "expect", "log", "not_in_log",
                 "illegal", "adjudications"}
STATUS_FLAGS = {"Rattled": ("rattled",), "Unconscious": ("rattled", "unconscious"), "Dead": ("rattled", "dead"),
                "Escaped": ("escaped",), "Fighting": ()}


@lru_cache(maxsize=1)
def library():
    raw = yaml.safe_load((DEFAULT_DATA_DIR / "sixes" / "specials.yaml").read_text(encoding="utf-8"))
    return {s.name: s for s in SpecialsFile.model_validate(raw).specials}


@lru_cache(maxsize=1)
def scenarios() -> dict[str, dict]:
    found = {}
    for path in sorted(SCENARIOS.glob("*.yaml")):
        if path == COVERAGE:
            continue
        for scenario in yaml.safe_load(path.read_text(encoding="utf-8"))["scenarios"]:
            assert scenario["name"] not in found, f"duplicate scenario name {scenario['name']}"
            found[scenario["name"]] = {**scenario, "file": path.name}
    return found


@lru_cache(maxsize=1)
def coverage() -> list[dict]:
    return yaml.safe_load(COVERAGE.read_text(encoding="utf-8"))["rules"]


def combatant(spec: dict):
    assert set(spec) <= FIGHTER_KEYS, set(spec) - FIGHTER_KEYS
    character = Character(name=spec["name"], description="A scenario fighter.", hit_points=spec.get("hp", 5),
                          armour=spec.get("armour", 0), damage=spec.get("damage", 0),
                          specials=spec.get("specials", []))
    c = fresh(character, library())
    flags: dict[str, Any] = {flag: True for flag in STATUS_FLAGS[spec.get("status", "Fighting")]}
    uses = {**c.uses, **spec.get("uses", {})}
    return c._replace(hp=spec.get("now", character.hit_points), uses=uses, **flags)


def run(scenario: dict):
    fight = [combatant(spec) for spec in scenario["fighters"]]
    declarations = [Declaration(**d) for d in scenario.get("declarations", [])]
    return resolve_round(fight, declarations)


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_scenario(name):
    scenario = scenarios()[name]
    assert set(scenario) - {"file"} <= SCENARIO_KEYS, set(scenario) - SCENARIO_KEYS
    if "illegal" in scenario:
        with pytest.raises(IllegalDeclaration) as caught:
            run(scenario)
        assert any(scenario["illegal"] in reason for reason in caught.value.reasons), caught.value.reasons
        return
    result = run(scenario)
    lines = [str(line) for line in result.log]
    for who, expected in scenario.get("expect", {}).items():
        c = result[who]
        if "hp" in expected:
            assert c.hp == expected["hp"], f"{who}: hit points {c.hp}, expected {expected['hp']}\n" + "\n".join(lines)
        if "status" in expected:
            assert c.status == expected["status"], f"{who}: {c.status}\n" + "\n".join(lines)
        for special, left in expected.get("uses", {}).items():
            assert c.uses[special] == left
    for wanted in scenario.get("log", []):
        assert any(wanted in line for line in lines), f"no log line contains {wanted!r}:\n" + "\n".join(lines)
    for unwanted in scenario.get("not_in_log", []):
        assert not any(unwanted in line for line in lines), f"log mentions {unwanted!r}"
    if "adjudications" in scenario:
        assert len(result.adjudications) == scenario["adjudications"]


def test_there_are_at_least_forty_scenarios_each_naming_its_rule_and_explaining_itself():
    assert len(scenarios()) >= 40
    for scenario in scenarios().values():
        assert scenario.get("rule") and scenario.get("says"), scenario["name"]


def test_coverage_table_lists_every_scenario_under_the_rules_it_checks():
    """rule -> scenarios, both ways: no rule without a scenario, no scenario
    naming a rule the table lacks, and the table agrees with the scenarios."""
    table = {rule["id"]: rule for rule in coverage()}
    assert len(table) == len(coverage()), "duplicate rule id in coverage.yaml"
    claimed: dict[str, set[str]] = {rule_id: set() for rule_id in table}
    for scenario in scenarios().values():
        for rule_id in [scenario["rule"], *scenario.get("also", [])]:
            assert rule_id in table, f"{scenario['name']} names unknown rule {rule_id}"
            claimed[rule_id].add(scenario["name"])
    for rule_id, rule in table.items():
        assert rule["scenarios"], f"rule {rule_id} has no scenario"
        assert set(rule["scenarios"]) == claimed[rule_id], (rule_id, set(rule["scenarios"]), claimed[rule_id])


def test_coverage_table_covers_every_section_of_the_source():
    sections = {rule["section"] for rule in coverage()}
    assert {"Actions", "Damage", "Armour", "Statuses", "Fight Structure"} <= sections
    assert {"The Rules", "Specials", "Rulings"} <= sections
