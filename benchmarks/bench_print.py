"""Benchmark: print production for a large synthetic Sixes game (60 and 300
characters made from the example cast), in one run per size:

- cold build: every PDF rendered (empty cache), the default worker count;
- WeasyPrint only: the same final HTML documents rendered one after another
  in this process, nothing else (the floor our pipeline adds to);
- parallel speed-up: WeasyPrint-only time / cold build time;
- no-change rebuild, in this process and as the `sixes build` command in a
  new process: both answered by the last build's record (inputs hashed,
  output files looked at) without loading the data;
- the same with that record removed ("checked"): the data loaded, every
  document's HTML made and looked up in the render cache, nothing rendered;
- a rebuild after editing one character's armour, and how many files
  WeasyPrint made for it (the character's sheet, and the parts of the GM
  documents that list it: a fighting figure changes the balance report);
- its floor beside it (one_character_floor.py, measured after the builds
  in the same run): WeasyPrint alone rendering the pieces the edit changed
  and the edited cast's brawls, over the cores; "one/floor" is the ratio
  to watch;
- a rebuild after rewording another character's description (no fight
  reads it, so the balance report stays as it is);
- once per run, a 24-character game of two systems (Sixes and the example
  Six Shooter game) on both papers with the site: the rebuild after one
  description is reworded, beside `sixes check` of the same game in a new
  process (what any rebuild reads and checks first);
- peak memory (max resident set) of this process and of the largest worker.

usage: .venv/bin/python benchmarks/bench_print.py [--sizes 60,300] [--repeat N] [--paper a4] [--site] [--no-site-game]
Times are medians over --repeat runs. Machines are noisy (and shared ones
more so): compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paper import PAPERS, Paper

from generator.game.load import load_all
from generator.game.settings import load_settings

from generator.render.pdf.jobs import prepare_html
from generator.core.paths import DEFAULT_DATA_DIR, TEMPLATES_DIR
from generator.render.cache import BUILD_RECORD, cache_root
from generator.render.options import DEFAULT_OPTIONS


# Sixes documents besides the character sheets: hand-signal cards, rules
# reference, GM cheat sheet, balance report.
SHARED_DOCUMENTS = 4


def synthetic_game(target: Path, size: int) -> Path:
    """The example game with `size` characters: the example cast repeated,
    each copy with a numbered name and file."""
    data = target / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", data / "sixes", ignore=shutil.ignore_patterns("characters"))
    (data / "sixes" / "characters").mkdir()
    originals = sorted((DEFAULT_DATA_DIR / "sixes" / "characters").glob("*.yaml"))
    for i in range(size):
        source = originals[i % len(originals)]
        text = re.sub(r"^name: (.+)$", lambda m: f"name: {m.group(1)} {i + 1}", source.read_text(), flags=re.M)
        (data / "sixes" / "characters" / f"{source.stem}-{i + 1}.yaml").write_text(text)
    return data


def edit_one_character(data: Path) -> None:
    """The edit the one-character figures time: the first copy's armour becomes 2."""
    edited = next((data / "sixes" / "characters").glob("*-1.yaml"))
    text = edited.read_text()
    edited.write_text(re.sub(r"^armour: \d+", "armour: 2", text, flags=re.M) if "armour:" in text
                      else text + "armour: 2\n")


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def weasyprint_only(data: Path, paper: str) -> float:
    """Render the build's final HTML documents sequentially with plain WeasyPrint."""
    import weasyprint
    from generator.render.pdf.weasy import make_fetcher
    loaded, _ = load_all(data)
    prepared = [prepare_html(doc, DEFAULT_OPTIONS) for item in loaded for doc in item.system.documents(item.game)]
    fonts = weasyprint.text.fonts.FontConfiguration()
    page = weasyprint.CSS(string=f"@page {{ size: {Paper.parse(paper).css_size} }}", font_config=fonts)
    fetcher, cache = make_fetcher((TEMPLATES_DIR, data)), {}
    total = 0.0
    for p in prepared:
        start = time.perf_counter()
        weasyprint.HTML(string=p.html, base_url=TEMPLATES_DIR.as_uri() + "/", url_fetcher=fetcher).write_pdf(
            stylesheets=[page], font_config=fonts, cache=cache)
        total += time.perf_counter() - start
    return total


