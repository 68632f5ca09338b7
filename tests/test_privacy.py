"""Privacy per entity: what is marked private reaches the GM's and its
owner's PDFs and never the site, and the optional cast list shows public
characters only, with their public fields.

One game is built for the whole module (the example data, one paper, with a
private challenge, Operator, character, special, hero, ladder character and
combatant, each carrying a marker word of its own, and the cast list on).
Each marker is then looked for in every file of the built site, the search
index included, and in the PDFs read back with pdftotext.
"""
from __future__ import annotations

import base64
import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.core.errors import DataError
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.load import load_all
from generator.game.settings import load_settings
from generator.systems import by_slug

# One word per private entity: found nowhere on the site, found on the GM's or owner's PDFs.
CHALLENGE = "Qxchalmark"
OPERATOR = "Qxopermark"
CHARACTER = "Qxcharmark"
SPECIAL = "Qxspecmark"
HERO = "Qxheromark"
LADDER = "Qxladdmark"
COMBATANT = "Qxcombmark"
MARKERS = (CHALLENGE, OPERATOR, CHARACTER, SPECIAL, HERO, LADDER, COMBATANT)
# Where each marker must be printed, by system and output folder (pdf/<paper>/<system>/<folder>).
PRINTED = {CHALLENGE: ("six-shooter", "gm"), OPERATOR: ("six-shooter", "players"), CHARACTER: ("sixes", "players"),
           SPECIAL: ("sixes", "gm"), HERO: ("i6", "players"), LADDER: ("d6xd6", "gm"),
           COMBATANT: ("sixes-system", "gm")}
# One word per system in a (public) character's `gm_notes`: on that system's GM
# documents only (pdf/<paper>/<system>/gm), never a player's sheet, a public PDF or the site.
GM_NOTES = {"sixes": "Qxgmnsixes", "six-shooter": "Qxgmnshoot", "i6": "Qxgmnisix", "d6xd6": "Qxgmndsix",
            "sixes-system": "Qxgmnsyst"}
PRIVATE_CHARACTER = "Ned Tregarth"
PORTRAIT_CHARACTER = "honoria-vane"
# A public character's SVG portrait with a script in it (valid data: the
# checks refuse outside references, not scripts): the site may show it only
# where a script cannot run, never as a file of its own.
SCRIPTED_CHARACTER = "absalom-quick"
SCRIPTED_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script>'
                '<rect width="10" height="10" onload="alert(2)"/></svg>')


def edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def private_game(target: Path) -> Path:
    """The example data with one private entity of each kind and the cast list on."""
    shutil.copytree(DEFAULT_DATA_DIR, target)
    edit(target / "sixes.yaml", lambda d: (d["site"].update(cast_list=True), d.update(paper="a4", output="out")))

    def challenges(d):
        d["challenges"][-1].update(name=f"The {CHALLENGE} Heist", description=f"A {CHALLENGE} waits.")
    edit(target / "six-shooter" / "challenges.yaml", challenges)
    edit(target / "six-shooter" / "operators.yaml",
         lambda d: d["operators"][0].update(name=f"{OPERATOR} Delgado", visibility="private"))

    ned = target / "sixes" / "characters" / "ned-tregarth.yaml"
    edit(ned, lambda d: d.update(description=f"A {CHARACTER} groundsman.", visibility="private"))

    def special(d):
        secret = next(s for s in d["specials"] if s.get("secret"))
        secret["rule"] = f"{SPECIAL}: " + secret["rule"]
    edit(target / "sixes" / "specials.yaml", special)
    from PIL import Image
    Image.new("RGB", (40, 50), (90, 120, 150)).save(target / "sixes" / "portraits" / "honoria.png")
    edit(target / "sixes" / "characters" / f"{PORTRAIT_CHARACTER}.yaml",
         lambda d: d.update(portrait="sixes/portraits/honoria.png"))
    (target / "sixes" / "portraits" / "absalom.svg").write_text(SCRIPTED_SVG, encoding="utf-8")
    edit(target / "sixes" / "characters" / f"{SCRIPTED_CHARACTER}.yaml",
         lambda d: d.update(portrait="sixes/portraits/absalom.svg"))

    edit(target / "i6" / "heroes" / "mott.yaml",
         lambda d: d.update(description=f"The {HERO} of the docks.", visibility="private"))
    edit(target / "d6xd6" / "characters.yaml",
         lambda d: d["characters"][1].update(note=f"A {LADDER} boxer.", visibility="private"))
    edit(target / "sixes-system" / "combatants" / "dora-quill.yaml",
         lambda d: d.update(description=f"A {COMBATANT} medic.", visibility="private"))
    _gm_notes(target)
    return target


