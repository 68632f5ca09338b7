"""Starter games in each shipped language, built once per test run and
shared by pytest-xdist's workers (as conftest.example_build): a plain
`sixes build` of what `sixes new --language` wrote (every system's PDFs on
both papers, as its settings ask, with the site), and the Sixes pack on A4.
Tests only read them."""
from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from generator.commands.cli import main


@dataclass(frozen=True)
class LanguageGame:
    language: str
    folder: Path          # the game folder `sixes new --language` wrote
    out: Path             # its output: PDFs, site, pack
    data_text: str        # every YAML file of the game, lower-cased: the GM's words, not the tool's


def built_language_game(language: str, tmp_path_factory, config) -> LanguageGame:
    shared = hasattr(config, "workerinput")
    base = tmp_path_factory.getbasetemp().parent if shared else tmp_path_factory.getbasetemp()
    folder = base / f"starter-{language}"
    with open(base / f"starter-{language}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "output" / ".built").exists():
            _build(folder, language)
    data_text = " ".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.yaml"))
                         if "output" not in p.relative_to(folder).parts).lower()
    return LanguageGame(language, folder, folder / "output", " ".join(data_text.split()))


def _build(folder: Path, language: str) -> None:
    assert main.main(["new", str(folder), "--language", language], standalone_mode=False) in (None, 0)
    before = os.getcwd()
    os.chdir(folder)
    try:
        for args in (["build"], ["pack", "--system", "sixes", "--paper", "a4"]):
            assert main.main(args, standalone_mode=False) in (None, 0), args
    finally:
        os.chdir(before)
    (folder / "output" / ".built").write_text("", encoding="utf-8")
