"""Recovery first, and a quiet exit: a killed run's staging is swept by the
next run even when that run then finds nothing to do, and Ctrl-C sent to the
whole process group, as a terminal sends it, ends with "Interrupted", exit
130, nothing printed after it and no process left, at whatever moment it
comes. Moments are chosen by events (the n-th progress line), never by time."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.commands.output import JOURNAL, STAGING_PREFIX
from generator.core.paths import PROJECT_ROOT
from generator.render.pdf import scratch
from generator.systems.six_shooter import SYSTEM as SIX_SHOOTER
from generator.systems.sixes import SYSTEM as SIXES
from processes import default_interrupt, session_processes, wait_gone
from shared_builds import rendered_pdfs, warm_cache


group_members = session_processes      # live processes of a session (each build runs in its own)


def group_left(sid: int, timeout: float = 10.0) -> list[int]:
    """The session's processes still alive once each has ended or `timeout`
    passed: waits on each process's end (a pidfd), never for a set time. A
    helper such as multiprocessing's resource tracker ends just after the
    build, when it sees the build gone."""
    deadline = time.monotonic() + timeout
    while (members := group_members(sid)) and time.monotonic() < deadline:
        wait_gone(members, max(0.0, deadline - time.monotonic()))
    return group_members(sid)


@pytest.fixture()
def scratch_dir(tmp_path) -> Path:
    """The temporary folder (TMPDIR) of the builds the test launches:
    nothing may be left in it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


@pytest.fixture()
def launch(tmp_path, scratch_dir):
    """Start `sixes build` in a process group of its own; afterwards, fail
    if any process of a group is still there (and kill it so none leaks)."""
    started: list[subprocess.Popen] = []

    def start(data: Path, out: Path, *flags: str) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-m", "generator", "build", "--data", str(data), "--out",
                                    str(out), "--paper", "a4", "--no-site", *flags], cwd=PROJECT_ROOT,
                                   start_new_session=True, preexec_fn=default_interrupt,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                   env={**os.environ, "SIXES_CACHE_DIR": str(tmp_path / "cache"),
                                        "TMPDIR": str(scratch_dir)})
        started.append(process)
        return process

    yield start
    survivors = []
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr:
            process.stderr.close()
        for pid in group_left(process.pid):
            survivors.append(pid)
            os.kill(pid, signal.SIGKILL)
    assert survivors == [], f"processes outlived their build: {survivors}"


def _two_starters(data: Path) -> Path:
    for system in (SIXES, SIX_SHOOTER):         # 12 PDFs on A4: moments enough to choose from
        shutil.copytree(system.starter, data / system.slug)
    return data


@pytest.fixture()
def game(tmp_path) -> Path:
    return _two_starters(tmp_path / "game")


@pytest.fixture()
def warm(tmp_path, tmp_path_factory, request) -> Path:
    """The test's own cache folder, starting with the game's PDFs on A4
    (tests/shared_builds.py: rendered once for the run, as an earlier build
    would leave them), for a test whose first build only sets the scene."""
    warm_cache(tmp_path / "cache", rendered_pdfs("two-starters-a4", _two_starters,
                                                 ["--paper", "a4", "--no-site", "--jobs", "1"],
                                                 tmp_path_factory, request.config))
    return tmp_path / "cache"


def after_progress_lines(process: subprocess.Popen, count: int) -> list[str]:
    """Read stderr up to the `count`-th "[  n/N]" progress line (a PDF staged)."""
    seen = []
    assert process.stderr is not None
    for line in process.stderr:
        seen.append(line)
        if sum(s.startswith("[") for s in seen) == count:
            return seen
    raise AssertionError(f"the build ended before {count} progress lines: {''.join(seen)}")


def build(data: Path, out: Path):
    return CliRunner().invoke(main, ["build", "--data", str(data), "--out", str(out), "--paper", "a4",
                                     "--no-site", "--jobs", "1"], catch_exceptions=False)


