"""What `sixes pack --since` prints: the reprint, envelope by envelope.

Commands floor: click only. The same lines the reprint sheet prints
(game/reprint.step_lines), then the paper and card it takes and where the
files are; every value from the data goes through `visible`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..core.errors import visible
from .failures import print_problems

if TYPE_CHECKING:
    from .pack_since import ReprintReport


def print_reprint_report(report: ReprintReport, dry_run: bool) -> None:
    from ..game.reprint import step_lines
    print_problems(report.warnings)
    for item in report.papers:
        reprint, sheets = item.reprint, item.sheets
        click.echo(f"Since {visible(reprint.since)} ({visible(item.paper.label)}):")
        if reprint.options:
            click.echo("  The print options differ (" + visible(", ".join(reprint.options))
                       + "): every page may look different; consider packing in full.")
        if reprint.nothing:
            click.echo("  Nothing to reprint.")
            continue
        for step in reprint.steps:
            lines = step_lines(step)
            if not (step.changes or step.number is None or step.was is None):
                continue
            click.echo(f"  Envelope {step.number or step.was:d} ({visible(step.label)}):")
            for line in lines:
                click.echo(f"    {visible(line)}")
        click.echo(f"  To print: {sheets.paper:d} sheet(s) of paper", nl=False)
        for count, what in ((sheets.cards, "of card"), (sheets.labels, "of labels"), (sheets.badges, "of badges"),
                            (sheets.handouts, "handout(s) from your own files, as they are")):
            if count:
                click.echo(f", {count:d} {visible(what)}", nl=False)
        click.echo("")
        if dry_run:
            click.echo("  (a dry run: nothing was written)")
        elif item.folder is not None:
            click.echo(f"  Reprint in {visible(item.folder)}: " + visible(", ".join(item.files)))
