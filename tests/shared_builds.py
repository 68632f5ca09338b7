"""Rendered PDFs shared by the tests whose builds keep a cache of their own.

Why: a test that watches the cache (what a build reuses, what a tampered
entry does, what `clean` removes) points SIXES_CACHE_DIR at a folder of its
own, so its first build rendered the starter's every PDF again: the same
renders, test after test. `warm_cache` fills such a folder, before the
test's first build, with the PDFs one build of the same game rendered once
for the whole run, as a user's cache holds them after an earlier build of
that game: the build that follows takes them (a PDF's key is its content's,
wherever the game folder is) and renders only what differs. Under
pytest-xdist the workers share that one build (made under a file lock in
the run's folder, the parent of the workers' temporary folders, like
conftest.example_build), and a test never depends on another having run.

The test's cache stays its own: it gets copies, and may tamper with them.
A test that asserts what a build renders or finds in an empty cache, or who
made the cache's folders, must not be warmed.
"""
from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable

from generator.commands.cli import main
from generator.render.cache.storage import CACHE_VARIABLE, SHARED_PDFS


def run_folder(tmp_path_factory, config) -> Path:
    """The folder every worker of this run shares (its own when there are no workers)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


def rendered_pdfs(name: str, make_game: Callable[[Path], Path], build_args: list[str],
                  tmp_path_factory, config) -> Path:
    """The shared-PDF folder of a cache that only one build filled:
    `sixes build <build_args>` of the game `make_game(folder)` writes, made
    once per run under `name` (which must say which game and arguments)."""
    base = run_folder(tmp_path_factory, config) / f"rendered-{name}"
    with open(base.with_name(base.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # released when the file closes
        if not (base / ".built").exists():
            shutil.rmtree(base, ignore_errors=True)     # what a worker killed mid-build left
            base.mkdir()
            game = make_game(base / "game")
            before = os.environ.get(CACHE_VARIABLE)
            os.environ[CACHE_VARIABLE] = str(base / "cache")
            try:
                args = ["build", "--data", str(game), "--out", str(base / "out"), *build_args]
                assert main.main(args, standalone_mode=False) in (None, 0), args
            finally:
                if before is None:
                    del os.environ[CACHE_VARIABLE]
                else:
                    os.environ[CACHE_VARIABLE] = before
            (base / ".built").write_text("", encoding="utf-8")
    return base / "cache" / SHARED_PDFS


def warm_cache(cache: Path, pdfs: Path) -> None:
    """`cache`, a test's own cache folder not made yet, holding a copy of
    the shared PDFs `pdfs` (rendered_pdfs), as the tool makes it: private
    to this user, the PDFs' folder carrying its marker."""
    cache.mkdir(mode=0o700)
    shutil.copytree(pdfs, cache / SHARED_PDFS)       # copies the folder's mode (0700) and marker
