"""Benchmark: the documents whose tables hold a name column beside long
rules, rendered as shipped (`table-layout: fixed`, base.css) and with those
tables switched back to an automatic layout, in one run.

usage: .venv/bin/python benchmarks/bench_tables.py [--repeat N]
An automatic table measures how narrow each cell could be, and a cell whose
words may break anywhere is laid out once per letter for it. Prints each
document's median render time both ways and their ratio. Machines are noisy:
compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR, TEMPLATES_DIR
from generator.game.load import load_all
from generator.render.pdf.jobs import prepare_html
from generator.render.options import DEFAULT_OPTIONS
from generator.render.pdf.weasy import PdfJob, render_pdf

# (system, document slug): the documents with such tables.
DOCUMENTS = [("sixes", "rules-reference"), ("sixes", "gm-cheat-sheet"), ("sixes", "balance-report"),
             ("i6", "combat-card")]
AUTO = "<style>.action-rules, .acts { table-layout: auto !important; }</style></head>"


def job(html: str, target: Path) -> PdfJob:
    return PdfJob(html, TEMPLATES_DIR.as_uri() + "/", target, A4, (TEMPLATES_DIR, DEFAULT_DATA_DIR), target.stem)


def median_render(html: str, target: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        render_pdf(job(html, target))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    loaded, _ = load_all(DEFAULT_DATA_DIR)
    games = {item.system.slug: item for item in loaded}
    total_fixed = total_auto = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for system, slug in DOCUMENTS:
            item = games[system]
            doc = next(d for d in item.system.documents(item.game) if d.slug == slug)
            html = prepare_html(doc, DEFAULT_OPTIONS).html          # the example game is in English
            assert "</head>" in html
            target = Path(folder) / f"{slug}.pdf"
            render_pdf(job(html, target))          # warm: fonts and stylesheets loaded once
            fixed = median_render(html, target, repeat)
            auto = median_render(html.replace("</head>", AUTO, 1), target, repeat)
            total_fixed, total_auto = total_fixed + fixed, total_auto + auto
            print(f"{system + '/' + slug:25} fixed {fixed:6.3f} s   auto {auto:6.3f} s   auto/fixed {auto / fixed:5.2f}")
    print(f"{'all four':25} fixed {total_fixed:6.3f} s   auto {total_auto:6.3f} s   auto/fixed "
          f"{total_auto / total_fixed:5.2f}")


if __name__ == "__main__":
    main()
