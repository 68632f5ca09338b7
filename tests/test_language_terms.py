"""The terms the rules use by id print in the game's language (issue 47).

The data keeps the ids the rules check (an I6 trait `id: brawn`, a D6xD6
band `key: brawling`); the word printed is the game's name for it where its
data gives one, else the tool's word in the game's language. The terms are
listed from the code, not by hand: every id type (a Literal) of every
system's models, and the tool's English word for each id that prints one,
found among the system's catalogue messages (`Brawn`, `First Aid`, `Force`)
or its `RULE_*` registries. Then:

- a French and a German starter, rendered whole in-process, and the built
  starter games (PDFs, site, tracker), hold none of those English words
  where their language says them otherwise;
- a German game that renames every term the rules use prints none of the
  tool's words for them on its sheets and cards, English or German: its own.
"""
from __future__ import annotations

import html
import importlib
import inspect
import pkgutil
import re
import shutil
import types
import typing
from functools import lru_cache
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from generator.core import i18n
from generator.core.i18n import speaking, words_for
from generator.render.html import render_template
from generator.render.pdf.jobs import document_html
from generator.systems import SYSTEMS, by_slug
from language_games import built_language_game
from whole_words import found

LANGUAGES = ("fr", "de")
TAG = re.compile(r"<style.*?</style>|<script.*?</script>|<[^>]+>", re.S)


def _literal_values(annotation: object) -> tuple[str, ...]:
    """The ids an annotation allows, through Optional, list[...] and dict[key, ...]."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return tuple(str(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType, list, tuple, dict):
        for arg in typing.get_args(annotation):
            if values := _literal_values(arg):
                return values
    return ()


def _package(slug: str) -> str:
    return f"generator.systems.{slug.replace('-', '_')}"


def id_kinds(slug: str) -> dict[str, tuple[str, ...]]:
    """'Model.field' -> the ids it allows, for every id-typed field of the
    system's models, and 'module.Alias' for every id type its rules modules
    declare (sixes-system's healing skills, Sixes' statuses)."""
    package = importlib.import_module(_package(slug))
    kinds = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseModel) and value.__module__ == module.__name__:
                for field, info in value.model_fields.items():
                    if values := _literal_values(info.annotation):
                        kinds[f"{name}.{field}"] = values
            elif typing.get_origin(value) is typing.Literal:
                kinds[f"{module_info.name}.{name}"] = _literal_values(value)
    return kinds


def registries(slug: str) -> dict[str, str]:
    """id -> the tool's English word, from every RULE_* registry of the system's package."""
    package = importlib.import_module(_package(slug))
    words: dict[str, str] = {}
    for module in pkgutil.iter_modules(package.__path__):
        for name, value in vars(importlib.import_module(f"{package.__name__}.{module.name}")).items():
            if name.startswith("RULE_") and isinstance(value, dict):
                for term_id, entry in value.items():
                    words[term_id] = entry if isinstance(entry, str) else entry.word
    return words


@lru_cache(maxsize=None)
def _messages() -> set[str]:
    """Every message of the tool (an id spelt as a word may be one of any domain's: "Escape" is the tracker's)."""
    from babel.messages.pofile import read_po
    ids: set[str] = set()
    for template in i18n.LOCALES_DIR.glob("*.pot"):
        with template.open("rb") as file:
            ids |= {m.id for m in read_po(file) if isinstance(m.id, str) and m.id}
    return ids


@lru_cache(maxsize=None)
def term_words(slug: str) -> dict[str, str]:
    """The tool's English word for each id the system's rules use that
    prints one: its registry's, or the catalogue message the id spells."""
    messages = _messages()
    words = dict(registries(slug))
    for values in id_kinds(slug).values():
        for term_id in values:
            spelt = re.sub(r"[_-]", " ", term_id)
            for word in (spelt.title(), spelt.capitalize()):
                if word in messages:
                    words.setdefault(term_id, word)
    return words


def test_the_terms_are_found_from_the_code():
    """The listing above finds the terms the issue met, and some in every system."""
    found_words = {slug: set(term_words(slug).values()) for slug in (s.slug for s in SYSTEMS)}
    assert {"Awareness", "Brawl", "Brawn", "Dodge"} <= found_words["i6"]
    assert {"Brawn", "Will", "Brawling", "Throwing", "Shooting"} <= found_words["d6xd6"]
    assert {"Force", "Maneuver", "Finesse", "First Aid"} <= found_words["sixes-system"]
    assert {"Attack", "Defend Self", "Escape"} <= found_words["sixes"]
    assert {"Dangerous", "Charming"} <= found_words["six-shooter"]
    assert all(id_kinds(s.slug) for s in SYSTEMS)


def english_terms(language: str, slugs: typing.Iterable[str] = (), data: str = "") -> dict[str, str]:
    """English word -> its translation, for every term word of the systems
    (all by default) the language says otherwise. A word the game's own
    data holds (`data`) is the GM's, not the tool's, and is not looked for."""
    words = words_for(language)
    out = {}
    for slug in slugs or [s.slug for s in SYSTEMS]:
        for english in term_words(slug).values():
            if (said := words.gettext(english)) != english and not found(english, data) \
                    and not found(english, translations(language)):
                out[english] = said
    return out


