"""Shared fixtures. The example pack is built once per test run (shared by
pytest-xdist's workers), because rendering every PDF takes seconds; tests
only read what it wrote. `spawn` starts child processes and makes sure none
outlives its test."""
from __future__ import annotations

import fcntl
import json
import pickle
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from browsers import CHROMIUM, MISSING, chromium
from generator.core.paths import DEFAULT_DATA_DIR, PROJECT_ROOT
from generator.render.cache.storage import CACHE_VARIABLE

SHARED_DIR = PROJECT_ROOT.parent / "shared"

# The fast lane (`pytest --fast-lane`): its option, its files and its guard.
pytest_plugins = ("fast_lane",)


@pytest.fixture(scope="session", autouse=True)
def run_cache(tmp_path_factory, request) -> Iterator[Path]:
    """Every build of the run caches under the run's own temporary folder,
    never in the user's ~/.cache (where each test's output folder left a
    cache folder of its own: hundreds of megabytes after a few runs). Under
    pytest-xdist the workers share it (the parent of their temporary
    folders), as two builds of one user share theirs: a starter game one
    worker rendered is not rendered again by the other. Tests that look at
    the cache set SIXES_CACHE_DIR themselves; child processes inherit this
    one. The test process's own temporary files go in its own folder:
    the fonts WeasyPrint copies for a test's in-process renders stay with
    its font configuration until the process ends, and a pytest-xdist
    worker ends without removing them (one `weasyprint-*` folder in /tmp
    per run). So do the child processes' (TMPDIR): a build a test kills
    leaves its workers' folders for the next build in the same folder to
    sweep, and none may come after it."""
    shared = hasattr(request.config, "workerinput")
    folder = (tmp_path_factory.getbasetemp().parent if shared else tmp_path_factory.getbasetemp()) / "cache"
    scratch = tmp_path_factory.getbasetemp() / "tmp"
    scratch.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_VARIABLE, str(folder))
        patch.setenv("TMPDIR", str(scratch))
        patch.setattr(tempfile, "tempdir", str(scratch))
        yield folder


@pytest.fixture(scope="session")
def example_build(tmp_path_factory, request):
    """The shipped example data built into a temporary output folder (both
    papers, with the site). Under pytest-xdist the workers of a run share one
    build: the first to take the lock builds into the run's own folder (the
    parent of every worker's temporary folder) and leaves its report there;
    the others wait on the lock, then read the report."""
    from generator.commands.build import build
    from generator.commands.context import BuildConfig
    if not hasattr(request.config, "workerinput"):      # one process: no one to share with
        return build(BuildConfig(DEFAULT_DATA_DIR, tmp_path_factory.mktemp("example-out")))
    run_folder = tmp_path_factory.getbasetemp().parent
    saved = run_folder / "example-build.pickle"
    with open(run_folder / "example-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # released when the file closes
        if saved.exists():
            return pickle.loads(saved.read_bytes())
        report = build(BuildConfig(DEFAULT_DATA_DIR, run_folder / "example-out"))
        saved.write_bytes(pickle.dumps(report))
        return report


@pytest.fixture
def spawn():
    """Start a child process (same arguments as subprocess.Popen) in a
    session of its own. At the end of the test, anything left of that
    session (the child, its rendering workers) is killed, and the test fails
    if there was anything: no test leaves a process behind."""
    from processes import default_interrupt, end_session
    started: list[subprocess.Popen] = []

    def start(args, **kwargs) -> subprocess.Popen:
        process = subprocess.Popen(args, start_new_session=True, preexec_fn=default_interrupt, **kwargs)
        started.append(process)
        return process
    yield start
    left = {" ".join(map(str, process.args if isinstance(process.args, list) else [process.args])): pids
            for process in started if (pids := end_session(process))}
    if left:
        pytest.fail(f"processes outlived the test and were killed: {left}")


@pytest.fixture(scope="module")
def browser():
    """One browser per test module (tests/browsers.py); the tests that need
    it are skipped without Chromium."""
    if CHROMIUM is None:
        pytest.skip(MISSING)
    with chromium() as running:
        yield running


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of the example data folder, for tests that break it."""
    target = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, target)
    return target


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite tests/golden/ from the current output (review the diff before committing).")
    parser.addoption("--store-durations", action="store_true",
                     help=f"Rewrite {DURATIONS.name} with the seconds each test file took in this run.")


# Seconds each test file took in a whole run (`pytest --store-durations`).
# pytest-xdist hands out whole files (`--dist loadfile`) in collection order
# (`--no-loadscope-reorder`), so the heaviest go first: a file of one
# long build handed out last kept one worker busy while the other sat idle.
DURATIONS = Path(__file__).with_name("durations.json")


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(config, items):
    """Test files heaviest first (a file not yet timed counts as heavy);
    within a file, the order it was written in."""
    try:
        seconds = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    unknown = max(seconds.values(), default=0.0)
    items.sort(key=lambda item: -seconds.get(_file_of(item.nodeid), unknown))     # sort is stable


_times: dict[str, float] = {}


def pytest_runtest_logreport(report):
    """Adds up each file's setup, call and teardown (under pytest-xdist the
    controller is told every worker's reports)."""
    _times[_file_of(report.nodeid)] = _times.get(_file_of(report.nodeid), 0.0) + report.duration


def pytest_sessionfinish(session, exitstatus):
    if session.config.getoption("--store-durations") and not hasattr(session.config, "workerinput"):
        DURATIONS.write_text(json.dumps({k: round(v, 1) for k, v in sorted(_times.items())}, indent=1) + "\n",
                             encoding="utf-8")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")
