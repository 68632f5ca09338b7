"""The built site in a real browser (Debian's Chromium, headless, driven by
Playwright). Opened straight from disk it searches, with stemming, and
fetches nothing from the network; every table fits the content column at
1280, 390 and 360 px and the printed page on A4 and US Letter; charts read
at 12 px or more on a phone and mean the same in dark mode as on paper; and axe-core finds no serious or critical
accessibility problem on any page of the example site or of a starter game
(`sixes new`) in light mode on a desktop, nor on a page of each kind of
either in dark mode on a phone.

axe-core is a test tool from npm (package.json); `make test` installs it
into node_modules/ through scripts/install-system-deps --browser."""
from __future__ import annotations


import pytest

from browsers import CHROMIUM, MISSING
from generator.core.paths import PROJECT_ROOT

PHONE = {"width": 360, "height": 740}
PAGES = ["index.html", "credits.html", "sixes/index.html", "sixes/game.html",
         "sixes/actions.html", "sixes/speed-slots.html", "sixes/specials.html", "sixes/rulings.html",
         "i6/index.html", "i6/odds.html", "i6/combat.html", "i6/heroes.html", "i6/rulings.html", "i6/downloads.html"]
AXE = PROJECT_ROOT / "node_modules" / "axe-core" / "axe.min.js"
# The printable width of a page: the print stylesheet's 12 mm margins on
# A4 (210 mm) and US Letter (8.5 in), in CSS pixels (96 to the inch).
PRINT_WIDTHS = {"A4": round((210 - 24) / 25.4 * 96), "Letter": round((8.5 * 25.4 - 24) / 25.4 * 96)}

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)


@pytest.fixture(scope="module")
def starter_site(tmp_path_factory, request):
    """A game as `sixes new` makes it, every system in it, its site built:
    the English starter the language tests build once for the run
    (tests/language_games.py), read here, never written."""
    from language_games import built_language_game
    return built_language_game("en", tmp_path_factory, request.config).out / "site"


def site_pages(site) -> list:
    return sorted(p for p in site.rglob("*.html"))


def search(page, query: str, timeout: float = 300) -> list[str]:
    """The locations of the results the site's own search shows for `query`,
    waiting up to `timeout` seconds for the search worker to read its index
    (a hostile build's index is long, and a busy machine slow: the deadline
    is for a search that never answers, not a slow one).

    The query is typed key by key as a reader types it: Material reads the
    box on a key going up, on focus (1 ms after it) and when the worker is
    ready. `fill` sends no key, so on a busy machine the box was read empty
    on focus, before the text arrived, and the query was never sent."""
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query)
    page.wait_for_function("document.querySelectorAll('.md-search-result__item').length > 0",
                           timeout=timeout * 1000)
    return page.eval_on_selector_all(".md-search-result__item > a", "links => links.map(a => a.href)")


def test_search_works_from_the_file_system_without_network(example_build, browser):
    page = browser.new_page()
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((example_build.out_dir / "site" / "index.html").as_uri())
    search(page, "rattled")
    titles = page.locator(".md-search-result__item h1").all_inner_texts()
    assert any("rules" in t.lower() for t in titles), titles
    assert any(t.startswith("Sixes: ") for t in titles), titles      # results say which game
    assert errors == []
    assert [u for u in requests if not u.startswith(("file:", "data:", "about:"))] == []
    page.close()


def test_search_finds_other_forms_of_a_word(example_build, browser):
    """"explodes" is nowhere on the site; I6's pages say "explode" and
    "exploding". The stemmer makes all three one word."""
    site = example_build.out_dir / "site"
    text = " ".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html")).lower()
    assert "explodes" not in text and "explode" in text
    page = browser.new_page()
    page.goto((site / "index.html").as_uri())
    assert any("/i6/" in href for href in search(page, "explodes"))
    page.close()


# A word the site holds only in the language's own words (the home page's
# games list, from the tool's catalogue), asked in another form of it: only
# that language's stemmer brings the two together ("jouez"/"jouer" -> "jou").
OTHER_LANGUAGES = {"de": ("rattled", "sixes/"), "fr": ("jouez", "index.html")}


