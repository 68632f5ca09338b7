"""The site is the game's, not the tool's.

A game folder made with `sixes new` is given a name, a description and a
folder of its own pages (house rules with a table, a link, an image, an
admonition; and a page of hostile markup), and its site is built. The home
page, the header and the tabs carry the game's name; the tool's own
documentation is nowhere; the game's pages are in the navigation with their
Markdown intact, and their raw HTML keeps only plain document markup: no
script, handler, frame, style, form or `javascript:` URL, and no image from
the network. The pages folder is checked like data (every problem at once,
with the file named), and `clean_html` is tested directly against the
classic ways of smuggling script through a sanitiser.
"""
from __future__ import annotations

import html
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from game_sites import build_site_only, new_game

NAME = "Lantern Fair <i>&</i> Friends"
DESCRIPTION = "A weekend of lantern-lit duels; read the house rules first."

HOUSE_RULES = """\
---
title: House rules
---
# Our house rules

We play **Sixes** as written, with one change: see the [Sixes rules](sixes/index.md).
Questions go to <mailto:gm@example.org> or [the forum](https://example.org/forum).

| Who | Hit points |
|---|---|
| **Captains** | 6 |
| **Everyone else** | 4 |

![The hall](images/venue.png)

!!! note "Curfew"
    The hall closes at eleven.

<details><summary>Spoilers for nobody</summary>keptdetails</details>
"""

# Each line holds a marker that must still be shown (the text survives) and
# something live that must not.
HOSTILE = """\
# Hostile page

keptA <script>alert('script')</script>

keptB <img src="x" onerror="alert('onerror')">

keptC <a href="javascript:alert('js-link')">js link</a> [md link](javascript:alert('md-link'))

keptD <a href=" jav&#x09;ascript:alert('tab')">tab</a> <a href="&#106;avascript:alert('entity')">entity</a>

keptE <a href="JaVaScRiPt:alert('case')">case</a> <a href="vbscript:msgbox('vb')">vb</a> \
<a href="data:text/html,<script>alert('data')</script>">data</a>

keptF ![remote](https://evil.example/pixel.png) <img src="//evil.example/p.png"> <img src="/\\\\evil.example/p.png">

keptG {: onmouseover="alert('attr-list')" }

keptH <div style="position:fixed;top:0;left:0;width:100%;height:100%" onclick="alert('div')">overlay</div>

keptI <svg><script>alert('svg')</script><a xlink:href="javascript:alert('xlink')">x</a></svg>

keptJ <math><mtext><table><mglyph><style><img src=x onerror=alert('mxss')></style></mglyph></table></mtext></math>

keptK <iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="x.swf">

keptL <form action="https://evil.example"><input name="q">\
<button formaction="javascript:alert('form')">go</button></form>

keptM <style>body { display: none }</style><link rel="stylesheet" href="https://evil.example/x.css">

keptN <meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">

keptO <noscript><p title="</noscript><img src=x onerror=alert('noscript')>"></noscript>

keptP <p>unclosed <div>nested <li>list</div></div></div></div></article>keptQ

## Heading <img src=y onerror="alert('heading')"> &lt;script&gt;alert('text')&lt;/script&gt;

keptR <a href="https://example.org/ok" target="_blank" ping="https://evil.example">fine link</a>
"""
MARKERS = [f"kept{c}" for c in "ABCDEFGHIJKLMNOPQR"]


def _png(path: Path) -> None:
    from PIL import Image
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (60, 40), "darkred").save(path)