def _gm_notes(target: Path) -> None:
    """A GM note on a public character of every system (GM_NOTES)."""
    def note(slug: str) -> str:
        return f"Only the GM reads {GM_NOTES[slug]} here."
    edit(target / "sixes" / "characters" / f"{PORTRAIT_CHARACTER}.yaml", lambda d: d.update(gm_notes=note("sixes")))
    edit(target / "six-shooter" / "operators.yaml", lambda d: d["operators"][-1].update(gm_notes=note("six-shooter")))
    hero = next(p for p in sorted((target / "i6" / "heroes").glob("*.yaml")) if p.stem != "mott")
    edit(hero, lambda d: d.update(gm_notes=note("i6")))
    edit(target / "d6xd6" / "characters.yaml", lambda d: d["characters"][0].update(gm_notes=note("d6xd6")))
    fighter = next(p for p in sorted((target / "sixes-system" / "combatants").glob("*.yaml")) if p.stem != "dora-quill")
    edit(fighter, lambda d: d.update(gm_notes=note("sixes-system")))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from generator.commands.build import build
    from generator.commands.context import BuildConfig
    game = private_game(tmp_path_factory.mktemp("privacy") / "game")
    settings = load_settings(game)
    assert settings.out_dir is not None
    build(BuildConfig(game, settings.out_dir, settings.papers, settings=settings))
    return settings.out_dir


def site_texts(out: Path) -> dict[str, str]:
    """Every file of the built site as text a reader or a search would see."""
    texts = {}
    for path in (out / "site").rglob("*"):
        if path.is_file():
            text = html.unescape(path.read_bytes().decode("utf-8", errors="replace"))
            texts[path.relative_to(out / "site").as_posix()] = text.replace("\\n", " ").casefold()
    return texts


def pdf_text(paths: list[Path]) -> str:
    return " ".join(subprocess.run(["pdftotext", "-layout", str(p), "-"], capture_output=True, text=True,
                                   check=True).stdout for p in paths)


def test_no_private_entity_reaches_any_file_of_the_site(built):
    texts = site_texts(built)
    assert "search/search_index.json" in texts
    assert any(p.endswith(".pdf") for p in texts)      # the downloads are read too
    for name, text in texts.items():
        leaked = [m for m in MARKERS if m.casefold() in text]
        assert not leaked, (name, leaked)


@pytest.mark.parametrize("slug", sorted(GM_NOTES))
def test_a_characters_gm_notes_reach_the_gm_documents_only(built, slug):
    """On the system's GM documents (the GM pack takes them all), never on a
    player's sheet, a public PDF or any file of the site (search index too)."""
    marker, pdfs = GM_NOTES[slug], built / "pdf" / "a4"
    assert marker in pdf_text(sorted((pdfs / slug / "gm").glob("*.pdf")))
    assert marker not in pdf_text(sorted(pdfs.glob("*/players/*.pdf")) + sorted(pdfs.glob("*/public/*.pdf")))
    assert not [name for name, text in site_texts(built).items() if marker.casefold() in text]


@pytest.mark.parametrize("marker", sorted(PRINTED))
def test_private_entities_stay_on_the_gm_and_owner_pdfs(built, marker):
    slug, folder = PRINTED[marker]
    pdfs = sorted((built / "pdf" / "a4" / slug / folder).glob("*.pdf"))
    assert pdfs
    assert marker in pdf_text(pdfs)
    public = sorted((built / "pdf" / "a4").glob("*/public/*.pdf"))
    assert marker not in pdf_text(public)


