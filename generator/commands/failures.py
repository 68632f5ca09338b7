"""How a command fails: short lines and an exit status, never a traceback.

Commands floor. The floors below raise their own kinds of one exception,
core.errors.UserError (DataError, BuildError, OutputError, ...), and know
nothing of click; `failure` turns that one type (and Ctrl-C, and what the
operating system refuses) into the click exceptions here, and every
command runs inside `converted` (the `Command` class), so no command body
catches them itself. Click prints them (`show`) and exits with their status:
1 for the user's or the machine's failures, 130 when interrupted.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import IO, Any, Iterable, Iterator

import click

from ..core.errors import DataError, Problem, UserError, visible


@dataclass(frozen=True)
class Stakes:
    """What a writing command says when it fails: the verb to try again
    with, and what its failure left as it was."""

    again: str
    unchanged: str


BUILD = Stakes("build", "the previous output is unchanged.")
PACK = Stakes("pack", "the previous pack is unchanged.")
SCHEMAS = Stakes("write the schemas", "no schema was changed.")
CAST = Stakes("cast", "the casting file and the report are unchanged.")


def print_problems(problems: Iterable[Problem], color: bool | None = None) -> None:
    """Each problem on a line (errors red, warnings yellow), then the count."""
    problems = list(problems)
    for problem in problems:
        click.secho(visible(problem), fg="red" if problem.severity == "error" else "yellow", err=True, color=color)
    errors = sum(p.severity == "error" for p in problems)
    if problems:
        click.echo(f"{errors:d} error(s), {len(problems) - errors:d} warning(s)", err=True, color=color)


class InvalidData(click.ClickException):
    """The data is invalid: every problem, and (when something was about to
    be written) that nothing was and what to run again."""

    def __init__(self, problems: Iterable[Problem], again: str | None = None):
        self.problems = list(problems)
        self.again = again
        super().__init__("\n".join(str(p) for p in self.problems))

    def show(self, file: IO[Any] | None = None) -> None:
        print_problems(self.problems, self.show_color)
        if self.again:
            click.secho(f"Nothing was written: fix the problems above and {visible(self.again)} again.", err=True,
                        color=self.show_color)


class Failed(click.ClickException):
    """Something could not be done: 'error:' and the reason in red, any
    further lines (a list of faults, one a line) plain, then what was left
    unchanged. Each line is escaped on its own: it may quote the data."""

    def __init__(self, reason: str, details: Iterable[str] = (), unchanged: str | None = None,
                 exit_code: int = 1):
        self.details = list(details)
        self.unchanged = unchanged
        self.exit_code = exit_code  # type: ignore[misc]  # click types it per class; ours varies per failure
        super().__init__(reason)

    def show(self, file: IO[Any] | None = None) -> None:
        click.secho(f"error: {visible(self.message)}", fg="red", err=True, color=self.show_color)
        for line in self.details:
            click.secho(visible(line), err=True, color=self.show_color)
        if self.unchanged:
            click.secho(f"Nothing was written: {visible(self.unchanged)}", err=True, color=self.show_color)


class Interrupted(click.ClickException):
    """Ctrl-C, SIGTERM or SIGHUP while writing: the workers are stopped and
    the previous output stands.

    Made, it tells CPython the interrupt was handled: a KeyboardInterrupt
    raised inside code that exec() or eval() ran from a string (dataclasses
    and named tuples are made so while a module is imported) marks the run
    as interrupted even once caught, and the interpreter then ends itself
    by SIGINT rather than with 130 (one Ctrl-C in two as the rendering
    workers start, tests/test_interrupts.py). Evaluating any string clears
    the mark."""

    exit_code = 130

    def __init__(self, message: str) -> None:
        eval("None")        # clears CPython's "unhandled KeyboardInterrupt" mark (above)
        super().__init__(message)

    def show(self, file: IO[Any] | None = None) -> None:
        click.secho(visible(self.message), err=True, color=self.show_color)


def failure(exc: BaseException, stakes: Stakes | None) -> click.ClickException | None:
    """The click exception `exc` becomes, or None when it is none of ours to
    explain (a bug wants its traceback; click handles its own). `stakes` is
    None for a command that writes nothing, or before it has started to."""
    unchanged = stakes.unchanged if stakes else None
    if isinstance(exc, DataError):
        return InvalidData(exc.problems, stakes.again if stakes else None)
    if isinstance(exc, KeyboardInterrupt) or _while_interrupted(exc):
        if stakes is None:
            return None
        from ..render.pdf.batch import stop_pools
        stop_pools()                # the workers go before the message does
        return Interrupted(f"Interrupted: {unchanged}")
    if isinstance(exc, UserError):
        return Failed(exc.message, exc.details, unchanged if exc.tells_unchanged else None, exc.exit_status)
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return Failed(f"{where}{exc.strerror or exc}", unchanged=unchanged)
    return None


def _while_interrupted(exc: BaseException) -> bool:
    """Whether `exc` was raised while Ctrl-C (or SIGTERM) was being handled.
    Python may raise the interrupt inside a lock's wait (a future's result),
    after the lock was let go: the `with` around it then fails to release
    it ("cannot release un-acquired lock"). That is the interrupt, not a bug."""
    seen: set[int] = set()
    context = exc.__context__
    while context is not None and id(context) not in seen:
        if isinstance(context, KeyboardInterrupt):
            return True
        seen.add(id(context))
        context = context.__context__
    return False


@contextlib.contextmanager
def converted(stakes: Stakes | None) -> Iterator[None]:
    """Run the block with its failures raised as click exceptions."""
    try:
        yield
    except (Exception, KeyboardInterrupt) as exc:
        found = failure(exc, stakes)
        if found is None:
            raise
        raise found from None


class Command(click.Command):
    """A `sixes` command: its failures are converted (above) around its
    whole body. `stakes` says what a failure leaves unchanged; None for a
    command that writes nothing."""

    def __init__(self, *args: Any, stakes: Stakes | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stakes = stakes

    def invoke(self, ctx: click.Context) -> Any:
        with converted(self.stakes):
            return super().invoke(ctx)


class Group(click.Group):
    command_class = Command