@pytest.mark.parametrize("language", sorted(OTHER_LANGUAGES))
def test_search_in_another_language_loads_its_own_files_offline(tmp_path, browser, language):
    """The build keeps only the search files of the site's language; a
    German or French site must still search, with that language's stemming
    (its stemmer file loads from disk), and says its language on every page."""
    import yaml

    from game_sites import build_site_only, new_game
    game = new_game(tmp_path / "spiel", language)
    settings = yaml.safe_load((game / "sixes.yaml").read_text(encoding="utf-8"))
    settings["systems"] = ["sixes"]
    (game / "sixes.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    site = build_site_only(game, tmp_path / "out")
    lunr = site / "assets" / "javascripts" / "lunr"
    assert sorted(p.relative_to(lunr).as_posix() for p in lunr.rglob("*") if p.is_file()) == [
        f"min/lunr.{language}.min.js", "min/lunr.stemmer.support.min.js"]
    pages = site_pages(site)
    assert [p.name for p in pages if f'<html lang="{language}"' not in p.read_text(encoding="utf-8")] == []
    page = browser.new_page()
    errors, outside = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto((site / "index.html").as_uri())
    query, where = OTHER_LANGUAGES[language]
    assert any(where in href for href in search(page, query))
    assert errors == [] and outside == []
    page.close()


# --- tables and charts fit: screens and paper -----------------------------------

# Tables (and charts) that reach past the content column, or a scrolling box
# around a table that scrolls, on the page as it is laid out now.
MISFITS = """() => {
  const column = document.querySelector('.md-content__inner');
  const limit = (column || document.body).getBoundingClientRect().right + 1;
  const found = [];
  document.querySelectorAll('.md-typeset table, .md-typeset svg.chart').forEach((el, i) => {
    const box = el.closest('.md-typeset__scrollwrap');
    const right = el.getBoundingClientRect().right;
    if ((box && box.scrollWidth > box.clientWidth + 1) || right > limit ||
        (el.tagName === 'TABLE' && el.scrollWidth > el.clientWidth + 1)) {
      const head = el.tagName === 'TABLE' && el.rows[0] ? el.rows[0].innerText.replace(/\\s+/g, ' ').slice(0, 60) : '';
      found.push(`${el.tagName.toLowerCase()} ${i} (${head}) reaches ${Math.round(right)} px of ${Math.round(limit)}`);
    }
  });
  if (document.documentElement.scrollWidth > window.innerWidth) found.push('the page scrolls sideways');
  return found;
}"""


# Where each page of the example site is laid out: a name (the tests' ids)
# for a viewport and a medium. The print widths are the paper's between its
# margins, laid out with the print stylesheet.
LAYOUTS = {"1280": ({"width": 1280, "height": 900}, "screen"),
           "390": ({"width": 390, "height": 900}, "screen"),
           "360": ({"width": 360, "height": 900}, "screen"),
           "phone": (PHONE, "screen"),
           **{paper: ({"width": width, "height": 900}, "print") for paper, width in PRINT_WIDTHS.items()}}
# The phone test's two numbers: how wide the page is, and how many scrolling
# boxes around a table scroll.
PHONE_FIT = """() => [document.documentElement.scrollWidth,
  [...document.querySelectorAll('.md-typeset__scrollwrap')].filter(w => w.scrollWidth > w.clientWidth + 1).length]"""


@pytest.fixture(scope="module")
def layouts(example_build, browser) -> dict[str, dict[str, dict]]:
    """Every page of the example site, loaded once (in one tab: a navigation
    costs less than a new tab) and laid out again at each of LAYOUTS (a new
    viewport or medium lays the same page out anew, in a fraction of a load):
    layout -> page -> {"misfits": [...], "phone": [width, scrolling boxes]}.
    The tests below each read their layout's share."""
    site = example_build.out_dir / "site"
    page = browser.new_page()
    found: dict[str, dict[str, dict]] = {name: {} for name in LAYOUTS}
    for path in site_pages(site):
        page.set_viewport_size({"width": 1280, "height": 900})     # every page loads as on a desktop
        page.emulate_media(media="screen")
        page.goto(path.as_uri())
        for name, (viewport, media) in LAYOUTS.items():
            page.set_viewport_size(viewport)
            page.emulate_media(media=media)
            found[name][path.relative_to(site).as_posix()] = {
                "misfits": page.evaluate(MISFITS), "phone": page.evaluate(PHONE_FIT)}
    page.close()
    return found


def misfits(layouts, name: str) -> dict[str, list[str]]:
    """The pages with a table or chart that does not fit in layout `name`."""
    return {rel: seen["misfits"] for rel, seen in layouts[name].items() if seen["misfits"]}


@pytest.mark.parametrize("width", [1280, 390, 360])
def test_every_table_fits_the_screen(layouts, width):
    assert len(layouts[str(width)]) > 20
    assert misfits(layouts, str(width)) == {}


@pytest.mark.parametrize("paper", sorted(PRINT_WIDTHS))
def test_every_table_fits_the_printed_page(layouts, paper):
    """Laid out for print (the print stylesheet) at the width the paper
    leaves between its margins: no table wider than the page, nothing in a
    scrolling box that paper would cut off."""
    assert len(layouts[paper]) > 20
    assert misfits(layouts, paper) == {}


def test_printing_a_page_keeps_every_column(example_build, browser, tmp_path):
    """A real print to PDF on A4: the hits-to-rattle tables' last column
    (E7) is on the paper, and the pages are A4."""
    import subprocess
    page = browser.new_page()
    page.goto((example_build.out_dir / "site" / "sixes" / "speed-slots.html").as_uri())
    pdf = tmp_path / "speed-slots.pdf"
    page.pdf(path=str(pdf), format="A4", prefer_css_page_size=False)
    page.close()
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    headers = [line.split() for line in text.splitlines() if line.split()[:2] == ["HP", "E1"]]
    assert len(headers) >= 4
    assert all(h[-1] == "E7" for h in headers), headers


@pytest.mark.parametrize("rel", PAGES)
def test_pages_fit_a_phone_screen(layouts, rel):
    page_width, overflowing_tables = layouts["phone"][rel]["phone"]
    assert page_width <= PHONE["width"]
    assert overflowing_tables == 0


def _lightness(page, box: dict) -> float:
    """The mean lightness (0 black, 1 white) of the screen in `box`'s middle."""
    from io import BytesIO

    from PIL import Image, ImageStat
    clip = {"x": box["x"] + box["width"] / 2 - 2, "y": box["y"] + box["height"] / 2 - 2, "width": 4, "height": 4}
    return ImageStat.Stat(Image.open(BytesIO(page.screenshot(clip=clip))).convert("L")).mean[0] / 255


def test_charts_mean_the_same_in_dark_mode_as_on_paper(example_build, browser):
    """The darkest bar (Clean, the first series: the most ink on the printed
    card) stays dark in dark mode and its panel light, as on paper; inverting
    the chart made it white (issue 32). Print shows the chart as drawn."""
    shades = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 800})
        page = context.new_page()
        page.goto((example_build.out_dir / "site" / "six-shooter" / "odds.html").as_uri())
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == \
            ("slate" if scheme == "dark" else "default")
        chart = page.locator("svg.chart").first
        chart.scroll_into_view_if_needed()
        clean = chart.locator('rect[fill="#222"][stroke="#222"]').first
        shades[scheme] = (_lightness(page, clean.bounding_box()), _lightness(page, chart.bounding_box()))
        if scheme == "dark":
            page.emulate_media(media="print")
            assert set(page.eval_on_selector_all("svg.chart", "cs => cs.map(c => getComputedStyle(c).filter)")) \
                == {"none"}
        context.close()
    for scheme, (bar, panel) in shades.items():
        assert bar < 0.3 and bar < panel, (scheme, shades)


