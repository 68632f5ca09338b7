"""The build's own checks: a document whose page count is exact (a deck, the
covers) and comes out longer fails the build by name, and the previous
output survives untouched; a flowing one that runs past its layout's plan (a
longer game, a bigger cast, a wordier language) prints whole and is named in
a warning, since `check` cannot foresee where a page breaks."""
from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from generator.commands.output import RECORD, OutputFolder
from generator.core.errors import BuildError
from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.pdf.jobs import Budget, layout_faults, long_documents
from generator.render.pdf.weasy import PdfResult
from generator.systems.sixes import SYSTEM as SIXES


@pytest.fixture
def starter(tmp_path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    return data


def test_a_document_past_its_exact_budget_fails_the_build_and_leaves_the_earlier_output(starter, tmp_path,
                                                                                      monkeypatch):
    # A sheet flows on, so its page count is never a fault; held here to an
    # exact two pages (as a deck's are), its long background is the layout
    # fault whose failure must leave the earlier output alone.
    import generator.render.pdf.jobs as building      # where the build's documents are prepared
    planned = building.prepare_html

    def exact(doc, options):
        prepared = planned(doc, options)
        return replace(prepared, budget=Budget(2)) if doc.template == "sixes/character_sheet.html" else prepared
    monkeypatch.setattr(building, "prepare_html", exact)
    sheet = starter / "sixes" / "characters" / "first-rival.yaml"
    long_background = "\n\n".join(["A long paragraph of secrets that goes on and on. " * 12] * 30)
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

    assert re.search(r"a4 sixes/players/first-rival\.pdf: [3-9] pages, 2 expected", str(failure.value))
    assert (out / "pdf" / "earlier.pdf").read_bytes() == b"%PDF earlier build"
    assert sorted(p.name for p in out.iterdir()) == [RECORD, "pdf"]


@pytest.mark.parametrize("budget, pages, fault, long", [
    (Budget(1, True), 1, False, False), (Budget(1, True), 2, False, True), (Budget(1, True), 9, False, True),
    (Budget(2, True), 4, False, True),                                     # large print: pages doubled
    (Budget(3), 3, False, False), (Budget(3), 4, True, False),            # a deck, covers: exact
])
def test_a_flowing_document_runs_on_with_a_warning_and_an_exact_one_does_not(budget, pages, fault, long):
    result = PdfResult("a4 x/public/card.pdf", Path("card.pdf"), pages)
    faults, warned = layout_faults([budget], [result]), long_documents([budget], [result])
    assert bool(faults) == fault and bool(warned) == long, (faults, warned)
    if warned:
        assert warned[0][0] == result.label and f"runs to {pages} pages where its layout plans {budget.pages}" \
            in warned[0][1]


def test_a_card_a_big_cast_runs_onto_a_second_page_builds_and_says_so(tmp_path):
    """The healing card is laid out for one page and lists every healer of
    the cast: eighteen of them take a second page, which `check` cannot
    foresee. The build prints it whole and warns by name, and a build that
    finds nothing changed says it again."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes-system", data / "sixes-system")
    (data / "sixes.yaml").write_text("systems:\n  - sixes-system\n", encoding="utf-8")
    healer = (data / "sixes-system" / "combatants" / "dora-quill.yaml").read_text(encoding="utf-8")
    assert "name: Dora Quill\n" in healer
    for k in range(15):
        (data / "sixes-system" / "combatants" / f"healer-{k}.yaml").write_text(
            healer.replace("name: Dora Quill\n", f"name: Healer {k}\n"), encoding="utf-8")
    config = BuildConfig(data, tmp_path / "out", (A4,), site=False, workers=1, cache=True)
    for _ in range(2):
        report = build(config)
        said = [(w.file, w.message[:42]) for w in report.warnings if "layout plans" in w.message]
        assert said == [("a4 sixes-system/public/healing-card.pdf", "runs to 2 pages where its layout plans 1 (")], \
            report.warnings
    assert report.untouched
    from pypdf import PdfReader
    card = next((tmp_path / "out").rglob("healing-card.pdf"))
    pages = PdfReader(card).pages
    assert len(pages) == 2 and "Resuscitation" in pages[1].extract_text()     # whole: what follows the healers
    assert all(f"Healer {k}" in pages[0].extract_text() for k in range(15))


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
