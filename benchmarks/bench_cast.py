"""Casting benchmark: 80 players x 80 characters, each player ranking 5, with
30 hard rules (pre-casts, refusals, apart pairs, quotas), solved exactly by
game/cast_solve.py; and the same problem without the side rules, for the
ratio. Target: under 2 s.

    PYTHONPATH=. python benchmarks/bench_cast.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.game.cast_model import (CastProblem, apart_rule, precast_rule, quota_rule,  # noqa: E402
                                       refuse_rule, structural_rules)
from generator.game.cast_solve import solve  # noqa: E402

SIZE, RANKS, RULES, BUDGET_S = 80, 5, 30, 2.0


def problem(seed: int = 1, side_rules: bool = True) -> CastProblem:
    """Popular characters (a skewed draw) so that choices clash, as they do at a real event."""
    rng = random.Random(seed)
    players = tuple(f"Player {i}" for i in range(SIZE))
    characters = tuple(f"Character {i}" for i in range(SIZE))
    weights = [1.0 / (1 + c) ** 0.7 for c in range(SIZE)]
    choices = []
    for _ in range(SIZE):
        picked: list[int] = []
        while len(picked) < RANKS:
            c = rng.choices(range(SIZE), weights)[0]
            if c not in picked:
                picked.append(c)
        choices.append(tuple(picked))
    rules = structural_rules(players, characters)
    if side_rules:
        for i in range(5):                                  # 5 pre-casts
            rules.append(precast_rule(players, characters, 70 + i, 70 + i))
        for i in range(10):                                 # 10 refusals of two characters each
            rules.append(refuse_rule(players, characters, i, rng.sample(range(SIZE), 2)))
        for i in range(10):                                 # 10 apart pairs over 20 facing pairs
            opposite = [tuple(rng.sample(range(SIZE), 2)) for _ in range(20)]
            rules.append(apart_rule(players, characters, 2 * i, 2 * i + 1, opposite))
        for i in range(5):                                  # 5 quotas: at most 2 of a group to who asked
            group = range(10 * i, 10 * i + 10)
            asked = [(p, c) for p in range(SIZE) for c in group if c in choices[p]]
            rules.append(quota_rule(f"quota {i}", asked, [], None, 2))
    return CastProblem(players, characters, tuple(choices), tuple(rules), seed=seed)


def timed(p: CastProblem) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one solve: the CPU time is the measure
    on a shared machine, where the wall clock counts other people's work."""
    cpu, wall = time.process_time(), time.perf_counter()
    assert solve(p) is not None
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> int:
    timed(problem(side_rules=False))                        # the first HiGHS of a process loads the library
    (plain, plain_wall), (ruled, ruled_wall) = timed(problem(side_rules=False)), timed(problem())
    print(f"{SIZE}x{SIZE}, ranks of {RANKS}: without side rules {plain:.2f} s CPU ({plain_wall:.2f} s wall); "
          f"with {RULES} hard rules {ruled:.2f} s CPU ({ruled_wall:.2f} s wall), {ruled / plain:.1f}x; "
          f"budget {BUDGET_S:.1f} s")
    return 0 if ruled < BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
