"""`sixes clean`: forget what earlier builds remembered; keep the output.

Commands floor. The cache and what it holds are render/cache.py's; this
module only says which output folder's cache (or every one) to forget.
"""
from __future__ import annotations

from pathlib import Path

import click

from ..core.errors import visible
from .locate import locate


def run(data_dir: Path | None, out_dir: Path | None, everything: bool) -> None:
    """Forget this game's output folder's cache, or (`everything`) every one."""
    from ..render.cache import cache_base, clear, forget_used
    if everything:
        removed = clear()
        click.echo(f"Forgot {len(removed)} cached build(s) in {visible(cache_base())}.")
        return
    game = locate(data_dir, out_dir)
    assert game.out_dir is not None     # located with needs_out=True
    removed = clear(game.out_dir, forget=forget_used)
    click.echo(("Forgot the cached build" if removed else "Nothing cached")
               + f" for {visible(game.out_dir)}; the next build renders everything again.")
