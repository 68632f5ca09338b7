"""Games with ordinary and long text: the starter of each system (what
`sixes new` writes) with every prose field set to a multiple of its floor
(issue 27: what a box must hold), for tests/test_fit.py."""
from __future__ import annotations

from pathlib import Path

import yaml

from generator.commands.cli import main

# Fields that hold prose, by the key the data files spell them with; short
# labels (names, signals, reminders) keep what the starter wrote.
PROSE = {"description", "rule", "note", "gm_notes", "blurb", "background", "secret", "covers", "comment"}
# Words each field must hold, by (file, key); any other prose field holds ORDINARY.
ORDINARY = 30
FLOORS = {("challenges.yaml", "description"): 40, ("challenges.yaml", "gm_notes"): 40,
          ("specials.yaml", "rule"): 40,
          ("characters", "description"): 60, ("characters", "background"): 800,
          ("heroes", "description"): 60, ("heroes", "secret"): 800}
NAME_FLOOR = 60         # characters in a name
# Optional prose the starter leaves out, added: (file, a key the mapping has, the field).
ADDED = {("challenges.yaml", "critical_numbers", "gm_notes")}
# Plain words of every length, so lines break as they would in real prose.
WORDS = ("the crew finds a narrow alley behind the old bank where a nervous clerk waits with keys and "
         "a story about the vault that nobody quite believes tonight while rain hammers on copper roofs").split()


def words(count: int) -> str:
    """`count` words of ordinary prose, ending with a full stop."""
    return " ".join((WORDS * (count // len(WORDS) + 1))[:count]).capitalize() + "."


def floor_of(path: Path, key: str) -> int:
    return FLOORS.get((path.name, key)) or FLOORS.get((path.parent.name, key)) or ORDINARY


def make_game(dest: Path, system: str, factor: float, only: tuple[str, str] | None = None,
              over: int = 0) -> Path:
    """A game folder of one system: every prose field at `factor` times its
    floor, or with `only` (file name, key) set to `over` words and the rest
    as the starter wrote them."""
    assert main.main(["new", str(dest)], standalone_mode=False) in (None, 0)
    settings = dest / "sixes.yaml"
    settings.write_text(settings.read_text() + f"systems: [{system}]\n")
    for path in sorted((dest / system).rglob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        _set(data, path, factor, only, over)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return dest


def _set(data, path: Path, factor: float, only, over: int) -> None:
    if isinstance(data, list):
        for item in data:
            _set(item, path, factor, only, over)
    elif isinstance(data, dict):
        for file, has, field in ADDED:
            if path.name == file and has in data:
                data.setdefault(field, "")
        for key, value in data.items():
            if isinstance(value, str) and key in PROSE:
                if only is None:
                    data[key] = words(max(1, round(floor_of(path, key) * factor)))
                elif only == (path.name, key) or only == (path.parent.name, key):
                    data[key] = words(over)
            else:
                _set(value, path, factor, only, over)