CHART_PAGES = ["i6/odds.html", "sixes/fights.html", "six-shooter/odds.html", "six-shooter/luck.html",
               "six-shooter/contests.html", "d6xd6/turns.html", "sixes-system/odds.html", "sixes-system/healing.html"]


@pytest.mark.parametrize("rel", CHART_PAGES)
def test_chart_text_is_legible_on_a_phone(example_build, browser, rel):
    """Every word and number in a chart shows at 12 px or more on a 390 px
    screen (the site draws charts for a phone; the print drawing showed 7 px),
    and no chart is wider than the screen."""
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto((example_build.out_dir / "site" / rel).as_uri())
    sizes = page.eval_on_selector_all(
        "svg.chart text",
        "ts => ts.map(t => t.ownerSVGElement.getScreenCTM().a * parseFloat(t.getAttribute('font-size')))")
    assert sizes, rel
    assert min(sizes) >= 12, (rel, min(sizes))
    widths = page.eval_on_selector_all("svg.chart", "cs => cs.map(c => c.getBoundingClientRect().right)")
    assert max(widths) <= 390, (rel, widths)
    page.close()


@pytest.mark.parametrize("rel", ["sixes/rulings.html", "sixes/speed-slots.html", "sixes-system/index.html",
                                 "sixes-system/rulings.html"])
