"""The shared chart and percentage helpers."""
from fractions import Fraction
import xml.etree.ElementTree as ET

from generator.render.charts import Bar, Line, bar_chart, line_chart, percent


def test_percent_edges():
    assert percent(0) == "0%"
    assert percent(1) == "100%"
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(1, 100000)) == "<0.1%"
    assert percent(Fraction(99999, 100000)) == ">99.9%"
    assert percent(Fraction(1, 2), places=0) == "50%"


def test_bar_chart_is_valid_svg_with_values_as_text():
    svg = bar_chart([Bar("Critical 3", [Fraction(1, 2), Fraction(1, 6)]), Bar("A & B", [Fraction(1, 6)])],
                    title="Odds <test>", series=("success", "hand roll"))
    root = ET.fromstring(str(svg))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "50.0% / 16.7%" in texts and "A & B" in texts and "success" in texts
    assert root.find("{http://www.w3.org/2000/svg}title").text == "Odds <test>"


def test_bar_width_is_proportional():
    root = ET.fromstring(str(bar_chart([Bar("x", [Fraction(1, 4)]), Bar("y", [1])], title="t", width=400)))
    widths = [float(r.get("width")) for r in root.iter("{http://www.w3.org/2000/svg}rect")
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
    ids = [ET.fromstring(str(svg)).find(".//{http://www.w3.org/2000/svg}pattern").get("id") for svg in (first, second)]
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
