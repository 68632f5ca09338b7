"""`sixes schema`: the JSON Schemas of the data files, for editors.

Commands floor. The schemas come from the models (commands/build.py's
`export_schemas`, which `build` and `new` write too).
"""
from __future__ import annotations

from pathlib import Path

import click

from ..core.errors import visible
from .locate import locate


def run(directory: Path | None) -> None:
    """Write them into `directory` (default: the game folder's schemas/), a path a line."""
    from .build import export_schemas
    if directory is None:
        directory = locate(None, needs_out=False).data_dir / "schemas"
    for path in export_schemas(directory):
        click.echo(visible(path))
