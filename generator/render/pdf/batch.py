"""Rendering a build's PDFs: from the cache where it has them, else in a
process pool, fed while the build is still preparing documents.

Edge layer. Each job is handed to the pool as soon as its HTML exists, so the
pool renders the first documents while this process derives the later ones
(the balance report's simulations run while the character sheets render).
A long document split into parts (render/pdf/parts.py) is rendered part by part,
each part cached on its own, then joined and given its page numbers.

The pool outlives a build: under `--watch` and `serve` (and in benchmarks)
the next build finds its workers with WeasyPrint imported and the fonts
loaded, which is most of what a one-character rebuild would otherwise wait for.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.context
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures import process as _process_module
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Iterable

from ...core import memo
from . import scratch
from ..cache import RenderCache
from .parts import joined_result, part_jobs, splittable, stamp_job
from .weasy import PdfJob, PdfResult, render_pdf
from ..pause import pause_at
from ..progress import Progress


_pools: dict[int, ProcessPoolExecutor] = {}


def shared_pool(workers: int) -> ProcessPoolExecutor:
    """The process's pool of `workers` workers, started on first use. Workers
    are spawned, not forked: a forked worker would inherit this process's
    WeasyPrint font configuration, and dropping it would delete the font files
    this process is still using."""
    if workers not in _pools:
        scratch.sweep()             # the temporary folders of workers a killed run left
        _pools[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=_DeafSpawn(),
                                              initializer=_worker_start, initargs=(os.getpid(),))
    return _pools[workers]


class _DeafProcess(multiprocessing.context.SpawnProcess):
    """A worker that cannot hear Ctrl-C from its first instruction: SIGINT
    is blocked in the thread that starts it while it starts, and a blocked
    signal stays blocked across fork and exec, so the new interpreter begins
    with it blocked (importing its modules, it would otherwise die with a
    KeyboardInterrupt traceback on the user's terminal). `_worker_start`
    then ignores it, which drops one sent meanwhile, and unblocks it. A
    Ctrl-C in those few instructions reaches this process once unblocked."""

    def start(self) -> None:
        if not hasattr(signal, "pthread_sigmask"):      # Windows: no signal masks, and no SIGINT to a group
            super().start()
            return
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _DeafSpawn(multiprocessing.context.SpawnContext):
    """The spawn start method, with workers that cannot hear Ctrl-C. Spawned,
    not forked: see `shared_pool`."""

    Process = _DeafProcess


def _worker_start(parent: int) -> None:
    """A worker never outlives the command that started it: Ctrl-C is the
    parent's to handle (it stops the pool), and when the parent is gone, even
    killed with SIGKILL, the worker ends itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # blocked since the worker began (_DeafProcess)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)
    scratch.use_own_folder()

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)
    threading.Thread(target=watch_parent, daemon=True).start()


_PR_SET_PDEATHSIG = 1


def stop_pools() -> None:
    """Stop every worker now (on Ctrl-C or SIGTERM): nothing queued starts,
    and a render under way is ended rather than waited for.

    The pool's manager thread is waited for too: it closes the pool's wakeup
    pipe once it sees the workers gone, and if it were still doing so when
    the interpreter exits, concurrent.futures' exit hook would write to that
    pipe as it closes (`OSError: Bad file descriptor` after "Interrupted")."""
    for pool in list(_pools.values()):
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        for process in processes:
            process.join(5)
        if manager is not None:
            manager.join(5)
            if manager.is_alive():          # never seen; the exit hook must not touch its pipe then
                _process_module._threads_wakeups.pop(manager, None)
    _pools.clear()
    scratch.sweep()


def default_workers() -> int:
    """One worker per core (WeasyPrint renders one document per process), at most four."""
    return min(len(os.sched_getaffinity(0)), 4)


def start_simulations(works: Iterable[memo.Work], workers: int | None) -> None:
    """Start in the pool every remembered computation not known yet, and
    promise its result to the memo table: a build's slowest simulations then
    run beside its first renders instead of after them, and on every core.
    With one worker they are left to run when first read."""
    workers = workers or default_workers()
    if workers <= 1:
        return
    for work in works:
        if not memo.known(work.key):
            memo.promise(work.key, shared_pool(workers).submit(work.run).result)