@lru_cache(maxsize=None)
def translations(language: str) -> str:
    """Every translation the language ships: a word it writes itself (the
    French "round" of the Sixes System's cards) is its own, not left English."""
    from babel.messages.pofile import read_po
    texts = []
    for po in sorted((i18n.LOCALES_DIR / language).glob("*.po")):
        with po.open("rb") as file:
            texts += [" ".join([m.string] if isinstance(m.string, str) else m.string or ())
                      for m in read_po(file) if m.id]
    return " ".join(texts)


def data_text(folder: Path) -> str:
    """Every YAML file of a game folder, as one text: the GM's words."""
    return " ".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.yaml"))
                    if "output" not in p.relative_to(folder).parts)


def _text(rendered: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(html.unescape(TAG.sub(" ", rendered))))


def rendered(folder: Path, slug: str, language: str) -> dict[str, str]:
    """Every page and document of the game in `folder`, as a reader's text, in `language`."""
    system = by_slug()[slug]
    out = {}
    with speaking(words_for(language)):
        game, problems = system.load(folder, folder.parent)
        assert game is not None, [str(p) for p in problems]
        for page in system.pages(game):
            out[page.path] = _text(render_template(page.template, {**page.context, "page_title": page.title,
                                                                   "downloads": []}))
        for doc in system.documents(game):
            out[f"{doc.folder}/{doc.slug}"] = _text(document_html(doc))
    return out


def left(texts: dict[str, str], words: typing.Iterable[str]) -> dict[str, list[str]]:
    return {name: hits for name, text in texts.items() if (hits := sorted(w for w in words if found(w, text)))}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", [s.slug for s in SYSTEMS])
def test_a_starter_in_the_language_prints_no_english_term(slug, language):
    """Each system's French and German starter, every page and document."""
    folder = by_slug()[slug].starter.parent / f"starter-{language}"
    assert left(rendered(folder, slug, language), english_terms(language, [slug], data_text(folder))) == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_built_starter_game_prints_no_english_term(language, tmp_path_factory, request):
    """What `sixes new --language` builds and packs: every PDF, site page and the fight tracker."""
    from test_language_whole import page_text, pdf_text
    game = built_language_game(language, tmp_path_factory, request.config)
    texts = {p.relative_to(game.out).as_posix(): pdf_text(p) for p in sorted(game.out.rglob("*.pdf"))}
    texts |= {p.relative_to(game.out).as_posix(): page_text(p) for p in sorted(game.out.rglob("*.html"))}
    assert any(name.startswith("gm/") for name in texts) and len(texts) > 40
    slugs = {s.slug for s in SYSTEMS}
    data = data_text(game.folder)
    by_system = {}
    for name in texts:
        # Each system's words where it prints (pdf/a4/i6/..., site/i6/..., pack/sixes/...; gm/ is the tracker).
        slug = next((part for part in name.split("/") if part in slugs), "sixes" if name.startswith("gm/") else None)
        by_system[name] = english_terms(language, [slug] if slug else [], data)
    assert {name: hits for name, text in texts.items()
            if (hits := sorted(w for w in by_system[name] if found(w, text)))} == {}


# A German game's own words for every term the rules use, none the tool's.
RENAMED_TRAITS = {"awareness": "Wachsamkeit", "brawl": "Prügeln", "brawn": "Muskeln", "dodge": "Flinkheit"}
RENAMED_BANDS = {"brawling": "Handgreiflich", "throwing": "Wurfnah", "shooting": "Schussweit", "viewing": "Fernblick",
                 "lost": "Jenseits"}
RENAMED_ATTRIBUTES = {"brawn": "Stärke", "will": "Willenskraft"}


