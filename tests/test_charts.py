"""The shared chart and percentage helpers."""
from fractions import Fraction
import xml.etree.ElementTree as ET

import pytest

from generator.render.charts import Bar, Line, bar_chart, fixed, line_chart, percent


def test_percent_edges():
    assert percent(0) == "0%"
    assert percent(1) == "100%"
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(1, 100000)) == "<0.1%"
    assert percent(Fraction(99999, 100000)) == ">99.9%"
    assert percent(Fraction(1, 2), places=0) == "50%"


# Exact halves, worked by hand: a half at the last printed place always goes
# up (away from zero), never to the even neighbour.
HALVES = [
    (Fraction(9, 16), 1, "56.3%"),      # 56.25
    (Fraction(1, 8), 1, "12.5%"),       # 12.5 needs no rounding at one place
    (Fraction(1, 8), 0, "13%"),         # 12.5
    (Fraction(1, 16), 1, "6.3%"),       # 6.25
    (Fraction(3, 16), 1, "18.8%"),      # 18.75
    (Fraction(5, 8), 0, "63%"),         # 62.5
    (Fraction(1, 32), 2, "3.13%"),      # 3.125
    (Fraction(3, 32), 2, "9.38%"),      # 9.375
    (Fraction(1, 40), 0, "3%"),         # 2.5
    (Fraction(1, 2000), 2, "0.05%"),    # 0.05 exactly: no rounding
    (Fraction(1, 1600), 3, "0.063%"),   # 0.0625
    (0.5625, 1, "56.3%"),               # the same half given as a float
    (0.125, 0, "13%"),
    (Fraction(-9, 16), 1, "-56.3%"),    # away from zero on the other side too
]


@pytest.mark.parametrize("value, places, expected", HALVES, ids=[f"{v}@{p}" for v, p, _ in HALVES])
def test_percent_rounds_exact_halves_away_from_zero(value, places, expected):
    """56.25% prints as 56.3%, not 56.2% (issue 18): Python's format() rounds
    half to even, so it printed 56.2%, 6.2% and 12%."""
    assert percent(value, places) == expected


def bf_percent(value: Fraction, places: int) -> str:
    """The same by Decimal arithmetic at high precision, ROUND_HALF_UP."""
    from decimal import ROUND_HALF_UP, Decimal, localcontext
    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator) * 100
        return str(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)) + "%"


def test_percent_agrees_with_decimal_half_up_on_every_fraction_of_small_denominators():
    for den in (6, 8, 16, 32, 36, 40, 64, 80, 216, 400, 1296):
        for num in range(1, den):
            value = Fraction(num, den)
            for places in (0, 1, 2):
                if Fraction(1, 10**places) / 100 <= value <= 1 - Fraction(1, 10**places) / 100:
                    assert percent(value, places) == bf_percent(value, places), (value, places)


def test_fixed_is_the_same_rounding_for_other_numbers():
    assert fixed(Fraction(9, 4)) == "2.3"          # 2.25
    assert fixed(Fraction(9, 2), 0) == "5"          # 4.5
    assert fixed(2.675, 2) == "2.68"                # a float that is a hair under the half in binary
    assert fixed(Fraction(18)) == "18.0"
    assert fixed(Fraction(-1, 2), 0) == "-1"
    assert fixed(Fraction(-1, 40)) == "0.0"         # no negative zero
    with pytest.raises(ValueError):
        fixed(1, -1)


def test_chart_values_use_the_same_rounding():
    root = ET.fromstring(str(bar_chart([Bar("CN 4, 4 stages", [Fraction(1, 16)])], title="t")))
    assert "6.3%" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_bar_chart_is_valid_svg_with_values_as_text():
    svg = bar_chart([Bar("Critical 3", [Fraction(1, 2), Fraction(1, 6)]), Bar("A & B", [Fraction(1, 6)])],
                    title="Odds <test>", series=("success", "hand roll"))
    root = ET.fromstring(str(svg))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "50.0% / 16.7%" in texts and "A & B" in texts and "success" in texts
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "Odds <test>"


def test_bar_width_is_proportional():
    root = ET.fromstring(str(bar_chart([Bar("x", [Fraction(1, 4)]), Bar("y", [1])], title="t", width=400)))
    widths = [float(r.get("width", "")) for r in root.iter("{http://www.w3.org/2000/svg}rect")
              if r.get("fill") not in ("none", "#fff") and r.get("stroke") == "#222"]
    assert abs(widths[1] / widths[0] - 4) < 1e-6


