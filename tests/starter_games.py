"""The Sixes starter copied into a test's own game folder, as the build and
site tests start from it (one copy of how, rather than one per test file)."""
from __future__ import annotations

import shutil
from pathlib import Path

from generator.systems.sixes import SYSTEM as SIXES


def sixes_starter(data: Path) -> Path:
    """`data`, a new game folder holding the Sixes starter alone."""
    shutil.copytree(SIXES.starter, data / "sixes")
    return data


def public_cast_starter(data: Path) -> Path:
    """The Sixes starter with every character public and the site's cast list on."""
    sixes_starter(data)
    (data / "sixes.yaml").write_text("site:\n  cast_list: true\n")
    for character in (data / "sixes" / "characters").glob("*.yaml"):
        character.write_text(character.read_text() + "visibility: public\n")
    return data
