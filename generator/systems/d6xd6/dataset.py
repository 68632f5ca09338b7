"""Load a D6xD6 data folder into one validated, cross-checked game.

Core layer: reads YAML through `loading`, validates with the models, and
checks what one file cannot (a character's armour exists, Focused abilities
appear in some weapon table). Every problem is reported, all at once.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel

from ...core.datafiles import display_path, entry_key, read_validated, repeated_entries, unused_files
from ...core.errors import Problem, allowed_hint, did_you_mean, errors_in
from ...core.loading import YamlDocument
from ...core.naming import looks_key
from ...core.rulings import Ruling, load_rulings
from .models import ArmourFile, CharactersFile, CombatFile, DamageFile, GameInfo, WeaponTable, reach

RULINGS_FILE = Path(__file__).with_name("rulings.yaml")
KNOWN_FILES = {"game.yaml", "damage.yaml", "armour.yaml", "combat.yaml", "characters.yaml"}


@dataclass(frozen=True)
class D6Game:
    folder: Path
    info: GameInfo
    damage: DamageFile
    tables: tuple[WeaponTable, ...]
    armour: ArmourFile
    combat: CombatFile
    characters: CharactersFile
    rulings: tuple[Ruling, ...]
    table_files: tuple[str, ...] = ()     # each table's file under weapons/, for messages about its text

    @property
    def abilities(self) -> frozenset[str]:
        """Every ability any weapon table names, for attack, defence or a requirement."""
        return _abilities(self.tables)


def _abilities(tables: Iterable[WeaponTable]) -> frozenset[str]:
    names: set[str] = set()
    for table in tables:
        for category in table.categories:
            names.update(category.attack, category.defence)
            for weapon in category.weapons:
                names.update(weapon.requires)
    return frozenset(names)



def load_game(folder: Path, display_root: Path) -> tuple[D6Game | None, list[Problem]]:
    """Load data/d6xd6/. Icons are not used by this system."""
    problems: list[Problem] = []

    def read(path: Path, model: type[BaseModel]) -> tuple[Any | None, YamlDocument | None]:
        return read_validated(path, display_root, model, problems)

    info, _ = read(folder / "game.yaml", GameInfo)
    damage, _ = read(folder / "damage.yaml", DamageFile)
    armour, _ = read(folder / "armour.yaml", ArmourFile)
    combat, _ = read(folder / "combat.yaml", CombatFile)
    tables = []
    table_files = sorted(folder.glob("weapons/*.yaml"))
    if not table_files:
        problems.append(Problem(display_path(folder / "weapons", display_root), None, None,
                                "no weapon tables (weapons/*.yaml)", hint="add one YAML file per weapon table"))
    for path in table_files:
        table, doc = read(path, WeaponTable)
        if table is not None and doc is not None:
            problems.extend(_check_table(doc, table))
            tables.append(table)
    characters, chars_doc = read(folder / "characters.yaml", CharactersFile)
    if characters is not None and chars_doc is not None and armour is not None and len(tables) == len(table_files):
        problems.extend(_check_characters(chars_doc, characters, armour, _abilities(tables)))
    rulings, found = load_rulings(RULINGS_FILE)
    problems.extend(found)
    problems.extend(unused_files(folder, display_root, KNOWN_FILES, "weapon tables go in weapons/"))
    if errors_in(problems) or info is None or damage is None or armour is None or combat is None \
            or characters is None:
        return None, problems
    return D6Game(folder, info, damage, tuple(tables), armour, combat, characters, rulings,
                  tuple(f"weapons/{path.name}" for path in table_files)), problems


def _check_table(doc: YamlDocument, table: WeaponTable) -> list[Problem]:
    """Range facts a single weapon cannot check alone: a weapon reaches no
    further than its category's band (ruling weapon-ranges)."""
    problems = []
    for c, category in enumerate(table.categories):
        bands_reached = reach(category.key)
        twice = dict(repeated_entries(doc, [weapon.name.casefold() for weapon in category.weapons],
                                      entry_key(("categories", c, "weapons"))))
        for w, weapon in enumerate(category.weapons):
            loc = ("categories", c, "weapons", w)
            if w in twice:
                problems.append(doc.problem(loc + ("name",), f"duplicate weapon name '{weapon.name}' in {category.key}",
                                            hint=f"it is already used on line {twice[w]}"))
            bands = list(weapon.damage_by_band or {})
            bands += weapon.unusable_at + [p.band for p in weapon.penalties]
            for band in bands:
                if band not in bands_reached:
                    problems.append(doc.problem(loc, f"'{weapon.name}' names the {band} band, beyond the reach of "
                                                f"{category.key} weapons",
                                                hint="allowed here: " + ", ".join(bands_reached)))
            if weapon.damage_by_band is not None:
                missing = [b for b in bands_reached if b not in weapon.damage_by_band and b not in weapon.unusable_at]
                if missing:
                    problems.append(doc.problem(loc + ("damage_by_band",), f"'{weapon.name}' gives no damage at "
                                                + ", ".join(missing),
                                                hint="add those bands, or list them in unusable_at"))
            if set(bands_reached) <= set(weapon.unusable_at):
                problems.append(doc.problem(loc + ("unusable_at",),
                                            f"'{weapon.name}' is unusable at every band it reaches"))
    return problems


def _check_characters(doc: YamlDocument, file: CharactersFile, armour: ArmourFile,
                      abilities: frozenset[str]) -> list[Problem]:
    problems = []
    names = [a.name for a in armour.armour]
    seen: set[str] = set()
    for i, character in enumerate(file.characters):
        if looks_key(character.name) in seen:       # case, punctuation, look-alike letters
            problems.append(doc.problem(("characters", i, "name"), f"duplicate character name '{character.name}'"))
        seen.add(looks_key(character.name))
        if character.armour is not None and character.armour not in names:
            problems.append(doc.problem(("characters", i, "armour"), f"unknown armour '{character.armour}'",
                                        hint=allowed_hint(character.armour, names)))
        for j, ability in enumerate(character.focused):
            if ability not in abilities:
                problems.append(doc.problem(("characters", i, "focused", j),
                                            f"'{ability}' is not named by any weapon table",
                                            hint=did_you_mean(ability, abilities) or "fine if intended",
                                            severity="warning"))
    return problems