def test_challenges_are_the_gms_unless_marked_public(built):
    text = site_texts(built)["six-shooter/challenges.html"]
    data = yaml.safe_load((DEFAULT_DATA_DIR / "six-shooter" / "challenges.yaml").read_text(encoding="utf-8"))
    shown = [c["name"] for c in data["challenges"] if c.get("visibility") == "public"]
    kept = [c["name"] for c in data["challenges"] if c.get("visibility", "private") == "private"]
    assert shown and kept
    assert all(name.casefold() in text for name in shown)
    assert not [name for name in kept if f">{name.casefold()}<" in text]


def cast_names(page: str) -> list[str]:
    """The level-two headings of a page, without their permalink sign."""
    return [html.unescape(re.sub(r'<a class="headerlink".*?</a>|<[^>]+>', "", h)).strip()
            for h in re.findall(r"<h2[^>]*>(.*?)</h2>", page, re.S)]


def test_the_cast_list_shows_public_characters_and_their_public_fields_only(built):
    site = built / "site"
    page = (site / "sixes" / "cast-list.html").read_text(encoding="utf-8")
    names = cast_names(page.split('id="groups"')[0])      # the characters; the open groups follow (packet.yaml)
    characters = [yaml.safe_load(p.read_text(encoding="utf-8"))
                  for p in sorted((DEFAULT_DATA_DIR / "sixes" / "characters").glob("*.yaml"))]
    public = [c for c in characters if c["name"] != PRIVATE_CHARACTER]
    assert sorted(names) == sorted(c["name"] for c in public)
    text = html.unescape(page)
    for c in public:
        assert " ".join(c["description"].split())[:60] in " ".join(text.split())
        if c.get("faction"):
            assert c["faction"] in text
        first_secret = " ".join(c.get("background", "").split())[:40]
        assert not first_secret or first_secret not in text
    # The public portrait is copied beside the page; the private one's SVG is nowhere.
    assert 'src="portraits/honoria-vane.png"' in page
    assert (site / "sixes" / "portraits" / "honoria-vane.png").is_file()
    ned_svg = base64.b64encode((DEFAULT_DATA_DIR / "sixes" / "portraits" / "ned-tregarth.svg").read_bytes())
    assert ned_svg.decode("ascii")[:80] not in page
    assert PRIVATE_CHARACTER not in names
    # An SVG portrait is published only as the publishing gate rewrote it (render/site/publish.py):
    # a file beside the page that keeps its drawing and can run nothing, even opened on its own.
    published = [p for p in site.rglob("*.svg") if p.relative_to(site).parts[0] != "assets"]
    assert [p.parent.name for p in published] == ["portraits"], published
    assert f'src="portraits/{published[0].name}"' in page
    drawn = published[0].read_text(encoding="utf-8")
    assert "<rect" in drawn and "script" not in drawn and "alert" not in drawn and "onload" not in drawn
    assert base64.b64encode(SCRIPTED_SVG.encode()).decode("ascii")[:40] not in page


@pytest.mark.parametrize("slug, private", [("six-shooter", f"{OPERATOR} Delgado"), ("i6", "Mott"),
                                           ("d6xd6", "Tomasz Reyes"), ("sixes-system", "Dora Quill")])
def test_every_system_with_characters_lists_only_its_public_ones(built, slug, private):
    page = (built / "site" / slug / "cast-list.html").read_text(encoding="utf-8")
    names = cast_names(page)
    assert names, slug
    assert private not in names


def test_the_cast_list_is_off_unless_the_settings_ask(example_build):
    assert not list((example_build.out_dir / "site").glob("*/cast-list.html"))


