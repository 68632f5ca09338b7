"""The machine cannot hurt anyone's files: the build replaces only what it
made, refuses output folders that overlap what it reads, leaves no debris
and no process after Ctrl-C, SIGTERM or SIGKILL, keeps the last good output
whole, reads nothing back that could run code, and survives a bad cache."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from processes import PATIENCE, Output, session_processes, wait_gone
from shared_builds import rendered_pdfs, warm_cache

from generator.commands.cli import main
from generator.commands.output import JOURNAL, RECORD, OutputError, OutputFolder
from generator.core.paths import PROJECT_ROOT, SITE_SOURCES_DIR, TEMPLATES_DIR
from generator.render.pause import PAUSE_VARIABLE, PAUSED
from generator.render.pdf.scratch import PREFIX
from starter_games import sixes_starter

SIXES_CMD = [sys.executable, "-m", "generator"]


@pytest.fixture
def starter(tmp_path) -> Path:
    return sixes_starter(tmp_path / "game")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))


def run(*args, cwd=None):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# -- output folders that must never be written ------------------------------

@pytest.mark.parametrize("where", ["data", "inside data", "parent of data", "root", "home", "templates",
                                   "site sources", "project"])
def test_an_output_folder_overlapping_what_the_build_reads_is_refused_before_anything_is_written(
        starter, tmp_path, where):
    out = {"data": starter, "inside data": starter / "sixes" / "out", "parent of data": tmp_path,
           "root": Path("/"), "home": Path.home(), "templates": TEMPLATES_DIR,
           "site sources": SITE_SOURCES_DIR / "x", "project": PROJECT_ROOT}[where]
    before = tree(starter)
    listing = sorted(os.listdir(out)) if out.is_dir() else None
    result = run("build", "--data", starter, "--out", out, "--paper", "a4", "--no-site")
    assert result.exit_code == 1, result.output
    assert "error: refusing to write into" in result.output and "Traceback" not in result.output
    assert tree(starter) == before
    assert (sorted(os.listdir(out)) if out.is_dir() else None) == listing


def test_a_file_the_user_keeps_where_the_build_would_write_is_left_alone(starter, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "pdf").write_text("my notes")
    result = run("build", "--data", starter, "--out", out, "--paper", "a4", "--no-site")
    assert result.exit_code == 1
    assert f"{out / 'pdf'} is not a folder Sixes Press can write into" in result.output
    assert sorted(os.listdir(out)) == ["pdf"] and (out / "pdf").read_text() == "my notes"


def test_a_pack_refuses_a_user_file_where_its_folders_go(starter, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "pack").write_text("not a folder")
    result = run("pack", "--data", starter, "--out", out, "--paper", "a4")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (out / "pack").read_text() == "not a folder"


@pytest.fixture
def warm(tmp_path, tmp_path_factory, request) -> Path:
    """The test's own cache folder, starting with the starter's PDFs on A4
    (tests/shared_builds.py: rendered once for the run, as an earlier build
    of the game would leave them)."""
    warm_cache(tmp_path / "cache", rendered_pdfs("sixes-starter-a4", sixes_starter, ["--paper", "a4", "--jobs", "1"],
                                                 tmp_path_factory, request.config))
    return tmp_path / "cache"


@pytest.fixture
def built(starter, tmp_path, request) -> Path:
    """The starter built on A4 into a fresh output folder, its cache the
    test's own: `warm`, but for the test of the folders the cache makes
    (`cold_built`)."""
    if "cold_built" not in request.fixturenames:
        request.getfixturevalue("warm")
    out = tmp_path / "out"
    result = run("build", "--data", starter, "--out", out, "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    return out


def test_files_a_user_adds_inside_the_output_survive_a_rebuild(built, starter):
    (built / "site" / "CNAME").write_text("rules.example.org\n")
    (built / "pdf" / "a4" / "notes.txt").write_text("print on card stock")
    edit = starter / "sixes" / "game.yaml"
    edit.write_text(edit.read_text().replace("title:", "title: New", 1))
    result = run("build", "--data", starter, "--out", built, "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert (built / "site" / "CNAME").read_text() == "rules.example.org\n"
    assert (built / "pdf" / "a4" / "notes.txt").read_text() == "print on card stock"
    assert "Kept your own files in the output: " in result.output
    assert "New" in (built / "site" / "sixes" / "index.html").read_text()


def test_the_build_records_what_it_made(built):
    record = json.loads((built / RECORD).read_text())["entries"]
    assert set(record) == {"pdf/a4", "site", "schemas", "gm"}
    assert sorted(record["pdf/a4"]) == sorted(str(p.relative_to(built / "pdf" / "a4"))
                                              for p in (built / "pdf").rglob("*.pdf"))


def test_an_output_pdf_edited_in_place_does_not_change_the_cache(built, starter):
    sheet = next((built / "pdf").rglob("players/*.pdf"))
    original = sheet.read_bytes()
    with open(sheet, "r+b") as handle:        # edited in place, as an editor or a tool would
        handle.seek(0)
        handle.write(b"%EDITED")
    result = run("build", "--data", starter, "--out", built, "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert sheet.read_bytes() == original


# -- the swap ---------------------------------------------------------------

def test_a_swap_cut_in_half_by_a_crash_is_undone_by_the_next_run(tmp_path):
    out = tmp_path / "out"
    with OutputFolder(out, entries=["site"]) as output:
        (output.staging / "site").mkdir()
        (output.staging / "site" / "index.html").write_text("v1")
        output.commit(["site"])
    # A crash after the first of two renames: the old site moved aside, no new one.
    aside = out / ".sixes-staging-crashed"
    aside.mkdir()
    os.replace(out / "site", aside / "old-site")
    (out / JOURNAL).write_text(json.dumps([[str(aside / "old-site"), str(out / "site")]]))
    with OutputFolder(out, entries=["site"]):
        assert (out / "site" / "index.html").read_text() == "v1"
    assert sorted(os.listdir(out)) == sorted([RECORD, "site"])


def test_two_runs_never_write_one_folder_at_once(tmp_path):
    with OutputFolder(tmp_path / "out"):
        with pytest.raises(OutputError, match="another sixes command is writing"):
            with OutputFolder(tmp_path / "out"):
                pass


def test_a_read_only_output_folder_is_one_clear_line(starter, tmp_path):
    """A read-only file system (root ignores a folder's mode bits; skipped where it cannot mount one)."""
    out = tmp_path / "out"
    out.mkdir()
    if os.geteuid() == 0:
        made = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(out)], capture_output=True)
        if made.returncode != 0:
            pytest.skip(f"cannot mount a read-only file system here: {made.stderr.decode().strip()}")
    else:
        out.chmod(0o500)
    try:
        result = run("build", "--data", starter, "--out", out, "--paper", "a4", "--no-site")
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"error: cannot write to {out}: Read-only file system" in result.output \
            or f"error: cannot write to {out}: Permission denied" in result.output, result.output
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(out)], check=False)


