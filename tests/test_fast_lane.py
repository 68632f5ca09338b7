"""The fast lane's list names real files, and its guard refuses slow work:
a PDF render and the programs a slow test starts raise SlowInFastLane."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fast_lane import FAST_FILES, SlowInFastLane, guard, slow_program
from generator.core.paper import A4
from generator.render.pdf.weasy import PdfJob, render_pdf

TESTS = Path(__file__).parent


def test_every_file_of_the_lane_exists():
    assert sorted(name for name in FAST_FILES if not (TESTS / name).is_file()) == []


@pytest.mark.parametrize("args", [
    ["chromium", "--headless"], ["/usr/bin/chromium"], [sys.executable, "-m", "pip", "wheel", "."],
    [sys.executable, "-m", "build"], [sys.executable, "-m", "generator", "build", "--data", "data"],
    ["/venv/bin/sixes", "pack", "game"], "sixes serve --data data",
])
def test_the_guard_names_slow_programs(args):
    assert slow_program(args) is not None


@pytest.mark.parametrize("args", [
    [sys.executable, "-c", "pass"], [sys.executable, "-m", "generator", "check", "--data", "data"],
    ["git", "status"], ["msgfmt", "--check", "x.po"],
])
def test_the_guard_lets_quick_programs_run(args):
    assert slow_program(args) is None


def test_in_the_lane_a_render_and_a_browser_raise(tmp_path):
    job = PdfJob("<p>one</p>", tmp_path.as_uri() + "/", tmp_path / "page.pdf", A4, (tmp_path,), "page")
    with pytest.MonkeyPatch.context() as patch:
        guard(patch)
        with pytest.raises(SlowInFastLane, match="renders a PDF"):
            render_pdf(job)
        with pytest.raises(SlowInFastLane, match="chromium"):
            subprocess.Popen(["chromium", "--headless"])
        subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
    assert not (tmp_path / "page.pdf").exists()
