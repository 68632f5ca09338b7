"""MkDocs hook: the pictures in docs/img/ (which README.md shows too) are
published with the pages, so the two share one copy of each."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files


def on_files(files: Files, config: Any) -> Files:
    here = Path(config.config_file_path).parent
    for picture in sorted((here / "img").glob("*.png")):
        files.append(File(f"img/{picture.name}", str(here), config.site_dir, config.use_directory_urls))
    return files
