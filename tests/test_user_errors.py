"""One error base: every failure a user reads is a core.errors.UserError.

The floors raise their own kinds of it and commands/failures.py converts
that one type, so a new kind needs no branch there. These tests find every
exception class of the package from its source (a class added tomorrow is
found too) and hold that each is a UserError or is named below as internal,
with the reason no user ever sees it; and that a UserError keeps its
message, details and exit status through `failure()` and through the
process boundary a rendering worker raises it across.
"""
from __future__ import annotations

import ast
import importlib
import pickle
from pathlib import Path

import click
import pytest

from generator.commands.failures import BUILD, Failed, InvalidData, failure
from generator.core.errors import BuildError, DataError, Problem, UserError

PACKAGE = Path(__file__).resolve().parent.parent / "generator"

# Exception classes that never reach the user as themselves, and why.
INTERNAL = {
    "core.programs.ProgramError": "its callers (game/dates.py, commands/deploy.py) turn it into a fallback or a "
                                  "DeployError",
    "core.loading.UnreadableFile": "every reader turns it into a Problem (or a DataError) at the file it names",
    "core.loading._Refused": "the YAML reader's own signal, turned into a Problem",
    "render.cache.fingerprint.Unknown": "DocumentCache.key catches it: the document has no key and is made anew",
    "render.site.clean_html.UnsafeHtml": "the site's page plugin turns it into a SiteBuildError",
    "systems.sixes.declarations.IllegalDeclaration": "the resolver's answer to its callers (simulator, tracker, "
                                                    "tests), who declare; no command lets a user declare",
    "commands.cli.Stopped": "SIGTERM or SIGHUP, handled as Ctrl-C",
    "core.programs.RefusedSetting": "a ProgramError: deploy turns it into a DeployError, the date reader into the "
                                    "files' own date",
    "game.po_file._Stop": "the catalogue reader's own signal, turned into a Problem at its line",
    "render.site.partial.NotPartial": "build_site's own signal: it builds the whole site instead",
}


def exception_classes() -> dict[str, type]:
    """Every class of the package whose own module says it derives from an
    exception (a base named *Error, *Exception, Exception or KeyboardInterrupt,
    or another class found so), by dotted name under generator/."""
    found: dict[str, type] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.bases:
                cls = getattr(importlib.import_module(f"generator.{module}"), node.name, None)
                if isinstance(cls, type) and issubclass(cls, BaseException):
                    found[f"{module}.{node.name}"] = cls
    return found


def test_every_exception_of_the_package_is_a_user_error_or_named_internal_with_its_reason():
    classes = exception_classes()
    assert {"core.errors.DataError", "game.folder.GameError", "commands.network.PortUnavailable"} <= set(classes)
    # What failure() makes of them (commands/failures.py) is click's kind, not theirs.
    converted = {name for name, cls in classes.items() if issubclass(cls, click.ClickException)}
    assert converted == {"commands.failures.Failed", "commands.failures.InvalidData", "commands.failures.Interrupted"}
    stray = sorted(name for name, cls in classes.items()
                   if not issubclass(cls, UserError) and name not in INTERNAL and name not in converted)
    assert not stray, f"derive these from core.errors.UserError, or name them in INTERNAL with why: {stray}"
    wrong = sorted(name for name in INTERNAL if name in classes and issubclass(classes[name], UserError))
    assert not wrong and set(INTERNAL) <= set(classes), (wrong, set(INTERNAL) - set(classes))


@pytest.mark.parametrize("name", ["game.folder.GameError", "core.errors.BuildError", "commands.output.OutputError",
                                  "commands.deploy.DeployError", "commands.serve.PortUnavailable",
                                  "render.site.mkdocs_build.SiteBuildError", "render.pdf.weasy.ForbiddenResource"])
def test_failure_converts_each_kind_by_the_base_alone(name, capsys):
    """Each kind prints as 'error:' and its message, its details a line each
    (a kind whose text is a list says so; any other shows a newline escaped),
    then what was left unchanged unless it fails before anything is at stake."""
    module, cls_name = name.rsplit(".", 1)
    cls = getattr(importlib.import_module(f"generator.{module}"), cls_name)
    converted = failure(cls("first\x1b[2J line\n  a fault"), BUILD)
    assert isinstance(converted, Failed) and converted.exit_code == cls.exit_status
    converted.show()
    lines = capsys.readouterr().err.splitlines()
    text = ["error: first\\x1b[2J line", "  a fault"] if cls.multiline else ["error: first\\x1b[2J line\\n  a fault"]
    unchanged = ["Nothing was written: the previous output is unchanged."] if cls.tells_unchanged else []
    assert lines == text + unchanged


def test_the_kinds_say_their_own_exit_status_and_what_they_leave_unchanged():
    from generator.commands.serve import PortUnavailable
    from generator.game.folder import GameError
    assert (PortUnavailable.exit_status, UserError.exit_status, BuildError.exit_status) == (2, 1, 1)
    assert GameError.tells_unchanged is False and BuildError.tells_unchanged is True


def test_a_data_error_is_a_user_error_printed_as_its_problems():
    problem = Problem("game/a.yaml", 3, 7, "no such action 'Jab'")
    error = DataError([problem])
    assert isinstance(error, UserError) and str(error) == str(problem)
    assert isinstance(failure(error, BUILD), InvalidData)


def test_a_user_error_crosses_a_process_boundary_whole():
    """A rendering worker raises BuildError or ForbiddenResource in another
    process: unpickled, it keeps its message, details and text."""
    built = pickle.loads(pickle.dumps(BuildError("two pages overflow:\n- sheet\n- card")))
    assert (built.message, built.details, str(built)) == ("two pages overflow:", ("- sheet", "- card"),
                                                         "two pages overflow:\n- sheet\n- card")
    explicit = pickle.loads(pickle.dumps(UserError("one line", ["a", "b"])))
    assert (type(explicit), explicit.message, explicit.details) == (UserError, "one line", ("a", "b"))
    problem = Problem("game/a.yaml", 1, 2, "bad")
    assert pickle.loads(pickle.dumps(DataError([problem]))).problems == [problem]


def test_an_error_raised_while_an_interrupt_is_handled_is_the_interrupt(monkeypatch):
    """Ctrl-C may arrive inside a lock's wait (a future's result); the `with`
    around it then fails ("cannot release un-acquired lock"), an error whose
    context is the interrupt. It ends as the interrupt does (exit 130, the
    previous output unchanged), not as a bug's traceback; an error with no
    interrupt behind it still is a bug."""
    import generator.render.pdf.batch as batch
    stopped = []
    monkeypatch.setattr(batch, "stop_pools", lambda: stopped.append(True))

    def fails_while_interrupted() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("cannot release un-acquired lock")   # noqa: B904 (raised as Python does)

    with pytest.raises(RuntimeError) as caught:
        fails_while_interrupted()
    found = failure(caught.value, BUILD)
    assert found is not None and found.exit_code == 130 and found.message.startswith("Interrupted: ")
    assert stopped == [True]
    assert failure(RuntimeError("cannot release un-acquired lock"), BUILD) is None
