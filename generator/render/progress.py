"""What a run of renders tells while it works, and what it counts.

Edge layer, and a leaf of it: imports nothing of the package. `jobs.py`
(which plans and checks the renders) and `batch.py` (which runs them) both
speak of progress, so the words live here, below both, and neither has to
import the other for them.
"""
from __future__ import annotations

from typing import Callable

# (label of what was just done, how many are done, how many there are)
Progress = Callable[[str, int, int], None]


class Tally:
    """What a run rendered: labels of documents rendered, every file
    WeasyPrint made (documents, parts, page numbers), documents reused, and
    (label, what to tell) of each that ran past its planned pages."""

    def __init__(self) -> None:
        self.rendered: list[str] = []
        self.pieces: list[str] = []
        self.reused = 0
        self.long: list[tuple[str, str]] = []
