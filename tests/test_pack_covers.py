"""`sixes pack --covers half`: the envelopes' covers two a sheet in
covers.pdf, cut across the middle, instead of a page (and in two-sided
printing its blank back) at the front of each envelope's file. Counted from
the PDFs: the covers take half the sheets, the manifest's pages and sheets
are the files' own, the envelopes keep their order and the rest of their
pages, each part still starts on a front, and a cover too long for its half
is refused rather than clipped. The default (a full page) is
tests/test_pack_night.py's."""
from __future__ import annotations

import csv
import math
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdf_text import page_texts
from pypdf import PdfReader, PdfWriter

from big_game import CAST, write_game
from generator.commands.cli import main
from generator.commands.pack import PackRequest, PackReport, pack
from generator.core.errors import DataError
from generator.core.paper import A4, LETTER, Paper

PLAYERS = 5         # odd: the last sheet of covers holds one


def manifest(folder: Path) -> list[dict]:
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def pages(path: Path) -> int:
    return len(PdfReader(path).pages)


def sheets(path: Path, two_sided: bool) -> int:
    return math.ceil(pages(path) / 2) if two_sided else pages(path)


def envelope_files(report: PackReport, paper: Paper) -> list[Path]:
    return [report.root / paper.name / "envelopes" / f"{e.stem}.pdf" for e in report.envelopes]