def _settings(game: Path, **site) -> None:
    path = game / "sixes.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["site"].update(site)
    data["systems"] = ["sixes", "i6"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    game = new_game(tmp_path_factory.mktemp("game") / "lantern-fair")
    _settings(game, name=NAME, description=DESCRIPTION)
    (game / "pages").mkdir()
    (game / "pages" / "house-rules.md").write_text(HOUSE_RULES, encoding="utf-8")
    (game / "pages" / "hostile.md").write_text(HOSTILE, encoding="utf-8")
    (game / "pages" / ".DS_Store").write_bytes(b"\0\1")        # hidden files are left out
    _png(game / "pages" / "images" / "venue.png")
    return game


@pytest.fixture(scope="module")
def site(game, tmp_path_factory) -> Path:
    return build_site_only(game, tmp_path_factory.mktemp("game-out"))


class _Page(HTMLParser):
    """Tags, attributes and the text of a page, the article apart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict, bool]] = []      # (tag, attrs, inside the article)
        self.text: list[str] = []
        self.article_text: list[str] = []
        self.title = ""
        self._depth = 0
        self._in_title = False
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = {k.lower(): v or "" for k, v in attrs}
        if tag == "article":
            self._depth += 1
        self.tags.append((tag, attrs, self._depth > 0))
        self._in_title = tag == "title" and not self.title     # the page's, not a chart's
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag == "article":
            self._depth -= 1
        if tag == "title":
            self._in_title = False
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        elif not self._skip:
            self.text.append(data)
            if self._depth:
                self.article_text.append(data)


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def squash(parts) -> str:
    return " ".join(" ".join(parts).replace("\u00b6", " ").split())


# --- the game's identity ------------------------------------------------------

def test_the_home_page_and_header_are_the_game_s(site):
    home = parse(site / "index.html")
    assert home.title.strip() == NAME
    article = squash(home.article_text)
    assert article.startswith(NAME)
    assert DESCRIPTION in article
    for text in ("Sixes", "I6", "House rules", "Hostile page"):
        assert text in article, text
    links = [a.get("href") for tag, a, inside in home.tags if tag == "a" and inside]
    assert {"sixes/index.html", "i6/index.html", "house-rules.html", "hostile.html"} <= set(links)
    header = (site / "index.html").read_text(encoding="utf-8")
    assert "Lantern Fair &lt;i&gt;&amp;&lt;/i&gt; Friends" in header     # the name, escaped
    assert "<i>&</i>" not in header


def test_the_tool_s_own_documentation_is_not_on_the_site(site):
    assert not (site / "getting-started.html").exists()
    for path in site.rglob("*.html"):
        page = parse(path)
        text = squash(page.article_text)
        for words in ("make pack", "pip install", "sixes build", ".venv", "YAML", "Getting started"):
            assert words not in text, (path, words)
        if path.name != "credits.html":
            assert "Sixes Press" not in text, path
        # The one credit: the footer's line, linking the credits page.
        footer = squash(page.text)
        assert "Made with Sixes Press" in footer, path
    credits = [a["href"] for tag, a, _ in parse(site / "sixes" / "rulings.html").tags
               if tag == "a" and a.get("href", "").endswith("credits.html")]
    assert credits == ["../credits.html"]


def test_tabs_and_breadcrumbs_lead_with_the_game_s_pages(site):
    home = parse(site / "index.html")
    tabs = [a.get("href") for tag, a, _ in home.tags if tag == "a" and "md-tabs__link" in a.get("class", "")]
    assert tabs == ["index.html", "hostile.html", "house-rules.html", "sixes/index.html", "i6/index.html"]
    odds = (site / "i6" / "odds.html").read_text(encoding="utf-8")
    path = re.search(r'<nav class="md-path".*?</nav>', odds, re.S)
    assert path is not None
    crumb = r'class="md-path__link"[^>]*>\s*<span class="md-ellipsis">\s*(.*?)\s*<'
    assert [html.unescape(t) for t in re.findall(crumb, path.group(0), re.S)] == [NAME, "I6"]


def test_every_page_title_names_its_game(site):
    from generator.systems import by_slug
    for path in site.rglob("*.html"):
        rel = path.relative_to(site).as_posix()
        slug = rel.split("/")[0]
        if slug in by_slug() and not rel.startswith("downloads/"):
            title = html.unescape(parse(path).title)
            assert title.startswith(f"{by_slug()[slug].title}: "), (rel, title)
            assert title.endswith(f" - {NAME}"), (rel, title)
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    titles = {d["location"]: html.unescape(d["title"]) for d in index["docs"] if "#" not in d["location"]}
    assert titles["i6/odds.html"] == "I6: Odds"
    assert titles["sixes/rulings.html"] == "Sixes: Rulings"


# --- the game's own pages ------------------------------------------------------

def test_the_game_s_pages_keep_their_markdown(site):
    page = parse(site / "house-rules.html")
    assert page.title.strip() == f"House rules - {html.escape(NAME)}" or \
        html.unescape(page.title.strip()) == f"House rules - {NAME}"
    inside = [(tag, attrs) for tag, attrs, art in page.tags if art]
    assert ("a", {"href": "sixes/index.html"}) in inside
    assert ("a", {"href": "https://example.org/forum"}) in inside
    assert ("a", {"href": "mailto:gm@example.org"}) in inside
    assert ("th", {"scope": "row"}) in inside
    assert ("img", {"alt": "The hall", "src": "images/venue.png"}) in inside
    assert (site / "images" / "venue.png").is_file()
    assert any(tag == "div" and "admonition" in a.get("class", "") for tag, a in inside)
    assert "keptdetails" in squash(page.article_text)
    assert not (site / ".DS_Store").exists()


def test_the_game_s_pages_show_their_text_and_run_nothing(site):
    page = parse(site / "hostile.html")
    shown = squash(page.article_text)
    for marker in MARKERS:
        assert marker in shown, marker
    plain = parse(site / "house-rules.html")
    scripts = lambda p: sorted(json.dumps(a, sort_keys=True) for tag, a, _ in p.tags if tag == "script")  # noqa: E731
    assert scripts(page) == scripts(plain)
    for tag, attrs, inside in page.tags:
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name, value)
            assert not re.match(r"\s*(javascript|vbscript|data):", value, re.I), (tag, name, value)
            assert "evil.example" not in value, (tag, name, value)
            if inside and name == "style":
                assert re.fullmatch(r"text-align: (left|right|center);", value), value
        if inside:
            assert tag not in {"script", "style", "iframe", "object", "embed", "form", "input", "button",
                               "svg", "math", "meta", "base", "link", "noscript"}, tag
    # Nothing closed the page's own elements early: the article ends where
    # Material ends it, so the footer is still outside and whole.
    text = (site / "hostile.html").read_text(encoding="utf-8")
    article = text[text.index('<article class="md-content__inner md-typeset">'):]
    assert article.index("keptQ") < article.index("</article>") < article.index('<footer class="md-footer">')


def test_a_game_index_page_replaces_the_home_page(tmp_path):
    game = new_game(tmp_path / "letter")
    _settings(game, name="The Letter", pages="welcome")
    (game / "welcome").mkdir()
    (game / "welcome" / "index.md").write_text(
        "# Dear players\n\nThank you for coming.\n\n<!-- games -->\n\nSee you there.\n", encoding="utf-8")
    site = build_site_only(game, tmp_path / "out")
    home = parse(site / "index.html")
    assert home.title.strip() == "The Letter"
    text = squash(home.article_text)
    assert text.startswith("Dear players Thank you for coming.")
    links = [a.get("href") for tag, a, inside in home.tags if tag == "a" and inside]
    assert "sixes/index.html" in links and "i6/index.html" in links
    assert "<!-- games -->" not in (site / "index.html").read_text(encoding="utf-8")


# --- the pages folder, checked like data ----------------------------------------

def test_problems_in_the_pages_folder_are_all_named(tmp_path):
    from generator.core.errors import DataError
    from generator.game.pages import read_own_pages
    pages = tmp_path / "game" / "pages"
    pages.mkdir(parents=True)
    (pages / "fine.md").write_text("# Fine\n", encoding="utf-8")
    (pages / "house rules.md").write_text("x", encoding="utf-8")            # a space
    (pages / "sixes.md").write_text("x", encoding="utf-8")                  # a system's name
    (pages / "credits.md").write_text("x", encoding="utf-8")                # the site's own page
    (pages / "Fine.MD").write_text("x", encoding="utf-8")                   # case twin
    (pages / "map.svg").write_text("<svg/>", encoding="utf-8")              # a kind not taken
    (pages / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    (pages / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    secret = tmp_path / "id_rsa"
    secret.write_text("PRIVATE", encoding="utf-8")
    os.symlink(secret, pages / "key.md")
    with pytest.raises(DataError) as caught:
        read_own_pages(pages, tmp_path)
    found = {p.file: p.message for p in caught.value.problems}
    assert set(found) == {f"game/pages/{n}" for n in ("house rules.md", "sixes.md", "credits.md", "map.svg",
                                                      "latin1.md", "broken.png", "key.md")} | (
        {"game/pages/Fine.MD"} if "game/pages/Fine.MD" in found else {"game/pages/fine.md"})
    assert "cannot be an address" in found["game/pages/house rules.md"]
    assert "uses itself" in found["game/pages/sixes.md"]
    assert "outside the pages folder" in found["game/pages/key.md"]
    assert "UTF-8" in found["game/pages/latin1.md"]
    assert "Markdown pages" in found["game/pages/map.svg"]


def test_no_pages_folder_means_no_own_pages(tmp_path):
    from generator.game.pages import OwnFiles, read_own_pages
    assert read_own_pages(tmp_path / "absent") == OwnFiles()
    assert read_own_pages(None) == OwnFiles()


def test_a_page_s_title_comes_from_front_matter_heading_or_name():
    from generator.game.pages import page_from_text

    def _own_page(rel, text):
        page, problems = page_from_text(rel, text, rel)
        assert problems == []
        return page
    assert _own_page("a.md", "---\ntitle: 'From front'\n---\n# Heading\n").title == "From front"
    assert _own_page("a.md", "```\n# not this\n```\nSetext *title*\n=====\n").title == "Setext title"
    assert _own_page("a.md", "Intro\n\n# The [rules](x.md) {: #id }\n").title == "The rules"
    assert _own_page("venue-map.md", "no heading").title == "Venue map"
    assert _own_page("a.md", "---\ntitle: x\n---\nbody").markdown == "body"


def test_the_pages_setting_is_a_folder_inside_the_game(tmp_path):
    from generator.core.errors import DataError
    from generator.game.settings import game_inputs, load_settings
    game = tmp_path / "g"
    game.mkdir()
    for bad in ("../elsewhere", "/etc", ".", "https://example.org/x"):
        (game / "sixes.yaml").write_text(f"site:\n  pages: {json.dumps(bad)}\n", encoding="utf-8")
        with pytest.raises(DataError) as caught:
            load_settings(game)
        assert "sixes.yaml:2" in str(caught.value), bad
    (game / "sixes.yaml").write_text("site:\n  pages: letters\n", encoding="utf-8")
    assert load_settings(game).pages_dir == game.resolve() / "letters"
    (game / "letters").mkdir()
    assert game / "letters" in game_inputs(game)       # hashed for the cache, watched, never an output


def test_a_changed_page_changes_what_the_site_is_made_from(game):
    from generator.render.cache import site_inputs_key
    from generator.game.settings import load_settings
    settings = load_settings(game)
    before = site_inputs_key(game, ["a4"], None, settings)
    page = game / "pages" / "house-rules.md"
    original = page.read_text(encoding="utf-8")
    try:
        page.write_text(original + "\nOne more rule.\n", encoding="utf-8")
        assert site_inputs_key(game, ["a4"], None, settings) != before
    finally:
        page.write_text(original, encoding="utf-8")


def test_a_bad_page_stops_the_build_with_its_name(tmp_path):
    from click.testing import CliRunner
    from generator.commands.cli import main
    game = new_game(tmp_path / "g")
    data = yaml.safe_load((game / "sixes.yaml").read_text(encoding="utf-8"))
    data["systems"] = ["i6"]
    (game / "sixes.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    (game / "pages").mkdir()
    (game / "pages" / "assets").mkdir()
    (game / "pages" / "assets" / "x.md").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--data", str(game), "--paper", "a4"])
    assert result.exit_code == 1, result.output
    assert "g/pages/assets/x.md: error: 'assets' is a name the site uses itself" in result.output
    assert not (game / "output" / "site").exists()


# --- the cleaner itself ---------------------------------------------------------

@pytest.mark.parametrize("dirty, clean", [
    ('<p onclick="x()">a</p>', "<p>a</p>"),
    ("<script>alert(1)</script>b", "b"),
    ('<a href="javascript:alert(1)">a</a>', "<a>a</a>"),
    ('<a href="  JAVA\tSCRIPT:alert(1)">a</a>', "<a>a</a>"),
    ('<a href="java\x00script:alert(1)">a</a>', '<a href="java\ufffdscript:alert(1)">a</a>'),  # a relative link
    ('<a href="https://example.org/?a=1&amp;b=2" title=\'t"\'>a</a>',
     '<a href="https://example.org/?a=1&amp;b=2" title="t&quot;">a</a>'),
    ('<a href="../sixes/rulings.html#kill">a</a>', '<a href="../sixes/rulings.html#kill">a</a>'),
    ('<img src="https://evil.example/x.png" alt="x">', ""),
    ('<img src="map.png">', '<img alt="" src="map.png">'),
    ('<td style="text-align: right;">1</td>', "1"),                 # a cell outside a table is no cell
    ('<table><tbody><tr><td style="text-align: right; color: red">1</td></tr></tbody></table>',
     "<table><tbody><tr><td>1</td></tr></tbody></table>"),
    ('<div class="admonition md-dialog note">x</div>', '<div class="admonition note">x</div>'),
    ('<h2 id="__search">x</h2>', "<h2>x</h2>"),
    ("<svg><a>x</a></svg>y", "y"),
    ("<p>a &lt;b&gt; &amp;</p>", "<p>a &lt;b&gt; &amp;</p>"),
    ("<!-- <script>x</script> -->z", "z"),
    ("<ul><li>a<li>b</ul>", "<ul><li>a</li><li>b</li></ul>"),
    ("</div></div></article>x", "x"),
])
def test_clean_html_keeps_plain_markup_only(dirty, clean):
    from generator.render.site.clean_html import clean_html
    assert clean_html(dirty) == clean


# --- in a real browser ------------------------------------------------------------

def test_the_hostile_page_runs_and_fetches_nothing(site, browser):
    from test_hostile_site import TOUCH_ALL, settle
    dialogs, outside, errors = [], [], []
    context = browser.new_context()
    context.route(re.compile(r"^(?!file:|data:|about:|blob:)"),
                  lambda route: (outside.append(route.request.url), route.abort()))
    for name in ("hostile.html", "house-rules.html", "index.html"):
        page = context.new_page()
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((site / name).as_uri(), wait_until="load")
        page.evaluate(TOUCH_ALL)
        settle(page)
        page.close()
    context.close()
    assert dialogs == [] and errors == []
    assert outside == []