def test_a_full_disk_is_one_clear_line_and_the_last_good_output_stays(starter, tmp_path, warm):
    """A 3 MB file system fills during the build (as root on Linux; skipped elsewhere)."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {made.stderr.decode().strip()}")
    try:
        out = mount / "out"
        (mount / "filler").write_bytes(b"\0" * (2 * 1024 * 1024))
        result = subprocess.run([*SIXES_CMD, "build", "--data", str(starter), "--out", str(out), "--paper", "a4",
                                 "--jobs", "1"], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=300,
                                env={**os.environ, "SIXES_CACHE_DIR": str(tmp_path / "cache")})
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr and "No space left on device" in result.stderr
        assert not [p for p in out.iterdir() if p.name.startswith(".sixes-staging-")]
    finally:
        subprocess.run(["umount", str(mount)], check=False)


# -- real signals on a real build ---------------------------------------------

def start_build(spawn, data: Path, out: Path, cache: Path, scratch: Path | None = None) -> subprocess.Popen:
    """A build that stops once it has rendered its first PDF (render/pause.py)
    and goes on only when told: the test signals it mid-way on any machine."""
    return spawn([*SIXES_CMD, "build", "--data", str(data), "--out", str(out), "--paper", "both",
                  "--jobs", "2", "--no-cache"], cwd=PROJECT_ROOT, stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 env={**os.environ, "SIXES_CACHE_DIR": str(cache), PAUSE_VARIABLE: "rendered",
                      **({"TMPDIR": str(scratch)} if scratch else {})})


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_a_signal_mid_build_leaves_the_last_good_output_and_no_process(built, starter, tmp_path, sig, spawn,
                                                                       monkeypatch):
    before = tree(built)
    edit = starter / "sixes" / "game.yaml"
    edit.write_text(edit.read_text().replace("title:", "title: Unfinished", 1))
    scratch = tmp_path / "tmp"          # the build's temporary folder (TMPDIR)
    scratch.mkdir()
    process = start_build(spawn, starter, built, tmp_path / "cache", scratch)
    err = Output(process.stderr)
    err.wait_for(f"{PAUSED} rendered")
    assert [p for p in built.glob(".sixes-staging-*") if list(p.rglob("*.pdf"))], "paused before rendering"
    workers = session_processes(process.pid)
    assert len(workers) > 1, "the build had no rendering workers to stop"
    os.kill(process.pid, sig)
    err.rest()
    process.wait(PATIENCE)
    assert "Traceback" not in err.text, err.text
    assert wait_gone(workers) == [], "worker processes outlived the build"
    if sig != signal.SIGKILL:
        assert process.returncode == 130 and "Interrupted: the previous output is unchanged." in err.text, err.text
        assert not list(built.glob(".sixes-staging-*"))
        assert list(scratch.iterdir()) == []        # the stopped workers' copies of the fonts too
    else:   # nothing can clean up after SIGKILL: the next run does, its staging and its workers' fonts
        assert list(scratch.glob(f"{PREFIX}*")), "the killed workers should have left their fonts"
        monkeypatch.setattr(tempfile, "tempdir", str(scratch))      # the next build's temporary folder
        run("build", "--data", starter, "--out", built, "--paper", "a4", "--jobs", "1", "--no-site")
        assert not list(built.glob(".sixes-staging-*"))
        # What is left is this process's own folder (it rendered that build), removed as it ends.
        assert [p.name for p in scratch.iterdir() if not p.name.startswith(f"{PREFIX}{os.getpid()}-")] == []
        return
    assert tree(built) == before


# -- the cache ----------------------------------------------------------------

def test_a_planted_pickle_or_tampered_cache_runs_nothing_and_counts_as_a_miss(built, starter, tmp_path):
    from generator.render.cache import cache_root
    root = cache_root(built)
    marker = tmp_path / "pwned"
    payload = (b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR.")
    (root / "memo.pickle").write_bytes(payload)
    (root / "memo.json").write_text(json.dumps({"version": "x", "entries": {"k": {"$data": "os:system",
                                                                                   "fields": {}}}}))
    from generator.render.cache.storage import shared_pdfs_root
    pdfs = sorted(shared_pdfs_root().glob("*.pdf"))
    assert pdfs, "the build cached no PDF"
    for pdf in pdfs[::2]:
        pdf.write_bytes(b"%PDF-1.7 not what was rendered")
    for pdf in pdfs[1::2]:                      # a record that is not [pages, checksum]
        pdf.with_suffix(".json").write_text(json.dumps({"$data": "os:system", "pages": 1}))
    edit = starter / "sixes" / "characters" / "first-rival.yaml"      # the other sheets would be reused
    edit.write_text(edit.read_text().replace("name: First Rival", "name: First Rivals", 1))
    result = run("build", "--data", starter, "--out", built, "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert not marker.exists()
    assert "0 reused from earlier builds" in result.output   # every tampered PDF was a miss


def test_the_memo_codec_builds_only_our_own_plain_values():
    from fractions import Fraction

    from generator.render.cache import decode, encode
    from generator.systems.sixes.simulate import Summary
    summary = Summary("random", ("A", "B"), ("x",), (1, 2), (1, 1), 0, {"x": {"Dead": 1}})
    for value in [Fraction(1, 3), {"a": (1, [2, Fraction(5, 7)])}, {3: "x"}, summary]:
        assert decode(json.loads(json.dumps(encode(value)))) == value
    for hostile in [{"$data": "os:system", "fields": {}}, {"$data": "subprocess:Popen", "fields": {}},
                    {"$data": "generator.commands.cli:main", "fields": {}}, {"$fraction": ["1", 2]}, {"$eval": "1"}]:
        with pytest.raises((ValueError, TypeError, KeyError)):
            decode(hostile)


def test_a_cache_folder_that_is_a_file_is_a_warning_and_the_build_goes_on(starter, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("SIXES_CACHE_DIR", str(blocker))
    result = run("build", "--data", starter, "--out", tmp_path / "out", "--paper", "a4", "--jobs", "1",
                 "--no-site")
    assert result.exit_code == 0, result.output
    assert "warning: cache folder" in result.output and "building without the cache" in result.output
    assert list((tmp_path / "out" / "pdf").rglob("*.pdf"))


def test_a_cache_folder_others_can_write_is_not_used(starter, tmp_path, monkeypatch):
    shared = tmp_path / "shared-cache"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("SIXES_CACHE_DIR", str(shared))
    result = run("build", "--data", starter, "--out", tmp_path / "out", "--paper", "a4", "--jobs", "1",
                 "--no-site")
    assert result.exit_code == 0, result.output
    assert "is not a private folder of this user's" in result.output
    assert os.listdir(shared) == []


@pytest.fixture
def cold_built(built) -> Path:
    """`built` from a cache that was empty: every folder in it the build's own."""
    return built


