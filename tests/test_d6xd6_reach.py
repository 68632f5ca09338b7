"""D6xD6 weapon reach and remote fire at the Lost band (issue 18, points 5
and 6), against tables written here by hand from the chapter's list of
combat distances, and the printed cards and site pages that state them."""
from __future__ import annotations

import itertools
import re

import pytest

from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.d6xd6 import SYSTEM
from generator.systems.d6xd6.models import Category, Weapon
from generator.systems.d6xd6.rules import GRAZE, HIT, STUN, WOUND, level_of, reach, remote_fire_focus, weapon_attack

BANDS = ("brawling", "throwing", "shooting", "viewing", "lost")
CATEGORIES = ("brawling", "throwing", "shooting")

# From the chapter's five distances, by hand. Brawl: bare hands and hand
# weapons. Throw: thrown weapons, and shooting weapons too. Shoot: bows and
# guns. View: trained snipers and powers only. Lost: only remote fire.
# Thrown and shot weapons keep working up close (ruling weapon-ranges).
#              Brawl Throw Shoot View Lost
HAND_REACH = """
brawling  :   Y     -     -     -    -
throwing  :   Y     Y     -     -    -
shooting  :   Y     Y     Y     -    -
"""


def hand_reach() -> dict[str, dict[str, bool]]:
    table = {}
    for line in HAND_REACH.strip().splitlines():
        category, cells = line.split(":")
        table[category.strip()] = dict(zip(BANDS, (c == "Y" for c in cells.split()), strict=True))
    return table


def plain_weapon(category: str, damage: str = "stun") -> Weapon:
    """A weapon with no marks of its own, placed in `category` the way a table places it."""
    return Category.model_validate({"key": category, "attack": ["Brawn"], "defence": ["Grace"],
                                    "weapons": [{"name": "Test weapon", "damage": damage}]}).weapons[0]


@pytest.fixture(scope="module")
def game():
    game, problems = SYSTEM.load(DEFAULT_DATA_DIR / "d6xd6", DEFAULT_DATA_DIR.parent)
    assert game is not None, problems
    return game


@pytest.mark.parametrize("category, band", list(itertools.product(CATEGORIES, BANDS)))
def test_every_category_against_every_band(category, band):
    """An attacker "must be within range of the target", and the weapon's
    type sets that range: a plain weapon of each category attacks exactly at
    the bands of the hand table, and nowhere else."""
    weapon = plain_weapon(category)
    expected = hand_reach()[category][band]
    assert weapon.reaches(band) is expected
    assert (weapon.damage_at(band) == "stun") is expected and (weapon.damage_at(band) is None) is not expected
    assert weapon_attack(weapon, band, 1) == (STUN if expected else None)
    assert weapon_attack(weapon, band, 3, aimed_turns=1) == (STUN + 3 if expected else None)
    assert (band in reach(category)) is expected


def test_the_issues_two_examples():
    """A thrown stone reaches at most Throw range (20 m), so it cannot be
    thrown at Shoot range; a fist works only within 2 m, never at View range."""
    stone = plain_weapon("throwing", "graze")
    fist = plain_weapon("brawling", "graze")
    assert weapon_attack(stone, "throwing", 1) == GRAZE
    assert weapon_attack(stone, "shooting", 1) is None
    assert weapon_attack(fist, "brawling", 2) == STUN
    assert weapon_attack(fist, "viewing", 1) is None and weapon_attack(fist, "throwing", 1) is None


def test_every_weapon_of_the_example_tables_against_every_band(game):
    """Each weapon of the data reaches what its category reaches (hand table),
    less the bands the weapon table marks unusable, at the damage it lists
    ("Unusable at Brawl range" for the bows; the shotgun's Wound/Hit/Stun)."""
    checked = 0
    for table in game.tables:
        for category in table.categories:
            for weapon in category.weapons:
                for band in BANDS:
                    usable = hand_reach()[category.key][band] and band not in weapon.unusable_at
                    got = weapon_attack(weapon, band, 1)
                    if not usable:
                        assert got is None, (weapon.name, band)
                        continue
                    key = weapon.damage_by_band[band] if weapon.damage_by_band else weapon.damage
                    assert got == level_of(key), (weapon.name, band)
                    checked += 1
    assert checked > 40


