"""Benchmark: the Sixes faction brawls of the GM balance report on large casts.

usage: .venv/bin/python benchmarks/bench_simulate.py [--sizes 60,300] [--fights 40] [--repeat 3]

For each size, a synthetic game (the example cast repeated with numbered
names, as bench_print.py makes it) is split by faction, and each policy's
brawl is simulated as the balance report does: `fights` fights, seed 1.
Prints the median CPU seconds per brawl over --repeat runs and a digest of
every figure of the summary, so runs of two versions of the simulator can be
compared for speed and for identical results. Compare figures from the same
run only: the machine is shared.
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from pathlib import Path

from bench_print import synthetic_game
from generator.game.load import load_all
from generator.systems.sixes.simulate import POLICIES, STATUS_WORDS, sides_by_faction, simulate


def digest(s) -> str:
    figures = (s.policy, s.sides, s.names, s.rounds, s.wins, s.no_winner,
               tuple((n, tuple(s.statuses[n][w] for w in STATUS_WORDS)) for n in s.names))
    return hashlib.sha256(repr(figures).encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="60,300")
    parser.add_argument("--fights", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--policies", default=",".join(POLICIES))
    args = parser.parse_args()
    print(f"{'characters':>10} {'policy':>10} {'median s':>9}  runs (CPU s)          digest")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            game = load_all(synthetic_game(Path(tmp), size))[0][0].game
        sides = sides_by_faction([m.character for m in game.cast])
        medians = []
        for policy in args.policies.split(","):
            times, digests = [], set()
            for _ in range(args.repeat):
                start = time.process_time()
                summary = simulate(sides, game.library, policy, fights=args.fights, seed=1)
                times.append(time.process_time() - start)
                digests.add(digest(summary))
            assert len(digests) == 1, "a seeded brawl gave different results"
            medians.append(statistics.median(times))
            print(f"{size:>10} {policy:>10} {statistics.median(times):>9.3f}  "
                  f"{', '.join(f'{t:.3f}' for t in times):<21} {digests.pop()}", flush=True)
        print(f"{size:>10} {'all':>10} {sum(medians):>9.3f}  (sum of the medians)", flush=True)


if __name__ == "__main__":
    main()