def test_line_chart_labels_lines():
    svg = line_chart([Line("c=3", [(1, Fraction(1, 2)), (2, Fraction(1, 4))]), Line("c=5", [(1, 0), (2, 1)])],
                     title="luck", x_label="challenges", y_label="chance")
    root = ET.fromstring(str(svg))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "c=3" in texts and "c=5" in texts and "challenges" in texts and "100%" in texts


def test_two_charts_on_one_page_never_share_an_id():
    first = bar_chart([Bar("a", [Fraction(1, 2), Fraction(1, 4)])], title="one", series=("x", "y"))
    second = bar_chart([Bar("a", [Fraction(1, 3), Fraction(1, 4)])], title="two", series=("x", "y"))
    patterns = [ET.fromstring(str(svg)).find(".//{http://www.w3.org/2000/svg}pattern") for svg in (first, second)]
    ids = [pattern.get("id") for pattern in patterns if pattern is not None]
    assert len(ids) == 2
    assert ids[0] != ids[1]
    assert f"url(#{ids[0]})" in str(first) and f"url(#{ids[1]})" in str(second)
    assert bar_chart([Bar("a", [1])], title="one") == bar_chart([Bar("a", [1])], title="one")   # repeatable


SVG = "{http://www.w3.org/2000/svg}"


def _painted(root):
    """Fills of the shapes drawn in the chart itself (not inside a pattern)."""
    inside_patterns = {id(e) for p in root.iter(f"{SVG}pattern") for e in p.iter()}
    return [e.get("fill") for e in root.iter() if e.tag in (f"{SVG}rect", f"{SVG}path", f"{SVG}circle")
            and id(e) not in inside_patterns and e.get("fill") is not None]


def test_ink_saver_bars_are_outlines_or_light_patterns_still_told_apart():
    bars = [Bar("a", [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]), Bar("b", [Fraction(1, 3), 0, Fraction(2, 3)])]
    normal = ET.fromstring(str(bar_chart(bars, title="t", series=("x", "y", "z"))))
    saver = ET.fromstring(str(bar_chart(bars, title="t", series=("x", "y", "z"), ink_saver=True)))
    assert "#222" in _painted(normal)   # the ordinary chart has solid bars
    fills = _painted(saver)
    assert set(fills) <= {"none", "#fff"} | {f for f in fills if f.startswith("url(#")}
    pattern_ids = {p.get("id") for p in saver.iter(f"{SVG}pattern")}
    assert {f[5:-1] for f in fills if f.startswith("url(#")} <= pattern_ids
    for pattern in saver.iter(f"{SVG}pattern"):   # thin lines or small dots on 5 x 5 tiles
        marks = [e for e in pattern if e.tag != f"{SVG}rect"]
        assert all(float(e.get("stroke-width", 0)) <= 0.6 and float(e.get("r", 0)) <= 0.8 for e in marks)
    painted = [f for f in fills if f != "none"]   # without each row's empty track
    legend = painted[:3]   # the key's swatches come first, one per series
    assert len(set(legend)) == 3
    assert painted[3:6] == legend   # the first bar's three parts, in series order


def test_ink_saver_line_markers_are_hollow():
    lines = [Line(f"l{i}", [(1, Fraction(1, 2)), (2, Fraction(1, 4))]) for i in range(4)]
    normal = ET.fromstring(str(line_chart(lines, title="t", x_label="x", y_label="y")))
    saver = ET.fromstring(str(line_chart(lines, title="t", x_label="x", y_label="y", ink_saver=True)))
    assert "#222" in _painted(normal)
    assert set(_painted(saver)) == {"none", "#fff"}


def test_a_single_named_series_gets_a_key():
    """Every chart says what its bars are, even with one series (issue 18, point 9)."""
    root = ET.fromstring(str(bar_chart([Bar("CN 3", [Fraction(2, 3)])], title="t", series=("Overcome",))))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts[0] == "Overcome" and "66.7%" in texts
    swatches = [r for r in root.iter(f"{SVG}rect") if r.get("width") == "12"]
    assert len(swatches) == 1
    # Without a name there is nothing to key, and the chart is as before.
    bare = ET.fromstring(str(bar_chart([Bar("CN 3", [Fraction(2, 3)])], title="t")))
    assert "Overcome" not in [t.text for t in bare.iter(f"{SVG}text")]


