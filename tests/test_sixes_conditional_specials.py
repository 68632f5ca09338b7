"""Specials whose bonus counts only sometimes (issue 18, point 3): the data
says when (`when:` beside `adds_effect`, validated with file:line), sheets
print the bonus beside the number, never inside it, and the resolver and the
simulator apply it only when its condition holds (ruling conditional-bonuses).

The source: "Special abilities follow their own rules", written on the
character sheet; a rule with a condition applies only under it.
"""
from __future__ import annotations

import html
import re
import shutil
from functools import cache

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.pdf.jobs import document_html
from generator.systems.sixes import SYSTEM
from generator.systems.sixes.dataset import load_game
from generator.systems.sixes.effects import describe
from generator.systems.sixes.models import Character, Special
from generator.systems.sixes.resolver import Declaration, IllegalDeclaration, fresh, resolve_round
from generator.systems.sixes.rules import effect_bonuses, slot_table
from generator.systems.sixes.simulate import CONDITIONS_NOTE, Side, simulate

BESIDE = Special(name="Shoulder to Shoulder", rule="Beside a friend you hit harder.",
                 adds_effect={"attack": 1}, when="beside_ally")
RATTLED = Special(name="Go for the Throat", rule="A shaken foe takes more.", adds_effect={"attack": 2},
                  when="target_rattled")
HURT = Special(name="Cornered", rule="Hurt, you guard harder.", adds_effect={"defend_self": 1}, when="hurt")
ALWAYS = Special(name="Steady", rule="Always a little better at guarding.", adds_effect={"defend_other": 1})
LIBRARY = {s.name: s for s in (BESIDE, RATTLED, HURT, ALWAYS)}


def character(name="Ash", hp=5, armour=0, damage=0, specials=()):
    return Character(name=name, faction="North", description="A test fighter.", hit_points=hp, armour=armour,
                     damage=damage, specials=list(specials))


