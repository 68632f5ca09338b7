"""The documents and site pages D6xD6 contributes, as data.

Core layer: builds template contexts from a loaded game and the pure rules;
it never renders. Every D6xD6 document is public: the data holds no secrets.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import Mapping, Sequence

from ...core.dice import at_least
from ...core.i18n import N_, _
from ...core.privacy import private_only, public_only
from ..base import CARD_SHEET, Card, CastEntry, Document, Page, gm_notes_document
from .dataset import D6Game
from .glossary import GLOSSARY
from .models import BAND_KEYS, CATEGORY_KEYS, LEVEL_KEYS, RULE_ATTRIBUTES, Character, Weapon, WeaponTable, reach
from .rules import (CONDITIONS, INCOMING, OVERKILL, REACTIVE_STEPS, UNHURT, chance_first, ladder_grid, splits,
                    turn_order, turn_roll)

CARDS_PER_PAGE = 9          # the shared sheet's 3 x 3 poker grid
LADDER_CARDS = "ladder-cards"
GM_LADDER_CARDS = "gm-ladder-cards"     # the private characters' cards, made only when there are some
REFERENCE_CARDS = "reference-cards"
# A message (core/i18n.py), translated where it is printed.
# Printed after the Lost band's note on the distances card (and measured with it, render/fit/bounded.py).
LOST_RULE = N_("Roll with the lower Focus of observer and attacker.")


@dataclass(frozen=True)
class CategoryWords:
    """An attack category's names: as a heading, on its weapons card, in a sentence."""

    title: str
    weapons: str
    word: str


CATEGORY_WORDS = {
    "brawling": CategoryWords(N_("Brawling"), N_("Brawling weapons"), N_("brawling")),
    "throwing": CategoryWords(N_("Throwing"), N_("Throwing weapons"), N_("throwing")),
    "shooting": CategoryWords(N_("Shooting"), N_("Shooting weapons"), N_("shooting")),
}
# Thresholds for the compact "at least N" chart; the table beside it has them all.
CHART_THRESHOLDS = (36, 30, 20, 12, 6, 1)
MOST_SPLIT_LEVELS = 5


@dataclass(frozen=True)
class Rung:
    level: int
    name: str
    abbr: str
    penalty: int | None
    effect: str


def rungs(game: D6Game) -> list[Rung]:
    """Unhurt, the six levels of the data, and overkill, with short names for the grid."""
    out = [Rung(UNHURT, _("Unhurt"), "-", None, "")]
    for i, level in enumerate(game.damage.levels, start=1):
        out.append(Rung(i, level.name, "", level.penalty, level.effect))
    out.append(Rung(OVERKILL, game.damage.overkill.word(), "", None, game.damage.overkill.effect))
    taken = {"-"}
    final = [out[0]]
    for rung in out[1:]:
        abbr = _abbreviate(rung.name, taken)
        taken.add(abbr)
        final.append(Rung(rung.level, rung.name, abbr, rung.penalty, rung.effect))
    return final


def _abbreviate(name: str, taken: set[str]) -> str:
    """Two letters: the initials of a two-word name, else the first two letters;
    the first free pair of letters if that clashes."""
    words = name.split()
    first = (words[0][0] + words[1][0]) if len(words) > 1 else name[:2]
    candidates = [first.capitalize()] + [(name[0] + c).capitalize() for c in name[1:] if c.isalpha()]
    return next((c for c in candidates if c not in taken), name[:3])


@dataclass(frozen=True)
class Sheet:
    """What a character's ladder cards show about their defences."""

    name: str
    note: str
    armour: str | None
    armour_steps: int
    reactive: tuple[str, ...]     # categories where a listed defence is Focused
    attacks: tuple[str, ...]      # categories where a listed attack ability is Focused
    drama_points: int


def sheet_for(character: Character | None, game: D6Game) -> Sheet:
    if character is None:
        return Sheet("", "", None, 0, (), (), 0)
    steps: dict[str | None, int] = {a.name: a.steps for a in game.armour.armour}   # no armour: 0 steps
    focused = set(character.focused)
    reactive, attacks = [], []
    for key in CATEGORY_KEYS:
        categories = [c for t in game.tables for c in t.categories if c.key == key]
        if any(focused & set(c.defence) for c in categories):
            reactive.append(key)
        if any(focused & set(c.attack) for c in categories):
            attacks.append(key)
    return Sheet(character.name, character.note, character.armour, steps.get(character.armour, 0),
                 tuple(reactive), tuple(attacks), character.drama_points)


