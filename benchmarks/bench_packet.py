"""Benchmark: `sixes check` of a 60-character Sixes game with a packet of 10
groups, 200 relationships and 20 plots, against the same game without it.

usage: .venv/bin/python benchmarks/bench_packet.py [--repeat N]
Runs the check as the command does (the gather, then the fit check) in
this process, `repeat` times each way, alternating, and prints the median
wall times and the packet's share; then `sixes check` itself as a new
process (interpreter start and imports included), the figure a user waits. The bound the issue sets: the whole
check under 1 s. Machines are noisy: compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from generator.core.i18n import speaking
from generator.game.gather import gather
from generator.game.settings import load_settings
from generator.render.fit.bounded import fit_problems
from generator.render.options import PrintOptions
from generator.systems.sixes import SYSTEM as SIXES

CHARACTERS, GROUPS, RELATIONSHIPS, PLOTS = 60, 10, 200, 20


def make_game(folder: Path) -> Path:
    """The Sixes starter's rules with 60 characters, and a packet naming them."""
    import shutil
    shutil.copytree(SIXES.starter, folder / "sixes")
    characters = folder / "sixes" / "characters"
    template = yaml.safe_load(next(characters.glob("*.yaml")).read_text())
    for path in characters.glob("*.yaml"):
        path.unlink()
    ids = [f"guest-{k:02d}" for k in range(CHARACTERS)]
    for k, who in enumerate(ids):
        body = {**template, "name": f"Guest Number {k:02d}", "faction": "",
                "description": f"A guest of the house, number {k}, who came by the evening coach."}
        (characters / f"{who}.yaml").write_text(yaml.safe_dump(body, sort_keys=False))
    rng = random.Random(60)
    pairs: set[tuple[str, str]] = set()
    while len(pairs) < RELATIONSHIPS:
        a, b = sorted(rng.sample(ids, 2))
        pairs.add((a, b))
    packet = {"sixes": {
        "groups": [{"name": f"Circle {g}", "description": f"The circle of {g}.", "sheet": "What members know.",
                    "membership": "secret" if g % 3 == 0 else "open", "members": ids[g * 6:(g + 1) * 6]}
                   for g in range(GROUPS)],
        "relationships": [{"between": [a, b], "sides": {a: f"{a} on {b}.", b: f"{b} on {a}."},
                           "public": "They have met."} for a, b in sorted(pairs)],
        "plots": [{"name": f"Plot {p}", "summary": "For the GM.",
                   "members": {who: f"Your part in plot {p}." for who in ids[p * 3:p * 3 + 4]}}
                  for p in range(PLOTS)]}}
    (folder / "packet.yaml").write_text(yaml.safe_dump(packet, sort_keys=False))
    (folder / "sixes.yaml").write_text("paper: a4\n")
    return folder


def timed_check(folder: Path) -> float:
    start = time.perf_counter()
    settings = load_settings(folder)
    gathered = gather(folder, settings, settings.papers, site=False)
    with speaking(gathered.words):
        fit_problems(gathered.loaded, PrintOptions())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as root:
        game = make_game(Path(root) / "big")
        packet = (game / "packet.yaml").read_text()
        timed_check(game)                           # imports and first reads out of the way
        with_packet, without = [], []
        for _ in range(repeat):
            (game / "packet.yaml").write_text(packet)
            with_packet.append(timed_check(game))
            (game / "packet.yaml").unlink()
            without.append(timed_check(game))
        (game / "packet.yaml").write_text(packet)
        command = [sys.executable, "-m", "generator", "check", "--data", str(game)]
        cold = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            cold.append(time.perf_counter() - start)
    best, base = statistics.median(with_packet), statistics.median(without)
    print(f"`sixes check` as a new process: {statistics.median(cold):5.2f} s")
    print(f"check, {CHARACTERS} characters, {GROUPS} groups, {RELATIONSHIPS} relationships, {PLOTS} plots: "
          f"{best:5.2f} s   without the packet {base:5.2f} s   the packet's share {best - base:5.2f} s")


if __name__ == "__main__":
    main()
