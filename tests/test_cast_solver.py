"""Casting solved exactly: HiGHS's casting against a brute-force oracle that
tries every casting of small random cases and keeps the lexicographically
best objective; a conflicting set of rules is named (and is minimal); a
re-cast after a drop-out moves only the players it must."""
from __future__ import annotations

import itertools
import random

import pytest

from generator.game.cast_model import (CastProblem, Rule, apart_rule, feasible_by_rules, objective_of, precast_rule,
                                       quota_rule, refuse_rule, structural_rules)
from generator.game.cast_solve import bound, conflict, feasible, solve


def bf_castings(problem: CastProblem):
    """Every casting of as many as can be cast: each injective map."""
    P, C = len(problem.players), len(problem.characters)
    if P <= C:
        for chars in itertools.permutations(range(C), P):
            yield dict(enumerate(chars))
    else:
        for players in itertools.permutations(range(P), C):
            yield {p: c for c, p in enumerate(players)}


def bf_best(problem: CastProblem):
    kept = [cast for cast in bf_castings(problem) if feasible_by_rules(problem, cast)]
    return min((objective_of(problem, cast) for cast in kept), default=None)


def random_problem(rng: random.Random, players: int, characters: int, with_rules: bool) -> CastProblem:
    names = tuple(f"P{i}" for i in range(players))
    chars = tuple(f"C{i}" for i in range(characters))
    choices = tuple(tuple(rng.sample(range(characters), rng.randint(0, min(4, characters))))
                    for _ in range(players))
    rules = structural_rules(names, chars)
    if with_rules:
        if rng.random() < 0.5:
            rules.append(precast_rule(names, chars, rng.randrange(players), rng.randrange(characters)))
        for _ in range(rng.randint(0, 2)):
            rules.append(refuse_rule(names, chars, rng.randrange(players), rng.sample(range(characters), 1)))
        if players >= 2 and characters >= 2:
            a, b = rng.sample(range(players), 2)
            x, y = rng.sample(range(characters), 2)
            rules.append(apart_rule(names, chars, a, b, [(x, y)]))
        if rng.random() < 0.5:
            group = rng.sample(range(characters), min(2, characters))
            asked = [(p, c) for p in range(players) for c in group if c in choices[p]]
            rules.append(quota_rule("quota", asked, [], None, 1))
    return CastProblem(names, chars, choices, tuple(rules), seed=rng.randint(0, 9))


@pytest.mark.parametrize("case", range(120))
def test_the_solver_finds_the_brute_force_optimum(case):
    rng = random.Random(case)
    problem = random_problem(rng, rng.randint(1, 6), rng.randint(1, 6), with_rules=case % 3 != 0)
    expected = bf_best(problem)
    found = solve(problem)
    if expected is None:
        assert found is None
        assert conflict(problem), "an infeasible problem names its conflicting rules"
        return
    assert found is not None
    assert feasible_by_rules(problem, found.cast)
    assert found.objective == expected


def test_a_seed_decides_ties_and_two_runs_agree():
    names, chars = ("Ann", "Bob", "Cat"), ("X", "Y", "Z")
    problem = CastProblem(names, chars, ((), (), ()), tuple(structural_rules(names, chars)), seed=7)
    first, second = solve(problem), solve(problem)
    assert first is not None and second is not None and first.cast == second.cast
    others = {tuple(sorted(s.cast.items())) for seed in range(12)
              if (s := solve(CastProblem(names, chars, ((), (), ()), problem.rules, seed=seed)))}
    assert len(others) > 1, "the seed breaks ties, so some seed gives another casting"


def test_the_worst_off_player_comes_first():
    """Two players both want X first; B's second choice is Y, A listed nothing else:
    giving X to A keeps everyone within their 2nd, the better worst rank."""
    names, chars = ("A", "B"), ("X", "Y")
    problem = CastProblem(names, chars, ((0,), (0, 1)), tuple(structural_rules(names, chars)))
    solved = solve(problem)
    assert solved is not None and solved.cast == {0: 0, 1: 1}


