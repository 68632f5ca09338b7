"""The fast lane (`make test-fast`, `pytest --fast-lane`): the test files of
the rules, models, loading, fit arithmetic and other units, for the inner
loop; the whole suite stays in `make test`.

The lane is a declared list, and the list is kept honest at run time: in
the lane, rendering a PDF (in this process or through the render workers)
and starting the heavy programs (Chromium or Playwright's driver, pip,
a wheel build, the tool's commands that render or serve) raise
SlowInFastLane, so a listed file that grows a slow test fails loudly and
is moved out of the list (or the slow part out of the file)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

import pytest

OPTION = "--fast-lane"

# The lane, by file name. A file belongs here when none of its tests renders
# a PDF, starts a browser, installs or builds anything, or builds a game.
FAST_FILES = frozenset({
    "test_bounded_work.py", "test_cast_order.py", "test_cast_solver.py", "test_catalogue_hostile.py",
    "test_catalogues.py", "test_charts.py", "test_clean_marker.py", "test_core_purity.py",
    "test_d6xd6_loading.py", "test_d6xd6_rules.py", "test_dice.py", "test_fast_lane.py",
    "test_game_catalogue.py", "test_gather.py", "test_glossary.py", "test_hostile_inputs.py",
    "test_house_cycles.py", "test_house_sizes.py", "test_i6_combat.py", "test_i6_loading.py",
    "test_i6_odds.py", "test_language_consumers.py", "test_language_systems_a.py", "test_loading.py",
    "test_long_words.py", "test_memo.py", "test_name_fit.py", "test_new_passes_check.py", "test_pack_plan.py",
    "test_paper.py",
    "test_pids.py", "test_print_watch.py", "test_publish_gate.py", "test_rulings_wording.py",
    "test_schemas.py", "test_scratch.py", "test_site_home.py", "test_six_shooter_loading.py",
    "test_six_shooter_rules.py", "test_six_shooter_sheet.py", "test_six_shooter_vocabulary.py",
    "test_sixes_conditional_specials.py", "test_sixes_fight_end.py", "test_sixes_invariants.py",
    "test_sixes_outputs.py", "test_sixes_resolver.py", "test_sixes_resolver_scenarios.py",
    "test_sixes_round_view.py", "test_sixes_rules.py", "test_sixes_simulate.py",
    "test_sixes_simulate_pinned.py", "test_sixes_special_rides_on.py", "test_sixes_special_wording.py",
    "test_sixes_system_conditions.py", "test_sixes_system_healing.py", "test_sixes_system_loading.py",
    "test_sixes_system_rules.py", "test_surfaces.py", "test_user_errors.py",
})

# Programs a fast test may not start: a browser (or Playwright's driver,
# which starts one), an installer or a wheel build.
SLOW_PROGRAMS = ("chromium", "chrome", "playwright", "node", "pip", "pip3")
# The tool's commands that render PDFs, build a site or serve one.
SLOW_COMMANDS = frozenset({"build", "pack", "serve", "tracker", "deploy"})
TOOL = ("generator", "sixes")


class SlowInFastLane(Exception):
    """A test of the fast lane started slow work."""


def in_lane(config: pytest.Config) -> bool:
    return bool(config.getoption(OPTION))


def _refuse(what: str) -> NoReturn:
    raise SlowInFastLane(f"{what}: a test that does this belongs in the whole suite, "
                         f"not in the fast lane (tests/fast_lane.py, FAST_FILES)")


def slow_program(args: Any) -> str | None:
    """Why the program `args` (as subprocess.Popen takes it) is slow work, or None."""
    words = [str(word) for word in ([args] if isinstance(args, (str, bytes, os.PathLike)) else args)]
    if not words:
        return None
    words = [part for word in words for part in (word.split() if " " in word else [word])]
    names = [os.path.basename(word) for word in words]
    if any(name.startswith(SLOW_PROGRAMS) and not name.endswith(".py") for name in names[:1]):
        return f"starts {names[0]}"
    if "-m" in words and words[words.index("-m") + 1:][:1] in (["pip"], ["build"], ["playwright"]):
        return f"runs {' '.join(words[words.index('-m'):][:3])}"
    if any(name in TOOL for name in names) and SLOW_COMMANDS & set(words):
        return f"runs the tool's {sorted(SLOW_COMMANDS & set(words))[0]} command"
    return None


@pytest.fixture(scope="session", autouse=True)
def fast_lane_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    """In the lane, slow work raises SlowInFastLane (see the module's docstring)."""
    if not in_lane(request.config):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        guard(patch)
        yield


def guard(patch: pytest.MonkeyPatch) -> None:
    """Makes PDF rendering and the slow programs raise, through `patch`."""
    from generator.render.pdf import batch, weasy as pdf

    def no_render(*args: Any, **kwargs: Any) -> NoReturn:
        _refuse("renders a PDF")

    patch.setattr(pdf, "_render", no_render)
    patch.setattr(batch.RenderBatch, "add", no_render)
    started = subprocess.Popen.__init__

    def checked_start(self: subprocess.Popen[Any], args: Sequence[Any], *rest: Any, **kwargs: Any) -> None:
        if (why := slow_program(args)) is not None:
            _refuse(why)
        started(self, args, *rest, **kwargs)

    patch.setattr(subprocess.Popen, "__init__", checked_start)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(OPTION, action="store_true",
                     help="Run only the fast lane (tests/fast_lane.py), with slow work refused.")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In the lane, a test file not listed is not even imported."""
    if in_lane(config) and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return collection_path.name not in FAST_FILES or None
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A file named on the command line is collected all the same: in the
    lane, its tests are deselected unless the file is listed."""
    if not in_lane(config):
        return
    outside = [item for item in items if item.path.name not in FAST_FILES]
    if outside:
        config.hook.pytest_deselected(items=outside)
        items[:] = [item for item in items if item.path.name in FAST_FILES]
