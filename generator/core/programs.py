"""The one way Sixes Press runs another program (today: git, for `sixes deploy`
and for the date of a game folder kept in git, game/dates.py).

Core layer: the standard library only. Every other program is started here, with an argument list
(never a shell). A value that comes from data or settings is either an
operand, placed after `--` so that the program cannot read it as an option
(`--mirror` as a branch name), or checked before it gets here (a ref name
by game/gitref.py, an object id git itself printed). A failure is one
line, the program's own first complaint, raised as ProgramError; the caller
says what it was doing.

git is started only by `run_git`. A game folder's repository is data, and its
configuration (.git/config, files it includes, .git/hooks) can name commands
git runs on its own: `core.fsmonitor` on every `git status`, a filter's
`clean` command on a changed file, hooks on `update-ref`, an ssh command or
credential helper on `push`. `run_git` reads where each setting comes from
(`git config --list --show-scope`, which runs nothing) and, for every
command-naming key the repository sets, gives git the user's own value (their
global or system configuration) or a harmless one instead; hooks, fsmonitor,
the `ext::` transport, signature checks and automatic maintenance are off
for every call. The overrides travel as GIT_CONFIG_COUNT variables, which
reach the git processes git starts itself and cannot be misparsed the way a
`-c name=value` can when a name holds "=".
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Mapping, Sequence


class ProgramError(Exception):
    """Another program failed or could not be started; one line."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class RefusedSetting(ProgramError):
    """The repository names a command git would run that no setting of ours can replace."""


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


# Always: no hooks (.git/hooks is the repository's), no fsmonitor, no `ext::` transport (it runs a
# command named in the URL), no signature checks in `log`, no maintenance started behind our back.
_ALWAYS = (("core.fsmonitor", "false"), ("core.hookspath", "/dev/null"), ("protocol.ext.allow", "never"),
           ("log.showsignature", "false"), ("gc.auto", "0"), ("maintenance.auto", "false"))
# Keys that name a command (git-config(1)), with what git does without one; `*` is any subsection.
_COMMAND_KEYS = {
    "core.sshcommand": "ssh", "core.gitproxy": "none", "core.askpass": "", "core.pager": "cat",
    "core.editor": ":", "sequence.editor": ":", "core.alternaterefscommand": "", "credential.helper": "",
    "credential.*.helper": "", "diff.external": "", "diff.*.command": "", "diff.*.textconv": "",
    "filter.*.clean": "", "filter.*.smudge": "", "filter.*.process": "", "filter.*.required": "false",
    "merge.*.driver": "", "remote.*.receivepack": "", "remote.*.uploadpack": "",
    "gpg.program": "gpg", "gpg.openpgp.program": "gpg", "gpg.x509.program": "gpgsm",
    "gpg.ssh.program": "ssh-keygen", "gpg.ssh.defaultkeycommand": "", "pager.*": "cat",
    "difftool.*.cmd": "", "mergetool.*.cmd": "", "browser.*.cmd": "", "man.*.cmd": "",
}
_PATTERN = re.compile("|".join(re.escape(key).replace(r"\*", ".+") for key in _COMMAND_KEYS), re.IGNORECASE)
# Keys where git takes the first value it reads, so no later one can replace the repository's.
_FIRST_WINS = re.compile(r"remote\..+\.(receivepack|uploadpack)|core\.gitproxy", re.IGNORECASE)
_OWN_SCOPES = ("local", "worktree")     # the repository's; system, global and command are the user's
_GIT_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "GIT_EDITOR": ":"}


def run_git(args: Sequence[str], operands: Sequence[str] = (), *, cwd: Path, where: Sequence[str] = (),
            stdin: str | None = None, env: Mapping[str, str] | None = None, timeout: float | None = None) -> str:
    """`git <where> <args> -- <operands>` through run_program, with the
    repository's command-naming settings replaced (the module's docstring).
    `where` holds the options that say which repository (--git-dir=,
    --work-tree=); the settings are read from that one."""
    guard = {**_GIT_ENV, **(env or {})}
    guard.update(_overrides(git_settings(cwd, where, guard, timeout)))
    return run_program(("git", *where, *args), operands, cwd=cwd, stdin=stdin, env=guard, timeout=timeout)


def git_settings(cwd: Path, where: Sequence[str], env: Mapping[str, str],
                 timeout: float | None) -> list[tuple[str, str, str]]:
    """(scope, key, value) of every setting git would read there, in its order."""
    always = _config_env(_ALWAYS, _given_count())
    listing = run_program(("git", *where, "config", "--list", "--show-scope", "-z"), cwd=cwd,
                          env={**env, **always}, timeout=timeout)
    fields = listing.split("\0")
    settings = []
    for scope, entry in zip(fields[0::2], fields[1::2], strict=False):     # the listing ends with a NUL
        key, _, value = entry.partition("\n")
        settings.append((scope, key, value))
    return settings


def _overrides(settings: list[tuple[str, str, str]]) -> dict[str, str]:
    """The GIT_CONFIG_COUNT variables that undo the repository's command keys."""
    own = {key for scope, key, _ in settings if scope in _OWN_SCOPES and _PATTERN.fullmatch(key)}
    if first := next((key for key in sorted(own) if _FIRST_WINS.fullmatch(key)), None):
        raise RefusedSetting(f"the repository's configuration sets {first}, a command git would run; Sixes Press "
                           "never runs a command a game folder's repository names: remove it (git config --unset)")
    pairs = list(_ALWAYS)
    for key in sorted(own):
        # The harmless value resets a list (credential.helper); then the user's own, in git's order.
        pairs.append((key, _COMMAND_KEYS.get(key.lower(), _neutral(key))))
        pairs += [(key, value) for scope, name, value in settings if name == key and scope not in _OWN_SCOPES]
    return _config_env(pairs, _given_count())


def _neutral(key: str) -> str:
    """The harmless value of a key with a subsection (filter.<driver>.clean)."""
    section, _, name = key.partition(".")
    return _COMMAND_KEYS.get(f"{section}.*.{name.rpartition('.')[2]}".lower(),
                             _COMMAND_KEYS.get(f"{section}.*".lower(), ""))


def _given_count() -> int:
    """How many GIT_CONFIG_KEY_<n> the user's environment gives (git refuses a count that is no number)."""
    count = os.environ.get("GIT_CONFIG_COUNT", "")
    return int(count) if count.isascii() and count.isdigit() else 0


def _config_env(pairs: Sequence[tuple[str, str]], first: int) -> dict[str, str]:
    """`pairs` as git's GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>, after the
    `first` the user's environment already gives."""
    env = {"GIT_CONFIG_COUNT": str(first + len(pairs))}
    for number, (key, value) in enumerate(pairs, start=first):
        env[f"GIT_CONFIG_KEY_{number}"], env[f"GIT_CONFIG_VALUE_{number}"] = key, value
    return env
