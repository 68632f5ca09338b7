"""`sixes cast`: casting.yaml from the players' questionnaire, solved exactly.

Commands floor: a short sequence over the floors below. The gather reads
the game (and, in a re-cast, the current casting) as every command does;
game/questionnaire.py reads the answers, game/cast_rules.py makes the
problem, game/cast_solve.py solves it, game/cast_report.py says what was
done. Every problem comes at once and ends the command (exit 1) before
anything is written; then the report goes into the output folder's
`casting/` (GM material: never on the site or in a pack) through its one
writer, and casting.yaml beside the data, whole, never over an existing one
without --force.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click
import yaml

from ..core.errors import DataError, Problem, errors_in, visible
from .failures import Failed, print_problems
from .locate import locate

if TYPE_CHECKING:
    from ..game.cast_rules import Plan
    from ..game.cast_solve import Solved
    from ..game.folder import Game

REPORT_ENTRY = "casting"            # in the output folder
REPORT_FILE = "casting-report.md"


@dataclass(frozen=True)
class CastRequest:
    answers: Path | None
    system: str | None = None
    to: Path | None = None
    force: bool = False
    start: Path | None = None                   # --from: the casting a re-cast starts from
    drop: tuple[str, ...] = ()
    join: tuple[str, ...] = ()
    cut: tuple[str, ...] = ()
    seed: int | None = None
    columns: dict[str, object] = field(default_factory=dict)   # the command line's column mapping


@dataclass(frozen=True)
class _Prepared:
    plan: Plan
    title: str                                  # the game's title
    system: str                                 # its slug, written as the casting's `system:`
    warnings: list[Problem]
    old: dict[str, tuple[int, list[str]]]       # a re-cast's envelopes by character slug: (place, handouts)


def run(data_dir: Path | None, out_dir: Path | None, request: CastRequest) -> None:
    from ..game.cast_report import Facts, conflict_text, report
    from ..game.cast_solve import Reach, SolverFailed, bound, conflict, solve, too_large
    from ..game.casting import CASTING_FILE
    from .context import refuse_output
    from .output import OutputFolder
    game = locate(data_dir, out_dir)
    assert game.out_dir is not None
    target = request.to or game.data_dir / CASTING_FILE
    if (target.exists() or target.is_symlink()) and not request.force:
        raise Failed(f"{target} exists already: pass --force to replace it, or choose another file with --to",
                     unchanged="nothing was cast.")
    prepared = _prepare(game, request)
    problem = prepared.plan.problem
    if (why := too_large(problem)) is not None:
        raise Failed(why, ["cast the event as several games, each with its own players and characters"],
                     unchanged="nothing was cast.")
    try:
        solved = solve(problem)
    except SolverFailed as exc:
        raise Failed(str(exc), unchanged="the casting file was not written.") from None
    if solved is None:
        raise Failed("no casting keeps every hard rule; these cannot all hold together (drop or change one):",
                     conflict_text(conflict(problem)), unchanged="the casting file was not written.")
    print_problems(prepared.warnings)
    facts = Facts(str(request.answers), prepared.title, bound(problem, solved), Reach(problem, solved))
    text = report(prepared.plan, solved, facts)
    refuse_output(game.out_dir, game.data_dir)
    with OutputFolder(game.out_dir, entries=[REPORT_ENTRY]) as folder:
        staged = folder.staging / REPORT_ENTRY / REPORT_FILE
        staged.parent.mkdir(parents=True)
        staged.write_text(text, encoding="utf-8")
        _write_casting(target, prepared, solved, request)
        folder.commit([REPORT_ENTRY])
    for line in text.splitlines():
        click.echo(visible(line))
    click.echo(f"Wrote {visible(target)} ({len(solved.cast):d} envelopes) and the report "
               f"{visible(game.out_dir / REPORT_ENTRY / REPORT_FILE)}. Next: sixes check, then sixes pack.")


def _prepare(game: Game, request: CastRequest) -> _Prepared:
    """The problem and what the casting file needs; every error at once as a DataError."""
    from ..game.cast_rules import Change, plan
    from ..game.casting import cast_names, game_title
    from ..game.gather import gather
    from ..game.questionnaire import read_answers
    gathered = gather(game.data_dir, game.settings, game.papers, site=False, find=False, pack=True,
                      system=request.system, casting=request.start, out_dir=game.out_dir)
    packed = gathered.packed
    assert packed is not None
    characters = cast_names(packed.system, packed.game)
    if not characters:
        raise Failed(f"the {packed.system.title} game has no characters to cast",
                     ["cast a game with character sheets (sixes, six-shooter, i6): --system NAME"])
    if request.answers is None:
        raise Failed("no questionnaire given: sixes cast ANSWERS.csv (or a YAML file of answers)")
    settings = game.settings.file.casting
    columns = settings.columns.model_copy(update={k: v for k, v in request.columns.items() if v})
    answers, problems = read_answers(request.answers, str(request.answers), columns, characters)
    roles = gathered.casting.roles if gathered.casting else []
    made = plan(answers, settings, characters, doc=game.settings.doc, shown=game.shown,
                current=[(role.player, role.slug) for role in roles],
                change=Change(request.drop, request.join, request.cut), seed=request.seed)
    problems += made.problems + (gathered.casting.problems if gathered.casting else [])
    if errors_in(problems):
        raise DataError(problems)
    problems += _sizes(made)
    root = game.data_dir.resolve()
    old = {role.slug: (i, [h.relative_to(root).as_posix() for h in role.handouts if h.is_relative_to(root)])
           for i, role in enumerate(roles) if role.slug}
    return _Prepared(made, game_title(packed.system.documents(packed.game), packed.system), packed.system.slug,
                     problems, old)


def _sizes(made: Plan) -> list[Problem]:
    """More players than characters, or the reverse: what happens to the rest."""
    from ..game.cast_rules import COMMAND_LINE
    players, characters = len(made.problem.players), len(made.problem.characters)
    if players > characters:
        return [Problem(COMMAND_LINE, None, None, f"{players:d} players for {characters:d} characters: "
                        f"{players - characters:d} are left without one (the report lists them, a waiting list)",
                        severity="warning")]
    if characters > players:
        return [Problem(COMMAND_LINE, None, None, f"{characters:d} characters for {players:d} players: "
                        f"{characters - players:d} are not cast (the report lists them; no envelope is made)",
                        severity="warning")]
    return []


def _write_casting(target: Path, prepared: _Prepared, solved: Solved, request: CastRequest) -> None:
    """casting.yaml in the form `sixes pack` reads: a fresh casting in the
    game's order of characters; a re-cast in its old envelope order, each
    character keeping its handouts, new characters after."""
    from .output import write_whole
    made = prepared.plan
    holder = {c: made.problem.players[p] for p, c in solved.cast.items()}
    unseen: tuple[int, list[str]] = (10 ** 6, [])
    order = sorted(holder, key=lambda c: (prepared.old.get(made.slugs[c], unseen)[0], c))
    envelopes = [{"player": holder[c], "character": made.problem.characters[c],
                  **({"handouts": h} if (h := prepared.old.get(made.slugs[c], unseen)[1]) else {})} for c in order]
    head = (f"# Cast by `sixes cast` (seed {made.problem.seed:d}); the casting report says why each player has "
            "their character.\n")
    body = yaml.safe_dump({"system": prepared.system, "envelopes": envelopes}, allow_unicode=True,
                          sort_keys=False, width=10 ** 6)
    write_whole(target, head + body, replace=request.force)
