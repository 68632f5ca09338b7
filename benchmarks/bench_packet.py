"""Benchmark: `sixes check` of a 60-character Sixes game with a packet of 10
groups, 200 relationships and 20 plots, against the same game without it;
and its pack with 150 items, 10 abilities, a purse each, 20 sealed inserts
and badges, against the same pack without those things.

usage: .venv/bin/python benchmarks/bench_packet.py [--repeat N] [--pack]
Runs the check as the command does (the gather, then the fit check) in
this process, `repeat` times each way, alternating, and prints the median
wall times and the packet's share; then `sixes check` itself as a new
process (interpreter start and imports included), the figure a user waits. The bound the issue sets: the whole
check under 1 s. Then, for the things (items and the rest): the check and the pack plan (no rendering) with and
without them, and the rendering of the packet's own card documents alone (the cards' own cost); with `--pack`,
the same 60-envelope game's whole A4 pack (a new process, no cache, one worker) once each way, in CPU seconds,
whose difference should be about the rendering of what the things add (their cards, inserts, index and badges).
Machines are noisy: compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import random
import resource
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
ITEMS, ABILITIES, SEALED = 150, 10, 20


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


def things(ids: list[str]) -> dict:
    """150 items (every tenth in a place), 10 abilities, a purse each, 20 sealed inserts and badges."""
    items = [{"number": n + 1, "name": f"Thing {n + 1}", "text": f"A thing of the house, number {n + 1}, worn "
              "and a little battered.", "gm_notes": "Where it matters.",
              **({"place": "the hall"} if n % 10 == 9 else {"holder": ids[n % len(ids)]})} for n in range(ITEMS)]
    return {
        "items": items,
        "abilities": [{"name": f"Knack {k}", "text": "Once tonight, do the thing.", "say": "Say: you must.",
                       "holders": ids[k * 5:k * 5 + 3]} for k in range(ABILITIES)],
        "money": {"currency": "crowns", "notes": [1, 5, 20], "purses": {who: 7 + k % 40 for k, who in
                                                                          enumerate(ids)}},
        "sealed": [{"holder": ids[k * 3], "trigger": f"Open when bell {k} rings.", "text": "The secret inside."}
                   for k in range(SEALED)],
        "badges": {"player": False}}


def timed_check(folder: Path) -> float:
    start = time.perf_counter()
    settings = load_settings(folder)
    gathered = gather(folder, settings, settings.papers, site=False)
    with speaking(gathered.words):
        fit_problems(gathered.loaded, PrintOptions())
    return time.perf_counter() - start


def timed_plan(folder: Path) -> tuple[float, object]:
    """The gather and the pack plan, no rendering: what the things add before anything prints."""
    from generator.core.paper import A4
    from generator.game.pack_plan import PackChoices, plan_pack
    from generator.render.fit.boxes import badges_per_sheet
    from generator.render.fit.packet_fit import packet_fit_problems
    from generator.render.pdf.cards import grid_for
    start = time.perf_counter()
    settings = load_settings(folder)
    gathered = gather(folder, settings, (A4,), site=False, pack=True, system="sixes")
    with speaking(gathered.words):
        fit_problems(gathered.loaded, PrintOptions())
        packet_fit_problems(gathered.packets.values(), PrintOptions())
        plan = plan_pack(gathered, PackChoices((A4,)), grid_for("poker", 0.0), None,
                         badges_per_sheet)
    return time.perf_counter() - start, plan


def timed_own(plan: object, without: object) -> tuple[float, float, int]:
    """What the things add, rendered alone to PDF in this process (CPU seconds): the packet's own card
    documents (items, abilities, notes), and every document of the pack they bring (sealed inserts, the
    GM's index, badges). Returns (cards, all they add, pages)."""
    from generator.core.paper import A4
    from generator.core.paths import TEMPLATES_DIR
    from generator.render.pdf.jobs import prepare_html
    from generator.render.pdf.weasy import render_pdf
    before = {doc.slug for doc, _papers in without.planned}     # type: ignore[attr-defined]
    added = [doc for doc, _papers in plan.planned if doc.slug not in before]     # type: ignore[attr-defined]
    cards = [d for d in added if d.context.get("card_css") == "packet/cards.css"]
    spent = {"cards": 0.0, "all": 0.0}
    pages = 0
    with tempfile.TemporaryDirectory() as out:
        for doc in added:
            start = time.process_time()
            job = prepare_html(doc, PrintOptions()).job(Path(out) / f"{doc.slug}.pdf", A4, (TEMPLATES_DIR,), doc.slug)
            pages += render_pdf(job).pages
            took = time.process_time() - start
            spent["all"] += took
            spent["cards"] += took if doc in cards else 0.0
    return spent["cards"], spent["all"], pages


def packed_cpu(folder: Path, out: Path) -> tuple[float, float]:
    """`sixes pack` of the game's A4 pack as a new process (no cache, one worker): wall seconds and CPU
    seconds of the process and its workers (they are waited for, so the children's rusage holds them)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "pack", "--data", str(folder), "--out", str(out),
                    "--system", "sixes", "--paper", "a4", "--no-cache", "--jobs", "1"], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_whole_pack(game: Path, plain: str, full: str, own: float) -> None:
    """The 60-envelope game's whole A4 pack with its things and without: the difference should be about the
    rendering of what the things add (`own`: their cards, inserts, index and badges rendered alone)."""
    packs = {}
    with tempfile.TemporaryDirectory() as root:
        for way, text in (("without", plain), ("with", full)):
            (game / "packet.yaml").write_text(text)
            packs[way] = packed_cpu(game, Path(root) / f"out-{way}")
    (wall, cpu), (wall0, cpu0) = packs["with"], packs["without"]
    print(f"the whole A4 pack, {CHARACTERS} envelopes, no cache, one worker: with the things {wall:6.1f} s "
          f"({cpu:6.1f} s CPU), without {wall0:6.1f} s ({cpu0:6.1f} s CPU); the things add {cpu - cpu0:5.1f} s CPU, "
          f"their own papers alone {own:5.1f} s; (with - without) / own {(cpu - cpu0) / own:4.2f}")


def bench_things(game: Path, repeat: int, whole: bool) -> None:
    """The pack's cost of 150 items and the rest, against the same game without them."""
    base = yaml.safe_load((game / "packet.yaml").read_text())
    ids = [p.stem for p in sorted((game / "sixes" / "characters").glob("*.yaml"))]
    plain = yaml.safe_dump(base, sort_keys=False)
    full = yaml.safe_dump({"sixes": {**base["sixes"], **things(ids)}}, sort_keys=False)
    times: dict[str, list[float]] = {"with": [], "without": []}
    plans: dict[str, object] = {}
    for _ in range(repeat):
        for way, text in (("with", full), ("without", plain)):
            (game / "packet.yaml").write_text(text)
            took, plans[way] = timed_plan(game)
            times[way].append(took)
    rendered, everything, pages = timed_own(plans["with"], plans["without"])
    with_things, without = statistics.median(times["with"]), statistics.median(times["without"])
    print(f"check and pack plan, {CHARACTERS} envelopes, {ITEMS} items, {ABILITIES} abilities, {SEALED} sealed: "
          f"{with_things:5.2f} s   without them {without:5.2f} s   their share {with_things - without:5.2f} s")
    print(f"the packet's own cards rendered alone: {rendered:5.2f} s CPU; with the inserts, index and badges "
          f"{everything:5.2f} s CPU ({pages} pages)")
    if whole:
        bench_whole_pack(game, plain, full, everything)
    (game / "packet.yaml").write_text(plain)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pack", action="store_true", help="also time the whole pack each way (minutes)")
    args = parser.parse_args()
    repeat = args.repeat
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
        bench_things(game, repeat, args.pack)


if __name__ == "__main__":
    main()
