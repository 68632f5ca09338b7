"""The round resolver (generator/systems/sixes/resolver.py): declarations
are checked with reasons, the log reads in slot and phase order, and the
quiet fast path gives the same state as the logged one. The rule-by-rule
scenarios are data in tests/scenarios/sixes/ (test_sixes_resolver_scenarios.py)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from generator.systems.sixes.models import Character, Special
from generator.systems.sixes.narration import PHASE_ORDER
from generator.systems.sixes.resolver import Declaration, IllegalDeclaration, fresh, resolve_round, validate

ROOT = Path(__file__).resolve().parent.parent
CORE_MODULES = ("resolver", "narration", "effects")


def fighter(name, hp=5, armour=0, damage=0, specials=()):
    return Character(name=name, description="A test fighter.", hit_points=hp, armour=armour, damage=damage,
                     specials=list(specials))


LIBRARY = {
    "Bone Rattler": Special(name="Bone Rattler", rule="r", usage="once per combat", effect="rattle_on_damage"),
    "Pistol": Special(name="Pistol", rule="r", usage="once per game"),
}


def roster(*characters):
    return [fresh(c, LIBRARY) for c in characters]


def test_the_site_worked_example_round_by_round():
    """The worked example on site/sixes/index.md, resolved by the code."""
    fight = roster(fighter("Mara", 5, 1, 1), fighter("Tobin", 4), fighter("Vey", 6, 2, 1), fighter("Pell", 4))
    one = resolve_round(fight, [Declaration("Pell", "escape", 5), Declaration("Mara", "attack", 4, "Vey"),
                                Declaration("Tobin", "defend_other", 3, "Mara"),
                                Declaration("Vey", "attack", 2, "Mara")])
    assert {c.name: (c.hp, c.status) for c in one.combatants} == {
        "Mara": (4, "Fighting"), "Tobin": (1, "Fighting"), "Vey": (5, "Fighting"), "Pell": (4, "Escaped")}
    two = resolve_round(one.combatants, [Declaration("Vey", "attack", 4, "Tobin"),
                                         Declaration("Mara", "attack", 2, "Vey"),
                                         Declaration("Tobin", "recover", 1)])
    assert {c.name: (c.hp, c.status) for c in two.combatants} == {
        "Mara": (4, "Fighting"), "Tobin": (1, "Fighting"), "Vey": (2, "Fighting"), "Pell": (4, "Escaped")}
    text = [str(line) for line in two.log]
    assert "Speed 4, status: Tobin is on 0 hit points (was 1); Tobin becomes Rattled." in text


def test_log_runs_from_slot_5_down_and_phases_in_order():
    fight = roster(fighter("A"), fighter("B"), fighter("C"), fighter("D"))
    result = resolve_round(fight, [Declaration("A", "attack", 1, "B"), Declaration("B", "escape", 3),
                                   Declaration("C", "attack", 3, "B"), Declaration("D", "defend_self", 5)])
    slots = [line.slot for line in result.log if line.slot]
    assert slots == sorted(slots, reverse=True)
    for slot in set(slots):
        phases = [PHASE_ORDER[line.phase] for line in result.log if line.slot == slot]
        assert phases == sorted(phases)
    assert result.log[-1].phase == "end"


@pytest.mark.parametrize("declaration, reason", [
    (Declaration("A", "attack", 0, "B"), "A: Speed 0 is impossible"),
    (Declaration("A", "attack", 6, "B"), "A: Speed 6 is impossible"),
    # A float Speed on purpose (as a phone's JSON may send it): the wrong type is the case.
    (Declaration("A", "attack", 2.0, "B"), "A: Speed 2.0 is impossible"),  # type: ignore[arg-type]
    (Declaration("A", "attack", 3, "Zed"), "A: target Zed is not in this fight"),
    (Declaration("A", "attack", 3, "Branoc"), "did you mean Brannoc?"),
    (Declaration("A", "attack", 3), "A: Attack needs a target"),
    (Declaration("A", "attack", 3, "A"), "A: Attack must be aimed at someone else"),
    (Declaration("A", "defend_other", 3, "A"), "use Defend Self"),
    (Declaration("A", "defend_self", 3, "B"), "A: Defend Self can only be aimed at yourself"),
    (Declaration("A", "recover", 3, "B"), "works only on an Unconscious character"),
    (Declaration("A", "dance", 3), "unknown action 'dance'"),
    (Declaration("Q", "attack", 3, "B"), "Q is not in this fight"),
    (Declaration("R", "attack", 1, "B"), "R is Rattled and may only Escape or Recover, not Attack"),
    (Declaration("R", "recover", 2), "R is Rattled and may not act faster than Speed 1"),
    (Declaration("U", "recover", 1), "U is Unconscious and cannot act"),
    (Declaration("A", "attack", 3, "X"), "A: target X is Dead and not in the fight"),
    (Declaration("A", "attack", 3, "B", special="Pistol"), "A does not have the special 'Pistol'"),
    (Declaration("S", "defend_self", 3, special="Bone Rattler"), "Bone Rattler goes with Attack, not Defend Self"),
    (Declaration("S", "special", 3, "B"), "the Special action needs the name of a special"),
    (Declaration("A", "defend_self", 3, finish="kill"), "can only be called with an Attack"),
    (Declaration("A", "defend_self", 3, redirect_to="B"), "only a Defend Self with a redirecting special"),
])
def test_illegal_declarations_are_rejected_with_a_reason(declaration, reason):
    fight = roster(fighter("A"), fighter("B"), fighter("S", specials=["Bone Rattler"]), fighter("Brannoc"))
    fight += [fresh(fighter("R"), LIBRARY)._replace(hp=0, rattled=True),
              fresh(fighter("U"), LIBRARY)._replace(hp=0, rattled=True, unconscious=True),
              fresh(fighter("X"), LIBRARY)._replace(hp=0, rattled=True, dead=True)]
    with pytest.raises(IllegalDeclaration) as caught:
        resolve_round(fight, [declaration])
    assert any(reason in r for r in caught.value.reasons), caught.value.reasons


def test_every_problem_is_reported_at_once_and_legal_ones_are_not():
    fight = roster(fighter("A"), fighter("B"), fighter("S", specials=["Bone Rattler"]))
    reasons = validate(fight, [Declaration("A", "attack", 6, "B"), Declaration("A", "escape", 5),
                               Declaration("B", "attack", 2, "Nobody"), Declaration("S", "attack", 1, "A",
                                                                                    special="Bone Rattler")])
    assert len(reasons) == 3
    assert reasons[1] == "A declared twice; a declaration cannot be changed"


def test_a_used_up_special_is_refused():
    fight = roster(fighter("A"), fighter("S", specials=["Bone Rattler"]))
    after = resolve_round(fight, [Declaration("S", "attack", 1, "A", special="Bone Rattler")]).combatants
    assert after[1].uses["Bone Rattler"] == 0
    with pytest.raises(IllegalDeclaration, match="already used Bone Rattler"):
        resolve_round(after, [Declaration("S", "attack", 1, "A", special="Bone Rattler")])


def random_declarations(rng, fight):
    names = [c.name for c in fight if c.in_fight]
    out = []
    for c in fight:
        if not c.can_act or rng.random() < 0.1:
            continue
        if c.rattled:
            out.append(Declaration(c.name, rng.choice(["escape", "recover"]), 1))
            continue
        others = [n for n in names if n != c.name]
        action = rng.choice(["attack", "attack", "defend_other", "defend_self", "escape", "recover"]
                            if others else ["defend_self", "escape", "recover"])
        target = rng.choice(others) if action in ("attack", "defend_other") else None
        finish = rng.choice([None, "kill", "knock_out"]) if action == "attack" else None
        out.append(Declaration(c.name, action, rng.randint(1, 5), target, finish=finish))
    return out


def test_quiet_fast_path_matches_the_logged_one():
    rng = random.Random(7)
    for _ in range(200):
        fight = roster(*(fighter(f"F{i}", rng.randint(3, 7), rng.randint(0, 2), rng.randint(0, 1))
                         for i in range(8)))
        for _ in range(4):
            declarations = random_declarations(rng, fight)
            loud = resolve_round(fight, declarations)
            quiet = resolve_round(fight, declarations, log=False)
            assert loud.combatants == quiet.combatants and quiet.log == ()
            fight = loud.combatants


def test_resolver_simulator_and_balance_are_core_code():
    code = ("import json, sys; import " + ", ".join(f"generator.systems.sixes.{m}" for m in CORE_MODULES)
            + "; print(json.dumps(sorted(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    top = {m.split(".")[0] for m in json.loads(result.stdout.strip().splitlines()[-1])}
    assert not top & {"jinja2", "weasyprint", "mkdocs", "click", "rich"}


@pytest.mark.parametrize("value, expected", [
    ("rattle_on_dmg", "specials[1].effect: found 'rattle_on_dmg'; did you mean 'rattle_on_damage'?"),
    ("fly", "specials[1].effect: found 'fly'"),
])
def test_an_unknown_effect_is_reported_with_its_position(tmp_path, value, expected):
    import shutil

    from generator.systems.sixes import SYSTEM
    folder = tmp_path / "sixes"
    shutil.copytree(SYSTEM.starter, folder)
    text = (folder / "specials.yaml").read_text(encoding="utf-8")
    text = text.replace("    adds_effect: {defend_other: 1}",
                        f"    adds_effect: {{defend_other: 1}}\n    effect: {value}")
    (folder / "specials.yaml").write_text(text, encoding="utf-8")
    game, problems = SYSTEM.load(folder, tmp_path)
    assert game is None
    messages = [str(p) for p in problems if p.severity == "error"]
    assert len(messages) == 1 and messages[0].startswith("sixes/specials.yaml:") and expected in messages[0], messages
