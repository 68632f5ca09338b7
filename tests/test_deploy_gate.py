"""`sixes deploy` and git: settings never become git options, names are
checked as git checks them (at sixes.yaml:line:col), the checked-out branch
is refused, the deploy branch's history is kept, and a failed push is one
line with nothing left behind in .git. Real repositories in tmp_path, with a
bare repository as the remote."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core.programs import ProgramError, run_program
from generator.core.paths import PACKAGE_DIR
from generator.game.gitref import branch_problem, remote_problem

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def sixes(*args, cwd: Path):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    finally:
        os.chdir(old)


def git(*args: str, cwd: Path, check: bool = True) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check).stdout.strip()


@pytest.fixture(autouse=True)
def identity(monkeypatch, tmp_path):
    for key, value in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
                       "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"),
                       "GIT_CONFIG_NOSYSTEM": "1"}.items():
        monkeypatch.setenv(key, value)


@pytest.fixture()
def game(tmp_path) -> Path:
    """A game folder in a git repository on `main`, with one commit and a
    built site (deploy publishes whatever output/site holds)."""
    folder = tmp_path / "game"
    (folder / "output" / "site" / "rules").mkdir(parents=True)
    (folder / "sixes.yaml").write_text("paper: a4\n")
    (folder / "notes.md").write_text("the GM's own notes\n")
    (folder / ".gitignore").write_text("output/\n")
    (folder / "output" / "site" / "index.html").write_text("<html>rules</html>\n")
    (folder / "output" / "site" / "rules" / "index.html").write_text("<html>more</html>\n")
    git("init", "-q", "-b", "main", cwd=folder)
    git("add", "-A", cwd=folder)
    git("commit", "-q", "-m", "the game", cwd=folder)
    return folder


@pytest.fixture()
def remote(tmp_path, game) -> Path:
    """A bare repository as origin, already holding someone else's branch."""
    bare = tmp_path / "remote.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    git("remote", "add", "origin", str(bare), cwd=game)
    git("push", "-q", "origin", "main:refs/heads/theirs", cwd=game)
    return bare


def settings(game: Path, text: str) -> None:
    (game / "sixes.yaml").write_text("paper: a4\n" + text)


def refs(repo: Path) -> str:
    return git("for-each-ref", "--format=%(refname) %(objectname)", cwd=repo)


def test_an_option_looking_branch_is_refused_at_check_with_its_line_and_the_remote_is_untouched(game, remote):
    settings(game, 'deploy:\n  branch: "--mirror"\n')
    before = refs(remote)
    checked = sixes("check", cwd=game)
    assert checked.exit_code == 1
    assert re.search(r"sixes\.yaml:3:11: error: deploy\.branch: '--mirror' cannot be a git branch: it begins "
                     r"with '-'.*allowed: ", checked.output), checked.output
    deployed = sixes("deploy", cwd=game)
    assert deployed.exit_code == 1 and "cannot be a git branch" in deployed.output
    assert refs(remote) == before and "refs/heads/theirs" in before


BAD_BRANCHES = ["a..b", "site.lock", "gh pages", "@", "a@{1}", "/x", "x/", "a//b", ".hidden", "a/.b", "HEAD",
                "-x", "a~1", "a^2", "a:b", "a?", "a*", "a[b", "a\\b", "end.", "tab\there", "del\x7f"]
BAD_REMOTES = ["a..b", "site.lock", "gh pages", "a@{1}", ".hidden", "-x", "--mirror", "a~1", "a^2", "a:b", "a?",
               "a*", "a[b", "a\\b", "tab\there", "a/b"]


@pytest.mark.parametrize("what, name", [("branch", n) for n in BAD_BRANCHES] + [("remote", n) for n in BAD_REMOTES])
def test_names_git_refuses_are_refused_at_check_with_their_line(game, what, name):
    settings(game, f"deploy:\n  {what}: " + _yaml_string(name) + "\n")
    result = sixes("check", cwd=game)
    assert result.exit_code == 1
    assert f"sixes.yaml:3:{len(what) + 5}: error: deploy.{what}: " in result.output, result.output
    # A control character is refused first by the one text gate (core/text.py), at the same place.
    expected = ("invisible character" if any((ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0 for c in name)
                else f"cannot be a git {what}")
    assert expected in result.output, result.output


def _yaml_string(text: str) -> str:
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\x{ord(c):02x}" for c in text) + '"'


NAMES = ["gh-pages", "site/v1", "rules_2024", "ünïcode", "a.b", "x-y.z", "a..b", "site.lock", "a b", "@", "a@b",
         "a@{1}", "/x", "x/", "a//b", ".hidden", "a/.b", "HEAD", "a~1", "a^2", "a:b", "a?", "a*", "a[b", "a\\b",
         "end.", "tab\there", "@{", "a/b.lock/c", "a.lock.b"]


@pytest.mark.parametrize("name", NAMES)
def test_the_rules_agree_with_git_itself(tmp_path, name):
    """git check-ref-format is the oracle ('@', HEAD's other name, is ours to
    refuse as a branch, and '/' in a remote's name)."""
    branch = subprocess.run(["git", "check-ref-format", "--branch", name], cwd=tmp_path, capture_output=True)
    assert (branch_problem(name) is None) == (branch.returncode == 0 and name != "@"), name
    remote = subprocess.run(["git", "check-ref-format", f"refs/remotes/{name}/x"], cwd=tmp_path, capture_output=True)
    assert (remote_problem(name) is None) == (remote.returncode == 0 and "/" not in name), name


def test_the_checked_out_branch_is_refused_and_left_as_it_was(game):
    settings(game, "deploy:\n  branch: main\n")
    head, files = git("rev-parse", "HEAD", cwd=game), sorted(p.name for p in game.iterdir())
    result = sixes("deploy", "--no-push", cwd=game)
    assert result.exit_code == 1 and "is the branch checked out" in result.output, result.output
    assert git("rev-parse", "HEAD", cwd=game) == head and sorted(p.name for p in game.iterdir()) == files
    assert (game / "notes.md").read_text() == "the GM's own notes\n"


def _commit_on(game: Path, branch: str, text: str) -> str:
    """An unpushed commit on `branch`, made without touching the checkout."""
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=game, input=text, capture_output=True,
                          text=True, check=True).stdout.strip()
    tree = subprocess.run(["git", "mktree"], cwd=game, input=f"100644 blob {blob}\tCNAME\n", capture_output=True,
                          text=True, check=True).stdout.strip()
    commit = git("commit-tree", tree, "-m", "my own commit", cwd=game)
    git("update-ref", f"refs/heads/{branch}", commit, cwd=game)
    return commit


