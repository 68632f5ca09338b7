"""`sixes check`: every problem of the data and the casting file, rendering nothing.

Commands floor. The same gather `build` and `pack` start with
(game/gather.py), then the fit check of text in its boxes
(render/bounded.py): the one marked place where the two join.
"""
from __future__ import annotations

from pathlib import Path

import click

from ..core.errors import Problem, visible
from .failures import InvalidData, print_problems
from .locate import locate


def run(data_dir: Path | None, casting_file: Path | None, card_size: str, strict: bool) -> None:
    """Every problem (and, with `strict`, every warning) ends the command
    with status 1; warnings alone are printed and the data is valid."""
    from ..core.i18n import speaking
    from ..game.gather import gather
    from ..render.bounded import fit_problems
    from ..render.options import PrintOptions
    game = locate(data_dir, needs_out=False)
    gathered = gather(game.data_dir, game.settings, game.papers, strict=strict, casting=casting_file,
                      out_dir=game.settings.out_dir)
    problems = list(gathered.warnings)
    with speaking(gathered.words):
        problems += fit_problems(gathered.loaded, PrintOptions(card_size=card_size))   # the fit check joins here
    if any(p.severity == "error" or strict for p in problems):
        raise InvalidData(sorted(problems, key=Problem.sort_key))
    print_problems(problems)
    names = ", ".join(item.system.title for item in gathered.loaded)
    click.echo(f"OK: {visible(game.shown)} is valid ({visible(names)})"
               + (f"; casting {visible(gathered.casting_shown)} checked." if gathered.casting is not None else "."))
