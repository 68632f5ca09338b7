"""core/pids.gone: what lets a sweep remove a file named by a pid (a cache
`.part` file, a render worker's temporary folder) only once its writer can
no longer write."""
from __future__ import annotations

import os
import subprocess
import sys

from generator.core.pids import gone


def test_a_running_process_is_not_gone_and_an_ended_one_is_even_before_it_is_reaped():
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert not gone(child.pid)
        assert not gone(os.getpid())
        assert child.stdin is not None
        child.stdin.close()                                     # it ends now
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # ended, left a zombie: not reaped
        assert gone(child.pid)
    finally:
        child.wait()
    assert gone(child.pid)

