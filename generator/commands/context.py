"""One build context: what a `build` or a `pack` run owns while it works.

Edge layer. A command describes its run once as a frozen `BuildConfig`
(what the game folder's settings and the command line say), then works
inside a `BuildContext`, which owns, for the length of the run:

- the output writer (generator/commands/output.py): the staging folder, the lock, the
  list of entries it may replace, and the final swap;
- the simulations started in the worker pool (render/pdf/batch.py);
- the cache as this run sees it, `cache` (render/cache/builds.BuildCache):
  what the last build made, whether the site is unchanged, the rendered
  PDFs and remembered results (generator/core/memo.py), and the record of
  this build; read before, written only by a run that passed;
- the cache's warnings, turned into Problems for the command to print.

So `build` and `pack` read as gather, plan, render, swap, and "why didn't my
edit show?" has one answer: render/cache/keys.py, which spells every key.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from ..core import memo
from ..core.errors import BuildError, Problem
from ..core.paper import PAPERS, Paper
from .output import OutputError, OutputFolder, recover, refuse_unsafe
from ..core.paths import MKDOCS_CONFIG, PACKAGE_DIR, SITE_SOURCES_DIR, TEMPLATES_DIR
from ..render.cache import BuildCache
from ..render.pdf.jobs import Budget, render_checked
from ..render.progress import Progress, Tally
from ..render.options import DEFAULT_OPTIONS, PrintOptions
from ..game.settings import Settings, game_input_places

if TYPE_CHECKING:
    from ..render.pdf.weasy import PdfJob, PdfResult


@dataclass(frozen=True)
class BuildConfig:
    """Everything a run is asked to do; nothing in it changes while it runs."""

    data_dir: Path
    out_dir: Path
    papers: tuple[Paper, ...] = PAPERS     # parsed by the command line (Paper.parse), never again
    site: bool = True
    strict: bool = False
    workers: int | None = None          # rendering processes (default: one per core, at most 4)
    options: PrintOptions = DEFAULT_OPTIONS
    cache: bool = True                  # reuse and remember renders and simulations, as the command does
    settings: Settings = field(default_factory=Settings)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data_dir", Path(self.data_dir).resolve())
        object.__setattr__(self, "out_dir", Path(self.out_dir).resolve())


def protected_folders(data_dir: Path) -> tuple[tuple[str, Path], ...]:
    """What an output folder may never be, hold or lie inside. The game
    folder itself may hold the output (game/output), but not be it; a
    place the game reads from is refused before it exists too."""
    from ..render.cache import cache_base
    return (*(("game data", path) for path in game_input_places(data_dir)), ("templates", TEMPLATES_DIR),
            ("site sources", SITE_SOURCES_DIR), ("site configuration", MKDOCS_CONFIG),
            ("Sixes Press code", PACKAGE_DIR), ("build cache", cache_base()))


def refuse_output(out_dir: Path, data_dir: Path) -> None:
    """Refuse an output folder that would overwrite anything the build reads;
    then recover what a killed run left in it and its rendering workers
    left in the temporary folder, before any shortcut (a build with nothing
    changed, invalid data) returns."""
    from ..render.pdf import scratch
    _refuse(out_dir, data_dir)
    recover(out_dir)
    scratch.sweep()


def _refuse(out_dir: Path, data_dir: Path) -> None:
    out, data = Path(out_dir).resolve(), Path(data_dir).resolve()
    if out == data or data.is_relative_to(out):
        where = "is" if out == data else "holds"
        raise OutputError(f"refusing to write into {out}: it {where} the game folder ({data}); "
                          "choose an output folder of its own, e.g. output/ inside the game folder")
    refuse_unsafe(out, protected_folders(data))


class BuildContext:
    """Use as `with BuildContext(config, entries, progress) as run:`; stage
    files under `run.staging`, render with `run.render`, and `run.commit`
    the entries at the end. Leaving the block early (an error, Ctrl-C)
    leaves the output folder and the cache as they were. `run.cache` may be
    asked before the block (a build with nothing changed never enters it)."""

    def __init__(self, config: BuildConfig, entries: Iterable[str], progress: Progress | None = None):
        self.config = config
        self.entries = tuple(entries)
        self.progress = progress or (lambda label, done, total: None)
        self.tally = Tally()
        self._output = OutputFolder(config.out_dir, protected_folders(config.data_dir), self.entries)
        self.cache = BuildCache(config)

    def __enter__(self) -> "BuildContext":
        _refuse(self.config.out_dir, self.config.data_dir)
        with contextlib.ExitStack() as undo:     # a failure or Ctrl-C while loading removes the staging too
            undo.enter_context(self._output)
            self.cache.load()
            undo.pop_all()
        return self

    def __exit__(self, *exc: object) -> None:
        memo.drop_promises()
        self._output.__exit__(*exc)

    @property
    def staging(self) -> Path:
        return self._output.staging

    @property
    def kept(self) -> list[str]:
        """Users' own files carried into the new output."""
        return self._output.kept

    def record(self) -> dict[str, list[str]]:
        return self._output.record()

    def start(self, works: Iterable[memo.Work]) -> None:
        """Start slow simulations in the worker pool before anything asks for them."""
        from ..render.pdf.batch import start_simulations
        start_simulations(works, self.config.workers)

    def render(self, jobs: Iterable[tuple[Budget, PdfJob]], *, cached: bool = True, quiet: bool = False,
               meanwhile: Callable[[set[Path]], None] | None = None) -> list[PdfResult]:
        """Render (budget, job) pairs as they come, through the cache unless
        `cached` is False; refuse any layout fault and any second write to
        one path. A `quiet` render (a pack's manifest) shows no progress and
        is not counted. `meanwhile` works while the workers render
        (jobs.render_checked)."""
        from ..render.fit.bounded import locate_fields
        jobs = self._claimed(jobs)
        store = self.cache.pdfs if cached else None
        try:
            if quiet:
                return render_checked(jobs, store, self.config.workers, lambda *a: None, Tally())
            return render_checked(jobs, store, self.config.workers, self.progress, self.tally, meanwhile)
        except BuildError as exc:       # a text from the data past its box: named at its file:line:col
            raise BuildError(locate_fields(str(exc), self.config.data_dir)) from None

    def _claimed(self, jobs: Iterable[tuple[Budget, PdfJob]]) -> Iterator[tuple[Budget, PdfJob]]:
        """Each job's PDF claimed from the writer as it is planned: two
        documents (or a character filed under a document's name) can never
        write one file."""
        for budget, job in jobs:
            self._output.claim(job.target)
            yield budget, job

    def commit(self, entries: Iterable[str] | None = None, retire: Iterable[str] = ()) -> None:
        """Remember what this run worked out, then swap its entries in."""
        self.cache.keep_memo()
        self._output.commit(self.entries if entries is None else entries, retire)


def long_warnings(tally: Tally) -> list[Problem]:
    """Each document the run printed a page past its layout's plan, as a warning."""
    return [Problem(label, None, None, words, severity="warning") for label, words in tally.long]


def cache_warnings() -> list[Problem]:
    """What went wrong with the cache during a run, as warnings."""
    from ..render.cache import take_warnings
    return [Problem("cache", None, None, warning, severity="warning") for warning in take_warnings()]