def test_a_printed_page_never_ends_with_a_heading(example_build, browser, tmp_path, rel):
    """Printed from the browser, a heading goes over with what follows it:
    without the print stylesheet's rule these pages left a heading at a
    page's foot (issue 32)."""
    import re
    import subprocess
    page = browser.new_page()
    page.goto((example_build.out_dir / "site" / rel).as_uri())
    headings = {t.replace("\u00b6", "").strip() for t in
                page.eval_on_selector_all(".md-typeset :is(h1, h2, h3, h4)", "hs => hs.map(h => h.innerText)")}
    pdf = tmp_path / "page.pdf"
    page.pdf(path=str(pdf), format="A4")
    page.close()
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = [[line.strip() for line in p.splitlines() if line.strip() and "file://" not in line
              and not re.fullmatch(r"\d+/\d+", line.strip())] for p in text.split("\f")[:-1]]
    assert len(pages) > 1
    assert [p[-1] for p in pages if p and p[-1] in headings] == []


def test_a_table_that_must_scroll_can_be_reached_by_keyboard(example_build, browser):
    """On a screen too narrow for the widest table, its scrolling box takes a
    tab stop and a name; boxes that fit take none."""
    page = browser.new_page(viewport={"width": 240, "height": 700})
    page.goto((example_build.out_dir / "site" / "sixes-system" / "cast.html").as_uri())
    boxes = page.eval_on_selector_all(".md-typeset__scrollwrap", """bs => bs.map(b => [
        b.scrollWidth > b.clientWidth + 1, b.getAttribute('tabindex'), b.getAttribute('aria-label')])""")
    assert any(scrolls for scrolls, _, _ in boxes)
    for scrolls, tabindex, label in boxes:
        assert (tabindex == "0" and bool(label)) if scrolls else tabindex is None
    page.close()


# --- accessibility --------------------------------------------------------------

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => [v, v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')])
    .map(([v, first]) => `${v.impact} ${v.id}: ${v.nodes.length} (${first})`);
}"""


def axe_violations(browser, site, pages=None, **context_options) -> dict[str, list[str]]:
    """The serious problems on `pages` of `site` (by default every page but
    404.html: a web server's page, whose links start at the server's root,
    so from disk it loads no style sheet, a bare checkbox)."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: run `make test` (scripts/install-system-deps --browser runs npm ci)")
    context = browser.new_context(**context_options)
    # axe loads with every page, before the page's own scripts, and runs once
    # the page has loaded: the same findings on the example site's pages as
    # adding it to each loaded page, in 13 s where that took 17.
    context.add_init_script(path=str(AXE))
    page = context.new_page()           # one tab for every page: a new tab costs more than a navigation
    found = {}
    for path in pages if pages is not None else site_pages(site):
        if pages is None and path.name == "404.html":
            continue
        page.goto(path.as_uri())
        if bad := page.evaluate(AXE_RUN):
            found[path.relative_to(site).as_posix()] = bad
    context.close()
    return found


SCREENS = {"desktop-light": {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"},
           "phone-dark": {"viewport": {"width": 390, "height": 844}, "color_scheme": "dark"}}


def one_page_of_each_kind(site) -> list:
    """A page of each kind the site has: a kind is what a page's name says
    it shows (a system's rulings, odds, index...; the home page and the
    credits are kinds of their own), whichever system's folder it is in,
    since one theme lays out every page and one game's colours paint them."""
    kinds: dict[str, object] = {}
    for path in site_pages(site):
        rel = path.relative_to(site)
        if rel.name != "404.html":
            kinds.setdefault(rel.name if len(rel.parts) > 1 else f"/{rel.name}", path)
    return sorted(kinds.values())


def pages_for(site, screen: str) -> list:
    """Every page on a desktop in light mode, where axe finds what a page's
    own content gets wrong; on a phone in dark mode, where only the theme's
    layout and colours change what it finds, one page of each kind."""
    if screen != "desktop-light":
        return one_page_of_each_kind(site)
    return [p for p in site_pages(site) if p.name != "404.html"]        # see axe_violations


def test_one_page_of_each_kind_leaves_out_only_pages_of_kinds_it_has(example_build):
    site = example_build.out_dir / "site"
    chosen = one_page_of_each_kind(site)
    kinds = {p.name if len(p.relative_to(site).parts) > 1 else f"/{p.name}" for p in chosen}
    assert len(kinds) == len(chosen) > 15
    assert {p.name for p in site_pages(site) if p.name != "404.html"} <= {p.name for p in chosen}


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_serious_accessibility_problem_on_the_example_site(example_build, browser, screen):
    site = example_build.out_dir / "site"
    assert axe_violations(browser, site, pages_for(site, screen), **SCREENS[screen]) == {}


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_serious_accessibility_problem_on_a_starter_game(starter_site, browser, screen):
    assert len(site_pages(starter_site)) > 20
    assert axe_violations(browser, starter_site, pages_for(starter_site, screen), **SCREENS[screen]) == {}
