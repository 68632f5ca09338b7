"""Child processes in tests: started in a session of their own, read by
event (a line appears on their output), and waited for by event (the kernel
says the process ended), never by sleeping. `conftest.spawn` starts them and
fails a test that leaves any of them, or their workers, behind.

A deadline is a last resort against a hung program, and generous: a loaded
2-core machine can be many times slower than a quiet one.
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from pathlib import Path

PATIENCE = 300.0        # seconds: for a program that hangs, not for one that is slow


def default_interrupt() -> None:
    """In a child (as `preexec_fn`): Ctrl-C back to its default. A
    pytest-xdist worker, or a job a non-interactive shell put in the
    background (as CI may run `make test`), ignores SIGINT; its children
    inherit that, and Python then never raises KeyboardInterrupt: a test's
    Ctrl-C would go unheard, unlike a user's."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def session_processes(sid: int) -> list[int]:
    """The live (not zombie) processes of session `sid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def wait_gone(pids: list[int], timeout: float = PATIENCE) -> list[int]:
    """Wait until each process has ended (a pidfd becomes readable then);
    the ones still alive after `timeout`."""
    deadline = time.monotonic() + timeout
    for pid in pids:
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            select.select([handle], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(handle)
    return [pid for pid in pids if _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Output:
    """What a child writes to one pipe, read as it comes: `wait_for` returns
    as soon as a text has appeared (or the child closed the pipe)."""

    def __init__(self, stream):
        self.stream, self.text = stream, ""
        os.set_blocking(stream.fileno(), False)

    def _read(self, timeout: float) -> bool:
        """Read what there is, waiting up to `timeout`; False at the end of the stream."""
        ready, _, _ = select.select([self.stream], [], [], timeout)
        if not ready:
            return True
        chunk = os.read(self.stream.fileno(), 65536)
        self.text += chunk.decode(errors="replace")
        return bool(chunk)

    def wait_for(self, text: str, count: int = 1, timeout: float = PATIENCE) -> None:
        deadline = time.monotonic() + timeout
        while self.text.count(text) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {text!r} within {timeout:.0f} s:\n{self.text}")
            if not self._read(left):
                raise AssertionError(f"the program ended without printing {text!r}:\n{self.text}")

    def rest(self, timeout: float = PATIENCE) -> str:
        """Everything until the child closes the pipe."""
        deadline = time.monotonic() + timeout
        while self._read(max(0.0, deadline - time.monotonic())):
            if time.monotonic() >= deadline:
                raise AssertionError(f"the program never closed its output:\n{self.text}")
        return self.text


def end_session(process: subprocess.Popen) -> list[int]:
    """Kill what is left of a child's session and reap the child; the
    processes that were still there (an empty list for a tidy child)."""
    left = session_processes(process.pid)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    wait_gone(left)
    process.wait(PATIENCE)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            try:
                stream.close()
            except BrokenPipeError:     # what was left to write to a child that is gone
                pass
    return left