def test_the_core_table_by_name(game):
    """The chapter's table: bows unusable at Brawl range, the shotgun's damage
    falling with range, and nothing of the table at View or Lost."""
    core = {(c.key, w.name): w for c in game.tables[0].categories for w in c.weapons}
    by_band = {name: [weapon_attack(w, b, 1) for b in BANDS] for (_, name), w in core.items()}
    assert by_band["Stone"] == [GRAZE, GRAZE, None, None, None]
    assert by_band["Fist or foot"] == [GRAZE, None, None, None, None]
    assert by_band["Small bow or sling"] == [None, STUN, STUN, None, None]
    assert by_band["Shotgun"] == [WOUND, HIT, STUN, None, None]
    assert by_band["Rifle"] == [WOUND, WOUND, WOUND, None, None]
    # The two spears: hand-held at Brawl only, thrown out to Throw.
    assert [weapon_attack(core[("brawling", "Spear")], b, 1) for b in BANDS] == [HIT, None, None, None, None]
    assert [weapon_attack(core[("throwing", "Spear")], b, 1) for b in BANDS] == [WOUND, WOUND, None, None, None]


def test_a_weapon_outside_any_category_has_no_known_reach():
    with pytest.raises(ValueError, match="no weapon category"):
        Weapon(name="Loose stone", damage="graze").damage_at("brawling")
    with pytest.raises(ValueError, match="no range band"):
        plain_weapon("brawling").damage_at("orbit")
    with pytest.raises(ValueError):
        reach("viewing")


def test_one_weapon_listed_under_two_categories_keeps_each_reach():
    spear = Weapon(name="Spear", damage="hit")
    held = Category(key="brawling", attack=["Brawn"], defence=["Grace"], weapons=[spear]).weapons[0]
    thrown = Category(key="throwing", attack=["Throwing"], defence=["Grace"], weapons=[spear]).weapons[0]
    assert (held.category, thrown.category, spear.category) == ("brawling", "throwing", None)
    assert held.damage_at("throwing") is None and thrown.damage_at("throwing") == "hit"


def test_reach_is_not_a_field_of_the_data_file():
    """The category is given by where a weapon is listed, so a file cannot state another."""
    assert "category" not in Weapon.model_json_schema()["properties"]


# --- remote fire at the Lost band --------------------------------------------

@pytest.mark.parametrize("observer, attacker", list(itertools.product(range(1, 7), repeat=2)))
def test_remote_fire_uses_the_lower_focus(observer, attacker):
    """Beyond 2 km a forward observer calls in fire, and its accuracy is capped
    by two Focus values, the observer's and the attacker's, "whichever is lower"."""
    expected = observer if observer <= attacker else attacker
    assert remote_fire_focus(observer, attacker) == expected
    assert remote_fire_focus(attacker, observer) == expected


def test_remote_fire_by_example():
    assert remote_fire_focus(2, 5) == 2     # a green spotter holds back a veteran gunner
    assert remote_fire_focus(6, 3) == 3     # and the gunner's Focus caps a veteran spotter
    assert remote_fire_focus(4, 4) == 4


@pytest.mark.parametrize("observer, attacker", [(0, 3), (3, -1), (True, 3), (2.5, 3), ("3", 3), (None, 3)])
def test_remote_fire_refuses_what_is_not_a_focus(observer, attacker):
    with pytest.raises(ValueError, match="Focus"):
        remote_fire_focus(observer, attacker)


def text_of(pdf) -> str:
    """The card's text as tests read a PDF (tests/pdf_text.py): a word
    hyphenated at a line's end is one word again, which pdftotext does not
    do across a table's cells ("re-" and "mote fire" in two blocks)."""
    from pdf_text import text
    return text(pdf)


def site_text(build, page: str) -> str:
    import html
    raw = (build.out_dir / "site" / "d6xd6" / page).read_text(encoding="utf-8")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split())


def test_cards_and_site_print_reach_and_the_lower_focus_rule(example_build):
    """The distances card and the site say which bands each category reaches
    and that remote fire rolls with the lower Focus of observer and attacker."""
    card = text_of(example_build.out_dir / "pdf" / "a4" / "d6xd6" / "public" / "reference-cards.pdf")
    # One weapons card per category and table: the two tables give each line twice,
    # and a card continued onto another (the example's shooting weapons in one
    # table fill a card and a half) says its reach again, so it can be read alone.
    assert card.count("Reach: Brawl only.") == 2
    assert card.count("Reach: Brawl, Throw only.") == 2
    assert card.count("Reach: Brawl, Throw, Shoot only.") == 2 + card.count("Shooting weapons, continued")
    assert re.search(r"Lost beyond .*Roll with the lower Focus of observer and attacker\.", card)
    site = site_text(example_build, "turns.html")
    assert "Brawling yes no no no no" in site
    assert "Throwing yes yes no no no" in site
    assert "Shooting yes yes yes no no" in site
    assert "lower Focus of the two: the observer's or the attacker's" in site
    rulings = (example_build.out_dir / "site" / "d6xd6" / "rulings.html").read_text(encoding="utf-8")
    assert 'id="remote-fire"' in rulings and 'id="weapon-ranges"' in rulings
