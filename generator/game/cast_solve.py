"""Casting solved exactly: the one module that asks HiGHS (highspy).

Game layer: pure computing, imports core/game only and highspy (lazily,
here only). The assignment with side rules is a 0/1 program; the objective
of cast_model.py is lexicographic, so it is solved one level at a time, each
level's optimum held as a row while the next is optimised: every level is
exact, not a weighted blend that a large game could tip over.

Where no casting keeps the hard rules, a deletion filter finds a set of
rules that cannot hold together and from which no rule can be dropped (each
step a feasibility solve): that set, not "infeasible", is what the user reads.
"""
from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass, replace
from typing import Any, Iterable

from ..core.errors import UserError
from .cast_model import CastProblem, Objective, Rule, objective_of

_BANNER = threading.Lock()
# Players x characters: each pair is a column of the program. 150 x 150
# (five choices each) casts, report and all, in 14 s on a shared two-core
# machine; 200 x 200 took 34 s for the solve alone, and time grows faster
# than the pairs. A bigger event is cast as several games (or by hand).
MAX_PAIRS = 22_500
WORK_LIMIT = 60_000         # rules x players x characters asked again by `bound`: 40 x 40 with 37 rules, ~10 s
_quiet = False


@dataclass(frozen=True)
class Solved:
    cast: dict[int, int]           # player index -> character index
    objective: Objective


class SolverFailed(UserError):
    """HiGHS ended without an answer it could prove (not an infeasible
    model): the organiser reads it as one line, never a traceback."""


def _highs() -> Any:
    """A silent HiGHS. The first one made in a process prints a banner on
    the C standard output before any option can be set, so that one is made
    with the output pointed at /dev/null for the moment it takes."""
    import highspy
    global _quiet
    with _BANNER:
        if not _quiet:
            sys.stdout.flush()
            saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, 1)
                highs = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
                os.close(null)
            _quiet = True
        else:
            highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("random_seed", 0)
    highs.setOptionValue("threads", 1)
    highs.setOptionValue("mip_rel_gap", 0.0)     # exact: a casting is proved best, not within 0.01 %
    return highs


class _Model:
    """The 0/1 program of one problem: x[p, c] is column p * C + c. Levels
    already optimised are held as rows; a worst rank, as upper bounds of 0
    on the pairs ranked worse (bounds keep the assignment's structure, which
    the solver's presolve then uses)."""

    def __init__(self, problem: CastProblem, rules: Iterable[Rule]):
        import highspy
        import numpy as np
        self.np, self.problem = np, problem
        self.P, self.C = len(problem.players), len(problem.characters)
        n = self.n = self.P * self.C
        self.ranks = np.array([[problem.rank(p, c) for c in range(self.C)] for p in range(self.P)],
                              dtype=np.int64).reshape(n)
        self.h = _highs()
        self.h.addVars(n, np.zeros(n), np.ones(n))
        self.h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                                     np.full(n, highspy.HighsVarType.kInteger.value, dtype=np.uint8))
        for p in range(self.P):                 # one character each
            self.row([(p, c, 1) for c in range(self.C)], None, 1)
        for c in range(self.C):                 # each character once
            self.row([(p, c, 1) for p in range(self.P)], None, 1)
        for rule in rules:
            for r in rule.rows:
                self.row(r.terms, r.low, r.high)

    def row(self, terms: Iterable[tuple[int, int, int]], low: float | None, high: float | None) -> None:
        """Add low <= sum k x[p, c] <= high."""
        np, inf = self.np, float("inf")
        listed = list(terms)
        self.h.addRow(-inf if low is None else float(low), inf if high is None else float(high), len(listed),
                      np.array([p * self.C + c for p, c, _ in listed], dtype=np.int32),
                      np.array([float(k) for _, _, k in listed], dtype=np.float64))

    def minimise(self, costs: Any) -> int | None:
        """The least value of sum costs * x (integers), None when infeasible."""
        import highspy
        np = self.np
        self.h.changeColsCost(self.n, np.arange(self.n, dtype=np.int32), np.asarray(costs, dtype=np.float64))
        self.h.run()
        status = self.h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return None
        if status == highspy.HighsModelStatus.kModelEmpty:
            return 0
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverFailed(f"the solver stopped without an answer ({self.h.modelStatusToString(status)})")
        return round(self.h.getInfo().objective_function_value)

    def hold(self, costs: Any, value: int) -> None:
        """Keep sum costs * x at most its optimum while the next level is optimised."""
        np = self.np
        cols = np.flatnonzero(costs).astype(np.int32)
        self.h.addRow(-float("inf"), float(value), len(cols), cols, np.asarray(costs, dtype=np.float64)[cols])

    def within(self, worst: int) -> None:
        """No cast player gets a character ranked worse than `worst`."""
        np = self.np
        cols = np.arange(self.n, dtype=np.int32)
        self.h.changeColsBounds(self.n, cols, np.zeros(self.n), (self.ranks <= worst).astype(np.float64))

    def cast(self) -> dict[int, int]:
        values = self.h.getSolution().col_value
        return {p: c for p in range(self.P) for c in range(self.C) if values[p * self.C + c] > 0.5}