def test_the_cache_folders_are_private(cold_built):
    built = cold_built
    from generator.render.cache import cache_base, cache_root
    from generator.render.cache.storage import shared_pdfs_root
    for folder in (cache_base(), cache_root(built), shared_pdfs_root()):
        assert folder.stat().st_mode & 0o077 == 0, folder


# -- long-running commands ------------------------------------------------------

def test_snapshot_survives_files_that_vanish_while_it_looks(tmp_path, monkeypatch):
    from generator.commands import watch
    (tmp_path / "a.yaml").write_text("x: 1\n")
    (tmp_path / "gone.tmp").write_text("")
    real_stat = Path.stat

    def vanishing(self, *args, **kwargs):
        if self.name == "gone.tmp":
            raise FileNotFoundError(2, "No such file or directory", str(self))
        return real_stat(self, *args, **kwargs)
    monkeypatch.setattr(Path, "stat", vanishing)
    assert list(watch.snapshot([tmp_path])) == [str(tmp_path / "a.yaml")]
    assert watch.snapshot([tmp_path / "no-such-folder"]) == {}


def test_watch_survives_bad_yaml_and_file_churn_and_rebuilds_when_fixed(starter, tmp_path, spawn, warm):
    out, game = tmp_path / "out", starter / "sixes" / "game.yaml"
    good = game.read_text()
    process = spawn([*SIXES_CMD, "build", "--watch", "--data", str(starter), "--out", str(out),
                     "--paper", "a4", "--no-site", "--jobs", "1"], cwd=PROJECT_ROOT,
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    env={**os.environ, "SIXES_CACHE_DIR": str(tmp_path / "cache")})
    log = Output(process.stdout)
    log.wait_for("Watching", 1)
    game.write_text(good + "extra: !secret hidden\n")
    for i in range(30):     # an editor's temporary files appear and vanish
        churn = starter / "sixes" / f".#game{i}.yaml"
        churn.write_text("x")
        churn.unlink()
    log.wait_for("Watching", 2)
    assert "error:" in log.text and process.poll() is None
    sheets = sorted((out / "pdf").rglob("*.pdf"))
    assert sheets, "the last good output went"
    game.write_text(good.replace("title:", "title: Fixed", 1))
    log.wait_for("Built ", 2)
    log.wait_for("Watching", 3)         # idle again: Ctrl-C now ends a watch, not a build
    assert process.poll() is None and "Traceback" not in log.text
    workers = session_processes(process.pid)
    os.kill(process.pid, signal.SIGINT)
    log.rest()
    assert process.wait(PATIENCE) == 0, log.text     # Ctrl-C is how a watch ends, not a failure
    assert wait_gone(workers) == [], "the watch left processes behind"


