"""Benchmark: the least a one-character rebuild can cost, whatever the
pipeline, on the synthetic game of bench_print.py.

The issue's rule is that editing one character renders again only that
character's documents and what lists them. This script finds those pieces
independently of the build: it makes every document's final HTML before and
after the edit (the armour edit bench_print.py makes), splits long GM
documents into their parts, and keeps the pieces whose HTML changed. Then it
times, in one warm process:

- WeasyPrint alone rendering those pieces one after another (median of 3);
- the faction brawls of the edited cast (CPU, nothing remembered), which
  depend on the whole cast;
- WeasyPrint alone rendering every document of the cold build.

The floor is (pieces + brawls) / cores: perfect parallelism, no loading, no
joining. Printed against the WeasyPrint-alone cold time over cores, the floor
of a cold build.

usage: .venv/bin/python benchmarks/one_character_floor.py [--sizes 60,300]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_print import edit_one_character, synthetic_game  # noqa: E402

from generator.core import memo  # noqa: E402
from generator.game.load import load_all  # noqa: E402
from generator.render.pdf.jobs import prepare_html  # noqa: E402
from generator.core.paths import TEMPLATES_DIR  # noqa: E402
from generator.render.options import DEFAULT_OPTIONS  # noqa: E402
from generator.render.pdf.parts import part_jobs, splittable  # noqa: E402
from generator.render.pdf.weasy import render_pdf  # noqa: E402
from generator.systems.sixes.balance import brawl_works  # noqa: E402
from generator.core.paper import A4


def pieces(data: Path, out: Path) -> dict[str, object]:
    """Every file a build would render, by label: whole documents, or the
    parts of a long one."""
    loaded, _ = load_all(data)
    found = {}
    for item in loaded:
        for doc in item.system.documents(item.game):
            job = prepare_html(doc, DEFAULT_OPTIONS).job(out / f"{doc.slug}.pdf", A4, (TEMPLATES_DIR, data),
                                                         doc.slug)
            for piece in part_jobs(job) if splittable(job) else [job]:
                found[piece.label] = piece
    return found


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def edit_floor(before: dict[str, object], data: Path, cores: int) -> dict[str, object]:
    """The floor of the edit made to `data` since `before` (its pieces):
    CPU seconds of WeasyPrint alone rendering the pieces whose HTML changed
    (median of 3, warm), of the edited cast's brawls (nothing remembered),
    and (pieces + brawls) / cores. Forgets the memo table: call it after
    the builds it is set against."""
    after = pieces(data, data.parent / "floor")
    changed = [job for label, job in after.items() if label not in before or before[label].html != job.html]
    for job in changed:                       # warm: WeasyPrint imported, fonts loaded
        render_pdf(job)
    renders = statistics.median(sum(cpu(lambda j=job: render_pdf(j)) for job in changed) for _ in range(3))
    game = next(item.game for item in load_all(data)[0] if item.system.slug == "sixes")
    memo.clear()
    brawls = cpu(lambda: [work.run() for work in brawl_works([m.character for m in game.cast], game.library)])
    return {"renders": renders, "brawls": brawls, "floor": (renders + brawls) / cores, "after": after,
            "changed": [job.label for job in changed]}


def run_size(size: int, cores: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = synthetic_game(tmp, size)
        before = pieces(data, tmp / "before")
        edit_one_character(data)
        found = edit_floor(before, data, cores)
        cold = sum(cpu(lambda j=job: render_pdf(j)) for job in found["after"].values())
        floor = found["floor"]
        print(f"{size:>10} {len(found['changed']):>7} {found['renders']:>10.2f} {found['brawls']:>9.2f} "
              f"{floor:>9.2f} {cold:>10.2f} {cold / cores:>12.2f} {floor / (cold / cores):>8.1%}", flush=True)
        print(" " * 11 + "pieces: " + ", ".join(found["changed"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="60,300")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores; CPU seconds; A4")
    print(f"{'characters':>10} {'pieces':>7} {'render s':>10} {'brawls s':>9} {'floor s':>9} {'all docs s':>10} "
          f"{'cold floor s':>12} {'ratio':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        run_size(size, cores)


if __name__ == "__main__":
    main()
