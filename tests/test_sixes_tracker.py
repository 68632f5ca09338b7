"""The fight tracker as a file: what it embeds, how, and where it goes.

It is GM material (every figure, every secret special), so the build writes
it under gm/ and the site never holds it or any of its data. The game's data
sits in the page as JSON escaped for a <script> element, so no name can end
the element; the page allows only its own inline scripts and style (by hash)
and fetches nothing.
"""
from __future__ import annotations

import base64
import hashlib
from html import unescape
import json
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml

from generator.core.i18n import ngettext, read_catalogue, script_catalogue, speaking, words_for
from generator.core.paths import DEFAULT_DATA_DIR, PROJECT_ROOT
from generator.render.site.tracker import (GM_ENTRY, TRACKER_DOMAIN, TRACKER_FILE, script_json, tracker_html,
                                          tracker_path)
from generator.systems.sixes.dataset import load_game
from generator.systems.sixes.tracker import tracker_data
from matches import matched

# Markup and JavaScript-breaking text for every kind of name the page shows.
HOSTILE = {
    "title": "</title><script>alert('title')</script>",
    "character": "</script><script>alert(1)</script>",
    "second": "<img src=x onerror=alert(2)>",
    "proto": "__proto__",
    "faction": "\"><svg onload=alert(3)>",
    # U+2028 and U+2029 end a line in old JavaScript; check now refuses them
    # in any text (core/text.py), so script_json's own test below holds them.
    "special": "Knack</script><!-- x",
    "rule": "<script>alert(4)</script> &amp; ]]> {{ 7*7 }} ${alert(5)}",
}


def example_game():
    game, problems = load_game(DEFAULT_DATA_DIR / "sixes", DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    return game


def hostile_folder(root: Path) -> Path:
    """A copy of the example Sixes game whose names, faction, title and a
    secret special's rule hold HOSTILE text. Returns the data folder."""
    data = root / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", data / "sixes")
    sixes = data / "sixes"

    def edit(path: Path, change) -> None:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(doc)
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")

    edit(sixes / "game.yaml", lambda d: d.update(title=HOSTILE["title"]))

    def specials(doc):
        for s in doc["specials"]:
            if s["name"] == "Knife in the Sleeve":
                s["name"], s["rule"] = HOSTILE["special"], HOSTILE["rule"]
    edit(sixes / "specials.yaml", specials)
    edit(sixes / "characters" / "sally-brea.yaml",
         lambda d: d.update(name=HOSTILE["character"], faction=HOSTILE["faction"], specials=[HOSTILE["special"]]))
    edit(sixes / "characters" / "absalom-quick.yaml", lambda d: d.update(name=HOSTILE["second"]))
    edit(sixes / "characters" / "kit-penhale.yaml", lambda d: d.update(name=HOSTILE["proto"]))
    return data


@cache
def hostile_game_in(root: str):
    data = hostile_folder(Path(root))
    game, problems = load_game(data / "sixes", data)
    assert game is not None, problems
    return game


@pytest.fixture
def hostile_game(tmp_path):
    return hostile_game_in(str(tmp_path))


def data_script(html: str) -> str:
    found = re.search(r'<script type="application/json" id="tracker-data">(.*?)</script>', html, re.S)
    assert found, "no data element"
    return found.group(1)


def test_script_json_escapes_what_could_end_a_script_and_reads_back_the_same():
    for text in [*HOSTILE.values(), "Knack\u2028</script><!--\u2029 x"]:
        value = {"name": text, "list": [text, {"k": text}]}
        written = script_json(value)
        for bad in ("<", ">", "&", "\u2028", "\u2029"):
            assert bad not in written
        assert json.loads(written) == value


def test_the_page_carries_the_data_as_escaped_json_and_nothing_else_of_it(hostile_game):
    html = tracker_html(hostile_game)
    # Nothing hostile arrives as markup: not in the data, not in the title.
    assert "<script>alert" not in html and "<img src=x" not in html and "<svg onload" not in html
    assert "\u2028" not in html and "\u2029" not in html
    assert "<title>&lt;/title&gt;&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;: fight tracker" in html
    data = json.loads(data_script(html))
    # The game's tracker data, and the tracker's words in the page's language
    # (English: the message ids themselves, so no translation travels).
    assert data == json.loads(json.dumps({**tracker_data(hostile_game), "messages": data["messages"]}))
    assert data["messages"] == {"plural": "n != 1", "messages": [], "plurals": []}
    # The page has exactly its three script elements: the data and two of our own.
    assert len(re.findall(r"<script\b", html)) == 3


def test_the_page_allows_only_its_own_inline_code_and_asks_for_nothing():
    html = tracker_html(example_game())
    policy = unescape(matched(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)).group(1))
    rules = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert rules["default-src"] == "'none'"
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    styles = re.findall(r"<style>(.*?)</style>", html, re.S)

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
    assert rules["script-src"].split() == [digest(s) for s in scripts] and len(scripts) == 2
    assert rules["style-src"].split() == [digest(s) for s in styles] and len(styles) == 1
    # No address in the markup but data: URLs (the web app manifest and the
    # icon): nothing to load, link or submit; and the code names no address
    # either (the one link it makes is to a blob of the log, for saving it).
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S)
    addresses = re.findall(r'\b(src|href|action|srcset|background|poster)\s*=\s*"([^"]*)"', markup)
    assert [name for name, _ in addresses] == ["href", "href"]
    assert all(unescape(value).startswith("data:") for _, value in addresses)
    assert rules["manifest-src"] == "data:" and rules["img-src"] == "data:"
    code = "".join(scripts + styles)
    assert not re.search(r"https?:|//[a-z]|url\(|@import|fetch\(|XMLHttpRequest|WebSocket|sendBeacon|import\(", code)


