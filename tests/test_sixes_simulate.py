"""The fight simulator and `sixes simulate`: seeded runs repeat exactly,
policies only make legal declarations, the statistics agree with a slow
count, and bad fighters or sides files give file:line errors."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from click.testing import CliRunner

from generator.game.load import load_all
from generator.commands.cli import main
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes.models import Character
from generator.systems.sixes.resolver import validate
from generator.systems.sixes.sides import load_sides, pick_fighters
from generator.systems.sixes.simulate import (POLICIES, Policy, Side, percentile, play, roster,
                                              sides_by_faction, simulate)


def game():
    return load_all(DEFAULT_DATA_DIR)[0][0].game


def brawler(name, faction, hp=5, armour=0, damage=0):
    return Character(name=name, faction=faction, description="A generic fighter.", hit_points=hp,
                     armour=armour, damage=damage)


SIDES = [Side("Reds", (brawler("Red One", "Reds", damage=1), brawler("Red Two", "Reds", armour=1))),
         Side("Blues", (brawler("Blue One", "Blues", hp=6), brawler("Blue Two", "Blues")))]


def bf_percentile(values, q):
    """Slow nearest rank: walk up until at least q of the values are at or below."""
    ordered = sorted(values)
    for v in ordered:
        if Fraction(sum(1 for w in ordered if w <= v), len(ordered)) >= q:
            return v


@pytest.mark.parametrize("values", [[1], [3, 1, 2], [5, 5, 1, 9, 2, 2, 7], list(range(1, 11)), [4] * 6 + [9]])
@pytest.mark.parametrize("q", [Fraction(1, 2), Fraction(9, 10), Fraction(1, 10), Fraction(1)])
def test_percentile_against_a_slow_count(values, q):
    assert percentile(sorted(values), q) == bf_percentile(values, q)


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_same_seed_same_figures_and_another_seed_differs(policy):
    g = game()
    sides = sides_by_faction([m.character for m in g.cast])
    one = simulate(sides, g.library, policy, fights=40, seed=5)
    assert one == simulate(sides, g.library, policy, fights=40, seed=5)
    assert one != simulate(sides, g.library, policy, fights=40, seed=6)


def test_summary_counts_add_up():
    summary = simulate(SIDES, {}, "aggressive", fights=300, seed=2)
    assert summary.fights == 300
    assert sum(summary.wins) + summary.no_winner == 300
    assert sum(summary.win_rate(k) for k in range(2)) + summary.no_winner_rate == 1
    assert sum(summary.rounds_share(n) for n in set(summary.rounds)) == 1
    assert summary.median_rounds <= summary.p90_rounds
    # Aggressive fighters never flee nor knock out: in every fight a side
    # loses, each of its members ends it Rattled or Dead.
    for k, side in enumerate(SIDES):
        for member in side.members:
            ended = summary.statuses[member.name]
            assert ended["Dead"] + ended["Rattled"] >= summary.wins[1 - k] > 0
            assert ended["Unconscious"] == ended["Escaped"] == 0


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_policies_only_make_legal_declarations(policy):
    """Played by hand round by round, every declaration passes the resolver's checks."""
    g = game()
    fighters, side = roster(sides_by_faction([m.character for m in g.cast]), g.library)
    rng = random.Random(11)
    from generator.systems.sixes.resolver import resolve_round
    for _ in range(15):
        fight = fighters
        for _ in range(8):
            declarations = [d for i, c in enumerate(fight) if c.can_act
                            for d in [POLICIES[policy](rng, fight, side, i)] if d]
            assert validate(fight, declarations) == []
            fight = resolve_round(fight, declarations, log=False).combatants


def test_a_fight_stops_when_one_side_is_left_or_at_the_round_limit():
    fighters, side = roster(SIDES, {})
    outcome = play(fighters, side, POLICIES["aggressive"], random.Random(1), max_rounds=30)
    standing = {side[i] for i, c in enumerate(outcome.fighters) if c.can_act and not c.rattled}
    assert standing == {outcome.winner}
    capped = play(fighters, side, POLICIES["aggressive"], random.Random(1), max_rounds=1)
    assert capped.rounds == 1


def test_a_fight_ends_when_nobody_wants_to_go_on():
    """The source: "If nobody wishes to proceed", the fight is over. With
    everyone standing back it never starts, and it is a stand-off."""
    fighters, side = roster(SIDES, {})
    calm = Policy("calm", lambda rng, fight, side, i: None, lambda fight, side, i: False)
    outcome = play(fighters, side, calm, random.Random(1))
    assert outcome.rounds == 0 and outcome.winner is None and not outcome.cut_off


def test_sides_file_errors_have_positions_and_hints(tmp_path):
    path = tmp_path / "sides.yaml"
    path.write_text("sides:\n  Carrows: [Ned Tregarth, Judth Carrow]\n  Penhales: [Kit Penhale, Ned Tregarth]\n")
    sides, problems = load_sides(path, game())
    messages = [str(p) for p in problems]
    assert any(":2:" in m and "unknown character 'Judth Carrow'" in m and "Judith Carrow" in m for m in messages)
    assert any(":3:" in m and "'Ned Tregarth' is already on side 'Carrows'" in m for m in messages)


def test_pick_fighters_groups_by_faction_and_names_unknowns():
    sides, problems = pick_fighters(game(), ["Ned Tregarth", "Kit Penhale", "Samuel Penhale"])
    assert problems == [] and [(s.name, len(s.members)) for s in sides] == [("House Carrow", 1),
                                                                             ("House Penhale", 2)]
    _, problems = pick_fighters(game(), ["Ned Tregarth", "Kit Penhal"])
    assert "did you mean 'Kit Penhale'?" in str(problems[0])


# The example game folder, named: the command no longer looks in data/ by itself.
SIMULATE = ["simulate", "--data", str(DEFAULT_DATA_DIR)]


def test_cli_simulate_prints_rounds_wins_and_statuses():
    args = SIMULATE + ["--fighters", "Ned Tregarth,Kit Penhale", "--fights", "50", "--policy", "aggressive",
                       "--seed", "3"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "aggressive: rounds to settle: median" in result.output
    assert "wins: House Carrow" in result.output and "Ned Tregarth" in result.output
    again = CliRunner().invoke(main, args)
    assert again.output == result.output


def test_cli_simulate_errors():
    runner = CliRunner()
    bad_name = runner.invoke(main, SIMULATE + ["--fighters", "Ned Tregarth,Nobody Atall"])
    assert bad_name.exit_code == 1 and "unknown character 'Nobody Atall'" in bad_name.output
    both = runner.invoke(main, SIMULATE + ["--fighters", "A,B", "--sides", __file__])
    assert both.exit_code == 2
    assert runner.invoke(main, SIMULATE + ["--rounds", "0"]).exit_code == 2
