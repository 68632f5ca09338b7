"""render/scratch.sweep: it removes only the temporary folders of render
workers that are gone, and nothing that merely looks like one."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from generator.render.pdf import scratch


def test_sweep_removes_a_dead_workers_folder_and_keeps_a_live_ones_a_link_and_a_stranger(tmp_path, monkeypatch):
    base = tmp_path / "tmp"
    base.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(base))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                           text=True, check=True)
    dead = base / f"{scratch.PREFIX}{ended.stdout.strip()}-abc"
    live = base / f"{scratch.PREFIX}{os.getpid()}-abc"
    for folder in (dead, live):
        folder.mkdir()
        (folder / "font.ttf").write_bytes(b"font")
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "keep.txt").write_text("mine")
    lure = base / f"{scratch.PREFIX}{ended.stdout.strip()}-link"         # named like a dead worker's, but a link
    lure.symlink_to(precious, target_is_directory=True)
    stranger = base / f"{scratch.PREFIX}notapid-x"
    stranger.mkdir()

    scratch.sweep()

    assert not dead.exists()
    assert (live / "font.ttf").is_file() and lure.is_symlink() and stranger.is_dir()
    assert (precious / "keep.txt").read_text() == "mine"
