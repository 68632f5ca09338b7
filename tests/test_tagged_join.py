"""Joining a long document's parts (render/pdf/tagged_join.py): the joined file
passes the independent PDF/UA check, and a process that joins the same
document again copies only the parts whose bytes changed, yet writes the
same bytes as a join from nothing."""
from __future__ import annotations

import shutil
from dataclasses import replace

import pikepdf
import pytest
from pdfua import Severity, validate

from generator.core.paper import A4
from generator.core.paths import TEMPLATES_DIR
from generator.game.load import load_all
from generator.render.pdf import tagged_join
from generator.render.pdf.jobs import prepare_html
from generator.render.options import DEFAULT_OPTIONS
from generator.render.pdf.parts import part_jobs, stamp_job
from generator.render.pdf.weasy import render_pdf
from generator.systems.sixes import SYSTEM as SIXES


@pytest.fixture(scope="module")
def parts(tmp_path_factory, request):
    """The starter game's cheat sheet in parts of one character each,
    rendered, with a second rendering of the first roster part in which one
    character's name is changed (the same page count, other bytes)."""
    from generator.systems.sixes import outputs
    monkey = pytest.MonkeyPatch()
    request.addfinalizer(monkey.undo)
    monkey.setattr(outputs, "ROWS_PER_PART", 1)
    folder = tmp_path_factory.mktemp("tagged-join")
    data = folder / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    loaded, _ = load_all(data)
    sixes = next(item for item in loaded if item.system.slug == "sixes")
    doc = next(d for d in sixes.system.documents(sixes.game) if d.slug == "gm-cheat-sheet")
    job = prepare_html(doc, DEFAULT_OPTIONS).job(folder / "out" / "cheat.pdf", A4, (TEMPLATES_DIR, data), "cheat")
    jobs = part_jobs(job)
    rendered = [render_pdf(j) for j in jobs]
    name = next(m.character.name for m in sixes.game.cast if m.character.name in jobs[1].html)
    edited = replace(jobs[1], html=jobs[1].html.replace(name, name[::-1]), target=folder / "edited.pdf")
    assert render_pdf(edited).pages == rendered[1].pages
    stamp = render_pdf(stamp_job(job, sum(r.pages for r in rendered))).target
    return [r.target for r in rendered], edited.target, stamp, folder


def _join(paths, stamp, target, keep):
    tagged_join.join_tagged(paths, stamp, target, "en", keep)
    return target.read_bytes()


def test_a_joined_document_passes_the_pdf_ua_check_with_one_tree(parts):
    paths, _, stamp, folder = parts
    target = folder / "joined.pdf"
    _join(paths, stamp, target, "check")
    report = validate(str(target))
    assert [f.message for f in report.findings if f.severity >= Severity.WARNING] == []
    with pikepdf.open(target) as pdf:
        assert [int(p.StructParents) for p in pdf.pages] == list(range(len(pdf.pages)))
        assert len(pdf.Root.StructTreeRoot.K) == 1 and pdf.Root.StructTreeRoot.K[0].S == "/Document"


def test_joining_again_copies_only_the_changed_part_and_writes_the_bytes_of_a_fresh_join(parts):
    paths, edited, stamp, folder = parts
    changed = [paths[0], edited, *paths[2:]]
    tagged_join._kept.clear()
    fresh = _join(changed, stamp, folder / "fresh.pdf", "fresh")
    original = _join(paths, stamp, folder / "original.pdf", "kept")
    copied = tagged_join._kept["kept"].copied
    again = _join(changed, stamp, folder / "again.pdf", "kept")
    assert tagged_join._kept["kept"].copied == copied + 1         # the edited part alone
    assert again == fresh and again != original
    assert _join(paths, stamp, folder / "back.pdf", "kept") == original
