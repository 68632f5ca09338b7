"""The build's own checks: a document that outgrows its page budget fails the
build by name, and the previous output survives untouched."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.commands.output import RECORD, OutputFolder
from generator.core.errors import BuildError
from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paper import A4
from generator.systems.sixes import SYSTEM as SIXES


@pytest.fixture
def starter(tmp_path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    return data


def test_a_character_sheet_longer_than_two_pages_fails_the_build(starter, tmp_path, monkeypatch):
    # A sheet's budget now grows with its background (render/bounded.py
    # extra_pages); held at two pages here, the long background is the
    # layout fault whose failure must leave the earlier output alone.
    import generator.render.bounded as bounded
    monkeypatch.setattr(bounded, "extra_pages", lambda template, context: 0)
    sheet = starter / "sixes" / "characters" / "first-rival.yaml"
    long_background = "\n\n".join(["A long paragraph of secrets that goes on and on. " * 12] * 14)
    text = sheet.read_text(encoding="utf-8").split("background: |")[0]
    text += "background: |\n" + "\n".join("  " + line for line in long_background.splitlines()) + "\n"
    text += "hit_points: 5\n"
    sheet.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    with OutputFolder(out) as earlier:      # what an earlier build left
        (earlier.staging / "pdf").mkdir()
        (earlier.staging / "pdf" / "earlier.pdf").write_bytes(b"%PDF earlier build")
        earlier.commit(["pdf"])

    with pytest.raises(BuildError) as failure:
        build(BuildConfig(starter, out, (A4,), site=False, workers=1))

    assert re.search(r"a4 sixes/players/first-rival\.pdf: [3-9] pages, at most 2 expected", str(failure.value))
    assert (out / "pdf" / "earlier.pdf").read_bytes() == b"%PDF earlier build"
    assert sorted(p.name for p in out.iterdir()) == [RECORD, "pdf"]


def test_the_registry_names_each_system_by_its_own_slug_and_imports_only_what_is_asked_for():
    import subprocess
    import sys

    from generator import systems
    assert [s.slug for s in systems.SYSTEMS] == list(systems.SLUGS)
    # A build of one game's data does not import the other systems.
    probe = ("import sys; from generator import systems; systems.system('i6'); "
             "print(sorted(m for m in sys.modules if m.startswith('generator.systems.') and m.count('.') == 2))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['generator.systems.base', 'generator.systems.i6']"
