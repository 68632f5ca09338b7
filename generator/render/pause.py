"""A test-only hook: a run that stops at a named point until the test lets it go.

Tests that interrupt a build mid-way (tests/test_output_safety.py) must catch
it while workers are busy, however fast or loaded the machine is. With
SIXES_TEST_PAUSE_AT=<point> in its environment, a run that reaches that point
prints one line to stderr and waits for a line (or the end) on its stdin, so
the test signals it at that very point instead of racing it. Unset (always,
outside the tests), `pause_at` returns at once. Points: `rendered` (the
first PDF a build rendered is in; other renders may still be under way).
"""
from __future__ import annotations

import os
import sys

PAUSE_VARIABLE = "SIXES_TEST_PAUSE_AT"
PAUSED = "sixes-test: paused at"
_passed: set[str] = set()       # each point pauses once per process (a watch builds again)


def pause_at(point: str) -> None:
    """Wait here if the tests asked to (see the module's docstring)."""
    if os.environ.get(PAUSE_VARIABLE) != point or point in _passed:
        return
    _passed.add(point)
    print(f"{PAUSED} {point}", file=sys.stderr, flush=True)
    sys.stdin.readline()
