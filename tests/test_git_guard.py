"""A game folder's git repository is data: the commands its configuration
and hooks name never run when Sixes Press asks git something
(core/programs.run_git), and a deploy branch checked out in a linked work
tree is refused as git itself would."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core.paths import PACKAGE_DIR
from generator.core.programs import run_git
from generator.game.dates import SOURCE_DATE_EPOCH, source_date
from generator.systems.sixes import SYSTEM as SIXES

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")

COMMITTED = 1700000000


@pytest.fixture(autouse=True)
def identity(monkeypatch, tmp_path):
    for key, value in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
                       "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"),
                       "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_DATE": f"@{COMMITTED} +0000",
                       "GIT_COMMITTER_DATE": f"@{COMMITTED} +0000"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv(SOURCE_DATE_EPOCH, raising=False)


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def sixes(*args, cwd: Path):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture()
def trapped(tmp_path) -> tuple[Path, Path]:
    """A committed game whose repository names, in every way git offers, a
    command that leaves a marker: fsmonitor, a clean/smudge filter on every
    file, hooks (in .git/hooks and through core.hooksPath), a pager, an ssh
    command, a credential helper, signature checks."""
    game, marker = tmp_path / "game", tmp_path / "markers"
    marker.mkdir()
    shutil.copytree(SIXES.starter, game / "sixes")
    (game / "output" / "site").mkdir(parents=True)
    (game / "output" / "site" / "index.html").write_text("<html>rules</html>\n")
    (game / ".gitignore").write_text("output/\n")
    git("init", "-q", "-b", "main", cwd=game)
    git("add", "-A", cwd=game)
    git("commit", "-q", "-m", "the game", cwd=game)
    bare = tmp_path / "remote.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    git("remote", "add", "origin", str(bare), cwd=game)

    def touch(name: str) -> str:
        return f"touch '{marker / name}'"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for folder in (game / ".git" / "hooks", hooks):
        for hook in ("reference-transaction", "pre-push", "post-index-change", "pre-commit", "post-checkout"):
            (folder / hook).write_text(f"#!/bin/sh\n{touch(folder.name + '-' + hook)}\n")
            (folder / hook).chmod(0o755)
    for key, value in {"core.fsmonitor": f"{touch('fsmonitor')}; false", "filter.trap.clean": f"{touch('clean')}; cat",
                       "filter.trap.smudge": f"{touch('smudge')}; cat", "filter.trap.process": touch("process"),
                       "filter.trap.required": "true", "core.hooksPath": str(hooks),
                       "core.pager": touch("pager"), "core.sshCommand": touch("ssh"),
                       "credential.helper": f"!{touch('credential')}", "core.askPass": touch("askpass"),
                       "log.showSignature": "true", "gpg.program": touch("gpg")}.items():
        git("config", key, value, cwd=game)
    (game / ".git" / "info" / "attributes").write_text("* filter=trap diff=trap\n")
    git("config", "diff.trap.textconv", touch("textconv"), cwd=game)
    return game, marker


def test_asking_git_for_the_game_s_date_runs_none_of_its_commands(trapped):
    game, marker = trapped
    for path in game.rglob("*.yaml"):
        path.touch()                    # git status must look at the files' contents: the clean filter's moment
    assert source_date(game) == COMMITTED
    assert sorted(p.name for p in marker.iterdir()) == []
    result = sixes("build", "--data", game, "--out", game.parent / "out", "--paper", "a4", "--no-site", cwd=game)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in marker.iterdir()) == []


def test_the_trap_is_real_without_the_guard(trapped):
    """The same repository does run its commands when git is asked plainly:
    the test above would see them."""
    game, marker = trapped
    for path in game.rglob("*.yaml"):
        path.touch()
    subprocess.run(["git", "status", "--porcelain"], cwd=game, capture_output=True)
    assert {"fsmonitor", "clean"} & {p.name for p in marker.iterdir()}


def test_deploying_runs_none_of_the_repository_s_commands(trapped):
    game, marker = trapped
    (game / "sixes.yaml").write_text("deploy:\n  branch: gh-pages\n")
    result = sixes("deploy", "--data", game, cwd=game)
    assert result.exit_code == 0, result.output
    assert git("rev-parse", "gh-pages", cwd=game) == git("rev-parse", "gh-pages", cwd=game.parent / "remote.git")
    assert sorted(p.name for p in marker.iterdir()) == []


def test_a_receive_pack_the_repository_names_is_refused_in_one_line_and_never_run(trapped):
    """git takes the first receive-pack it reads, so none can replace the
    repository's: deploy refuses, and nothing ran."""
    game, marker = trapped
    git("config", "remote.origin.receivepack", f"touch '{marker / 'receivepack'}'; git-receive-pack", cwd=game)
    (game / "sixes.yaml").write_text("deploy:\n  branch: gh-pages\n")
    result = sixes("deploy", "--data", game, cwd=game)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "sets remote.origin.receivepack, a command git would run" in result.output, result.output
    assert sorted(p.name for p in marker.iterdir()) == []


