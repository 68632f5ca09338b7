"""A special whose rule states a condition while its bonus always applies
(issue 32): a warning at the rule's line and column, with the `when:` that
fits the words; a special whose data carries the condition, or whose words
only name the action the bonus is on, passes quietly. The shipped example
and the starter stay free of it."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes.dataset import load_game

STARTER = Path(__file__).resolve().parents[1] / "generator" / "systems" / "sixes" / "starter"
WORDING = "states a condition"


def warnings_with(tmp_path: Path, special: str) -> list[str]:
    """The wording warnings of the example game with one special appended."""
    folder = tmp_path / "sixes"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", folder)
    path = folder / "specials.yaml"
    path.write_text(path.read_text(encoding="utf-8") + special, encoding="utf-8")
    _, problems = load_game(folder, tmp_path)
    return [str(p) for p in problems if WORDING in p.message]


def line_of(tmp_path: Path, text: str) -> int:
    lines = (tmp_path / "sixes" / "specials.yaml").read_text(encoding="utf-8").splitlines()
    return max(n for n, line in enumerate(lines, 1) if text in line)


def test_a_condition_in_the_words_over_an_unconditional_bonus_is_warned_at_the_rule(tmp_path):
    found = warnings_with(tmp_path, "  - name: Shield Wall\n"
                                    "    rule: Next to someone of your own faction, your Attack has +1 Effect.\n"
                                    "    adds_effect: {attack: 1}\n")
    line = line_of(tmp_path, "rule: Next to someone")
    assert len(found) == 1
    assert re.search(rf"specials\.yaml:{line}:11: warning: specials\[\d+\]\.rule: the rule of 'Shield Wall' "
                     r"states a condition \('Next to'\) but its adds_effect bonus always applies", found[0])
    assert "when: beside_ally" in found[0] and "without a condition" in found[0]


def test_the_same_special_with_its_condition_in_the_data_is_not_warned(tmp_path):
    assert warnings_with(tmp_path, "  - name: Shield Wall\n"
                                   "    rule: Next to someone of your own faction, your Attack has +1 Effect.\n"
                                   "    adds_effect: {attack: 1}\n    when: beside_ally\n") == []


@pytest.mark.parametrize("rule, hinted", [
    ("If your target is already Rattled, your Attack has +1 Effect.", "when: target_rattled"),
    ("While you are hurt, your Attack has +1 Effect.", "when: hurt"),
    ("Your Attack has +1 Effect against a foe who attacked you last round.", "a 'when:' (beside_ally"),
    ("When you Escape, your Attack has +1 Effect next round.", "a 'when:' (beside_ally"),
])
def test_each_kind_of_condition_is_caught_and_the_fitting_when_is_named(tmp_path, rule, hinted):
    found = warnings_with(tmp_path, f"  - name: Odd\n    rule: {rule}\n    adds_effect: {{attack: 1}}\n")
    assert len(found) == 1 and hinted in found[0]


@pytest.mark.parametrize("rule", [
    "Whenever you Defend Other, your Effect counts one higher.",
    "When you take a Defend Other action, it has +1 Effect.",
    "Your Defend Other action has +1 Effect.",
])
def test_words_that_only_name_the_bonus_action_are_not_a_condition(tmp_path, rule):
    assert warnings_with(tmp_path, f"  - name: Odd\n    rule: {rule}\n    adds_effect: {{defend_other: 1}}\n") == []


def test_a_special_without_a_bonus_may_state_any_condition(tmp_path):
    assert warnings_with(tmp_path, "  - name: Odd\n    rule: If you are next to a door, you may leave.\n") == []


@pytest.mark.parametrize("folder", [DEFAULT_DATA_DIR / "sixes", STARTER], ids=["example", "starter"])
def test_the_example_and_the_starter_are_free_of_the_warning(folder):
    game, problems = load_game(folder, folder.parent)
    assert game is not None
    assert [p for p in problems if WORDING in p.message] == []
    assert any(s.adds_effect and s.when is None for s in game.specials)   # the check had something to look at


# A game's rules are written in its language (issue 47): the same conditions in French and German.
@pytest.mark.parametrize("rule, word, hinted", [
    ("Si vous avez déjà perdu des points de vie, votre Attaque a +1 en Effet.", "Si", "when: hurt"),
    ("À côté d'un allié de votre faction, votre Attaque a +1 en Effet.", "À côté d", "when: beside_ally"),
    ("Contre une cible déjà sonnée, votre Attaque a +1 en Effet.", "Contre", "when: target_rattled"),
    ("S'il vous reste moins de points de vie qu'au départ, votre Attaque a +1 en Effet.", "S'il", "when: hurt"),
    ("Wenn du verletzt bist, hat dein Angriff +1 Wirkung.", "Wenn", "when: hurt"),
    ("Neben einem Verbündeten deiner Fraktion hat dein Angriff +1 Wirkung.", "Neben", "when: beside_ally"),
    ("Gegen ein Ziel, das schon angeschlagen ist, hat dein Angriff +1 Wirkung.", "Gegen", "when: target_rattled"),
])
def test_a_condition_in_french_or_german_is_caught_too(tmp_path, rule, word, hinted):
    found = warnings_with(tmp_path, f"  - name: Odd\n    rule: \"{rule}\"\n    adds_effect: {{attack: 1}}\n")
    assert len(found) == 1 and f"('{word}')" in found[0] and hinted in found[0], found


@pytest.mark.parametrize("rule, action", [
    ("Quand vous attaquez, votre Effet compte un de plus.", "attack"),
    ("Chaque fois que vous défendez autrui, votre Effet compte un de plus.", "defend_other"),
    ("Votre action Défendre autrui a +1 en Effet.", "defend_other"),
    ("Wenn du angreifst, zählt deine Wirkung eins höher.", "attack"),
    ("Wann immer du andere verteidigst, zählt deine Wirkung eins höher.", "defend_other"),
    ("Deine Aktion Andere verteidigen hat +1 Wirkung.", "defend_other"),
])
def test_french_or_german_words_that_only_name_the_bonus_action_are_not_a_condition(tmp_path, rule, action):
    assert warnings_with(tmp_path, f"  - name: Odd\n    rule: \"{rule}\"\n    adds_effect: {{{action}: 1}}\n") == []


def test_every_shipped_language_has_its_condition_words():
    from generator.core.i18n import SHIPPED
    from typing import get_args

    from generator.systems.sixes.models import BonusAction
    from generator.systems.sixes.special_wording import WORDINGS
    assert set(WORDINGS) == set(SHIPPED)
    for wording in WORDINGS.values():
        assert set(wording.actions) == set(get_args(BonusAction))


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_starter_in_each_language_is_free_of_the_warning(language):
    folder = STARTER.parent / f"starter-{language}"
    game, problems = load_game(folder, folder.parent)
    assert game is not None
    assert [p for p in problems if WORDING in p.message] == []