# With --jobs 1 the command renders in its own process, and its fonts are in a folder of its own too.
@pytest.mark.parametrize("jobs", ["2", "1"])
def test_a_build_with_nothing_changed_still_sweeps_a_killed_runs_staging(game, tmp_path, launch, monkeypatch,
                                                                         scratch_dir, jobs, warm):
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    assert build(game, out).exit_code == 0
    killed = launch(game, out, "--no-cache", "--jobs", jobs)     # stages every PDF again
    after_progress_lines(killed, 2)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    assert group_left(killed.pid) == []        # its workers too: a live one's folder is not swept
    debris = list(out.glob(f"{STAGING_PREFIX}*"))
    assert debris and list(debris[0].rglob("*.pdf")), "the killed run should have left its staging"
    assert list(scratch_dir.glob(f"{scratch.PREFIX}*")), "the killed renderers should have left their fonts"
    assert [p.name for p in scratch_dir.iterdir() if not p.name.startswith(scratch.PREFIX)] == []

    monkeypatch.setattr(tempfile, "tempdir", str(scratch_dir))     # the next build's temporary folder
    again = build(game, out)

    assert again.exit_code == 0, again.output
    assert "Nothing changed since the last build" in again.output, again.output     # the shortcut
    assert not list(out.glob(f"{STAGING_PREFIX}*"))
    assert list(scratch_dir.iterdir()) == []


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_a_finished_build_leaves_nothing_in_the_temporary_folder(game, tmp_path, launch, scratch_dir, jobs):
    """WeasyPrint copies the fonts into the temporary folder; the rendering
    workers, or the command rendering alone, remove their copies as they end."""
    process = launch(game, tmp_path / "out", "--no-cache", "--jobs", jobs)
    errors = process.stderr.read()
    assert process.wait() == 0, errors
    assert list(scratch_dir.iterdir()) == []


# Ten runs: Ctrl-C after the 1st to 5th progress line, each twice.
@pytest.mark.parametrize("moment", [1, 2, 3, 4, 5, 1, 2, 3, 4, 5])
def test_ctrl_c_to_the_whole_group_ends_with_interrupted_and_nothing_after(game, tmp_path, launch, moment,
                                                                          scratch_dir):
    out = tmp_path / "out"
    process = launch(game, out, "--no-cache", "--jobs", "2")
    after_progress_lines(process, moment)
    os.killpg(process.pid, signal.SIGINT)
    rest = process.stderr.read()
    process.wait()

    assert process.returncode == 130, rest
    assert "Interrupted: the previous output is unchanged." in rest, rest
    assert rest.rstrip().endswith("Interrupted: the previous output is unchanged."), rest
    assert group_left(process.pid) == []
    assert not list(out.glob(f"{STAGING_PREFIX}*"))
    assert list(scratch_dir.iterdir()) == []            # the stopped workers' fonts too


def test_a_half_swap_is_undone_before_a_no_change_build_looks_at_the_output(game, tmp_path, monkeypatch, warm):
    """A run killed between its two journalled renames left pdf/a4 in its
    staging folder: the next build puts it back first, so it finds nothing
    changed and says so (rather than building over a hole)."""
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    assert build(game, out).exit_code == 0
    pdfs = sorted(p.relative_to(out) for p in (out / "pdf" / "a4").rglob("*.pdf"))
    staging = out / f"{STAGING_PREFIX}killed"
    staging.mkdir()
    (out / "pdf" / "a4").rename(staging / ".retired-0")
    (out / JOURNAL).write_text(json.dumps([[str(staging / ".retired-0"), str(out / "pdf" / "a4")]]))

    again = build(game, out)

    assert again.exit_code == 0 and "Nothing changed since the last build" in again.output, again.output
    assert sorted(p.relative_to(out) for p in (out / "pdf" / "a4").rglob("*.pdf")) == pdfs
    assert not staging.exists() and not (out / JOURNAL).exists()


def test_pack_sweeps_a_killed_runs_staging_even_when_it_refuses_its_arguments(game, tmp_path, monkeypatch):
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    secret = out / f"{STAGING_PREFIX}killed" / "pack" / "sixes" / "a4" / "01-secret.pdf"
    secret.parent.mkdir(parents=True)
    secret.write_bytes(b"%PDF-1.7 a secret sheet")
    result = CliRunner().invoke(main, ["pack", "--data", str(game), "--out", str(out), "--system", "sixes",
                                       "--players", "99"], catch_exceptions=False)
    assert result.exit_code != 0
    assert not list(out.glob(f"{STAGING_PREFIX}*"))