def run_size(size: int, repeat: int, paper: str, site: bool) -> dict[str, float]:
    sys.path.insert(0, str(Path(__file__).parent))
    from one_character_floor import edit_floor, pieces     # it imports this module's game
    figures: dict[str, list[float]] = {k: [] for k in ("cold", "weasyprint", "nochange", "checked", "command", "one", "pieces",
                                                        "floor", "reworded", "reworded_pieces")}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            os.environ["SIXES_CACHE_DIR"] = str(tmp / "cache")
            data = synthetic_game(tmp, size)
            out = tmp / "out"

            def go():
                return build(BuildConfig(data, out, (Paper.parse(paper),), site=site, cache=True))

            elapsed, report = timed(go)
            assert len(report.rendered) == size + SHARED_DOCUMENTS, len(report.rendered)
            figures["cold"].append(elapsed)
            elapsed, report = timed(go)
            assert report.rendered == []
            figures["nochange"].append(elapsed)
            (cache_root(out) / BUILD_RECORD).unlink()
            elapsed, report = timed(go)
            assert report.rendered == [] and not report.untouched
            figures["checked"].append(elapsed)
            command = [sys.executable, "-m", "generator", "build", "--data", str(data), "--out", str(out),
                       "--paper", paper] + ([] if site else ["--no-site"])
            elapsed, _ = timed(lambda: subprocess.run(command, check=True, capture_output=True))
            figures["command"].append(elapsed)
            before = pieces(data, tmp / "floor-before")
            edit_one_character(data)
            elapsed, report = timed(go)
            assert 1 <= len(report.rendered) <= 3, report.rendered
            figures["one"].append(elapsed)
            figures["pieces"].append(len(report.pieces))
            reworded = next((data / "sixes" / "characters").glob("*-2.yaml"))
            reworded.write_text(re.sub(r"^description: ", "description: Newly reworded. ", reworded.read_text(),
                                       flags=re.M))
            elapsed, report = timed(go)
            assert 1 <= len(report.rendered) <= 2, report.rendered
            figures["reworded"].append(elapsed)
            figures["reworded_pieces"].append(len(report.pieces))
            figures["floor"].append(edit_floor(before, data, len(os.sched_getaffinity(0)))["floor"])
            figures["weasyprint"].append(weasyprint_only(data, paper))
    return {k: statistics.median(v) for k, v in figures.items()}


def two_system_game(target: Path, size: int) -> Path:
    """The synthetic Sixes game of `size` characters beside the example's Six
    Shooter game, its site listing the cast (each public description)."""
    data = synthetic_game(target, size)
    shutil.copytree(DEFAULT_DATA_DIR / "six-shooter", data / "six-shooter")
    (data / "sixes.yaml").write_text("site:\n  name: Two games\n  cast_list: true\n")    # descriptions on the site
    for character in (data / "sixes" / "characters").glob("*.yaml"):
        text = re.sub(r"(?m)^visibility: .*\n", "", character.read_text())
        character.write_text(text + "visibility: public\n")
    return data


def site_game(size: int = 24) -> dict[str, float]:
    """Seconds to rebuild a two-system game, both papers and the site, after
    one description is reworded (the character's sheets and the site's pages
    that show it), and of `sixes check` of it as a command."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ["SIXES_CACHE_DIR"] = str(tmp / "cache")
        data, out = two_system_game(tmp, size), tmp / "out"
        config = BuildConfig(data, out, PAPERS, site=True, cache=True, settings=load_settings(data))
        build(config)
        reworded = next((data / "sixes" / "characters").glob("*-2.yaml"))
        reworded.write_text(re.sub(r"^description: ", "description: Newly reworded. ", reworded.read_text(),
                                   flags=re.M))
        elapsed, report = timed(lambda: build(config))
        assert report.site_built and len(report.rendered) <= 2, report.rendered
        check = [sys.executable, "-m", "generator", "check", "--data", str(data)]
        checked, _ = timed(lambda: subprocess.run(check, check=True, capture_output=True))
    return {"rebuild": elapsed, "check": checked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="60,300")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paper", default="a4", choices=[p.name for p in PAPERS])
    parser.add_argument("--site", action="store_true", help="Build the site too.")
    parser.add_argument("--no-site-game", action="store_true", help="Leave out the two-system game with its site.")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores; paper {args.paper}; site {'on' if args.site else 'off'}; medians of {args.repeat}")
    header = (f"{'characters':>10} {'PDFs':>5} {'cold s':>8} {'WP-only s':>10} {'cold/WP':>8} {'speed-up':>9} "
              f"{'no-change s':>12} {'checked s':>10} {'command s':>10} {'one-char s':>11} {'floor s':>8} "
              f"{'one/floor':>10} {'one/cold':>9} {'files':>6} {'reworded s':>11} {'rew/cold':>9} {'files':>6}")
    print(header)
    for size in (int(s) for s in args.sizes.split(",")):
        f = run_size(size, args.repeat, args.paper, args.site)
        print(f"{size:>10} {size + SHARED_DOCUMENTS:>5} {f['cold']:>8.2f} {f['weasyprint']:>10.2f} {f['cold'] / f['weasyprint']:>8.2f} "
              f"{f['weasyprint'] / f['cold']:>8.2f}x {f['nochange']:>12.2f} {f['checked']:>10.2f} {f['command']:>10.2f} {f['one']:>11.2f} "
              f"{f['floor']:>8.2f} {f['one'] / f['floor']:>10.2f} "
              f"{f['one'] / f['cold']:>8.1%} {f['pieces']:>6.0f} {f['reworded']:>11.2f} "
              f"{f['reworded'] / f['cold']:>8.1%} {f['reworded_pieces']:>6.0f}", flush=True)
    if not args.no_site_game:
        g = site_game()
        print(f"24 characters, two systems, both papers and the site: one description reworded {g['rebuild']:.2f} s; "
              f"`sixes check` {g['check']:.2f} s; rebuild/check {g['rebuild'] / g['check']:.2f}", flush=True)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: this process {own:.0f} MiB, largest worker {child:.0f} MiB "
          f"(at most {own + child * min(cores, 4):.0f} MiB together)")


if __name__ == "__main__":
    main()