def too_large(problem: CastProblem) -> str | None:
    """Why the problem is past what is solved in bounded time, or None."""
    players, characters = len(problem.players), len(problem.characters)
    if players * characters <= MAX_PAIRS:
        return None
    return (f"{players:,d} players x {characters:,d} characters is {players * characters:,d} pairs, more than the "
            f"{MAX_PAIRS:,d} cast here (150 x 150, or 500 players for 45 characters; about a quarter of a minute)")


def solve(problem: CastProblem, known: Solved | None = None) -> Solved | None:
    """The best casting keeping every rule, or None when none does. `known`:
    a casting known to keep the rules (of a problem with more rules), so
    none is looked for first, and the worst rank is sought below its own."""
    if not problem.players or not problem.characters:
        return Solved({}, objective_of(problem, {}))
    model = _Model(problem, problem.rules)
    np, C = model.np, model.C
    if problem.current:                     # level 0: the fewest moved (the most kept)
        kept = np.zeros(model.n)
        for p, c in problem.current.items():
            kept[p * C + c] = -1
        value = model.minimise(kept)
        if value is None:
            return None
        model.hold(kept, value)
    elif known is None and model.minimise(np.zeros(model.n)) is None:
        return None
    worst = _least_worst(model, known.objective[1] if known is not None and not problem.current else None)
    model.within(worst)
    # Levels 2 and 3 as one exact integer objective: a first choice outweighs
    # any sum of squared ranks a casting within `worst` can have.
    squares = model.ranks ** 2
    weight = problem.size * worst * worst + 1
    blended = np.where(model.ranks == 1, -weight, 0) + squares
    value = model.minimise(blended)
    assert value is not None            # the levels before found castings within `worst`
    model.hold(blended, value)
    ties = np.array([problem.tie(p, c) for p in range(model.P) for c in range(C)], dtype=np.int64)
    value = model.minimise(ties)
    assert value is not None
    cast = model.cast()
    return Solved(cast, objective_of(problem, cast))


def _least_worst(model: _Model, high: int | None = None) -> int:
    """The best worst rank: the least bound for which a casting still
    exists (found by halving; the levels before are held), at most `high`
    when a casting within it is known."""
    low, high = 1, high or model.problem.unranked
    zeros = model.np.zeros(model.n)
    while low < high:
        middle = (low + high) // 2
        model.within(middle)
        if model.minimise(zeros) is None:
            low = middle + 1
        else:
            high = middle
    return low


def feasible(problem: CastProblem, rules: Iterable[Rule]) -> bool:
    """Whether some casting keeps `rules` (a feasibility solve: no objective)."""
    if not problem.players or not problem.characters:
        return True
    model = _Model(problem, rules)
    return model.minimise(model.np.zeros(model.n)) is not None


def conflict(problem: CastProblem) -> list[Rule]:
    """A set of the hard rules that no casting keeps together, from which no
    rule can be dropped (a deletion filter: each rule is dropped in turn and
    kept out if the rest still conflict). Empty when the rules agree."""
    rules = list(problem.rules)
    if feasible(problem, rules):
        return []
    needed: list[Rule] = []
    while rules:
        rule, rest = rules[0], rules[1:]
        if feasible(problem, needed + rest):
            needed.append(rule)
        rules = rest
    return needed


def bound(problem: CastProblem, best: Solved, limit: int = WORK_LIMIT) -> list[tuple[Rule, bool]] | None:
    """The rules that bound: those without which the casting would differ
    (solved again without each; a rule only narrows the choice, so the
    casting without it is as good or better, down to the seed's tie-break),
    each with whether it would be better by the objective itself. None when
    rules x players x characters is over `limit`: a solve each, too long
    for a report (80 x 80 with 30 rules: 15 s)."""
    rules = [r for r in problem.rules if r.kind != "cast"]
    if len(rules) * len(problem.players) * len(problem.characters) > limit:
        return None
    binding = []
    for rule in rules:
        others = tuple(r for r in problem.rules if r is not rule)
        freer = solve(replace(problem, rules=others), known=best)
        if freer is not None and freer.objective < best.objective:
            binding.append((rule, freer.objective[:4] < best.objective[:4]))
    return binding


class Reach:
    """Whether some casting keeping the rules gives a player a character:
    one model, each pair asked by pinning its column to 1; every casting
    found on the way answers its own pairs too. At most `budget` solves (a
    count, so two runs say the same): past it a pair counts as reachable,
    and the report then only says where the character went."""

    def __init__(self, problem: CastProblem, known: Solved, budget: int = 60):
        self.problem, self.budget = problem, budget
        self.model: _Model | None = None
        self.yes: set[tuple[int, int]] = set(known.cast.items())
        self.no: set[tuple[int, int]] = set()

    def __call__(self, player: int, character: int) -> bool:
        pair = (player, character)
        if pair not in self.yes and pair not in self.no:
            if self.budget <= 0:
                return True
            self.budget -= 1
            if self.model is None:
                self.model = _Model(self.problem, self.problem.rules)
            model, col = self.model, player * self.model.C + character
            model.h.changeColBounds(col, 1.0, 1.0)
            found = model.minimise(model.np.zeros(model.n)) is not None
            model.h.changeColBounds(col, 0.0, 1.0)
            if found:
                self.yes.update(model.cast().items())
            else:
                self.no.add(pair)
        return pair in self.yes
