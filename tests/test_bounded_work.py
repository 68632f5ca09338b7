"""Work on user input is bounded: no pattern backtracks over a page's text,
no recursion goes as deep as a page nests, and every count from the command
line or a data file has a ceiling with a clear message.

Each reader of a page's text gets 1 MB of input made to hurt a backtracking
pattern (long runs of spaces before a non-space, brackets never closed,
tags never ended) and must finish well inside its bound; the bounds are
generous limits on CPU time measured, not waits. The scans that replaced the
patterns are checked against the patterns they replaced (`bf_`) on many
small random strings, so they still say the same thing. A page nesting
1,500 elements or 300 list levels is refused at its line, and a site with a
page whose first line is `# a`, 250 KB of spaces and `x` builds at once.
"""
from __future__ import annotations

import html
import random
import re

import pytest
from click.testing import CliRunner

from cpu_time import cpu_time
from game_sites import build_site_only, new_game

MB = 1_000_000
BOUND = 2.0         # seconds; each case takes a few hundredths here


def timed(function, *args, **kwargs):
    """Run and bound the CPU time of the work (tests/cpu_time.py): the
    machine runs other jobs, and the bound is about the work done here, not
    the scheduler."""
    result, elapsed = cpu_time(function, *args, **kwargs)
    assert elapsed < BOUND, f"{elapsed:.2f} s"
    return result