class RenderBatch:
    """Add jobs with `add`, then `finish` for every result in the order added.

    `rendered` lists the labels of documents not taken whole from the cache,
    `pieces` every file WeasyPrint made (documents, parts, page numbers),
    `reused` counts documents taken from the cache; `fresh` holds (key, result)
    for everything made now, for the caller to store once the build passed."""

    def __init__(self, store: RenderCache | None, workers: int | None, progress: Progress):
        self.store, self.progress = store, progress
        self.workers = workers or default_workers()
        self._pending: dict[Future, PdfJob] = {}
        self._keys: dict[Path, str] = {}
        self._jobs: list[PdfJob] = []
        self._slots: list[PdfResult | list[Future | PdfResult]] = []   # a result, or its pieces
        self.rendered: list[str] = []
        self.pieces: list[str] = []
        self.reused = 0
        self.fresh: list[tuple[str, PdfResult]] = []
        self._submitted = self._done = 0

    def __enter__(self) -> "RenderBatch":
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        """On a failure, what has not started yet is not rendered, and no
        worker is still writing once the batch is left: the caller removes
        the staging folder next, and a file written into it during the
        removal would leave the folder behind. Ctrl-C (or SIGTERM) ends the
        workers at once; any other failure waits for the renders under way,
        so a watch keeps its warm pool."""
        if kind is None:
            return
        for future in self._pending:
            future.cancel()
        if kind is BrokenProcessPool:       # a worker died: the next build starts a new pool
            _pools.pop(self.workers, None)
        elif issubclass(kind, KeyboardInterrupt):
            stop_pools()
        else:
            wait(self._pending)

    def add(self, job: PdfJob) -> None:
        self._jobs.append(job)
        pages = self._fetch(job)
        if pages is not None:
            self._slots.append(PdfResult(job.label, job.target, pages))
            self.reused += 1
            self._tick(job.label)
            return
        self.rendered.append(job.label)
        pieces = [self._fetch_or_submit(part) for part in part_jobs(job)] if splittable(job) else [self._submit(job)]
        self._slots.append(pieces)

    def finish(self) -> list[PdfResult]:
        results = []
        for job, slot in zip(self._jobs, self._slots, strict=True):
            if isinstance(slot, PdfResult):
                results.append(slot)
                continue
            leaves = [self._wait(piece) for piece in slot]
            if not splittable(job):
                results.append(leaves[0])
                continue
            stamp = self._wait(self._fetch_or_submit(stamp_job(job, sum(p.pages for p in leaves))))
            joined = joined_result(job, leaves, stamp.target)
            self._remember(job, joined)
            results.append(joined)
        return results

    def unwritten(self) -> set[Path]:
        """The targets of the jobs added that were not taken whole from the
        cache: being rendered or joined, or waiting to be (finished or not)."""
        return {job.target for job, slot in zip(self._jobs, self._slots, strict=True)
                if not isinstance(slot, PdfResult)}

    def _key(self, job: PdfJob) -> str:
        """The job's cache key, hashed once (each target is one file)."""
        if job.target not in self._keys:
            assert self.store is not None       # keys are asked for only when there is a cache
            self._keys[job.target] = self.store.key(job)
        return self._keys[job.target]

    def _fetch(self, job: PdfJob) -> int | None:
        return self.store.fetch(self._key(job), job.target) if self.store is not None else None

    def _fetch_or_submit(self, job: PdfJob) -> Future | PdfResult:
        pages = self._fetch(job)
        if pages is not None:
            return PdfResult(job.label, job.target, pages)
        return self._submit(job)

    def _submit(self, job: PdfJob) -> Future | PdfResult:
        self._submitted += 1
        if self.workers <= 1:
            return self._made(job, render_pdf(job))
        future = shared_pool(self.workers).submit(render_pdf, job)
        self._pending[future] = job
        return future

    def _wait(self, piece: Future | PdfResult) -> PdfResult:
        if isinstance(piece, PdfResult):
            return piece
        return self._made(self._pending.pop(piece), piece.result())

    def _made(self, job: PdfJob, result: PdfResult) -> PdfResult:
        self.pieces.append(result.label)
        self._remember(job, result)
        self._tick(result.label)
        pause_at("rendered")        # tests only (render/pause.py)
        return result

    def _remember(self, job: PdfJob, result: PdfResult) -> None:
        if self.store is not None:
            self.fresh.append((self._key(job), result))

    def _tick(self, label: str) -> None:
        self._done += 1
        self.progress(label, self._done, self.reused + self._submitted)