# -- the staging folder goes only once nothing writes into it -----------------

def _slow_job(target: Path):
    """A real render: a worker still starts and renders it after the batch is left, unless stopped or waited for."""
    from generator.core.paper import A4
    from generator.render.pdf.weasy import PdfJob
    rows = "".join(f"<tr><td>{n}</td><td>{n * n}</td></tr>" for n in range(300))
    html = f"<html lang=en><head><title>slow</title></head><body><table>{rows}</table></body></html>"
    return PdfJob(html, (PROJECT_ROOT / "templates").as_uri() + "/", target, A4, (PROJECT_ROOT / "templates",),
                  "slow")


def test_ctrl_c_in_a_render_batch_ends_its_workers_before_the_batch_is_left(tmp_path):
    """The staging folder is removed right after the batch: a worker still
    writing then would leave it behind (seen once in CI as a left
    .sixes-staging- folder after Ctrl-C)."""
    from generator.render.pdf.batch import RenderBatch, shared_pool, stop_pools
    try:
        with pytest.raises(KeyboardInterrupt):
            with RenderBatch(None, 2, lambda *a: None) as batch:
                batch.add(_slow_job(tmp_path / "slow.pdf"))
                workers = list(shared_pool(2)._processes)
                assert workers
                raise KeyboardInterrupt
        assert [pid for pid in workers if Path(f"/proc/{pid}").exists()] == []
    finally:
        stop_pools()


def test_a_failure_in_a_render_batch_waits_for_the_renders_under_way(tmp_path):
    """Any other failure keeps the warm pool but lets no render outlive the batch."""
    from generator.render.pdf.batch import RenderBatch, stop_pools
    try:
        with pytest.raises(ValueError):
            with RenderBatch(None, 2, lambda *a: None) as batch:
                batch.add(_slow_job(tmp_path / "slow.pdf"))
                futures = list(batch._pending)
                raise ValueError("a fault found while planning")
        assert futures and all(f.done() for f in futures)
    finally:
        stop_pools()


# -- a worker never hears Ctrl-C, even while it is still starting -------------

def starting_worker(process: subprocess.Popen) -> int:
    """The first rendering worker of the build `process` once its
    interpreter has set its own SIGINT handler and before it is ready: it is
    then importing its modules (about a second), where a KeyboardInterrupt
    would print a traceback. Found from /proc (the event), not by waiting."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        for pid in group_members(process.pid):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
                status = dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                              if ":\t" in line)
            except OSError:
                continue
            if b"spawn_main" in command and int(status["SigCgt"], 16) & (1 << (signal.SIGINT - 1)):
                return pid
    raise AssertionError("no rendering worker started")


def test_ctrl_c_to_a_starting_worker_alone_is_not_heard(game, tmp_path, launch):
    """The worker ignores it from its first instruction: the build goes on and passes."""
    process = launch(game, tmp_path / "out", "--no-cache", "--jobs", "2")
    os.kill(starting_worker(process), signal.SIGINT)
    errors = process.stderr.read()
    assert process.wait() == 0, errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors


# A worker that heard it while importing printed a traceback about one run in four, and the
# command itself died by the SIGINT (-2) after its last line one run in two, the interrupt having
# come while a module it imported made a dataclass (commands/failures.py `Interrupted`): five runs.
@pytest.mark.parametrize("run", range(5))
def test_ctrl_c_to_the_group_while_the_workers_start_prints_no_traceback(game, tmp_path, launch, run):
    process = launch(game, tmp_path / "out", "--no-cache", "--jobs", "2")
    starting_worker(process)
    os.killpg(process.pid, signal.SIGINT)
    rest = process.stderr.read()
    assert process.wait() == 130, rest
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    assert rest.rstrip().endswith("Interrupted: the previous output is unchanged."), rest
    assert group_left(process.pid) == []