@cache
def example_game():
    """The shipped Sixes game alone (the other systems' data plays no part)."""
    game, problems = load_game(DEFAULT_DATA_DIR / "sixes", DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    return game


# --- data --------------------------------------------------------------------

def problems_with(tmp_path, specials_tail: str) -> list[str]:
    folder = tmp_path / "sixes"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", folder)
    path = folder / "specials.yaml"
    path.write_text(path.read_text(encoding="utf-8") + specials_tail, encoding="utf-8")
    _, problems = load_game(folder, tmp_path)
    return [str(p) for p in problems if p.severity == "error"]


def line_of(tmp_path, text: str) -> int:
    """The line of the last occurrence: the special the test appended."""
    lines = (tmp_path / "sixes" / "specials.yaml").read_text(encoding="utf-8").splitlines()
    return max(n for n, line in enumerate(lines, 1) if text in line)


def test_the_shipped_data_has_conditional_specials_and_loads():
    game = example_game()
    conditional = {s.name: s.when for s in game.specials if s.when}
    assert conditional == {"Kin Stand Together": "beside_ally", "Wrecker's Instinct": "target_rattled"}
    holders = {n for m in game.cast for n in m.character.specials if n in conditional}
    assert holders == set(conditional)


def test_an_unknown_condition_is_named_at_its_line_with_the_choices(tmp_path):
    found = problems_with(tmp_path, "  - name: Odd\n    rule: A test.\n    adds_effect: {attack: 1}\n"
                                    "    when: beside_aly\n")
    line = line_of(tmp_path, "when: beside_aly")
    assert len(found) == 1
    assert re.search(rf"specials\.yaml:{line}:\d+: error: specials\[\d+\]\.when: found 'beside_aly'", found[0])
    assert "beside_ally" in found[0]


def test_when_without_a_bonus_is_refused_at_its_line(tmp_path):
    found = problems_with(tmp_path, "  - name: Odd\n    rule: A test.\n    when: hurt\n")
    line = line_of(tmp_path, "when: hurt")
    assert len(found) == 1 and f"specials.yaml:{line}:" in found[0]
    assert "has no adds_effect" in found[0] and "adds_effect: {attack: 1}" in found[0]


def test_a_condition_that_can_never_hold_is_refused_at_its_line(tmp_path):
    found = problems_with(tmp_path, "  - name: Odd\n    rule: A test.\n    adds_effect: {defend_self: 1}\n"
                                    "    when: target_rattled\n")
    line = line_of(tmp_path, "when: target_rattled")
    assert len(found) == 1 and f"specials.yaml:{line}:" in found[0] and "Defend Self" in found[0]


# --- printed -----------------------------------------------------------------

def test_a_conditional_bonus_is_kept_out_of_the_slot_table_numbers():
    """Only always-on bonuses are folded into the numbers; a conditional one
    rides beside them, as "+1 beside an ally"."""
    rows = slot_table(character(damage=1, specials=["Shoulder to Shoulder", "Steady"]), LIBRARY)
    assert [r.attack for r in rows] == [2, 3, 4, 5, 6]
    assert [r.defend_other for r in rows] == [2, 3, 4, 5, 6]
    assert [str(b) for b in rows[2].extras("attack")] == ["+1 beside an ally"]
    assert rows[2].extras("defend_other") == ()
    assert effect_bonuses(character(specials=["Shoulder to Shoulder", "Steady"]), LIBRARY) == {"defend_other": 1}


def sheet_text(slug: str) -> str:
    game = example_game()
    doc = next(d for d in SYSTEM.documents(game) if d.slug == slug)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", document_html(doc))))


def test_the_character_sheet_prints_the_bonus_as_conditional():
    """Judith Carrow's Kin Stand Together: "1 (+1 beside an ally)" at Speed 5, not "2"."""
    text = sheet_text("judith-carrow")
    assert "1 (+1 beside an ally)" in text and "5 (+1 beside an ally)" in text
    assert "counts only while its condition holds" in text


def test_the_cheat_sheet_roster_and_library_say_when_the_bonus_counts():
    text = sheet_text("gm-cheat-sheet")
    assert "1 / 2 / 3 / 4 / 5 (+1 beside an ally)" in text
    assert "1 / 2 / 3 / 4 / 5 (+1 on a Rattled target)" in text
    assert describe(BESIDE).startswith("Only beside an ally")
    assert describe(RATTLED).startswith("Only on a Rattled target")
    assert describe(ALWAYS).startswith("Always on")


def test_the_balance_report_says_how_the_fights_treat_them():
    text = sheet_text("balance-report")
    assert CONDITIONS_NOTE.split(":")[0] in text
    assert "Kin Stand Together (beside an ally, never applied)" in text
    assert "Wrecker's Instinct (on a Rattled target, applied when it holds)" in text


# --- resolved ----------------------------------------------------------------

def fight_of(*characters):
    return tuple(fresh(c, LIBRARY) for c in characters)


def test_on_a_rattled_target_counts_only_if_they_were_rattled_as_the_slot_began():
    me = character("Ash", specials=["Go for the Throat"])
    fight = fight_of(me, character("Bo"), character("Cy"))
    fight = (fight[0], fight[1]._replace(rattled=True, hp=4), fight[2])
    after = resolve_round(fight, [Declaration("Ash", "attack", 5, "Bo"), Declaration("Cy", "attack", 5, "Ash")])
    assert after["Bo"].hp == 4 - (1 + 2)
    fight = fight_of(me, character("Bo"))
    assert resolve_round(fight, [Declaration("Ash", "attack", 5, "Bo")])["Bo"].hp == 4


def test_beside_an_ally_counts_only_when_the_gm_confirms_it():
    fight = fight_of(character("Ash", specials=["Shoulder to Shoulder"]), character("Bo"))
    assert resolve_round(fight, [Declaration("Ash", "attack", 5, "Bo")])["Bo"].hp == 4
    told = resolve_round(fight, [Declaration("Ash", "attack", 5, "Bo", confirmed=("beside_ally",))])
    assert told["Bo"].hp == 3
    assert any("counts +1 beside an ally" in str(line) for line in told.log)
    with pytest.raises(IllegalDeclaration, match="not a condition for the GM to confirm"):
        resolve_round(fight, [Declaration("Ash", "attack", 5, "Bo", confirmed=("hurt",))])


def test_while_hurt_counts_below_the_starting_hit_points():
    me = character("Ash", specials=["Cornered"])
    for hp, blocked in ((5, 1), (4, 2)):
        fight = fight_of(me, character("Bo", damage=2))
        fight = (fight[0]._replace(hp=hp), fight[1])
        after = resolve_round(fight, [Declaration("Ash", "defend_self", 5), Declaration("Bo", "attack", 4, "Ash")])
        assert after["Ash"].hp == hp - (4 - blocked)


def test_the_simulator_never_applies_a_bonus_only_the_gm_can_judge():
    """Position is not in the simulation, so a beside-an-ally bonus changes
    no figure; an always-on bonus of the same size does."""
    def sides(specials):
        return [Side("North", (character("Ash", specials=specials), character("Bo"))),
                Side("South", (character("Cy"), character("Di")))]
    plain = simulate(sides([]), LIBRARY, "aggressive", fights=200, seed=7)
    beside = simulate(sides(["Shoulder to Shoulder"]), LIBRARY, "aggressive", fights=200, seed=7)
    always = dict(LIBRARY, **{"Shoulder to Shoulder": BESIDE.model_copy(update={"when": None})})
    stronger = simulate(sides(["Shoulder to Shoulder"]), always, "aggressive", fights=200, seed=7)
    assert beside == plain
    assert stronger != plain



def test_the_simulator_applies_a_bonus_it_can_judge_when_it_holds():
    """Against armour 3 a Speed 3 blow gets nothing through, so it cannot
    finish a Rattled foe; with +2 on a Rattled target it can: the figures move."""
    def sides(specials):
        return [Side("North", (character("Ash", specials=specials), character("Bo"))),
                Side("South", (character("Cy", hp=2, armour=3), character("Di", hp=2, armour=3)))]
    plain = simulate(sides([]), LIBRARY, "aggressive", fights=300, seed=7)
    rattled = simulate(sides(["Go for the Throat"]), LIBRARY, "aggressive", fights=300, seed=7)
    assert rattled != plain
    assert rattled.rounds != plain.rounds or rattled.statuses != plain.statuses