def test_the_page_can_be_installed_without_fetching_anything():
    """A phone's browser that installs pages finds a manifest and an icon,
    both inside the page; without a start_url it opens the page's own
    address (the secret one, when `sixes tracker` served it)."""
    html = tracker_html(example_game())
    href = unescape(matched(re.search(r'<link rel="manifest" href="([^"]+)"', html)).group(1))
    prefix = "data:application/manifest+json,"
    assert href.startswith(prefix)
    manifest = json.loads(unquote(href[len(prefix):]))
    assert manifest["display"] == "standalone" and "start_url" not in manifest
    assert manifest["name"] == example_game().info.title + ": fight tracker"
    assert all(icon["src"].startswith("data:image/svg+xml,") for icon in manifest["icons"])
    for name in ("apple-mobile-web-app-capable", "mobile-web-app-capable"):
        assert f'<meta name="{name}" content="yes">' in html


def test_the_tracker_knows_every_fighter_and_special_as_the_resolver_does():
    game = example_game()
    data = tracker_data(game)
    assert [f["name"] for f in data["cast"]] == [m.character.name for m in game.cast]
    assert data["factions"] == ["The Guests", "The Island", "House Carrow", "House Penhale"]
    specials = dict(data["specials"])
    assert specials["Knife in the Sleeve"]["secret"] is True          # GM material: the secret ones too
    assert {name: s["kind"] for name, s in specials.items()} == {
        "Bone Rattler": "called", "Armoured Shell": "called", "Heal": "called", "Perceptive Defender": "passive",
        "Patient Attacker": "passive", "Vicious Dodge": "passive", "Pistol Ball": "gm",
        "Knife in the Sleeve": "called", "Laudanum": "gm", "Tide Path": "gm", "Jory's Face": "gm", "Boathook": "gm",
        "Kin Stand Together": "passive", "Wrecker's Instinct": "passive"}
    ned = next(f for f in data["cast"] if f["name"] == "Ned Tregarth")
    assert ned["profile"]["attack_plus"] == 1 and ned["start"]["uses"] == [["Bone Rattler", 1]]


