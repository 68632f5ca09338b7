"""The memo table (generator/core/memo.py): remembered results, Work as data, and
results promised by another process."""
from __future__ import annotations

import pytest

from generator.core import memo


@pytest.fixture(autouse=True)
def empty_table():
    memo.clear()
    yield
    memo.clear()


def square(n):
    return n * n


def test_work_is_computed_once_and_remembered_by_its_key():
    calls = []
    work = memo.Work(memo.key_of("square", "7"), lambda n: calls.append(n) or n * n, (7,))
    assert work.result() == 49 and work.result() == 49
    assert calls == [7]
    assert memo.known(work.key)


def test_a_promised_result_is_waited_for_and_never_computed_here():
    work = memo.Work(memo.key_of("square", "3"), pytest.fail, (3,))     # computing here would fail the test
    waited = []
    memo.promise(work.key, lambda: waited.append(1) or 9)
    assert memo.known(work.key)
    assert work.result() == 9 and work.result() == 9
    assert waited == [1]                         # waited for once, then stored
    assert memo.take_used() == {work.key: 9}     # what a build saves is the result, not the promise


def test_a_promise_never_replaces_a_known_result():
    key = memo.key_of("square", "4")
    memo.remember(key, lambda: 16)
    memo.promise(key, lambda: pytest.fail("a known result was promised again"))
    assert memo.remember(key, lambda: 0) == 16


def test_promises_nobody_waited_for_are_dropped_after_a_build():
    """A failed build leaves its promises behind; the next build of a watch
    session must compute afresh rather than wait on them."""
    key = memo.key_of("square", "5")
    memo.promise(key, lambda: pytest.fail("waited on a dropped promise"))
    memo.drop_promises()
    assert not memo.known(key)
    assert memo.Work(key, square, (5,)).result() == 25


def test_work_started_by_the_build_runs_in_a_worker():
    import os
    from generator.render.pdf.batch import start_simulations
    work = memo.Work(memo.key_of("whose process"), os.getpid)
    start_simulations([work], workers=2)
    assert memo.known(work.key)
    assert work.result() != os.getpid()


def test_with_one_worker_work_waits_to_be_computed_here():
    import os
    from generator.render.pdf.batch import start_simulations
    work = memo.Work(memo.key_of("whose process"), os.getpid)
    start_simulations([work], workers=1)
    assert not memo.known(work.key)
    assert work.result() == os.getpid()
