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
            click.echo(f"  Envelope {step.number or step.was} ({visible(step.label)}):")
            for line in lines:
                click.echo(f"    {visible(line)}")
        extras = [f"{sheets.cards} of card" if sheets.cards else "", f"{sheets.labels} of labels" if sheets.labels
                  else "", f"{sheets.badges} of badges" if sheets.badges else "",
                  f"and {sheets.handouts} handout(s) from your own files" if sheets.handouts else ""]
        click.echo(f"  To print: {sheets.paper} sheet(s) of paper" + "".join(f", {e}" for e in extras if e))
        if dry_run:
            click.echo("  (a dry run: nothing was written)")
        elif item.folder is not None:
            click.echo(f"  Reprint in {visible(item.folder)}: " + visible(", ".join(item.files)))
