"""`sixes deploy`: publish a built site, the way `mkdocs gh-deploy` does.

Edge layer. To a branch: ghp-import (which MkDocs installs) commits the site
to a branch of the git repository holding the game folder and pushes it. To
a folder: the site is copied through the output writer, so a folder it did
not make is never replaced and a user's own files there (a CNAME) are kept.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path


class DeployError(Exception):
    """Publishing failed; the message says why in one line."""


def to_branch(site: Path, game_dir: Path, branch: str, remote: str, message: str, push: bool) -> None:
    import subprocess

    from ghp_import import GhpError, ghp_import
    inside = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=game_dir, capture_output=True, text=True)
    if inside.returncode != 0:
        raise DeployError(f"{game_dir} is not inside a git repository; run `git init` there, or set "
                          "deploy.folder in sixes.yaml to publish into a folder")
    if push:
        remotes = subprocess.run(["git", "remote"], cwd=game_dir, capture_output=True, text=True).stdout.split()
        if remote not in remotes:
            raise DeployError(f"the repository has no remote '{remote}' (it has: {', '.join(remotes) or 'none'}); "
                              "add it with `git remote add`, set deploy.remote, or pass --no-push")
    here = Path.cwd()
    os.chdir(inside.stdout.strip())
    try:
        ghp_import(str(site), mesg=message, remote=remote, branch=branch, push=push, nojekyll=True, force=False)
    except GhpError as exc:
        raise DeployError(f"publishing to {branch} failed: {exc.message if hasattr(exc, 'message') else exc}") \
            from None
    finally:
        os.chdir(here)


def to_folder(site: Path, target: Path, game_dir: Path) -> Path:
    from .context import protected_folders
    from .output import OutputError, OutputFolder, refuse_unsafe
    target = target.resolve()
    try:
        refuse_unsafe(target, protected_folders(game_dir))      # the folder itself; its parent may hold the game
        with OutputFolder(target.parent, (), [target.name]) as output:
            shutil.copytree(site, output.staging / target.name)
            output.commit([target.name])
    except OutputError as exc:
        raise DeployError(str(exc)) from None
    return target