def test_a_rebuild_that_fails_in_any_way_does_not_end_the_watch(monkeypatch, capsys):
    from generator.commands.watch import survive

    def broken():
        raise RuntimeError("a bug in the build \x1b[31m")
    assert survive(broken) is False
    assert survive(lambda: sys.exit(1)) is False
    with pytest.raises(KeyboardInterrupt):      # Ctrl-C during a rebuild still ends the watch
        survive(lambda: sys.exit(130))
    err = capsys.readouterr().err
    assert "the build failed unexpectedly (RuntimeError: a bug in the build \\x1b[31m)" in err


def test_partial_cache_files_of_a_killed_run_are_swept(built, starter):
    from generator.render.cache import cache_root
    from generator.render.cache.storage import shared_pdfs_root
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    left = [cache_root(built) / f"memo.json.{dead}.part", shared_pdfs_root() / f"abc.pdf.{dead}.part"]
    for path in left:
        path.write_text("half")
    edit = starter / "sixes" / "game.yaml"
    edit.write_text(edit.read_text().replace("title:", "title: Swept", 1))
    assert run("build", "--data", starter, "--out", built, "--paper", "a4", "--jobs", "1").exit_code == 0
    assert not any(path.exists() for path in left)


def test_a_hand_edited_record_cannot_point_the_writer_outside_the_output(tmp_path):
    out, victim = tmp_path / "out", tmp_path / "precious"
    victim.mkdir()
    (victim / "x-pack-a4.zip").write_text("keep me")
    out.mkdir()
    (out / RECORD).write_text(json.dumps({"entries": {"pack/sixes/../../../precious/x-pack-a4.zip": [""],
                                                      "/etc/passwd": [""], "site": []}}))
    with OutputFolder(out, entries=["site"]) as output:
        assert set(output.record()) == {"site"}
        (output.staging / "site").mkdir()
        output.commit(["site"], retire=["pack/sixes/../../../precious/x-pack-a4.zip", "/etc/passwd"])
    assert (victim / "x-pack-a4.zip").read_text() == "keep me"


