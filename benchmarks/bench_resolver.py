"""Benchmark: the Sixes round resolver on 100,000 rounds of a 15-combatant fight.

usage: .venv/bin/python benchmarks/bench_resolver.py [--rounds N] [--repeat N]

The rounds come from real fights: fifteen generic fighters in three sides of
five (the public example) play seeded fights with the random and aggressive
policies, and every (state, declarations) pair is kept. The timed loop then
resolves those rounds, cycling through them until N rounds are done, exactly
as the simulator calls the resolver (declarations checked, no log). Declaring
is not timed. It prints rounds per second of CPU time for each repeat and
the median, plus the same with the GM log written, without the declaration
checks, and for opening rounds only (all fifteen fresh and acting: the
worst case). Target: at least
20,000 rounds/s on one core.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from generator.systems.sixes.balance import EXAMPLE_SIDES
from generator.systems.sixes.resolver import resolve_round
from generator.systems.sixes.simulate import POLICIES, roster


def recorded_rounds(count: int, seed: int = 1) -> tuple[list, list]:
    """(every round, opening rounds only) as (fighters, declarations) pairs."""
    rng = random.Random(seed)
    fighters, side = roster(EXAMPLE_SIDES, {})
    rounds, openings = [], []
    while len(rounds) < count:
        policy = POLICIES[rng.choice(("random", "aggressive"))]
        fight = fighters
        for n in range(20):
            declarations = [d for i, c in enumerate(fight) if c.can_act
                            for d in [policy(rng, fight, side, i)] if d]
            rounds.append((fight, declarations))
            if n == 0:
                openings.append((fight, declarations))
            fight = resolve_round(fight, declarations, log=False).combatants
            if len({side[i] for i, c in enumerate(fight) if c.can_act and not c.rattled}) <= 1:
                break
    return rounds, openings


def rate(rounds: list, total: int, log: bool, check: bool = True) -> float:
    n = len(rounds)
    start = time.process_time()
    for k in range(total):
        fight, declarations = rounds[k % n]
        resolve_round(fight, declarations, log=log, check=check)
    return total / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rounds, openings = recorded_rounds(5000)
    acting = statistics.mean(sum(1 for c in f if c.can_act) for f, _ in rounds)
    print(f"{len(rounds)} recorded rounds of 15 combatants ({acting:.1f} still able to act on average)")
    quiet = [rate(rounds, args.rounds, False) for _ in range(args.repeat)]
    print("no log:       " + ", ".join(f"{r:,.0f}" for r in quiet) + f" rounds/s; median {statistics.median(quiet):,.0f}")
    loud = [rate(rounds, args.rounds // 4, True) for _ in range(args.repeat)]
    print("with GM log:  " + ", ".join(f"{r:,.0f}" for r in loud) + f" rounds/s; median {statistics.median(loud):,.0f}")
    trusted = [rate(rounds, args.rounds // 4, False, check=False) for _ in range(args.repeat)]
    print("unchecked:    " + ", ".join(f"{r:,.0f}" for r in trusted)
          + f" rounds/s; median {statistics.median(trusted):,.0f} (declarations not checked)")
    first = [rate(openings, args.rounds // 4, False) for _ in range(args.repeat)]
    print("first rounds: " + ", ".join(f"{r:,.0f}" for r in first) + f" rounds/s; median {statistics.median(first):,.0f}"
          " (all 15 acting, no log)")


if __name__ == "__main__":
    main()
