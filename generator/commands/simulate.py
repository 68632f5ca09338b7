"""`sixes simulate`: play many Sixes fights and report how they end.

Commands floor. The fights are systems/sixes/simulate.py's; this module
reads the game (the Sixes data alone, not the whole gather: nothing is
written), picks the sides and prints the report, a percentage per outcome.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.errors import visible
from .failures import Failed, InvalidData
from .locate import locate
from .progress import ProgressBar

if TYPE_CHECKING:
    from ..systems.sixes.simulate import Summary

# Progress is shown from this many fights per policy (about ten seconds).
SIMULATE_PROGRESS_FROM = 10_000


def run(data_dir: Path | None, fighters: str | None, sides_file: Path | None, rounds: int, fights: int,
        policy: str, seed: int) -> None:
    """The sides (--fighters or --sides, else the cast by faction), then
    each policy's fights and their report."""
    from ..game.load import load_all
    from ..systems.sixes.sides import load_sides, pick_fighters
    from ..systems.sixes.simulate import POLICIES, simulate

    if fighters and sides_file:
        raise click.UsageError("give --fighters or --sides, not both")
    where = locate(data_dir, needs_out=False)
    loaded, _ = load_all(where.data_dir, systems=["sixes"])
    game = next((item.game for item in loaded if item.system.slug == "sixes"), None)
    if game is None:
        raise Failed(f"{where.shown} holds no Sixes game (a sixes/ folder)")
    names = [n.strip() for n in fighters.split(",") if n.strip()] if fighters else None
    sides, problems = load_sides(sides_file, game) if sides_file else pick_fighters(game, names)
    if problems:
        raise InvalidData(problems)
    click.echo(f"{fights:d} fights per policy, seed {seed:d}, at most {rounds:d} rounds each. Sides: "
               + visible("; ".join(f"{s.name} ({len(s.members)})" for s in sides)))
    for name in POLICIES if policy == "all" else [policy]:
        with ProgressBar() as progress:       # long runs only: a thousand fights take a second
            told = (lambda done, name=name: progress(f"{name}: fights played", done, fights)) \
                if fights >= SIMULATE_PROGRESS_FROM else None
            summary = simulate(sides, game.library, name, fights=fights, max_rounds=rounds, seed=seed,
                               progress=told)
        print_summary(name, summary)


def print_summary(policy: str, summary: Summary) -> None:
    """One policy's fights: how long they lasted, who won, and how each fighter ended up."""
    from ..render.charts import percent
    click.echo(f"\n{visible(policy)}: rounds to settle: median {visible(summary.median_rounds)}, "
               f"90th percentile {visible(summary.p90_rounds)}")
    wins = [f"{side} {percent(summary.win_rate(k))}" for k, side in enumerate(summary.sides)]
    click.echo(visible(f"  wins: {', '.join(wins)}, no winner {percent(summary.no_winner_rate)} "
                       f"(stand-off {percent(summary.standoff_rate)}, nobody standing "
                       f"{percent(summary.nobody_standing_rate)}); cut off by the round limit "
                       f"{percent(summary.cut_off_rate)}"))
    width = max(len(visible(n)) for n in summary.names)     # names from the data, shown safely
    click.echo(f"  {'fighter':<{width}}  Rattled  Unconscious    Dead  Escaped")
    for fighter in summary.names:
        rates = [percent(summary.status_rate(fighter, word)) for word in ("Rattled", "Unconscious", "Dead",
                                                                         "Escaped")]
        click.echo(visible(f"  {visible(fighter):<{width}}  {rates[0]:>7}  {rates[1]:>11}  {rates[2]:>6}  "
                           f"{rates[3]:>7}"))
