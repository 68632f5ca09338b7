"""The progress of long work (a build's and a pack's renders, a long
simulation), as the commands show it.

Commands floor: click, and rich when stderr is a terminal. Every label
passes through `visible` (a document's title comes from the data).
"""
from __future__ import annotations

import sys
from typing import Any

import click

from ..core.errors import visible


class ProgressBar:
    """A progress bar on a terminal, plain lines otherwise (logs, CI). Used
    as a context manager; called with (label, done, total) as work is done."""

    def __enter__(self) -> ProgressBar:
        self._bar: Any = None
        self._task: Any = None
        if sys.stderr.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
            self._bar = Progress(TextColumn("{task.description:<50}", markup=False), BarColumn(), MofNCompleteColumn(),
                                 transient=True)
            self._bar.start()
        return self

    def __call__(self, label: str, done: int, total: int) -> None:
        label = visible(label)      # a document's title comes from the data
        if self._bar is None:
            click.echo(f"[{done:>3d}/{total:d}] {visible(label)}", err=True)
            return
        if self._task is None or self._bar.tasks[self._task].total != total:
            self._task = self._bar.add_task(label, total=total)
        self._bar.update(self._task, completed=done, description=label)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