@pytest.mark.parametrize("push", [False, True], ids=["no-push", "push"])
def test_an_unpushed_commit_on_the_deploy_branch_is_kept_as_the_parent(game, remote, push):
    mine = _commit_on(game, "gh-pages", "rules.example.org\n")
    result = sixes("deploy", *(() if push else ("--no-push",)), "-m", "Site", cwd=game)
    assert result.exit_code == 0, result.output
    assert git("rev-parse", "gh-pages^", cwd=game) == mine
    assert git("log", "-1", "--format=%s", "gh-pages", cwd=game) == "Site"
    files = git("ls-tree", "-r", "--name-only", "gh-pages", cwd=game).split()
    assert sorted(files) == [".nojekyll", "index.html", "rules/index.html"]
    if push:
        assert git("rev-parse", "gh-pages", cwd=remote) == git("rev-parse", "gh-pages", cwd=game)
        assert git("rev-parse", "gh-pages^", cwd=remote) == mine
    again = sixes("deploy", "--no-push", cwd=game)
    assert again.exit_code == 0 and len(git("rev-list", "gh-pages", cwd=game).split()) == 3
    assert git("status", "--porcelain", cwd=game) == "" and git("rev-parse", "--abbrev-ref", "HEAD", cwd=game) == "main"


def _dot_git(game: Path) -> set[str]:
    return {str(p.relative_to(game / ".git")) for p in (game / ".git").rglob("*")}


def test_an_unreachable_remote_is_one_line_and_leaves_nothing_in_dot_git(game, tmp_path):
    git("remote", "add", "origin", (tmp_path / "gone").as_uri(), cwd=game)
    mine = _commit_on(game, "gh-pages", "kept\n")
    before_refs, before_files = refs(game), _dot_git(game)

    result = sixes("deploy", cwd=game)

    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: pushing gh-pages to origin failed: "), result.output
    assert "Traceback" not in result.output
    assert refs(game) == before_refs and git("rev-parse", "gh-pages", cwd=game) == mine
    assert git("status", "--porcelain", cwd=game) == ""
    fsck = subprocess.run(["git", "fsck", "--no-dangling"], cwd=game, capture_output=True, text=True)
    assert fsck.returncode == 0 and fsck.stdout == "" and "error" not in fsck.stderr, fsck.stdout + fsck.stderr
    new = _dot_git(game) - before_files
    assert new and all(path.startswith("objects/") for path in new), sorted(new)


def test_programs_are_started_in_one_place_and_operands_follow_a_double_dash(tmp_path):
    starters = re.compile(r"\bsubprocess\b|os\.system|os\.popen|os\.exec|os\.spawn|pty\.spawn")
    users = sorted(str(path.relative_to(PACKAGE_DIR)) for path in PACKAGE_DIR.rglob("*.py")
                   if starters.search(path.read_text(encoding="utf-8")))
    assert users == ["core/programs.py"]
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    # `--mirror` as an operand is a path to git, never an option: ls-files knows no such file.
    with pytest.raises(ProgramError) as raised:
        run_program(("git", "ls-files", "--error-unmatch"), ("--mirror",), cwd=tmp_path)
    assert "--mirror" in str(raised.value) and "\n" not in str(raised.value)
    with pytest.raises(ProgramError, match="is not installed"):
        run_program(("no-such-program-sixes",), cwd=tmp_path)


def test_a_fresh_clone_builds_on_the_remotes_deploy_branch(game, remote, tmp_path):
    """No local gh-pages yet, but the remote has one (someone else deployed):
    the new commit goes on top of it, so the push is a fast-forward."""
    theirs = _commit_on(game, "gh-pages", "rules.example.org\n")
    git("push", "-q", "origin", "gh-pages", "main", cwd=game)
    clone = tmp_path / "clone"
    git("clone", "-q", "-b", "main", str(remote), str(clone), cwd=tmp_path)
    (clone / "output" / "site").mkdir(parents=True)
    (clone / "output" / "site" / "index.html").write_text("<html>new</html>\n")
    result = sixes("deploy", cwd=clone)
    assert result.exit_code == 0, result.output
    assert git("rev-parse", "gh-pages^", cwd=remote) == theirs
    assert git("rev-parse", "gh-pages", cwd=clone) == git("rev-parse", "gh-pages", cwd=remote)
