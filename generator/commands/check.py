"""`sixes check`: every problem of the data and the casting file, rendering nothing.

Commands floor. The same gather `build` and `pack` start with
(game/gather.py), then the fit check of text in its boxes
(render/bounded.py): the one marked place where the two join.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.errors import DataError, Problem, visible
from .failures import InvalidData, print_problems
from .locate import locate

if TYPE_CHECKING:
    from ..core.paper import Paper
    from ..game.gather import Gathered


def run(data_dir: Path | None, casting_file: Path | None, card_size: str, strict: bool) -> None:
    """Every problem (and, with `strict`, every warning) ends the command
    with status 1; warnings alone are printed and the data is valid."""
    from ..core.i18n import speaking
    from ..game.gather import gather
    from ..render.bounded import fit_problems
    from ..render.options import PrintOptions
    from ..game.dates import source_date
    game = locate(data_dir, needs_out=False)
    source_date(game.data_dir)          # a date build or pack would refuse (game/dates.py) is refused here first
    gathered = gather(game.data_dir, game.settings, game.papers, strict=strict, casting=casting_file,
                      out_dir=game.settings.out_dir)
    problems = list(gathered.warnings)
    with speaking(gathered.words):
        problems += fit_problems(gathered.loaded, PrintOptions(card_size=card_size))   # the fit check joins here
        problems += _pack_problems(gathered, game.papers, card_size)
    if any(p.severity == "error" or strict for p in problems):
        raise InvalidData(sorted(problems, key=Problem.sort_key))
    print_problems(problems)
    names = ", ".join(item.system.title for item in gathered.loaded)
    click.echo(f"OK: {visible(game.shown)} is valid ({visible(names)})"
               + (f"; casting {visible(gathered.casting_shown)} checked." if gathered.casting is not None else "."))


def _pack_problems(gathered: Gathered, papers: tuple[Paper, ...], card_size: str) -> list[Problem]:
    """With a casting file, what `pack` would refuse of its envelopes
    before it renders, at its defaults: covers a page each, and the players'
    name stamps."""
    casting = gathered.casting
    packed = next((item for item in gathered.loaded if casting is not None and item.system.slug == casting.system),
                  None)
    if packed is None or casting is None or any(p.severity == "error" for p in casting.problems):
        return []
    from ..game.pack_plan import PackChoices, plan_pack
    from ..render.cards import grid_for
    from .pack import cover_problems, name_problems
    chosen = replace(gathered, packed=packed)
    try:
        plan = plan_pack(chosen, PackChoices(papers), grid_for(card_size, False))
    except DataError:           # what else a pack would refuse depends on its options: `pack` says it
        return []
    return cover_problems(plan, chosen, papers) + name_problems(plan, chosen, papers)