def test_a_record_cannot_retire_a_file_through_a_link_in_the_output(tmp_path):
    """A game folder may ship its output/: a record naming an entry under a
    link to another folder would have a pack remove a file there."""
    out, victim = tmp_path / "out", tmp_path / "precious"
    victim.mkdir()
    (victim / "x-pack-a4.zip").write_text("keep me")
    (out / "pack" / "sixes").mkdir(parents=True)
    (out / "pack" / "sixes" / "elsewhere").symlink_to(victim)
    (out / RECORD).write_text(json.dumps({"entries": {"pack/sixes/elsewhere/x-pack-a4.zip": [""]}}))
    with OutputFolder(out, entries=["site"]) as output:
        (output.staging / "site").mkdir()
        with pytest.raises(OutputError, match="not a folder Sixes Press can write into"):
            output.commit(["site"], retire=["pack/sixes/elsewhere/x-pack-a4.zip"])
    assert (victim / "x-pack-a4.zip").read_text() == "keep me"
    assert not (out / "site").exists()


@pytest.mark.parametrize("move", [
    ["{out}/.sixes-staging-x/../../outside/secret.txt", "{out}/site/stolen.txt"],     # a file from elsewhere in
    ["{out}/.sixes-staging-x/planted.txt", "{out}/site/../../outside/planted.txt"],   # a file planted elsewhere
    ["{out}/linked/secret.txt", "{out}/site/stolen.txt"],                             # through a link to a folder
    ["{out}/.sixes-staging-x/secret-link", "{out}/site/stolen.txt"],                  # a link moved in
    ["{out}/.sixes-staging-x/planted.txt", "{out}/linked/planted.txt"],               # out through a link
    ["{out}/site/index.html", "{out}/stolen.txt"],                                    # not from a staging folder
])
def test_a_planted_journal_moves_nothing_into_or_out_of_the_output(tmp_path, move):
    """The journal is read from the output folder, which a game folder may
    ship (its output/): only a move `_swap` could have written is replayed."""
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("the GM's secret")
    (out / ".sixes-staging-x").mkdir(parents=True)
    (out / ".sixes-staging-x" / "planted.txt").write_text("planted")
    (out / ".sixes-staging-x" / "secret-link").symlink_to(outside / "secret.txt")
    (out / "site").mkdir()
    (out / "site" / "index.html").write_text("site")
    (out / "linked").symlink_to(outside)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.name != "planted.txt")
    (out / JOURNAL).write_text(json.dumps([[m.format(out=out) for m in move]]))
    with OutputFolder(out, entries=["pdf"]):
        pass
    assert (outside / "secret.txt").read_text() == "the GM's secret"
    assert not (out / "site" / "stolen.txt").exists() and not (out / "stolen.txt").exists()
    assert not (outside / "planted.txt").exists()
    assert (out / "site" / "index.html").read_text() == "site"
    assert not (out / JOURNAL).exists()
    after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.name != "planted.txt")
    kept = [p for p in before if ".sixes-staging-" not in str(p)]
    assert [p for p in after if ".sixes-staging-" not in str(p)] == kept


