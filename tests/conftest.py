"""Shared fixtures. The example pack is built once per test session, because
rendering every PDF takes seconds; tests only read what it wrote."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.paths import DEFAULT_DATA_DIR, PROJECT_ROOT

SHARED_DIR = PROJECT_ROOT.parent / "shared"


@pytest.fixture(scope="session")
def example_build(tmp_path_factory):
    """The shipped example data built into a temporary output folder (both papers, with the site)."""
    from generator.commands.build import build
    out = tmp_path_factory.mktemp("example-out")
    report = build(DEFAULT_DATA_DIR, out)
    return report


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of the example data folder, for tests that break it."""
    target = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, target)
    return target


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite tests/golden/ from the current output (review the diff before committing).")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")