def test_the_user_s_own_settings_still_count(tmp_path, monkeypatch):
    """A key the repository sets is given the user's own value (their global
    configuration), not dropped: their credential helper and ssh command
    keep working for a push."""
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("[core]\n\tsshCommand = ssh -i mine\n[credential]\n\thelper = store\n")
    git("init", "-q", str(tmp_path / "repo"), cwd=tmp_path)
    repo = tmp_path / "repo"
    git("config", "core.sshCommand", "touch theirs", cwd=repo)
    git("config", "credential.helper", "!touch theirs", cwd=repo)
    assert run_git(("config", "--get", "core.sshCommand"), cwd=repo) == "ssh -i mine"
    helpers = run_git(("config", "--get-all", "credential.helper"), cwd=repo).splitlines()
    assert helpers[-1] == "store" and "!touch theirs" not in helpers[helpers.index(""):]


def test_git_is_started_in_one_place():
    """Found from the code: the program name "git" is written only in the
    gate, so every git command goes through run_git."""
    literal = re.compile(r"""["']git["']\s*[,)]""")
    users = sorted(str(path.relative_to(PACKAGE_DIR)) for path in PACKAGE_DIR.rglob("*.py")
                   if literal.search(path.read_text(encoding="utf-8")))
    assert users == ["core/programs.py"]
    source = (PACKAGE_DIR / "core" / "programs.py").read_text(encoding="utf-8")
    assert len(literal.findall(source)) == 2           # run_git's command, and its reading of the settings


# -- a deploy branch checked out elsewhere ------------------------------------------

def test_a_deploy_branch_checked_out_in_a_linked_work_tree_is_refused_and_left_as_it_was(tmp_path):
    game = tmp_path / "game"
    (game / "output" / "site").mkdir(parents=True)
    (game / "output" / "site" / "index.html").write_text("<html>rules</html>\n")
    (game / ".gitignore").write_text("output/\n")
    (game / "sixes.yaml").write_text("deploy:\n  branch: gh-pages\n")
    git("init", "-q", "-b", "main", cwd=game)
    git("add", "-A", cwd=game)
    git("commit", "-q", "-m", "the game", cwd=game)
    linked = tmp_path / "pages"
    git("worktree", "add", "-q", "-b", "gh-pages", str(linked), cwd=game)
    before = git("rev-parse", "gh-pages", cwd=game)
    result = sixes("deploy", "--no-push", "--data", game, cwd=game)
    assert result.exit_code == 1
    assert f"deploy.branch 'gh-pages' is the branch checked out in {linked}" in result.output, result.output
    assert "Traceback" not in result.output
    assert git("rev-parse", "gh-pages", cwd=game) == before
    assert git("status", "--porcelain", cwd=linked) == ""