def half_text(path: Path, page: int, lower: bool) -> str:
    """The text in the upper or lower half of one page (pdftotext's crop box, in points)."""
    box = PdfReader(path).pages[page - 1].mediabox
    width, height = float(box.width), float(box.height)
    top = height / 2 if lower else 0
    out = subprocess.run(["pdftotext", "-r", "72", "-f", str(page), "-l", str(page), "-x", "0", "-y", str(int(top)),
                          "-W", str(int(width)), "-H", str(int(height / 2)), str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return write_game(tmp_path_factory.mktemp("covers") / "circus", players=PLAYERS)


@pytest.fixture(scope="module")
def both(game, tmp_path_factory) -> dict[str, PackReport]:
    """The same game packed on A4, two-sided, with full-page and half-sheet covers."""
    return {covers: pack(PackRequest(game, tmp_path_factory.mktemp(covers), (A4,), system="sixes", workers=2,
                                     covers=covers))
            for covers in ("full", "half")}


def cover_sheets(report: PackReport, full: PackReport, two_sided: bool, paper: Paper = A4) -> int:
    """Sheets the covers take, from the PDFs: covers.pdf's, or with full-page
    covers what the envelopes take beyond the same envelopes without them."""
    covers = report.root / paper.name / "covers.pdf"
    if covers.exists():
        return sheets(covers, False)
    with_covers = sum(sheets(f, two_sided) for f in envelope_files(report, paper))
    return with_covers - sum(sheets(f, two_sided) for f in envelope_files(full, paper))


def test_half_sheet_covers_take_half_the_sheets(both):
    full, half = both["full"], both["half"]
    assert not (full.root / "a4" / "covers.pdf").exists()
    cut = cover_sheets(full, half, True)
    assert cut == PLAYERS                           # a cover and its blank back: a sheet each
    assert cover_sheets(half, full, True) == math.ceil(cut / 2)
    assert full.sheets["a4"] - half.sheets["a4"] == cut - math.ceil(cut / 2)


def test_the_manifest_counts_what_the_files_hold(both):
    for report in both.values():
        folder = report.root / "a4"
        rows = manifest(folder)
        for row in rows:
            two_sided = row["envelope"] not in ("Covers", "Cards")     # no backs: the card run is one-sided
            assert int(row["pages"]) == pages(folder / row["file"]), row
            assert int(row["sheets"]) == sheets(folder / row["file"], two_sided), row
        assert sum(int(r["sheets"]) for r in rows) == report.sheets["a4"]
    covers = next(r for r in manifest(both["half"].root / "a4") if r["envelope"] == "Covers")
    assert covers["file"] == "covers.pdf"
    assert covers["contents"] == f"{PLAYERS} envelope covers, two a sheet ({math.ceil(PLAYERS / 2)} p)"
    assert not any(r["envelope"] == "Covers" for r in manifest(both["full"].root / "a4"))


def test_the_manifest_says_where_the_covers_are_and_to_cut_them(both):
    printed = " ".join(page_texts(both["half"].root / "a4" / "manifest.pdf"))
    assert (f"covers.pdf: the envelopes' covers, two a sheet, printed one-sided: {PLAYERS} covers on "
            f"{math.ceil(PLAYERS / 2)} sheets. Cut each sheet across the middle along the dashed line") in printed
    assert "envelope n takes cover n from covers.pdf" in printed
    default = " ".join(page_texts(both["full"].root / "a4" / "manifest.pdf"))
    assert "covers.pdf" not in default and "Each starts with its cover" in default


def test_covers_two_a_sheet_in_envelope_order_one_above_the_other(both):
    report = both["half"]
    path = report.root / "a4" / "covers.pdf"
    assert pages(path) == math.ceil(PLAYERS / 2)
    for envelope in report.envelopes:
        page, lower = (envelope.number - 1) // 2 + 1, envelope.number % 2 == 0
        here = half_text(path, page, lower)
        # pdftotext reads the big envelope number before the word "Envelope" beside it
        assert f"{envelope.number} of {PLAYERS} {envelope.player}" in here, here
        assert f"plays {envelope.character}" in here and f"envelopes/{envelope.stem}.pdf" in here
        assert f"envelopes/{envelope.stem}.pdf" not in half_text(path, page, not lower)
    assert half_text(path, pages(path), True) == ""     # an odd count leaves the last half empty
    assert "cut along the dashed line" in half_text(path, 1, False)


def test_envelopes_keep_their_order_and_lose_only_the_cover_sheet(both):
    full, half = both["full"], both["half"]
    assert [e.stem for e in half.envelopes] == [e.stem for e in full.envelopes]
    assert [(e.player, e.character) for e in half.envelopes] == [(p, c) for c, p in CAST[:PLAYERS]]
    for with_cover, without in zip(envelope_files(full, A4), envelope_files(half, A4), strict=True):
        texts = page_texts(with_cover)
        assert texts[0].startswith("THE LAST NIGHT") and texts[1] == ""     # the cover and its blank back
        assert page_texts(without) == texts[2:]


def test_one_sided_half_covers_on_letter(game, tmp_path):
    """Without duplex no blanks anywhere, and the covers still take half the sheets."""
    reports = {covers: pack(PackRequest(game, tmp_path / covers, (LETTER,), system="sixes", workers=2,
                                        duplex=False, covers=covers)) for covers in ("full", "half")}
    full, half = reports["full"], reports["half"]
    covers = half.root / "letter" / "covers.pdf"
    box = PdfReader(covers).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)       # Letter, cut to half-letter
    assert cover_sheets(full, half, False, LETTER) == PLAYERS
    assert cover_sheets(half, full, False, LETTER) == math.ceil(PLAYERS / 2)
    for with_cover, without in zip(envelope_files(full, LETTER), envelope_files(half, LETTER), strict=True):
        assert page_texts(without) == page_texts(with_cover)[1:]


@pytest.mark.parametrize("covers, count", [("half", 20), ("full", 40)])
def test_a_cover_too_long_for_its_page_is_refused_at_its_casting_entry_before_anything_renders(game, tmp_path,
                                                                                               covers, count):
    """Twenty handouts make an envelope's checklist longer than half a
    sheet, forty longer than a page: the pack stops at the casting entry
    that lists them, with the reason, before it renders (the covers' page
    count is exact, and clipping the list would lose what goes in)."""
    handout = PdfWriter()
    handout.add_blank_page(595, 842)
    names = [f"handouts/note-{k:02d}.pdf" for k in range(count)]
    for name in names:
        with open(game / name, "wb") as f:
            handout.write(f)
    casting = tmp_path / "casting.yaml"
    first, player = CAST[0]
    casting.write_text(f"envelopes:\n  - player: {player}\n    character: {first}\n"
                       f"    handouts: [{', '.join(names)}]\n")
    try:
        with pytest.raises(DataError) as refused:
            pack(PackRequest(game, tmp_path / "out", (A4,), system="sixes", casting_file=casting, workers=2,
                             covers=covers))
    finally:
        for name in names:
            (game / name).unlink()
    errors = [p for p in refused.value.problems if p.severity == "error"]
    assert [(p.file, p.line, p.column) for p in errors] == [(str(casting), 4, 15)], errors
    where = "half a sheet of A4" if covers == "half" else "a page of A4"
    assert f"envelope 1 ({player}): its cover lists" in errors[0].message and where in errors[0].message
    assert not (tmp_path / "out").exists()
    if covers == "full":        # the default layout: `check` with the casting file says it first
        for name in names:
            with open(game / name, "wb") as f:
                handout.write(f)
        try:
            result = CliRunner().invoke(main, ["check", "--data", str(game), "--casting", str(casting)])
        finally:
            for name in names:
                (game / name).unlink()
        assert result.exit_code == 1 and f"{casting}:4:15: error: envelope 1 ({player}): its cover lists" \
            in result.output, result.output


def _cover_context(handouts: int, name: str) -> dict:
    """Two envelopes' covers, the first with `handouts` handouts and the
    player `name`, as pack_plan.envelope_covers gives them to the template."""
    from generator.game.pack_plan import Envelope
    envelopes = [Envelope(k + 1, name if k == 0 else "Ann", "First Rival", None, (), "The Guild") for k in range(2)]
    pages = [{"envelope": e, "inside": ["Character sheet", "Rules summary", "Hand signals"]
              + ([f"Handout: map of the old harbour {j}" for j in range(handouts)] if e.number == 1 else []),
              "cards": None} for e in envelopes]
    return {"title": "The Lantern Fair", "pages": pages, "count": 2, "doc_title": "Covers"}


@pytest.mark.parametrize("paper", [A4, LETTER], ids=lambda p: p.name)
@pytest.mark.parametrize("half", [False, True], ids=["full", "half"])
@pytest.mark.parametrize("name", ["Robin", "Maximiliane von Hohenzollern-Sigmaringen der Jüngere aus dem Schwarzwald"])
def test_the_cover_measure_passes_only_covers_that_print_on_their_page(paper, half, name):
    """render/fit/cover_fit.py against WeasyPrint: the most handouts the
    measure lets a cover list print on the cover's page (or half sheet),
    and at most one more would too (it errs long, never short)."""
    import weasyprint

    from generator.core.paths import TEMPLATES_DIR
    from generator.render.fit.cover_fit import unfit_covers
    from generator.render.html import render_template

    def context(n: int) -> dict:
        made = _cover_context(n, name)
        return {**made, "sheets": [made["pages"]] if half else []}

    def pages(n: int) -> int:
        page = weasyprint.CSS(string=f"@page {{ size: {paper.css_size}; }}")
        html = weasyprint.HTML(string=render_template("pack/cover.html", context(n)),
                               base_url=TEMPLATES_DIR.as_uri() + "/")
        return len(html.render(stylesheets=[page]).pages)

    most = next(n for n in range(60) if unfit_covers(context(n), [paper], half)) - 1
    assert most >= 3
    whole = 1 if half else 2
    assert pages(most) == whole and pages(most + 2) > whole


def test_the_covers_option_on_the_command_line(game, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["pack", "--data", str(game), "--out", str(tmp_path / "o"), "--system", "sixes",
                                  "--paper", "a4", "--covers", "quarter"])
    assert result.exit_code == 2 and "'quarter' is not one of 'full', 'half'" in result.output
    result = runner.invoke(main, ["pack", "--data", str(game), "--out", str(tmp_path / "o"), "--system", "sixes",
                                  "--paper", "a4", "--covers", "half", "--simplex"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "o" / "pack" / "sixes" / "a4"
    assert pages(folder / "covers.pdf") == math.ceil(PLAYERS / 2)


def test_a_cover_too_long_for_the_handouts_a_character_file_gives_is_refused_there(game, tmp_path):
    """Handouts the character's own file gives go on its envelope's cover
    too: forty of them are refused at that file's `handouts`, before the
    pack renders, and by `check`."""
    handout = PdfWriter()
    handout.add_blank_page(595, 842)
    names = [f"sixes/handouts/own-{k:02d}.pdf" for k in range(40)]
    sheet = next((game / "sixes" / "characters").glob("*.yaml"))
    kept = sheet.read_text(encoding="utf-8")
    try:
        (game / "sixes" / "handouts").mkdir()
        for name in names:
            with open(game / name, "wb") as f:
                handout.write(f)
        sheet.write_text(kept + f"handouts: [{', '.join(names)}]\n", encoding="utf-8")
        line = len(kept.splitlines()) + 1
        with pytest.raises(DataError) as refused:
            pack(PackRequest(game, tmp_path / "out", (A4,), system="sixes", workers=2))
        checked = CliRunner().invoke(main, ["check", "--data", str(game)])
    finally:
        sheet.write_text(kept, encoding="utf-8")
        shutil.rmtree(game / "sixes" / "handouts")
    errors = [p for p in refused.value.problems if p.severity == "error"]
    assert [(p.file.endswith(f"sixes/characters/{sheet.name}"), p.line) for p in errors] == [(True, line)], errors
    assert "): its cover lists" in errors[0].message
    assert checked.exit_code == 1 and f"{sheet.name}:{line}:11: error: envelope" in checked.output, checked.output
    assert not (tmp_path / "out").exists()
