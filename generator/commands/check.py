"""`sixes check`: every problem of the data and the casting file, rendering nothing.

Commands floor. The same gather `build` and `pack` start with
(game/gather.py), then the fit check of text in its boxes
(render/fit/bounded.py): the one marked place where the two join; then what
each game's pack would print (commands/pack_fit.py), with the options
`pack` takes (cli.py shares them), so a plain `check` measures what a
plain `pack` prints.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.errors import Problem, visible
from .failures import InvalidData, print_problems
from .locate import locate

if TYPE_CHECKING:
    from ..render.options import PrintOptions


def run(data_dir: Path | None, casting_file: Path | None, strict: bool, paper: str | None = None,
        asked: dict[str, Any] | None = None, options: PrintOptions | None = None) -> None:
    """Every problem (and, with `strict`, every warning) ends the command
    with status 1; warnings alone are printed and the data is valid.
    `asked`: the pack options the command line gave (None: the settings')."""
    from ..core.i18n import speaking
    from ..game.dates import source_date
    from ..game.gather import gather
    from ..render.fit.bounded import fit_problems
    from ..render.fit.packet_fit import packet_fit_problems
    from ..render.options import DEFAULT_OPTIONS
    from .pack_fit import pack_problems
    options = options or DEFAULT_OPTIONS
    game = locate(data_dir, paper=paper, needs_out=False)
    source_date(game.data_dir)          # a date build or pack would refuse (game/dates.py) is refused here first
    gathered = gather(game.data_dir, game.settings, game.papers, strict=strict, casting=casting_file,
                      out_dir=game.settings.out_dir)
    problems = list(gathered.warnings)
    with speaking(gathered.words):
        problems += fit_problems(gathered.loaded, options)   # the fit check joins here
        problems += packet_fit_problems(gathered.packets.values(), options, game.data_dir)     # cards, inserts, badges
        problems += pack_problems(gathered, game.papers, game.settings.pack_layout(**(asked or {})), options)
    if any(p.severity == "error" or strict for p in problems):
        raise InvalidData(sorted(problems, key=Problem.sort_key))
    print_problems(problems)
    names = ", ".join(item.system.title for item in gathered.loaded)
    click.echo(f"OK: {visible(game.shown)} is valid ({visible(names)})"
               + (f"; casting {visible(gathered.casting_shown)} checked." if gathered.casting is not None else "."))
