"""The CPU time of work a test bounds, measured so that only the work counts.

Wall time counts every other program on a busy machine; the calling
thread's CPU time does not. Nor should the garbage collector's walks over
what earlier tests left in this process: a pytest-xdist worker's heap grows
with each test file it runs, and a full collection set off by the work's
own allocations walks all of it (a 0.2-second load once took 2.8 seconds
mid-suite). So the heap is frozen (gc.freeze) while the work runs, and a
collection looks at the work's own objects only. Freezing moves the heap as
a whole (no collection first, which would cost each call the very walk the
freeze avoids).
"""
from __future__ import annotations

import gc
import time
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def cpu_time(function: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """`function(*args, **kwargs)` and the seconds of CPU it took in this thread."""
    gc.freeze()
    try:
        started = time.thread_time()
        result = function(*args, **kwargs)
        return result, time.thread_time() - started
    finally:
        gc.unfreeze()
