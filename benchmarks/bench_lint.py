"""Benchmark: what the print lint costs per document, against rendering it,
on the synthetic 60-character Sixes game of bench_print.py (one process).

For every document: WeasyPrint layout (render), writing the PDF, and each
check run on the laid-out document (overflow, missing glyphs, overlapping
text, split table rows). Prints medians per document and the checks' share of the total.

usage: .venv/bin/python benchmarks/bench_lint.py [--size 60] [--paper a4]
Machines are noisy: compare figures from the same run only.
"""
from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from bench_print import synthetic_game
from generator.game.load import load_all
from generator.render.pdf.jobs import prepare_html
from generator.core.paths import TEMPLATES_DIR
from generator.render.pdf.lint import find_missing_glyphs, find_overlaps, find_split_rows
from generator.render.options import DEFAULT_OPTIONS
from generator.core.paper import PAPERS, Paper
from generator.render.pdf.weasy import find_overflows, make_fetcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=60)
    parser.add_argument("--paper", default="a4", choices=[p.name for p in PAPERS])
    args = parser.parse_args()
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    with tempfile.TemporaryDirectory() as tmp:
        data = synthetic_game(Path(tmp), args.size)
        loaded, _ = load_all(data)
        prepared = [prepare_html(doc, DEFAULT_OPTIONS) for item in loaded for doc in item.system.documents(item.game)]
        fonts, cache, fetcher = FontConfiguration(), {}, make_fetcher((TEMPLATES_DIR, data))
        page = weasyprint.CSS(string=f"@page {{ size: {Paper.parse(args.paper).css_size} }}", font_config=fonts)
        steps: dict[str, list[float]] = {"render": [], "write": [], "overflow": [], "glyphs": [], "overlap": [],
                                         "rows": []}
        pages = 0
        for p in prepared:
            start = time.perf_counter()
            document = weasyprint.HTML(string=p.html, base_url=TEMPLATES_DIR.as_uri() + "/", url_fetcher=fetcher).render(
                stylesheets=[page], font_config=fonts, cache=cache)
            steps["render"].append(time.perf_counter() - start)
            pages += len(document.pages)
            for name, step in (("write", lambda: document.write_pdf(io.BytesIO())), ("overflow", lambda: find_overflows(document)),
                               ("glyphs", lambda: find_missing_glyphs(document)), ("overlap", lambda: find_overlaps(document)),
                               ("rows", lambda: find_split_rows(document))):
                start = time.perf_counter()
                step()
                steps[name].append(time.perf_counter() - start)
    total = sum(sum(v) for v in steps.values())
    print(f"{len(prepared)} documents, {pages} pages; per document (median ms) and share of all time:")
    for name, times in steps.items():
        print(f"  {name:>8}: {statistics.median(times) * 1000:8.1f} ms   {sum(times) / total:6.1%}")
    overlap, rendering = sum(steps["overlap"]), sum(steps["render"]) + sum(steps["write"])
    print(f"overlap check / (layout + writing): {overlap / rendering:.1%}")


if __name__ == "__main__":
    main()
