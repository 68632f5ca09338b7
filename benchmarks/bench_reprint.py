"""Benchmark: what `sixes pack --since` costs beside the pack itself, on a
60-envelope Sixes game of our own making (tests/big_game.py's characters,
60 of them): the full pack (a cache of its own, cold), then one word changed
in one background and the reprint worked out (`--dry-run`: gather, plan, the
new record from each part's HTML, the comparison) and written (the one
changed sheet rendered, the reprint sheet, the record).

usage: .venv/bin/python benchmarks/bench_reprint.py [--envelopes N] [--repeat N]
Prints each wall time and the pack's time over the reprint's. Machines are
noisy: compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from big_game import FACTIONS, SPECIALS, background, write_game  # noqa: E402

from generator.commands.pack import PackRequest, pack  # noqa: E402
from generator.commands.pack_since import reprint  # noqa: E402
from generator.core.paper import A4  # noqa: E402
from generator.render.cache.storage import CACHE_VARIABLE  # noqa: E402


def big_game(folder: Path, envelopes: int) -> Path:
    """tests/big_game.py's game, with `envelopes` characters and players."""
    game = write_game(folder, handout=False)
    characters = game / "sixes" / "characters"
    for path in characters.glob("*.yaml"):
        path.unlink()
    lines = ["system: sixes", "envelopes:"]
    for k in range(envelopes):
        name = f"Performer {k + 1:02d}"
        text = background(name, k).replace("\n", "\n  ")
        (characters / f"performer-{k + 1:02d}.yaml").write_text(
            f"name: {name}\nfaction: {FACTIONS[k % len(FACTIONS)]}\ndescription: A performer with debts.\n"
            f"background: |\n  {text}\nhit_points: {4 + k % 3}\narmour: {k % 2}\ndamage: {k % 2}\n"
            f"specials: [{SPECIALS[k % 2]}]\n", encoding="utf-8")
        lines += [f"  - player: Player {k + 1:02d}", f"    character: {name}"]
    (game / "casting.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    game_file = game / "sixes" / "game.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("players: 24", f"players: {envelopes}"),
                         encoding="utf-8")
    return game


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envelopes", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE_VARIABLE] = str(Path(folder) / "cache")     # a cache of this run's own, cold
        game, out = big_game(Path(folder) / "game", args.envelopes), Path(folder) / "out"
        request = PackRequest(game, out, (A4,), system="sixes", labels=True)
        packed = timed(lambda: pack(request))
        sheet = game / "sixes" / "characters" / "performer-07.yaml"
        sheet.write_text(sheet.read_text(encoding="utf-8").replace("Goals:", "Aims:"), encoding="utf-8")
        found = reprint(request, None, dry_run=True).papers[0].reprint
        assert [(s.number, c.kind) for s, c in found.printed()] == [(7, "sheet")], found
        said = statistics.median(timed(lambda: reprint(request, None, dry_run=True)) for _ in range(args.repeat))
        written = timed(lambda: reprint(request, None))
        again = reprint(request, None, dry_run=True).papers[0].reprint      # since the reprint just written
        assert again.nothing, "the reprint's record should hold the change"
    print(f"{args.envelopes} envelopes: pack {packed:6.2f} s   reprint worked out (--dry-run) {said:5.2f} s "
          f"(ratio {packed / said:5.1f})   reprint written {written:5.2f} s (ratio {packed / written:5.1f})")


if __name__ == "__main__":
    main()