def band_names(game: D6Game) -> dict[str, str]:
    """Each distance band's name as the game's combat.yaml gives it, by key."""
    return {d.key: d.name for d in game.combat.distances}


def terms(game: D6Game) -> dict[str, str]:
    """The attributes the rules roll by id (second wind: will or brawn) as
    this game prints them: its names, else the tool's words in its language."""
    named = {str(key): name for key, name in game.info.attributes.items()}
    return {key: named.get(key) or _(word) for key, word in RULE_ATTRIBUTES.items()}


def weapon_rows(table: WeaponTable, bands: Mapping[str, str]) -> list[dict]:
    """One row per weapon per category, with damage and notes in words, the
    bands by the game's names for them (`bands`, band_names)."""
    out = []
    for category in table.categories:
        rows = []
        for weapon in category.weapons:
            if weapon.damage_by_band is not None:
                # A band's label as it heads its damage ("Brawl:"; French spaces the colon).
                damage = [(_("{band}:").format(band=bands[b]), weapon.damage_by_band[b]) for b in CATEGORY_KEYS
                          if b in weapon.damage_by_band]
            else:
                assert weapon.damage is not None     # the model holds one of the two
                damage = [("", weapon.damage)]
            rows.append({"name": weapon.name, "damage": damage, "notes": _weapon_notes(weapon, bands)})
        words = CATEGORY_WORDS[category.key]
        out.append({"key": category.key, "title": _(words.title), "heading": _(words.weapons),
                    "attack": category.attack, "defence": category.defence,
                    "band": bands[category.key], "reach": reach(category.key), "weapons": rows})
    return out


def _weapon_notes(weapon: Weapon, bands: Mapping[str, str]) -> list[str]:
    """A weapon's needs, limits and comment, as short sentences for its row."""
    notes = []
    if weapon.requires:
        either = " " + _("or") + " "
        notes.append(_("Needs {abilities}").format(abilities=either.join(weapon.requires)))
    notes += [_("Not at {band}").format(band=bands[b]) for b in weapon.unusable_at]
    notes += [_("{penalty} at {band}").format(penalty=f"-{p.points}", band=bands[p.band])
              for p in weapon.penalties]
    if weapon.unfamiliar_ok:
        notes.append(_("Anyone may use it as Unfamiliar"))
    if weapon.comment:
        notes.append(weapon.comment)
    return notes


def reach_rows() -> list[tuple[str, tuple[bool, ...]]]:
    """(category, reaches each band nearest first), for the reach tables on
    the distances card and the site (ruling weapon-ranges)."""
    return [(key, tuple(band in reach(key) for band in BAND_KEYS)) for key in CATEGORY_KEYS]


def turn_odds(penalties: tuple[int, ...]) -> list[tuple[int, list[Fraction]]]:
    """(N, chance that a roll less each penalty still reaches N), for every N a die times a die can show."""
    dists = [turn_order(p) for p in penalties]
    return [(n, [at_least(d, n) for d in dists]) for n in sorted(turn_roll(), reverse=True)]


def _common(game: D6Game) -> dict:
    ladder = rungs(game)
    by_key = {key: ladder[i + 1] for i, key in enumerate(LEVEL_KEYS)}
    armour = game.armour.armour
    penalties = (0,) + tuple(a.steps for a in armour)
    return {
        "title": game.info.title,
        "blurb": game.info.blurb,
        "rungs": ladder,
        "level": by_key,
        "levels": game.damage.levels,
        "overkill": game.damage.overkill,
        "overkill_name": game.damage.overkill.word(),
        "terms": terms(game),
        "ladder": ladder_grid(),
        "conditions": CONDITIONS,
        "incoming": INCOMING,
        "reactive_steps": REACTIVE_STEPS,
        "armour": armour,
        "combat": game.combat,
        "distance": {d.key: d for d in game.combat.distances},
        "lost_rule": _(LOST_RULE),
        "category_word": {key: _(words.word) for key, words in CATEGORY_WORDS.items()},
        "category_title": {key: _(words.title) for key, words in CATEGORY_WORDS.items()},
        "reach_rows": reach_rows(),
        "tables": [(t, weapon_rows(t, band_names(game))) for t in game.tables],
        "table_files": game.table_files,
        "odds_columns": [_("None")] + [f"{a.name} (-{a.steps})" for a in armour],
        "turn_odds": turn_odds(penalties),
        "chart_rows": [(n, at_least(turn_order(0), n)) for n in CHART_THRESHOLDS],
        "even_odds": chance_first(0, 0),
        "first_odds": [(a.name, a.steps, chance_first(a.steps, 0), chance_first(0, a.steps)) for a in armour],
        "splits": [(n, splits(n)) for n in range(1, MOST_SPLIT_LEVELS + 1)],
    }


