"""The built website: generated pages hold the data's tables, public PDFs are
linked, it works offline and on phones, and no secret from the data reaches
any file of it (pages, search index, downloads). It is the game's site: the
name and home page come from the settings, every page title names its game,
tables have real row headers, and nothing ships that no reader loads
(source maps, other languages' search files)."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import yaml

from generator.core.paths import DEFAULT_DATA_DIR
from matches import matched

SIXES = DEFAULT_DATA_DIR / "sixes"


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def page(build, rel: str) -> str:
    return html.unescape((build.out_dir / "site" / rel).read_text(encoding="utf-8"))


def words(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def secret_snippets() -> list[str]:
    """Distinctive pieces of every secret in the example data."""
    snippets = []
    game = load(SIXES / "game.yaml")
    snippets += [" ".join(p.split())[:40] for p in game["gm_notes"].split("\n\n") if p.strip()]
    for path in (SIXES / "characters").glob("*.yaml"):
        background = load(path)["background"]
        snippets += [" ".join(p.split())[:40] for p in background.split("\n\n") if p.strip()]
    for special in load(SIXES / "specials.yaml")["specials"]:
        if special.get("secret"):
            snippets += [special["name"], " ".join(special["rule"].split())[:40]]
    return snippets


def test_no_secret_reaches_any_site_file(example_build):
    snippets = secret_snippets()
    assert len(snippets) > 20
    site = example_build.out_dir / "site"
    files = [p for p in site.rglob("*") if p.is_file() and p.suffix in {".html", ".js", ".json", ".xml", ".txt"}]
    assert any(p.name.startswith("search_index") for p in files)
    for path in files:
        text = html.unescape(path.read_text(encoding="utf-8", errors="replace"))
        text = " ".join(text.replace("\\n", " ").split())
        leaked = [s for s in snippets if s in text]
        assert not leaked, (path, leaked)


def test_only_public_pdfs_are_published(example_build):
    site = example_build.out_dir / "site"
    published = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.pdf"))
    assert [p for p in published if p.split("/")[2] == "sixes"] == [
        f"downloads/{paper}/sixes/{name}.pdf" for paper in ("a4", "letter")
        for name in ("hand-signal-cards", "rules-reference")]
    for path in published:   # every system: only what its public folder holds
        _, paper, slug, name = path.split("/")
        assert (example_build.out_dir / "pdf" / paper / slug / "public" / name).is_file(), path


def test_actions_page_lists_signals_and_links_the_card(example_build):
    text = page(example_build, "sixes/actions.html")
    for action in load(SIXES / "actions.yaml")["actions"].values():
        assert action["name"] in text
        assert action["signal"] in text
        assert f'assets/icons/{action["icon"]}.svg' in text
    assert 'href="../downloads/a4/sixes/hand-signal-cards.pdf"' in text
    assert 'href="../downloads/letter/sixes/hand-signal-cards.pdf"' in text


def test_speed_slot_page_has_the_hits_to_rattle_tables(example_build):
    text = words(page(example_build, "sixes/speed-slots.html"))
    # Written by hand: armour 1, 10 hit points, Effect 1..7 -> never, 10, 5, 4, 3, 2, 2.
    assert "10 - 10 5 4 3 2 2" in text
    # Armour 0, 7 hit points: 7, 4, 3, 2, 2, 2, 1.
    assert "7 7 4 3 2 2 2 1" in text
    for armour in range(4):
        assert f"Target armour {armour}" in text


def test_specials_page_lists_exactly_the_public_specials(example_build):
    text = page(example_build, "sixes/specials.html")
    for special in load(SIXES / "specials.yaml")["specials"]:
        assert (f">{special['name']}<" in text) == (not special.get("secret", False)), special["name"]


def test_rulings_page_publishes_every_ruling(example_build):
    from generator.systems.sixes.dataset import RULINGS_FILE
    text = page(example_build, "sixes/rulings.html")
    rulings = load(RULINGS_FILE)["rulings"]
    assert len(rulings) >= 5
    for ruling in rulings:
        assert f'id="{ruling["id"]}"' in text
        assert ruling["topic"] in text


def test_site_works_offline_and_on_phones(example_build):
    site = example_build.out_dir / "site"
    index = page(example_build, "index.html")
    assert 'name="viewport"' in index
    # Opened from the file system: plain .html links and a search index loaded as a script.
    assert (site / "search" / "search_index.js").is_file()
    assert 'href="sixes/index.html"' in index or 'href="./sixes/index.html"' in index
    # No web fonts or other files fetched from the internet.
    for path in site.rglob("*.html"):
        assert "fonts.googleapis.com" not in path.read_text(encoding="utf-8"), path


def test_game_page_shows_the_public_pitch(example_build):
    game = load(SIXES / "game.yaml")
    text = words(page(example_build, "sixes/game.html"))
    assert game["title"] in text
    assert " ".join(game["blurb"].split())[:80] in text


def test_the_landing_page_lists_every_game_the_data_holds(example_build):
    from generator.systems import SYSTEMS
    index = example_build.out_dir / "site" / "index.html"
    text = index.read_text(encoding="utf-8")
    for system in SYSTEMS:
        assert f'href="{system.slug}/index.html"' in text, system.slug
    assert "&lt;!-- games --&gt;" not in text and "<!-- games -->" not in text


def test_a_data_folder_with_one_game_builds_a_site_with_only_that_game(tmp_path):
    """Other games' hand-written pages link to generated pages that only exist
    when their data does: they are left out, and the landing page lists one game."""
    import shutil
    from generator.commands.build import build
    from generator.commands.context import BuildConfig
    from generator.core.paper import A4
    from generator.systems import by_slug
    i6 = by_slug()["i6"]
    shutil.copytree(i6.starter, tmp_path / "data" / "i6")
    report = build(BuildConfig(tmp_path / "data", tmp_path / "out", (A4,), workers=1))
    site = tmp_path / "out" / "site"
    assert (site / "i6" / "index.html").is_file()
    assert not (site / "sixes").exists() and not (site / "six-shooter").exists()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="i6/index.html"' in index and 'href="sixes/index.html"' not in index
    assert report.site_index == site / "index.html"


def site_name(build) -> str:
    """The site's name, as the home page's browser tab shows it. (The example
    build is made without the settings file, so the name is the first game's
    title; tests/test_game_site.py builds with settings.)"""
    return matched(re.search(r"<title>(.*?)</title>", page(build, "index.html"))).group(1)


def test_the_home_page_is_the_game_s(example_build):
    index = page(example_build, "index.html")
    name = site_name(example_build)
    assert "Sixes Press" not in name
    # The first game's title, never a join of every game's (issue 32: 76 characters, cut off on phones).
    first = load(SIXES / "game.yaml")["title"]
    assert html.unescape(name) == first and " & " not in name
    assert re.search(rf'<h1 id="[^"]*">{re.escape(name)}<', index)
    assert not (example_build.out_dir / "site" / "getting-started.html").exists()
    assert "make pack" not in words(index) and "Made with Sixes Press" in words(index)


def test_every_generated_page_title_names_its_game(example_build):
    from generator.systems import SYSTEMS
    name = site_name(example_build)
    titles = []
    for system in SYSTEMS:
        for path in sorted((example_build.out_dir / "site" / system.slug).glob("*.html")):
            title = matched(re.search(r"<title>(.*?)</title>",
                                      page(example_build, f"{system.slug}/{path.name}"))).group(1)
            assert title.startswith(f"{system.title}: ") and title.endswith(f" - {name}"), title
            titles.append(title)
    assert len(titles) == len(set(titles))
    assert f"Sixes: Rulings - {name}" in titles and f"I6: Rulings - {name}" in titles
    # The navigation is already inside the game's section, so it gives the page's own title (issue 32).
    odds = page(example_build, "i6/odds.html")
    assert re.search(r'class="md-nav__link[^"]*"[^>]*>\s*<span class="md-ellipsis">\s*Odds\s*<', odds)
    assert not re.search(r'class="md-nav__link[^"]*"[^>]*>\s*<span class="md-ellipsis">\s*I6: ', odds)


def test_navigation_has_tabs_and_breadcrumbs_but_no_instant_loading(example_build):
    text = page(example_build, "sixes/rulings.html")
    config = json.loads(matched(re.search(r'<script id="__config" type="application/json">(.*?)</script>',
                                          text)).group(1))
    assert {"navigation.tabs", "navigation.path"} <= set(config["features"])
    assert "navigation.instant" not in config["features"]       # the offline plugin needs it off
    assert 'class="md-tabs"' in text and 'class="md-path"' in text


def test_first_columns_that_name_their_rows_are_row_headers(example_build):
    for rel, header in [("sixes/speed-slots.html", "10"), ("d6xd6/ladder.html", "Graze"),
                        ("i6/odds.html", "5"), ("six-shooter/odds.html", "4"), ("sixes/index.html", "Rattled")]:
        assert re.search(rf'<th scope="row"[^>]*>{header}</th>', page(example_build, rel)), (rel, header)


def test_nothing_ships_that_no_reader_loads(example_build):
    site = example_build.out_dir / "site"
    assert list(site.rglob("*.map")) == []
    for path in (*site.rglob("*.js"), *site.rglob("*.css")):
        assert "sourceMappingURL" not in path.read_text(encoding="utf-8"), path
    # An English site: the worker imports no language file, so none ships.
    assert not (site / "assets" / "javascripts" / "lunr").exists()
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["en"] and "stemmer" in index["config"]["pipeline"]
    worker, = site.glob("assets/javascripts/workers/search.*.js")
    assert worker.read_text(encoding="utf-8").count("lunr.Pipeline.prototype.runString = function") == 1
    assert not (site / "search-stemming.js").exists()


def test_search_language_files_follow_material_s_worker():
    from generator.render.site.mkdocs_build import search_language_files
    assert search_language_files(["en"]) == set()
    assert search_language_files(["de"]) == {"min/lunr.stemmer.support.min.js", "min/lunr.de.min.js"}
    assert search_language_files(["ja"]) == {"min/lunr.stemmer.support.min.js", "min/lunr.ja.min.js", "tinyseg.js"}
    assert search_language_files(["en", "th"]) == {"min/lunr.stemmer.support.min.js", "min/lunr.th.min.js",
                                                   "wordcut.js", "min/lunr.multi.min.js"}