def _rewrite(path: Path, change: typing.Callable[[dict], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def renamed_i6(tmp_path: Path) -> Path:
    folder = tmp_path / "i6"
    shutil.copytree(by_slug()["i6"].starter.parent / "starter-de", folder)
    old = {t["id"]: t["name"] for t in yaml.safe_load((folder / "traits.yaml").read_text(encoding="utf-8"))["traits"]
           if "id" in t}

    def traits(data: dict) -> None:
        for trait in data["traits"]:
            if "id" in trait:
                trait["name"] = RENAMED_TRAITS[trait["id"]]
    _rewrite(folder / "traits.yaml", traits)
    actions = folder / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace(old["brawl"], RENAMED_TRAITS["brawl"]),
                       encoding="utf-8")
    for hero in (folder / "heroes").glob("*.yaml"):
        def ratings(data: dict) -> None:
            by_old = {name: key for key, name in old.items()}
            data["traits"] = {RENAMED_TRAITS.get(by_old.get(n, ""), n): r for n, r in data["traits"].items()}
        _rewrite(hero, ratings)
    return folder


def renamed_d6xd6(tmp_path: Path) -> Path:
    folder = tmp_path / "d6xd6"
    shutil.copytree(by_slug()["d6xd6"].starter.parent / "starter-de", folder)

    def distances(data: dict) -> None:
        for distance in data["distances"]:
            distance["name"] = RENAMED_BANDS[distance["key"]]

    def overkill(data: dict) -> None:
        data["overkill"]["name"] = "Zerfetzt"
    _rewrite(folder / "combat.yaml", distances)
    _rewrite(folder / "damage.yaml", overkill)
    _rewrite(folder / "game.yaml", lambda data: data.update(attributes=RENAMED_ATTRIBUTES))
    return folder


def the_tools_words(slug: str, language: str) -> set[str]:
    """The tool's words for the system's terms: English, and the language's."""
    words = words_for(language)
    return set(term_words(slug).values()) | {words.gettext(w) for w in term_words(slug).values()}


def test_a_german_i6_game_that_renames_every_trait_prints_its_own_names(tmp_path):
    texts = rendered(renamed_i6(tmp_path), "i6", "de")
    sheets = {n: t for n, t in texts.items() if not n.endswith(".md")}
    assert left(sheets, the_tools_words("i6", "de")) == {}
    assert left(texts, english_terms("de", ["i6"])) == {}
    hero = next(t for n, t in sheets.items() if n.startswith("players/"))
    assert "Würfle 1W6 + 3 (Wachsamkeit)." in hero and "minus Muskeln des Ziels" in hero
    assert "Alle würfeln 1W6 + Wachsamkeit." in sheets["public/combat-card"]
    assert "Das Ziel wählt Flinkheit" in sheets["public/combat-card"]


def test_a_german_d6xd6_game_that_renames_every_term_prints_its_own_names(tmp_path):
    texts = rendered(renamed_d6xd6(tmp_path), "d6xd6", "de")
    cards = texts["public/reference-cards"]
    assert left({"cards": cards}, {"Brawl", "Throw", "Shoot", "Overkill", "Außer Sicht"}) == {}
    assert "Handgreiflich:" in cards and "Reichweite: nur Handgreiflich" in cards
    assert "Wurf auf Willenskraft oder Stärke" in cards and "Zerfetzt" in cards
    assert left(texts, english_terms("de", ["d6xd6"])) == {}
    assert "Handgreiflich" in texts["weapons.md"]


def test_a_traits_file_written_before_ids_still_loads(tmp_path):
    """`name: Brawn` (the shape before ids) is the brawn trait, and prints the
    tool's word in the game's language."""
    folder = tmp_path / "i6"
    shutil.copytree(by_slug()["i6"].starter, folder)

    def old_shape(data: dict) -> None:
        for trait in data["traits"]:
            if "id" in trait:
                trait["name"] = trait.pop("id").capitalize()
    _rewrite(folder / "traits.yaml", old_shape)
    texts = rendered(folder, "i6", "de")
    hero = next(t for n, t in texts.items() if n.startswith("players/"))
    assert "(Aufmerksamkeit)" in hero and "Awareness" not in hero


def english_d6xd6_names() -> set[str]:
    """The English starter's own names for its damage levels, overkill and
    distance bands: the GM's words in English, which a French game must not
    inherit (the data exemption above would otherwise let them through)."""
    starter = by_slug()["d6xd6"].starter
    damage = yaml.safe_load((starter / "damage.yaml").read_text(encoding="utf-8"))
    combat = yaml.safe_load((starter / "combat.yaml").read_text(encoding="utf-8"))
    return ({level["name"] for level in damage["levels"]} | {damage["overkill"]["name"]}
            | {band["name"] for band in combat["distances"]})


def test_the_french_d6xd6_starter_names_its_levels_and_bands_in_french():
    """Its data, every page and document, and the rulings and rules page the
    French site prints quote the French starter's names, never the English ones."""
    names = english_d6xd6_names()
    assert {"Graze", "Knockout", "Overkill", "Brawl", "Lost"} <= names
    folder = by_slug()["d6xd6"].starter.parent / "starter-fr"
    assert left({"data": data_text(folder)}, names) == {}
    texts = rendered(folder, "d6xd6", "fr")
    static = Path(__file__).resolve().parents[1] / "site" / "d6xd6"
    texts |= {p.name: p.read_text(encoding="utf-8") for p in static.glob("*.fr.md")}
    assert "rulings.md" in texts and "index.fr.md" in texts
    assert left(texts, names) == {}
    assert "Hors de vue" in texts["turns.md"] and "Carnage" in texts["public/ladder-cards"]


def test_the_built_french_d6xd6_game_prints_no_english_level_or_band(tmp_path_factory, request):
    """What `sixes new --language fr` builds: the D6xD6 PDFs on both papers and its site pages."""
    from test_language_whole import page_text, pdf_text
    game = built_language_game("fr", tmp_path_factory, request.config)
    texts = {p.relative_to(game.out).as_posix(): pdf_text(p) for p in sorted(game.out.rglob("*.pdf"))
             if "d6xd6" in p.parts}
    site = game.out / "site" / "d6xd6"
    texts |= {p.relative_to(game.out).as_posix(): page_text(p) for p in sorted(site.rglob("*.html"))}
    assert len([n for n in texts if n.endswith(".pdf")]) >= 4 and "site/d6xd6/rulings.html" in texts
    assert left(texts, english_d6xd6_names()) == {}
