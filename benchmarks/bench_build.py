"""Benchmark: a full build of the example data (every PDF on both papers and
the site), with one rendering process and with two, in one run.

usage: .venv/bin/python benchmarks/bench_build.py [--repeat N]
Prints the median wall time of each configuration and their ratio. Machines
are noisy: compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paths import DEFAULT_DATA_DIR


def time_build(workers: int, site: bool) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        report = build(BuildConfig(DEFAULT_DATA_DIR, Path(out), site=site, workers=workers, cache=False))
        elapsed = time.perf_counter() - start
        assert report.pdfs
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    time_build(1, site=False)  # warm up imports and font caches
    results = {}
    for label, workers, site in [("PDFs, 1 process", 1, False), ("PDFs, 2 processes", 2, False),
                                 ("PDFs + site, 2 processes", 2, True)]:
        runs = [time_build(workers, site) for _ in range(args.repeat)]
        results[label] = statistics.median(runs)
        print(f"{label:<28} median {results[label]:6.2f} s over {args.repeat} runs")
    ratio = results["PDFs, 1 process"] / results["PDFs, 2 processes"]
    print(f"speed-up of 2 processes over 1: {ratio:.2f}x")


if __name__ == "__main__":
    main()
