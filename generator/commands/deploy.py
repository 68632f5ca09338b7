"""`sixes deploy`: publish a built site, the way `mkdocs gh-deploy` does.

Edge layer. To a branch: the site becomes a new commit on top of the
branch's tip (its history kept, an unpushed commit of it too), made with
git's plumbing in a private index so the user's checkout, index and
other branches are never touched; it is pushed first and the local branch
moves only once the push succeeded, so a failed deploy changes no ref.
Every git command goes through programs.run_git (the repository's own
commands disabled); the branch and remote
names were checked as git checks them (game/gitref.py) when the settings
were read, and are checked again here. To a folder: the site is copied
through the output writer, so a folder it did not make is never replaced
and a user's own files there (a CNAME) are kept.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.errors import UserError, visible
from ..game.gitref import branch_problem, remote_problem
from ..core.programs import ProgramError, RefusedSetting, run_git

if TYPE_CHECKING:
    from ..game.folder import Game


class DeployError(UserError):
    """Publishing failed; the message says why in one line."""


def run(game: Game, message: str, no_push: bool) -> None:
    """Publish what `sixes build` made in the game's output folder, to the
    settings' folder or branch, and say where it went."""
    assert game.out_dir is not None     # located with needs_out=True
    site = game.out_dir / "site"
    if not (site / "index.html").is_file():
        raise DeployError(f"no built site in {site}; run `sixes build` first")
    settings = game.settings.file.deploy
    if settings.folder:
        target = to_folder(site, game.data_dir / settings.folder, game.data_dir)
        click.echo(f"Published {visible(site)} to {visible(target)}")
    else:
        to_branch(site, game.data_dir, settings.branch, settings.remote, message,
                  push=settings.push and not no_push)
        click.echo(f"Published {visible(site)} to branch {visible(settings.branch)}"
                   + ("" if no_push or not settings.push else f" and pushed it to {visible(settings.remote)}"))


def _git(repo: Path, *args: str, operands: tuple[str, ...] = (), stdin: str | None = None,
         env: dict[str, str] | None = None, where: tuple[str, ...] = (), doing: str) -> str:
    try:
        return run_git(args, operands, cwd=repo, where=where, stdin=stdin, env=env)
    except ProgramError as exc:
        raise DeployError(f"{doing} failed: {exc}") from None


def _tip(repo: Path, ref: str) -> str | None:
    """The commit `ref` (a checked, full ref name) points at, or None."""
    try:
        return run_git(("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"), cwd=repo) or None
    except ProgramError:
        return None


def to_branch(site: Path, game_dir: Path, branch: str, remote: str, message: str, push: bool) -> None:
    for what, problem in (("branch", branch_problem(branch)), ("remote", remote_problem(remote))):
        if problem:
            raise DeployError(f"deploy.{what} cannot be used: {problem}")
    repo = _repository(game_dir)
    ref = f"refs/heads/{branch}"
    checked_out = _worktree_of(repo, ref)
    if checked_out is not None:
        elsewhere = "" if checked_out == repo else " (a linked work tree), or check out another branch there"
        raise DeployError(f"deploy.branch '{branch}' is the branch checked out in {checked_out}, whose "
                          "files would be left out of step with the branch; set deploy.branch to a branch of its "
                          f"own, e.g. gh-pages{elsewhere}")
    if push:
        remotes = _git(repo, "remote", doing="listing the remotes").split()
        if remote not in remotes:
            raise DeployError(f"the repository has no remote '{remote}' (it has: {', '.join(remotes) or 'none'}); "
                              "add it with `git remote add`, set deploy.remote, or pass --no-push")
    local = _tip(repo, ref)
    commit = _commit(repo, site, message, local or _tip(repo, f"refs/remotes/{remote}/{branch}"))
    if push:
        _git(repo, "push", "--quiet", operands=(remote, f"{commit}:{ref}"),
             doing=f"pushing {branch} to {remote}")
    # Only from the tip it was built on: a commit made to the branch meanwhile is never lost.
    _git(repo, "update-ref", "-m", "sixes deploy", operands=(ref, commit, local or ""),
         doing=f"moving the local branch {branch}")


def _worktree_of(repo: Path, ref: str) -> Path | None:
    """The work tree (this one, or one linked to the same repository) that
    has `ref` checked out, or None: git itself refuses to move such a branch."""
    listing = _git(repo, "worktree", "list", "--porcelain", "-z", doing="listing the work trees")
    tree = None
    for line in listing.split("\0"):
        if line.startswith("worktree "):
            tree = Path(line[len("worktree "):])
        elif line == f"branch {ref}" and tree is not None:
            return tree
    return None


def _repository(game_dir: Path) -> Path:
    try:
        return Path(run_git(("rev-parse", "--show-toplevel"), cwd=game_dir))
    except RefusedSetting as exc:
        raise DeployError(str(exc)) from None
    except ProgramError:
        raise DeployError(f"{game_dir} is not inside a git repository; run `git init` there, or set "
                          "deploy.folder in sixes.yaml to publish into a folder") from None


def _commit(repo: Path, site: Path, message: str, parent: str | None) -> str:
    """A commit of the site's files (and .nojekyll, so GitHub Pages serves
    folders that begin with '_'), built in an index of its own."""
    git_dir = _git(repo, "rev-parse", "--absolute-git-dir", doing="finding the repository")
    with tempfile.TemporaryDirectory(prefix="sixes-deploy-") as scratch:
        env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        site_git = ("--git-dir=" + git_dir, "--work-tree=" + str(site.resolve()))
        _git(site.resolve(), "add", "--all", "--force", operands=(".",), env=env, where=site_git,
             doing="adding the site")
        if not (site / ".nojekyll").exists():
            empty = _git(repo, "hash-object", "-w", "--stdin", stdin="", doing="adding .nojekyll")
            _git(repo, "update-index", "--add", "--cacheinfo", f"100644,{empty},.nojekyll", env=env,
                 doing="adding .nojekyll")
        tree = _git(repo, "write-tree", env=env, doing="writing the site's tree")
    return _git(repo, "commit-tree", tree, *(("-p", parent) if parent else ()), stdin=message + "\n",
                doing="committing the site")


def to_folder(site: Path, target: Path, game_dir: Path) -> Path:
    from .context import protected_folders
    from .output import OutputError, OutputFolder, refuse_unsafe
    target = target.resolve()
    try:
        # The folder itself (its parent may hold the game); never in or around the output, whose site it copies.
        refuse_unsafe(target, (*protected_folders(game_dir), ("output folder", site.parent)))
        with OutputFolder(target.parent, (), [target.name]) as output:
            shutil.copytree(site, output.staging / target.name)
            output.commit([target.name])
    except OutputError as exc:
        raise DeployError(str(exc)) from None
    return target
