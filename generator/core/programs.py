"""The one way Sixes Press runs another program (today: git, for `sixes deploy`
and for the date of a game folder kept in git, game/dates.py).

Core layer: the standard library only. Every other program is started here, with an argument list
(never a shell). A value that comes from data or settings is either an
operand, placed after `--` so that the program cannot read it as an option
(`--mirror` as a branch name), or checked before it gets here (a ref name
by game/gitref.py, an object id git itself printed). A failure is one
line, the program's own first complaint, raised as ProgramError; the caller
says what it was doing.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Mapping, Sequence


class ProgramError(Exception):
    """Another program failed or could not be started; one line."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


def run_program(command: Sequence[str], operands: Sequence[str] = (), *, cwd: Path, stdin: str | None = None,
                env: Mapping[str, str] | None = None, timeout: float | None = None) -> str:
    """Run `command` (the program and the options this code chose) with
    `operands` after `--`; its standard output, stripped. Standard input is
    `stdin`, or nothing, so a program never waits on the terminal's; a
    program still running after `timeout` seconds is stopped (ProgramError)."""
    argv = [*command, *(["--", *operands] if operands else [])]
    try:
        done = subprocess.run(argv, cwd=cwd, input=stdin if stdin is not None else "", capture_output=True,
                              text=True, env={**os.environ, **(env or {})}, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ProgramError(f"{command[0]} did not answer within {timeout:g} s") from None
    except FileNotFoundError:
        raise ProgramError(f"{command[0]} is not installed (or not on PATH)") from None
    except OSError as exc:
        raise ProgramError(f"{command[0]} could not be started: {exc.strerror}") from None
    if done.returncode != 0:
        raise ProgramError(first_complaint(done.stderr) or f"{command[0]} ended with status {done.returncode}",
                           done.returncode)
    return done.stdout.strip()


def first_complaint(stderr: str) -> str:
    """The first line a program labelled 'fatal:' or 'error:' (without the
    label), else its first line that is not a hint or a warning."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        for label in ("fatal:", "error:"):
            if line.lower().startswith(label):
                return line[len(label):].strip()
    plain = [line for line in lines if not line.lower().startswith(("hint:", "warning:"))]
    return plain[0] if plain else ""
