"""The site leads with the game, as its players see it.

A game folder made with `sixes new`, with no site name in its settings, two
systems, the cast list on and every Six Shooter challenge kept private, is
built. The site's name is the first game's title (never a join of every
title); the home page opens with that game's pitch, then where to read the
rules, the cast and short download links, and shows none of the tool's
blurbs of its systems; inside a section no navigation entry repeats the
system's name (the browser tab's title still does); the empty challenges
page is neither built nor linked.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from game_sites import build_site_only, new_game
from matches import matched

SYSTEMS = ["six-shooter", "sixes"]


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).replace("\u00b6", " ").split())


def _article(path: Path) -> str:
    text = _text(path)
    return text[text.index('<article'):text.index("</article>")]


def _section_nav(path: Path) -> list[str]:
    """The titles of the primary sidebar's links (the section's pages)."""
    text = _text(path)
    sidebar = text[text.index('data-md-type="navigation"'):text.index('data-md-type="toc"')]
    return [html.unescape(t) for t in
            re.findall(r'class="md-nav__link[^"]*"[^>]*>\s*<span class="md-ellipsis">\s*(.*?)\s*<', sidebar, re.S)]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    game = new_game(tmp_path_factory.mktemp("game") / "two-games")
    settings = game / "sixes.yaml"
    data = yaml.safe_load(_text(settings))
    data["site"].pop("name", None)
    data["site"]["cast_list"] = True
    data["systems"] = SYSTEMS
    settings.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    challenges = game / "six-shooter" / "challenges.yaml"
    kept = [line for line in _text(challenges).splitlines() if line.strip() != "visibility: public"]
    challenges.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def site(game, tmp_path_factory) -> Path:
    return build_site_only(game, tmp_path_factory.mktemp("out"))


def _info(game: Path, slug: str) -> dict:
    return yaml.safe_load(_text(game / slug / "game.yaml"))


def _first_tab(site: Path) -> str:
    tabs = re.findall(r'<a href="([^"/]+)/index.html" class="md-tabs__link', _text(site / "index.html"))
    assert tabs, "no section tab"
    return tabs[0]


def test_the_site_s_name_is_the_first_game_s_title(game, site):
    first = _info(game, _first_tab(site))["title"]
    others = [_info(game, slug)["title"] for slug in SYSTEMS if slug != _first_tab(site)]
    home = _text(site / "index.html")
    assert html.unescape(matched(re.search(r"<title>(.*?)</title>", home)).group(1)) == first
    header = home[home.index("md-header__topic"):]
    ellipsis = matched(re.search(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', header, re.S))
    assert html.unescape(ellipsis.group(1)) == first
    for title in others:
        assert title not in html.unescape(matched(re.search(r"<title>(.*?)</title>", home)).group(1))


def test_the_home_page_leads_with_the_game_s_pitch(game, site):
    article = _words(_article(site / "index.html"))
    first = _first_tab(site)
    pitch = " ".join(_info(game, first)["blurb"].split())
    assert article.index(pitch[:60]) < article.index("How to play")
    from generator.systems import by_slug
    for slug in SYSTEMS:
        summary = by_slug()[slug].summary
        assert summary and summary[:30] not in article, slug
        assert " ".join(_info(game, slug)["blurb"].split())[:60] in article, slug


def test_the_home_page_links_the_rules_the_cast_and_short_downloads(game, site):
    article = _article(site / "index.html")
    links = [(_words(text), href) for href, text in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', article, re.S)]
    hrefs = [href for _, href in links]
    for slug in SYSTEMS:
        assert f"{slug}/index.html" in hrefs
        assert f"{slug}/cast-list.html" in hrefs
    pdfs = [text for text, href in links if href.endswith(".pdf")]
    assert pdfs, links
    titles = [_info(game, slug)["title"] for slug in SYSTEMS]
    for text in pdfs:
        assert not any(title in text for title in titles), text
        assert len(text) <= 12, text           # the paper's name only, beside a short document name
    labels = re.findall(r"<li>(.*?) to print", article)
    assert labels and not any(title in html.unescape(label) for label in labels for title in titles)


def test_no_navigation_entry_in_a_section_repeats_the_system_s_name(site):
    from generator.systems import by_slug
    for slug in SYSTEMS:
        system = by_slug()[slug]
        pages = sorted((site / slug).glob("*.html"))
        assert pages
        for path in pages:
            nav = _section_nav(path)
            assert nav, path
            assert not [t for t in nav if t.startswith(f"{system.title}:")], (path, nav)
            title = html.unescape(matched(re.search(r"<title>(.*?)</title>", _text(path))).group(1))
            assert title.startswith(f"{system.title}: "), (path, title)


def test_a_page_with_nothing_public_on_it_is_left_out(site):
    assert not (site / "six-shooter" / "challenges.html").exists()
    for path in site.rglob("*.html"):
        assert "challenges.html" not in _text(path), path
    assert (site / "six-shooter" / "odds.html").exists()        # the section itself is still there