def test_a_private_adventure_keeps_its_pitch_crew_and_challenges_off_the_site(tmp_path):
    from generator.render.html import render_template
    system = by_slug()["six-shooter"]
    shutil.copytree(system.starter, tmp_path / "six-shooter")
    edit(tmp_path / "six-shooter" / "game.yaml", lambda d: d.update(visibility="private"))
    adventure, found = system.load(tmp_path / "six-shooter", tmp_path)
    assert adventure is not None, found
    pages = {p.path: render_template(p.template, {**p.context, "page_title": p.title, "downloads": []})
             for p in system.pages(adventure)}
    assert adventure.info.blurb not in pages["adventure.md"]
    assert "kept for the table" in pages["adventure.md"]
    for thing in [*adventure.operators, *adventure.challenges]:
        assert not [path for path, text in pages.items() if thing.name in text], thing.name
    assert "No challenge of this adventure is public" in pages["challenges.md"]
    assert system.cast_list is not None and list(system.cast_list(adventure)) == []
    gm = next(d for d in system.documents(adventure) if d.audience == "gm")
    assert len(gm.cards) == 1 + len(adventure.challenges)      # the key card, then every challenge


# --- the word itself -------------------------------------------------------------

@pytest.fixture
def starter(tmp_path) -> Path:
    data = tmp_path / "data"
    for slug in ("six-shooter", "sixes"):
        shutil.copytree(by_slug()[slug].starter, data / slug)
    return data


def problems(data: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_all(data)
    return [str(p) for p in caught.value.problems]


def test_a_wrong_visibility_is_an_error_at_its_line_with_the_allowed_words(starter):
    (starter / "six-shooter" / "challenges.yaml").write_text(
        "challenges:\n  - name: Door\n    description: A door.\n"
        "    critical_numbers: {danger: 5, sharpness: 6, slyness: 4, charm: 3}\n"
        "    visibility: secret\n", encoding="utf-8")
    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text(encoding="utf-8") + "visibility: privat\n", encoding="utf-8")
    lines = character.read_text(encoding="utf-8").count("\n")
    assert problems(starter) == [
        "data/six-shooter/challenges.yaml:5:17: error: challenges[0].visibility: found 'secret'; "
        "allowed: 'public', 'private'",
        f"data/sixes/characters/first-rival.yaml:{lines}:13: error: visibility: found 'privat'; "
        "did you mean 'private'?",
    ]


def test_a_wrong_cast_list_setting_is_an_error_at_its_line(tmp_path):
    (tmp_path / "sixes.yaml").write_text("site:\n  cast_list: maybe\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_settings(tmp_path, tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        "sixes.yaml:2:14: error: site.cast_list: expected true or false, found 'maybe'"]


def test_the_cast_lists_and_the_challenges_page_have_no_serious_accessibility_problem(built, browser):
    """axe-core (as tests/test_site_browser.py runs it) on the pages this
    feature writes, at desktop and phone widths."""
    from test_site_browser import SCREENS, axe_violations
    pages = [*sorted((built / "site").glob("*/cast-list.html")), built / "site" / "six-shooter" / "challenges.html"]
    assert len(pages) == 6
    found = {}
    for screen, options in SCREENS.items():
        found.update({f"{screen} {page}": bad for page, bad in
                      axe_violations(browser, built / "site", pages, **options).items()})
    assert found == {}


# --- the game's own pages ----------------------------------------------------------

def test_an_own_page_marked_private_stays_off_the_site_and_a_wrong_word_is_refused(tmp_path):
    from generator.game.pages import read_own_pages
    pages = tmp_path / "game" / "pages"
    pages.mkdir(parents=True)
    (pages / "welcome.md").write_text("---\nvisibility: public\n---\n# Welcome\n", encoding="utf-8")
    (pages / "plot.md").write_text("---\ntitle: Plot\nvisibility: private\n---\nThe butler did it.\n",
                                   encoding="utf-8")
    assert [p.path for p in read_own_pages(pages, tmp_path).pages] == ["welcome.md"]
    (pages / "draft.md").write_text("---\ntitle: Draft\nvisibility:  hidden\n---\nx\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_own_pages(pages, tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        "game/pages/draft.md:3:14: error: visibility: found 'hidden'; allowed: 'public', 'private'"]