def test_the_tracker_data_is_core_code():
    """systems/sixes/tracker.py works without any rendering library."""
    done = subprocess.run([sys.executable, "-c", (
        "import sys, json; import generator.systems.sixes.tracker as t; "
        "from generator.core.paths import DEFAULT_DATA_DIR; "
        "from generator.systems.sixes.dataset import load_game; "
        "g, _ = load_game(DEFAULT_DATA_DIR / 'sixes', DEFAULT_DATA_DIR.parent); t.tracker_data(g); "
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    leaked = set(json.loads(done.stdout)) & {"jinja2", "markupsafe", "weasyprint", "mkdocs", "click"}
    assert leaked == set()


def test_the_build_writes_the_tracker_for_the_gm_and_never_onto_the_site(example_build):
    out = example_build.out_dir
    tracker = tracker_path(out)
    assert tracker == out / GM_ENTRY / "sixes" / TRACKER_FILE and tracker.is_file()
    record = json.loads((out / ".sixes-press.json").read_text(encoding="utf-8"))["entries"]
    assert record[GM_ENTRY] == [f"sixes/{TRACKER_FILE}"]
    page = tracker.read_text(encoding="utf-8")
    data = json.loads(data_script(page))
    secret_rules = [s["rule"] for _, s in data["specials"] if s["secret"]]
    assert len(secret_rules) == 3          # the tracker holds them: the GM needs them
    site = out / "site"
    assert not [p for p in site.rglob("*") if "tracker" in p.name.lower()]
    # None of the tracker's own text or data is on the site: not its code, not
    # its data element, not a secret special's rule (in any form the site
    # might print it: as typed, HTML-escaped, or in the search index's JSON).
    needles = ["tracker-data", "SixesResolver", "sixes-fight-tracker"]
    for rule in secret_rules:
        start = rule[:40]
        needles += [start, start.replace("'", "&#39;").replace('"', "&#34;"), json.dumps(start)[1:-1]]
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".json", ".js", ".md", ".xml", ".txt"}:
            text = path.read_text(encoding="utf-8", errors="replace")
            for needle in needles:
                assert needle not in text, f"{needle!r} is in {path.relative_to(site)}"


@pytest.mark.parametrize("language, rule", [("en", "n != 1"), ("fr", "n > 1"), ("de", "n != 1")])
def test_the_page_gets_its_languages_words_and_plural_rule(language, rule):
    """What render/site/tracker.py embeds for the page's script: the translations
    that differ from the English, both plural forms as the language counts,
    and its plural rule named from the fixed set the script knows."""
    with speaking(words_for(language)):
        words = script_catalogue(TRACKER_DOMAIN)
        opens = ngettext("{names} opens their eyes.", "{names} open their eyes.", 1)
        open_ = ngettext("{names} opens their eyes.", "{names} open their eyes.", 2)
    assert words["plural"] == rule
    assert (words["messages"] == [] and words["plurals"] == []) if language == "en" else \
        ["{names} opens their eyes.", [opens, open_]] in words["plurals"] and len(words["messages"]) > 100
    assert all(english != text for english, text in words["messages"])


def test_a_plural_rule_the_script_does_not_name_reaches_it_as_a_table():
    """A game's own catalogue may count otherwise (Polish has three forms):
    the page gets the form of every count to PLURAL_TABLE, and each plural
    message's forms (tests/test_catalogue_plurals.py runs the script on them)."""
    polish = read_catalogue('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && '
                            'n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
                            'msgid "Log"\nmsgstr "Dziennik"\n', "pl")
    with speaking(words_for("pl", polish)):
        words = script_catalogue(TRACKER_DOMAIN)
    assert words["plural"] is None and words["messages"] == [["Log", "Dziennik"]]
    assert [words["forms"][n] for n in (1, 2, 5, 22, 112, 1002, 1005)] == [0, 1, 2, 1, 2, 1, 2]
    assert words["plurals"] and all(len(forms) == 3 for _singular, forms in words["plurals"])