def test_a_link_inside_an_output_entry_is_never_carried_into_the_new_output(tmp_path):
    """A game folder may ship its output/ with a record that claims site/ and
    a link in it to a file elsewhere: carried along, `sixes deploy` to a
    folder would publish that file's content. It is refused, like a pipe."""
    out, outside = tmp_path / "out", tmp_path / "secret.txt"
    outside.write_text("the GM's secret")
    (out / "site").mkdir(parents=True)
    (out / "site" / "leak.txt").symlink_to(outside)
    (out / RECORD).write_text(json.dumps({"entries": {"site": []}}))
    with OutputFolder(out, entries=["site"]) as output:
        (output.staging / "site").mkdir()
        (output.staging / "site" / "index.html").write_text("new")
        with pytest.raises(OutputError, match="is not a regular file \\(a link"):
            output.commit(["site"])
        assert not (output.staging / "site" / "leak.txt").is_symlink()
    assert (out / "site" / "leak.txt").is_symlink() and not (out / "site" / "index.html").exists()


def test_a_pipe_left_inside_an_output_folder_is_refused_not_waited_on(tmp_path):
    out = tmp_path / "out"
    with OutputFolder(out, entries=["site"]) as output:
        (output.staging / "site").mkdir()
        output.commit(["site"])
    os.mkfifo(out / "site" / "pipe")
    with OutputFolder(out, entries=["site"]) as output:
        (output.staging / "site").mkdir()
        with pytest.raises(OutputError, match="is not a regular file"):
            output.commit(["site"])
    assert (out / "site" / "pipe").exists()


# -- one writer: no path is written twice -----------------------------------

def test_the_writer_refuses_a_second_write_to_one_path_in_any_case(tmp_path):
    with OutputFolder(tmp_path / "out") as output:
        output.claim(output.staging / "pdf" / "a4" / "sixes" / "gm" / "cheat-sheet.pdf")
        output.claim(output.staging / "pdf" / "a4" / "sixes" / "gm" / "roster.pdf")     # another path: fine
        with pytest.raises(OutputError) as caught:
            output.claim(output.staging / "pdf" / "a4" / "sixes" / "gm" / "Cheat-Sheet.pdf")
    assert str(caught.value) == "two documents would both write pdf/a4/sixes/gm/Cheat-Sheet.pdf"


def test_two_documents_planned_onto_one_file_stop_the_build_and_write_nothing(starter, tmp_path):
    from generator.commands.context import BuildConfig, BuildContext
    from generator.core.paper import A4
    from generator.render.pdf.jobs import Budget
    from generator.render.pdf.weasy import PdfJob

    def job(target: Path, label: str) -> tuple[Budget, PdfJob]:
        html = f"<html lang=en><head><title>{label}</title></head><body><p>{label}</p></body></html>"
        return Budget(1), PdfJob(html, TEMPLATES_DIR.as_uri() + "/", target, A4, (TEMPLATES_DIR,), label)

    out = tmp_path / "out"
    config = BuildConfig(starter, out, (A4,), site=False, workers=1)
    with pytest.raises(OutputError, match="two documents would both write pdf/a4/sixes/public/rules.pdf"):
        with BuildContext(config, ["pdf/a4"]) as ctx:
            where = ctx.staging / "pdf" / "a4" / "sixes" / "public"
            ctx.render([job(where / "rules-reference.pdf", "first"), job(where / "RULES.pdf", "second"),
                        job(where / "rules.pdf", "third")])
            ctx.commit()
    assert not (out / "pdf").exists()