def _deck_pages(cards: Sequence[object]) -> int:
    return ceil(len(cards) / CARDS_PER_PAGE)


def ladder_cards(game: D6Game, characters: Sequence[Character | None]) -> tuple[Card, ...]:
    """A ladder and a lookup card for each character (None: a blank one)."""
    cards = []
    for character in characters:
        sheet = sheet_for(character, game)
        label = sheet.name or _("blank")
        cards.append(Card(_("Ladder: {name}").format(name=label), "d6xd6/cards/ladder.html", {"sheet": sheet}))
        cards.append(Card(_("Lookup: {name}").format(name=label), "d6xd6/cards/lookup.html", {"sheet": sheet}))
    return tuple(cards)


def reference_cards(game: D6Game) -> tuple[Card, ...]:
    cards = []
    for table, categories in _common(game)["tables"]:
        for category in categories:
            cards.append(Card(_("Weapons: {table}, {category}").format(table=table.title, category=category["title"]),
                              "d6xd6/cards/weapons.html",
                              {"table": table, "category": category}))
    cards += [Card(_("Armour and defence"), "d6xd6/cards/armour.html"),
              Card(_("Turn sequence"), "d6xd6/cards/turn.html"),
              Card(_("Success levels"), "d6xd6/cards/options.html"),
              Card(_("Distances"), "d6xd6/cards/distances.html"),
              Card(_("Turn order chart"), "d6xd6/cards/odds_chart.html"),
              Card(_("Turn order table"), "d6xd6/cards/odds_table.html")]
    return tuple(cards)


def documents(game: D6Game) -> list[Document]:
    common = {**_common(game), "card_css": "d6xd6/cards.css"}
    everyone = game.characters.characters
    ladder, reference = ladder_cards(game, [*public_only(everyone), None]), reference_cards(game)
    docs = [
        Document(LADDER_CARDS, f"{game.info.title}: {GLOSSARY['ladder_cards']}", CARD_SHEET, "public", common,
                 max_pages=_deck_pages(ladder), cards=ladder),
        Document(REFERENCE_CARDS, f"{game.info.title}: {GLOSSARY['reference_cards']}", CARD_SHEET, "public",
                 common, max_pages=_deck_pages(reference), cards=reference),
    ]
    private = ladder_cards(game, private_only(everyone))
    if private:     # the public deck is on the site; these are the GM's
        title = _("{title}: the GM's {cards}").format(title=game.info.title, cards=GLOSSARY["ladder_cards"])
        docs.append(Document(GM_LADDER_CARDS, title, CARD_SHEET, "gm", common, max_pages=_deck_pages(private),
                             cards=private))
    return docs + gm_notes_document(game.info.title, [(c.name, c.gm_notes) for c in everyone])


def cast_list(game: D6Game) -> list[CastEntry]:
    """The public characters for the site's cast list: name and public note."""
    return [CastEntry(c.name, description=c.note) for c in public_only(game.characters.characters)]


def pages(game: D6Game) -> list[Page]:
    common = _common(game)
    both = (LADDER_CARDS, REFERENCE_CARDS)
    return [
        Page("weapons.md", _("Weapons and armour"), "d6xd6/site/weapons.md.j2", common, downloads=(REFERENCE_CARDS,)),
        Page("ladder.md", _("The damage ladder"), "d6xd6/site/ladder.md.j2", common, downloads=(LADDER_CARDS,)),
        Page("turns.md", _("Turns, distances and odds"), "d6xd6/site/turns.md.j2", common,
             downloads=(REFERENCE_CARDS,)),
        Page("rulings.md", _("Rulings"), "d6xd6/site/rulings.md.j2", {**common, "rulings": game.rulings},
             downloads=both),
    ]
