"""Card sheet geometry, read back from the PDF: every card box and every cut
mark where it should be (within 0.2 mm) on A4 and US Letter, for each card
size, with and without bleed, and each back exactly behind its front on a
long-edge duplex print, moved by the back offset.

The PDF is parsed with pypdf: filled rectangles are collected from the page
content streams (following q/Q/cm), and converted to millimetres from the
page's top-left corner. The expected millimetres are worked out by hand in
this file, not taken from the layout code.
"""
from __future__ import annotations

import dataclasses
import shutil

import pytest
from pypdf import PdfReader

from generator.core.paths import TEMPLATES_DIR
from generator.systems.sixes import SYSTEM as SIXES

PT = 25.4 / 72          # one PostScript point in mm
TOL = 0.2               # mm
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


# --- reading rectangles out of a PDF ----------------------------------------

def _mul(a, b):
    """Product of two PDF matrices [a b c d e f] (a applied first)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def filled_rects(page) -> list[tuple[tuple[float, float, float], tuple[float, float, float, float]]]:
    """(fill colour, (x, y, w, h) in mm from the top-left) of every rectangle
    painted alone by a fill operator, in drawing order."""
    height = float(page.mediabox.height)
    ctm, stack, path, colour, found = [1, 0, 0, 1, 0, 0], [], [], (0.0, 0.0, 0.0), []
    for operands, op in page.get_contents().operations:
        if op == b"q":
            stack.append((ctm, colour))
        elif op == b"Q":
            ctm, colour = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"rg":
            r, g, b = (round(float(v), 3) for v in operands)
            colour = (r, g, b)
        elif op == b"re":
            path.append([float(v) for v in operands])
        elif op in (b"f", b"F"):
            if len(path) == 1:
                x, y, w, h = path[0]
                xs, ys = [], []
                for px, py in ((x, y), (x + w, y + h)):
                    xs.append(ctm[0] * px + ctm[2] * py + ctm[4])
                    ys.append(ctm[1] * px + ctm[3] * py + ctm[5])
                left, top = min(xs) * PT, (height - max(ys)) * PT
                found.append((colour, (left, top, (max(xs) - min(xs)) * PT, (max(ys) - min(ys)) * PT)))
            path = []
        elif op in (b"n", b"f*", b"B", b"B*", b"S", b"s", b"b", b"b*"):
            path = []
    return found


def boxes_of_size(page, w, h):
    return [r for _, r in filled_rects(page) if abs(r[2] - w) < TOL and abs(r[3] - h) < TOL]


def marks(page):
    """Cut marks: thin black bars; (axis, centre line, start, end) in mm."""
    found = []
    for colour, (x, y, w, h) in filled_rects(page):
        if colour != (0.0, 0.0, 0.0):
            continue
        if w < 0.2 and h > 1:
            found.append(("v", round(x + w / 2, 2), round(y, 2), round(y + h, 2)))
        elif h < 0.2 and w > 1:
            found.append(("h", round(y + h / 2, 2), round(x, 2), round(x + w, 2)))
    return sorted(found)


def close(a, b) -> bool:
    return all(abs(p - q) <= TOL for p, q in zip(a, b, strict=True))


def assert_boxes(found, expected):
    assert len(found) == len(expected), (found, expected)
    for got, want in zip(found, expected, strict=True):
        assert close(got, want), (got, want)


def assert_marks(found, expected):
    assert len(found) == len(expected), (found, expected)
    for got, want in zip(found, sorted(expected), strict=True):
        assert got[0] == want[0] and close(got[1:], want[1:]), (got, want)


def expected_marks(xs, ys, grid_box, bleed, length):
    """Marks 1 mm outside the bleed, `length` long, on every cut line."""
    left, top, right, bottom = grid_box
    out = []
    for x in xs:
        out += [("v", x, top - 1 - length, top - 1), ("v", x, bottom + 1, bottom + 1 + length)]
    for y in ys:
        out += [("h", y, left - 1 - length, left - 1), ("h", y, right + 1, right + 1 + length)]
    return out


# --- rendering a deck --------------------------------------------------------

@pytest.fixture(scope="module")
def deck():
    """The Sixes hand-signal deck with two extra cards: 11 cards, so a
    9-up sheet has a full first page and a partial second one."""
    game, _ = SIXES.load(SIXES.starter, SIXES.starter.parent)
    doc = next(d for d in SIXES.documents(game) if d.cards)
    return dataclasses.replace(doc, cards=doc.cards + doc.cards[:2])


def render(doc, tmp_path, paper, **options):
    from generator.render.pdf.jobs import prepare_html
    from generator.render.options import PrintOptions
    from generator.render.pdf.weasy import render_pdf
    prepared = prepare_html(doc, PrintOptions(**options))
    target = tmp_path / f"{paper}.pdf"
    from generator.core.paper import Paper
    result = render_pdf(prepared.job(target, Paper.parse(paper), (TEMPLATES_DIR,), "deck"))
    assert result.pages == prepared.budget.pages and not prepared.budget.flowing    # a deck: exact
    assert not result.overflows and not result.lint, result
    return PdfReader(target)


# Hand-worked layouts. Poker 63 x 88: 3 x 3 fill 189 x 264 mm, centred.
# The marks are as long as the narrowest margin allows: Letter's 279.4 mm
# height leaves (279.4 - 264) / 2 = 7.7 mm, less 3 mm printer edge and 1 mm
# gap = 3.7 mm. Bridge 57 x 89: 3 x 3 = 171 x 267, margin (279.4-267)/2 = 6.2
# -> 2.2 mm marks. Tarot 70 x 120: 2 x 2 = 140 x 240, margin 19.7 -> 5 mm (cap).
LAYOUTS = {
    "poker": (63.0, 88.0, 3, 3, 3.7),
    "bridge": (57.0, 89.0, 3, 3, 2.2),
    "tarot": (70.0, 120.0, 2, 2, 5.0),
}


@pytest.mark.parametrize("size, paper", [("poker", "a4"), ("poker", "letter"), ("bridge", "a4"),
                                         ("tarot", "letter")])
def test_cards_and_marks_sit_on_the_intended_millimetres(deck, tmp_path, size, paper):
    w, h, columns, rows, length = LAYOUTS[size]
    page_w, page_h = PAGES[paper]
    left, top = (page_w - columns * w) / 2, (page_h - rows * h) / 2
    reader = render(deck, tmp_path, paper, card_size=size)
    per_page = columns * rows
    assert len(reader.pages) == -(-11 // per_page)
    for number, page in enumerate(reader.pages):
        count = min(per_page, 11 - number * per_page)
        expected = [(left + (i % columns) * w, top + (i // columns) * h, w, h) for i in range(count)]
        assert_boxes(boxes_of_size(page, w, h), expected)
        xs = [left + i * w for i in range(columns + 1)]
        ys = [top + i * h for i in range(rows + 1)]
        box = (left, top, left + columns * w, top + rows * h)
        assert_marks(marks(page), expected_marks(xs, ys, box, 0, length))
        # Marks stay outside every card and inside the printable area.
        for _, _, start, end in marks(page):
            assert min(start, end) >= 3 - TOL


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_land_behind_their_fronts_and_move_by_the_offset(deck, tmp_path, paper):
    dx, dy = 1.5, -0.8
    reader = render(deck, tmp_path, paper, backs=True, back_offset=(dx, dy))
    page_w, page_h = PAGES[paper]
    w, h = 63.0, 88.0
    assert len(reader.pages) == 4     # fronts, backs, fronts, backs
    for fronts, backs in ((0, 1), (2, 3)):
        front_boxes = boxes_of_size(reader.pages[fronts], w, h)
        back_boxes = boxes_of_size(reader.pages[backs], w, h)
        assert len(front_boxes) == len(back_boxes) == (9 if fronts == 0 else 2)
        for (fx, fy, _, _), (bx, by, _, _) in zip(front_boxes, back_boxes, strict=True):
            # Flipped on the long edge, a back at bx covers page_w - bx - w on the front.
            assert abs((page_w - bx - w) - (fx - dx)) <= TOL and abs(by - (fy + dy)) <= TOL
        # The back page's marks are the front page's, mirrored and moved.
        mirrored = sorted((a, round(page_w - c + dx, 2) if a == "v" else round(c + dy, 2),
                           *((s + dy, e + dy) if a == "v" else (page_w - e + dx, page_w - s + dx)))
                          for a, c, s, e in marks(reader.pages[fronts]))
        assert_marks(marks(reader.pages[backs]), mirrored)
    # The first back of a partial page sits behind the first front (left column), so at the right.
    (fx, _, _, _), = boxes_of_size(reader.pages[2], w, h)[:1]
    (bx, _, _, _), = boxes_of_size(reader.pages[3], w, h)[:1]
    assert fx < page_w / 2 < bx


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_bleed_separates_cards_and_turns_the_sheet_when_that_fits_more(deck, tmp_path, paper):
    """Poker with 3 mm bleed: each card needs 69 x 94 mm. Portrait fits 2 x 2,
    landscape 3 x 2, so the sheet is landscape; 207 x 188 mm centred."""
    reader = render(deck, tmp_path, paper, bleed=3.0, backs=True)
    page_w, page_h = PAGES[paper][::-1]
    assert abs(float(reader.pages[0].mediabox.width) * PT - page_w) < TOL
    left, top = (page_w - 207) / 2, (page_h - 188) / 2
    assert len(reader.pages) == 4
    front = reader.pages[0]
    bleeds = boxes_of_size(front, 69, 94)
    trims = boxes_of_size(front, 63, 88)
    assert_boxes(bleeds, [(left + c * 69, top + r * 94, 69, 94) for r in range(2) for c in range(3)])
    assert_boxes(trims, [(left + 3 + c * 69, top + 3 + r * 94, 63, 88) for r in range(2) for c in range(3)])
    xs = [left + 3 + c * 69 + d for c in range(3) for d in (0, 63)]
    ys = [top + 3 + r * 94 + d for r in range(2) for d in (0, 88)]
    # Marks: the margin is at least (210 - 188) / 2 = 11 mm, so the full 5 mm.
    assert_marks(marks(front), expected_marks(xs, ys, (left, top, left + 207, top + 188), 3, 5.0))
    back_trims = boxes_of_size(reader.pages[1], 63, 88)
    for (fx, fy, _, _), (bx, by, _, _) in zip(trims, back_trims, strict=True):
        assert abs((page_w - bx - 63) - fx) <= TOL and abs(by - fy) <= TOL


def test_a_build_with_backs_writes_the_calibration_sheet_and_budgets_the_deck(tmp_path):
    from generator.commands.build import build
    from generator.commands.context import BuildConfig
    from generator.core.paper import LETTER
    from generator.render.options import PrintOptions
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    report = build(BuildConfig(data, tmp_path / "out", (LETTER,), site=False, workers=1,
                   options=PrintOptions(card_size="tarot", backs=True, back_offset=(0.5, 0.5))))
    calibration = tmp_path / "out" / "pdf" / "letter" / "duplex-calibration.pdf"
    assert calibration in report.pdfs
    reader = PdfReader(calibration)
    assert len(reader.pages) == 2
    # The cross: two black bars crossing at the page centre (moved by the offset on the back).
    for number, (dx, dy) in ((0, (0, 0)), (1, (0.5, 0.5))):
        bars = [r for c, r in filled_rects(reader.pages[number]) if c == (0.0, 0.0, 0.0) and max(r[2], r[3]) > 25]
        centres = sorted((round(x + w / 2, 1), round(y + h / 2, 1)) for x, y, w, h in bars)
        assert all(close(c, (215.9 / 2 + dx, 279.4 / 2 + dy)) for c in centres) and len(centres) == 2
    # 9 hand-signal cards on tarot (4 a page) with backs: 3 fronts + 3 backs.
    deck = PdfReader(tmp_path / "out" / "pdf" / "letter" / "sixes" / "public" / "hand-signal-cards.pdf")
    assert len(deck.pages) == 6


def test_bad_offsets_and_sizes_are_refused():
    from generator.render.options import PrintOptions, parse_offset
    assert parse_offset(" 1.5 , -0.5") == (1.5, -0.5)
    for text in ("1.5", "a,b", "1,2,3", "30,0"):
        with pytest.raises(ValueError):
            parse_offset(text)
    with pytest.raises(ValueError, match="poker, bridge, tarot"):
        PrintOptions(card_size="jumbo")


def test_the_command_line_refuses_a_bad_offset_with_a_usage_error(tmp_path):
    from click.testing import CliRunner
    from generator.commands.cli import main
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), "--back-offset", "1"])
    assert result.exit_code == 2
    assert "expected X,Y in millimetres" in result.output
    assert not any(tmp_path.iterdir())