def test_line_chart_key_pairs_each_label_with_its_dash_and_marker():
    lines = [Line(f"CN {i}", [(0, 0), (5, Fraction(i, 10))]) for i in (1, 2, 3)]
    plain = ET.fromstring(str(line_chart(lines, title="t", x_label="x", y_label="y")))
    keyed = ET.fromstring(str(line_chart(lines, title="t", x_label="x", y_label="y", legend=True)))
    count = lambda root, label: [t.text for t in root.iter(f"{SVG}text")].count(label)   # noqa: E731
    assert all(count(plain, f"CN {i}") == 1 and count(keyed, f"CN {i}") == 2 for i in (1, 2, 3))
    key_lines = [e for e in keyed.iter(f"{SVG}line") if e.get("stroke-width") == "1.4"]
    assert [e.get("stroke-dasharray") for e in key_lines] == [None, "6 3", "2 2"]


def test_the_site_s_drawing_is_sized_for_a_phone():
    """The screen version (site pages) is drawn 340 units wide with text of
    13 units, which shows at 12 px or more on a 390 px phone (the browser
    test measures it); the printed drawing keeps its 480 units and 10-11."""
    import re
    from fractions import Fraction

    from generator.render.charts import Bar, Line, bar_chart, line_chart
    bars = [Bar("CN 1 with a long label", [Fraction(5, 6), Fraction(1, 6), 0]), Bar("CN 2", [Fraction(1, 2)] * 2)]
    lines = [Line("CN 1", [(0, 0), (5, Fraction(1, 2)), (10, 1)]), Line("CN 2", [(0, 0), (10, Fraction(1, 4))])]
    for screen, width, smallest in [(True, 340, 13), (False, 480, 10)]:
        for svg in (bar_chart(bars, title="t", series=["Clean", "Costly", "Fail"], screen=screen),
                    line_chart(lines, title="t", x_label="x", y_label="y", legend=True, screen=screen)):
            assert f'viewBox="0 0 {width} ' in svg
            sizes = [float(s) for s in re.findall(r'font-size="([0-9.]+)"', svg)]
            assert sizes and min(sizes) >= smallest, (screen, sizes)
            xs = [float(x) for x in re.findall(r'<text x="([0-9.]+)"', svg)]
            assert max(xs) <= width


# Texts a chart may be handed on a site page (a game's catalogue words its
# titles and axes): Markdown syntax of every kind, HTML, and a line break.
HOSTILE_LABELS = ["[rules](javascript:alert(1))", "![x](https://example.org/t.png)", "*em* _em_ `code` ~~s~~",
                  "<img src=x onerror=alert(1)> & \"quoted\" 'single'", "a\n# Heading\n- item", "<https://example.org>",
                  "1. first", "x{: onclick=\"alert(1)\" }", "a | b", "\\*"]


@pytest.mark.parametrize("label", HOSTILE_LABELS)
def test_a_site_chart_s_text_is_never_read_as_markdown(label):
    """A site page is Markdown and a chart on it raw HTML whose text
    Python-Markdown still reads: every text a chart draws on screen stays
    text (the same characters, no link, image, emphasis or attribute)."""
    import html
    import re

    import markdown
    import yaml

    from generator.core.paths import MKDOCS_CONFIG
    extensions = yaml.safe_load(MKDOCS_CONFIG.read_text(encoding="utf-8"))["markdown_extensions"]
    names = [e if isinstance(e, str) else next(iter(e)) for e in extensions]
    charts = [line_chart([Line(label, [(1, Fraction(1, 2)), (2, 1)])], title=label, x_label=label, y_label=label,
                         legend=True, screen=True),
              bar_chart([Bar(label, [Fraction(1, 3)])], title=label, series=[label], screen=True)]
    for chart in charts:
        page = markdown.markdown(f"Before\n\n{chart}\n\nAfter\n", extensions=names)
        svg = page[page.index("<svg"):page.index("</svg>") + len("</svg>")]
        assert not re.search(r"<(?!/?(svg|title|text|rect|line|path|circle|defs|pattern)\b)", svg), svg
        assert not [tag for tag in re.findall(r"<[^>]*>", svg) if re.search(r"\son\w*=", tag)], svg
        shown = [html.unescape(t) for t in re.findall(r"<(?:text|title)[^>]*>([^<]*)<", svg)]
        assert " ".join(label.split()) in [" ".join(t.split()) for t in shown], shown
