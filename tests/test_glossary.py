"""One vocabulary (issue 32): each system's glossary (systems/<system>/glossary.py)
gives one word per idea, and the example game's documents, site pages and
fight tracker use no other word for it. Read from the rendered HTML (before
WeasyPrint), the site's Markdown and the tracker page, as a reader sees them."""
from __future__ import annotations

import html
import re
from functools import lru_cache

import pytest

from generator.core.glossary import Glossary, Term
from generator.core.paths import DEFAULT_DATA_DIR, SITE_SOURCES_DIR
from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems import SYSTEMS, system


def visible(text: str) -> str:
    """Text as a reader sees it: no tags, entities decoded, Markdown emphasis
    and table pipes dropped, runs of space as one. Script text stays: the
    tracker's words are in its JavaScript."""
    text = re.sub(r"<svg.*?</svg>", " ", text, flags=re.S)
    text = re.sub(r"</?(b|i|em|strong|span|br)\b[^>]*>", " ", text)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = text.replace("**", "").replace("|", " ")
    return " ".join(text.split())


@lru_cache(maxsize=None)
def outputs(slug: str) -> dict[str, str]:
    """Every document (HTML), site page (Markdown, generated and the ones
    the tool ships) and, for Sixes, the tracker page of a system's example
    game, by name, as visible text."""
    sys = system(slug)
    game, problems = sys.load(DEFAULT_DATA_DIR / slug, DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    out = {f"{doc.folder}/{doc.slug}.html": document_html(doc) for doc in sys.documents(game)}
    for page in sys.pages(game):
        out[f"site/{page.path}"] = render_template(page.template,
                                                   {**page.context, "page_title": page.title, "downloads": []})
    for name in sys.hand_written:
        out[f"site/{name}"] = (SITE_SOURCES_DIR / slug / name).read_text(encoding="utf-8")
    if slug == "sixes":
        from generator.render.site.tracker import tracker_html
        out["gm/fight-tracker.html"] = tracker_html(game)
    return {name: visible(text) for name, text in out.items()}


@pytest.mark.parametrize("slug", [s.slug for s in SYSTEMS])
def test_the_example_game_says_each_idea_one_way(slug):
    """Every document, page (and the tracker) by name, with the other words it uses: none."""
    texts = outputs(slug)
    assert any(n.startswith("site/") for n in texts) and any(n.endswith(".html") for n in texts)
    glossary = system(slug).glossary
    assert {name: found for name, text in texts.items() if (found := glossary.misnamed(text))} == {}


def test_every_system_has_a_glossary_the_documents_use():
    """Each system's document titles come from its glossary, so a word
    changed there changes every title that names the document."""
    for sys in SYSTEMS:
        game, _ = sys.load(DEFAULT_DATA_DIR / sys.slug, DEFAULT_DATA_DIR.parent)
        titles = " ".join(d.title for d in sys.documents(game))
        assert len(sys.glossary) > 0, sys.slug
        assert any(word in titles for word in sys.glossary.values()), sys.slug


@pytest.mark.parametrize("slug, words", [
    # The Speed order, the Speed column and the two Defends of Sixes (issue 32).
    ("sixes", {"cards/speed": ("Speed", "Effect", "Acts"), "rules-reference": ("Speed", "Effect", "Acts"),
               "site/speed-slots.md": ("Defend Self blocks", "Defend Other soaks"),
               "site/actions.md": ("Speed Effect Acts",)}),
    ("six-shooter", {"critical-number-sheet": ("Critical Number sheet",), "operator-sheet": ("Lucky Numbers",)}),
])
def test_the_chosen_words_are_printed_where_the_others_were(slug, words):
    """The glossary's words stand where the other words stood: the check
    above would pass on a document that dropped the idea altogether."""
    texts = outputs(slug)
    for where, expected in words.items():
        if where.startswith("cards/"):
            text = texts["public/hand-signal-cards.html"]
        else:
            (text,) = [t for n, t in texts.items() if where in n]
        for word in expected:
            assert word in text, (where, word)


@pytest.mark.parametrize("text, found", [
    ("Fingers Effect Acts", ['speed: "Fingers" where the glossary says "Speed"']),
    ("Raise 1 to 5 fingers for your Speed", []),
    ("Speed Effect Slot 5 1 1st", ['acts: "Slot" where the glossary says "Acts"']),
    ("in the earlier Speed Slot. Speed 5. Pell opens his eyes", []),
    ("Slot 5. Pell opens his eyes", ['acts: "Slot" where the glossary says "Acts"']),
    ("Attack deals Either Defend stops", ['defend_self_does: "Either Defend" where the glossary says "blocks"',
                                          'defend_self_does: "Defend stops" where the glossary says "blocks"']),
])
def test_the_sixes_glossary_tells_another_word_from_the_same_letters(text, found):
    """The refused words are headings and phrases: the prose word for the
    gesture ("fingers") and the source's Speed Slot stay."""
    assert system("sixes").glossary.misnamed(text) == found


def test_a_misnamed_idea_is_found_and_named():
    glossary = Glossary({"sheet": Term("Operator sheet", avoid=(r"(?i)\bcharacter sheets?\b",))})
    assert glossary["sheet"] == "Operator sheet"
    assert glossary.misnamed("Your Character Sheet and the Operator sheet") == [
        'sheet: "Character Sheet" where the glossary says "Operator sheet"']
    with pytest.raises(KeyError):
        glossary["sheets"]


def test_a_template_asking_for_an_unknown_term_fails_the_render():
    """Templates look terms up by id; a misspelt id is an error, never an
    empty cell (StrictUndefined)."""
    from jinja2 import UndefinedError
    from generator.render.html import environment
    template = environment().from_string("{{ glossary.sped }}")
    with pytest.raises(UndefinedError):
        template.render(glossary=system("sixes").glossary)
