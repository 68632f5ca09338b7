"""What `build` and `pack` print when they have finished.

Commands floor: click only. `build_once` runs one build and prints its
report (`build`, `build --watch` and `serve` repeat it); `print_pack_report`
prints a pack's. Every value from outside goes through `visible`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.errors import visible
from ..core.layout import PDF_FOLDER
from ..core.paper import Paper
from .failures import print_problems
from .progress import ProgressBar

if TYPE_CHECKING:
    from .context import BuildConfig
    from .pack import PackReport


def build_once(config: BuildConfig) -> None:
    """Build once, with a progress bar, then say what was built and where."""
    from .build import build

    with ProgressBar() as progress:
        report = build(config, progress)
    print_problems(report.warnings)
    if report.kept:
        click.echo("Kept your own files in the output: " + visible(", ".join(report.kept)), err=True)
    click.echo(f"Built {len(report.pdfs)} PDFs in {visible(report.out_dir / PDF_FOLDER)}")
    if report.untouched:
        click.echo("Nothing changed since the last build: nothing was loaded or rendered.", err=True)
    else:
        click.echo(f"{len(report.rendered)} rendered, {report.reused:d} reused from earlier builds"
                   + ("" if report.site_built or not config.site else "; the site was unchanged"), err=True)
    tracker = report.out_dir / "gm" / "sixes" / "fight-tracker.html"
    if tracker.is_file():
        click.echo(f"GM's fight tracker (keep it private): {visible(tracker)}")
    if report.site_index:
        click.echo(f"Site: {visible(report.site_index)}")
    click.echo(f"Schemas for editors: {visible(report.out_dir / 'schemas')}")


def print_pack_report(report: PackReport, casting_given: bool, simplex: bool) -> None:
    """What was packed: the renders, the casting file found, the envelopes,
    the card run, the paper it takes, and the zips for the print shop."""
    print_problems(report.warnings)
    click.echo(f"{len(report.rendered)} documents rendered, {report.reused:d} reused from earlier builds", err=True)
    if report.casting_file is not None and not casting_given:
        click.echo(f"Casting: {visible(shown_path(report.casting_file))} (found in the game folder)", err=True)
    click.echo(f"Packed {len(report.envelopes)} envelopes ({visible(report.system.title)}, "
               + ("one-sided" if simplex else "two-sided") + f") in {visible(report.root)}")
    if report.card_run is not None:
        run = report.card_run
        click.echo(f"Card run: {run.cards:d} cards on {run.sheets:d} sheet{'s' if run.sheets != 1 else ''}, "
                   f"{run.cuts:d} cuts along the marks")
    for paper_name, sheets in report.sheets.items():
        click.echo(f"Paper: {sheets:d} sheets of {visible(Paper.parse(paper_name).label)} in all "
                   "(manifest.pdf lists them)")
    for archive in report.zips:
        click.echo(f"For the print shop: {visible(archive)}")


def shown_path(path: Path) -> str:
    """A path as a user standing in the current folder would type it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)
