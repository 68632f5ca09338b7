"""Benchmark: assembling the example's Sixes pack from parts already rendered
(a warm cache), with each rendered part parsed once per paper as shipped
(`SourcePdfs` in render/pack/assembly.py) and parsed again for every file it
goes into, in one run.

usage: .venv/bin/python benchmarks/bench_pack.py [--repeat N]
Every envelope holds the same summaries, and pypdf parses the whole object
stream holding a PDF's catalogue before it can count its pages. Prints the
median wall time of a whole pack both ways and their ratio. Machines are
noisy: compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4, LETTER
from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.cache.storage import CACHE_VARIABLE
from generator.render.pack.assembly import SourcePdfs


def parsed_every_time(self: SourcePdfs, path: Path) -> Any:
    """What a merge did before the parts were kept: read and parse again."""
    return SourcePdfs.read(path)


def timed_pack(out: Path) -> float:
    start = time.perf_counter()
    pack(PackRequest(DEFAULT_DATA_DIR, out, (A4, LETTER), system="sixes"))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE_VARIABLE] = str(Path(folder) / "cache")     # a cache of this run's own
        timed_pack(Path(folder) / "warm")          # renders the parts once, into the cache
        kept, again = [], []
        for k in range(repeat):                    # alternating, so both meet the same machine
            kept.append(timed_pack(Path(folder) / f"kept-{k}"))
            with mock.patch.object(SourcePdfs, "part", parsed_every_time):
                again.append(timed_pack(Path(folder) / f"again-{k}"))
    best, worst = statistics.median(kept), statistics.median(again)
    print(f"parsed once per paper {best:6.2f} s   parsed for every file {worst:6.2f} s   "
          f"ratio {worst / best:5.2f}")


if __name__ == "__main__":
    main()