HEADINGS = {
    "spaces before a word": "# a" + " " * MB + "x",
    "brackets never closed": "# " + "[" * MB,
    "links with no target end": "# " + "[a](" * (MB // 4),
    "tags never ended": "# " + "<" * MB,
    "attribute lists never closed": "# a" + " {" * (MB // 2) + "x",
    "a setext heading with spaces": "a" + " " * MB + "x\n===",
    "closing hashes and spaces": "# a" + " #" * (MB // 2) + " x",
}


@pytest.mark.parametrize("text", HEADINGS.values(), ids=HEADINGS.keys())
def test_a_page_s_first_heading_is_read_in_linear_time(text):
    from generator.game.pages import _first_heading
    timed(_first_heading, text)


@pytest.mark.parametrize("text", [
    "---\ntitle: a" + " " * MB + "x\n---\nbody",
    "---\n" + "--- " * (MB // 4) + "x",
    "---\ntitle: x\n---\n# a" + "\t" * MB + "b",
], ids=["title", "front matter never closed", "heading after front matter"])
def test_a_page_s_title_is_read_in_linear_time(text):
    from generator.game.pages import page_from_text
    timed(page_from_text, "page.md", text, "page.md")


ROW_HEADERS = {
    "tables never closed": "<table>" * (MB // 7),
    "bodies never closed": "<table>" + "<tbody>" * (MB // 7) + "</table>",
    "bold first cells never closed": "<table><tbody>" + "<tr><td><strong>" * (MB // 16) + "</tbody></table>",
    "styles never closed": "<table><tbody>" + '<tr><td style="' * (MB // 16) + "</tbody></table>",
}


@pytest.mark.parametrize("text", ROW_HEADERS.values(), ids=ROW_HEADERS.keys())
def test_row_headers_are_found_in_linear_time(text):
    from generator.render.site.mkdocs_build import row_headers
    assert timed(row_headers, text) == text


@pytest.mark.parametrize("text", ["<" * MB, "<a" * (MB // 2) + ">", "<div>" * 99 + "<a<b<c" * (MB // 6) + ">",
                                  "> " * (MB // 2), "\t" * MB + "x", "<p>" * (MB // 3)],
                         ids=["lt", "one long tag", "unended tags", "quotes", "tabs", "paragraphs"])
def test_nesting_and_tags_are_scanned_in_linear_time(text):
    from generator.game.pages import strip_tags
    from generator.core.nesting import too_deep
    timed(strip_tags, text)
    timed(too_deep, text, 100)


# --- the scans say what the patterns said --------------------------------------------

def bf_first_heading(text: str) -> str | None:
    """The patterns the scans replaced, as they were."""
    fence, atx = re.compile(r"^ {0,3}(```|~~~)"), re.compile(r"^ {0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
    setext = re.compile(r"^ {0,3}=+[ \t]*$")
    fenced, lines = False, text.splitlines()
    for i, line in enumerate(lines):
        if fence.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found = atx.match(line)
        if not found and line.strip() and i + 1 < len(lines) and setext.match(lines[i + 1]):
            found = re.match(r"\s*(.+?)\s*$", line)
        if found:
            heading = re.sub(r"\s*\{[^}]*\}\s*$", "", found.group(1))
            heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
            heading = re.sub(r"<[^>]*>", "", heading)
            heading = re.sub(r"(\*\*|__|\*|`)", "", heading)
            return html.unescape(heading).strip() or None
    return None


def bf_row_headers(page_html: str) -> str:
    first_cell = re.compile(r"(<tr>\s*)<td((?: style=\"[^\"]*\")?)><strong>((?:(?!</?strong>|</?td).)*)</strong></td>",
                            re.S)

    def table(match: re.Match) -> str:
        text = match.group(0)
        body = re.search(r"<tbody>(.*?)</tbody>", text, re.S)
        if body is None:
            return text
        rows = body.group(1).count("<tr>")
        if rows == 0 or len(first_cell.findall(body.group(1))) != rows:
            return text
        cells = first_cell.sub(lambda m: f'{m.group(1)}<th scope="row"{m.group(2)}>{m.group(3)}</th>', body.group(1))
        return text[:body.start(1)] + cells + text[body.end(1):]
    return re.sub(r"<table>.*?</table>", table, page_html, flags=re.S)


def _random_texts(pieces: list[str], count: int, length: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, length))) for _ in range(count)]


def test_the_heading_scan_reads_what_the_patterns_read():
    from generator.game.pages import _first_heading
    pieces = ["#", "# ", " ", "\t", "a", "b", "[", "]", "(", ")", "!", "<", ">", "{", "}", "*", "_", "`", "\n", "=",
              "&amp;", "```"]
    texts = _random_texts(pieces, 20_000, 14, seed=28)
    texts += ["# Title", "# Title #", "# Title#", "  # [Map](map.png) of *the* <b>hall</b> {#hall}",
              "Title\n===", "```\n# no\n```\n# yes", "# a {b} c", "# a {b {c}", "# ![x](y)z"]
    differ = [t for t in texts if _first_heading(t) != bf_first_heading(t)]
    assert differ == []


def test_the_row_header_scan_reads_what_the_patterns_read():
    from generator.render.site.mkdocs_build import row_headers
    pieces = ["<table>", "</table>", "<tbody>", "</tbody>", "<tr>", "<td>", "</td>", "<strong>", "</strong>", "x",
              " ", "\n", '<td style="text-align: right">']
    texts = _random_texts(pieces, 20_000, 16, seed=29)
    texts.append("<table><tbody><tr><td><strong>HP</strong></td><td>4</td></tr></tbody></table>")
    assert [t for t in texts if row_headers(t) != bf_row_headers(t)] == []
    assert '<th scope="row">HP</th>' in row_headers(texts[-1])


# --- nesting -------------------------------------------------------------------------

@pytest.mark.parametrize("page, line, found", [
    ("# Deep\n\n" + "<div>" * 1500 + "x" + "</div>" * 1500, 3, "101 elements"),
    ("# Deep\n\n" + "\n".join("    " * i + "- x" for i in range(300)), 103, "101 levels of indentation"),
    ("# Deep\n\n" + "> " * 1500 + "x", 3, "1500 quotes"),
])
def test_a_page_nesting_too_deep_is_refused_at_its_line(tmp_path, page, line, found):
    from generator.core.errors import DataError
    from generator.game.pages import read_own_pages
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "deep.md").write_text(page, encoding="utf-8")
    (tmp_path / "pages" / "fine.md").write_text("# Fine\n\n" + "<div>" * 90 + "x" + "</div>" * 90, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        timed(read_own_pages, tmp_path / "pages", tmp_path)
    (problem,) = caught.value.problems
    assert problem.file == "pages/deep.md" and problem.line == line
    assert f"the page nests {found} deep here; a page may nest at most 100" in problem.message


def test_the_cleaner_writes_deep_html_without_recursion_and_refuses_deeper():
    import sys

    from generator.render.site.clean_html import UnsafeHtml, clean_html
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)          # far less than the 300 levels below: any recursion per level fails
    try:
        assert timed(clean_html, "<div>" * 300 + "x" + "</div>" * 300) == "<div>" * 300 + "x" + "</div>" * 300
    finally:
        sys.setrecursionlimit(limit)
    with pytest.raises(UnsafeHtml, match="deep.md: its HTML nests more than 300 elements deep"):
        timed(clean_html, "<div>" * 1500 + "x", "deep.md")


def test_a_site_with_hostile_pages_builds_at_once_or_refuses_them(tmp_path):
    from generator.core.errors import DataError
    game = new_game(tmp_path / "g")
    settings = (game / "sixes.yaml").read_text(encoding="utf-8")
    (game / "sixes.yaml").write_text(settings + "systems: [i6]\n", encoding="utf-8")
    (game / "pages").mkdir()
    (game / "pages" / "spaces.md").write_text("# a" + " " * 250_000 + "x\n\nText.\n", encoding="utf-8")
    (game / "pages" / "nested.md").write_text("# Nested\n\n" + "<div>" * 99 + "deep" + "</div>" * 99,
                                              encoding="utf-8")
    site, seconds = cpu_time(build_site_only, game, tmp_path / "out")
    assert seconds < 60          # it hung for good before
    assert "deep" in (site / "nested.html").read_text(encoding="utf-8")
    (game / "pages" / "nested.md").write_text("<div>" * 1500, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        build_site_only(game, tmp_path / "again")
    assert "pages/nested.md:1:501: error: the page nests 101 elements deep here" in str(caught.value)


# --- counts ----------------------------------------------------------------------------

def test_players_has_a_ceiling_with_a_clear_message(tmp_path):
    from generator.commands.cli import main
    result = timed(CliRunner().invoke, main, ["pack", "--players", "100000", "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert ("Invalid value for '--players': 100000: a pack holds at most 500 envelopes, each printed and stuffed "
            "by hand; pack a bigger event as several games") in result.output


def test_the_pack_function_refuses_too_many_players_too(tmp_path):
    from generator.commands.pack import PackRequest, pack
    from generator.core.paper import A4
    from generator.core.errors import DataError
    with pytest.raises(DataError, match="--players 501: a pack holds at most 500 envelopes"):
        pack(PackRequest(tmp_path, tmp_path / "out", (A4,), players=501))


def test_a_casting_file_holds_at_most_500_envelopes(tmp_path):
    from generator.game.casting import CastingFile
    from pydantic import ValidationError
    roles = [{"player": f"P{k}", "character": "x"} for k in range(501)]
    with pytest.raises(ValidationError, match="at most 500 items"):
        CastingFile.model_validate({"envelopes": roles})
    CastingFile.model_validate({"envelopes": roles[:500]})


@pytest.mark.parametrize("text", ["# a" + " " * MB + "x\n\nText.\n", "## a" + "\t " * (MB // 2) + "x\n",
                                  "a" + " " * MB + "x\n===\n", "a" + " " * MB + "x\n---\n"],
                         ids=["atx", "atx level 2 with tabs", "setext", "setext level 2"])
def test_markdown_reads_a_long_heading_of_spaces_in_linear_time(text):
    """Python-Markdown's attr_list goes back over every run of spaces in a
    heading from each of its spaces; the page reader makes the runs one space."""
    import markdown

    from generator.game.pages import page_from_text
    page, _ = page_from_text("page.md", text, "page.md")
    assert page is not None
    result = timed(markdown.markdown, page.markdown, extensions=["attr_list", "md_in_html", "tables", "toc"])
    assert re.fullmatch(r"<h[12] id=\"a-x\">a x</h[12]>(\n<p>Text.</p>)?", result)


def test_only_headings_are_calmed():
    from generator.game.pages import calm_headings
    text = "# a  b\nkeep  two  \n```\n# in   code\n```\n    code    here\n#hashtag  x\n"
    assert calm_headings(text) == "# a b\nkeep  two  \n```\n# in   code\n```\n    code    here\n#hashtag  x\n"


def test_a_long_simulation_tells_its_progress():
    from generator.core.paths import DEFAULT_DATA_DIR
    from generator.game.load import load_all
    from generator.systems.sixes.simulate import simulate, sides_by_faction
    loaded, _ = load_all(DEFAULT_DATA_DIR, systems=["sixes"])
    game = loaded[0].game
    told: list[int] = []
    simulate(sides_by_faction([m.character for m in game.cast][:2]), game.library, "aggressive", fights=40,
             progress=told.append)
    assert told == list(range(0, 40, 2)) + [40]


@pytest.mark.parametrize("option, value", [("--fights", "1000001"), ("--rounds", "501"), ("--fights", "0")])
def test_simulate_counts_have_ceilings(option, value):
    from generator.commands.cli import main
    result = CliRunner().invoke(main, ["simulate", option, value])
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.output


def test_a_paragraph_markdown_would_read_for_minutes_is_refused_at_its_line(tmp_path):
    """Python-Markdown walks from every `[` to its `]` or the paragraph's end:
    5,000 that never close took 14 s, so 100,000 would take hours."""
    from generator.core.errors import DataError
    from generator.game.pages import read_own_pages
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "brackets.md").write_text("# Brackets\n\nFine [link](x.md).\n\n" + "[" * 100_000,
                                                    encoding="utf-8")
    links = "\n".join(f"[link {k}](page{k}.md), [another](x.md) and [[nested]](y.md)" for k in range(1500))
    (tmp_path / "pages" / "links.md").write_text("# Links\n\n" + links + "\n\n```\n" + "[" * 100_000 + "\n```\n",
                                                 encoding="utf-8")
    with pytest.raises(DataError) as caught:
        timed(read_own_pages, tmp_path / "pages", tmp_path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line) == ("pages/brackets.md", 5)
    assert "so many '[' that never close" in problem.message


@pytest.mark.parametrize("text", ["[" * MB, "[" * (MB // 2) + "]" * (MB // 2), "[a]" * (MB // 3), "[\n" * (MB // 2)])
def test_bracket_work_is_counted_in_linear_time(text):
    from generator.core.nesting import bracket_work
    timed(bracket_work, text)


def test_bracket_work_is_what_markdown_walks():
    from generator.core.nesting import bracket_work
    assert bracket_work("[" * 2000 + "x", limit=0) == (1, sum(2000 - k for k in range(2000)))
    assert bracket_work("[a] [b]\n\n[c", limit=0) == (1, 2 + 2)
    assert bracket_work("[a] [b]\n\n[c", limit=4) == (3, 2 + 2 + 1)
    assert bracket_work("[a]", limit=2) is None