def test_conflicting_rules_are_named_and_minimal():
    names, chars = ("Ann", "Bob", "Cat"), ("Ned", "Mara", "Kit")
    rules = [*structural_rules(names, chars),
             precast_rule(names, chars, 0, 0),            # Ned to Ann
             refuse_rule(names, chars, 1, [1]),           # Bob will not play Mara
             refuse_rule(names, chars, 2, [1]),           # Cat will not play Mara
             refuse_rule(names, chars, 2, [2])]           # harmless alone... but Cat then has nothing
    problem = CastProblem(names, chars, ((0,), (1,), (2,)), tuple(rules))
    assert solve(problem) is None
    named = conflict(problem)
    texts = [r.text for r in named]
    assert "Mara is played by someone" in texts
    assert "Ned is pre-cast to Ann" in texts
    assert "Bob will not play Mara" in texts and "Cat will not play Mara" in texts
    for rule in named:              # irreducible: drop any one and a casting exists
        assert feasible(problem, [r for r in named if r is not rule])


def test_a_drop_out_recast_moves_only_whom_it_must():
    """Six characters, seven players: P6 waits. P2 drops out: P6 takes P2's
    character though P6 ranked another first, and nobody else moves, where
    a fresh casting would move P3 to give P6 their first choice."""
    names = tuple(f"P{i}" for i in range(7))
    chars = tuple(f"C{i}" for i in range(6))
    choices = ((0,), (1,), (2,), (3, 2), (4,), (5,), (3,))
    problem = CastProblem(names, chars, choices, tuple(structural_rules(names, chars)))
    first = solve(problem)
    assert first is not None and 6 not in first.cast
    # P2 leaves: the players are the other six, starting from the same casting.
    kept = [p for p in range(7) if p != 2]
    index = {p: i for i, p in enumerate(kept)}
    names2 = tuple(names[p] for p in kept)
    current = {index[p]: c for p, c in first.cast.items() if p in index}
    again = CastProblem(names2, chars, tuple(choices[p] for p in kept), tuple(structural_rules(names2, chars)),
                        current=current)
    solved = solve(again)
    assert solved is not None
    moved = [names2[p] for p, c in current.items() if solved.cast.get(p) != c]
    assert moved == []
    assert solved.cast[index[6]] == first.cast[2]
    # Without the starting casting, the best casting would move people: P6 wants C0 first.
    fresh = solve(CastProblem(names2, chars, again.choices, again.rules))
    assert fresh is not None and sum(1 for p, c in current.items() if fresh.cast.get(p) != c) > 0


def test_a_cut_character_moves_its_player_and_no_one_else():
    names = ("A", "B", "C")          # X, Y, Z, W were the characters
    choices = ((0, 3), (1,), (2,))
    current = {0: 0, 1: 1, 2: 2}
    cut = ("Y", "Z", "W")            # X is cut: A moves to W (their 2nd), the rest stay
    mapping = {1: 0, 2: 1, 3: 2}
    problem = CastProblem(names, cut, tuple(tuple(mapping[c] for c in ch if c in mapping) for ch in choices),
                          tuple(structural_rules(names, cut)), current={1: 0, 2: 1})
    solved = solve(problem)
    assert solved is not None and solved.cast == {0: 2, 1: 0, 2: 1} and solved.objective[0] == 0
    assert current  # the uncut casting, for the reader


def test_rules_that_bound_are_those_without_which_the_casting_improves():
    names, chars = ("A", "B"), ("X", "Y")
    binding = refuse_rule(names, chars, 0, [0])        # A wants X first, but refuses it? no: B refused
    harmless = refuse_rule(names, chars, 1, [0])
    precast = precast_rule(names, chars, 1, 0)           # X pre-cast to B, whom A wanted first
    problem = CastProblem(names, chars, ((0,), (1,)), (*structural_rules(names, chars), precast))
    best = solve(problem)
    assert best is not None and best.cast == {0: 1, 1: 0}
    assert [(r.text, better) for r, better in bound(problem, best) or []] == [("X is pre-cast to B", True)]
    quiet = CastProblem(names, chars, ((0,), (1,)), (*structural_rules(names, chars), harmless))
    solved = solve(quiet)
    assert solved is not None and bound(quiet, solved) == []
    assert isinstance(binding, Rule)
