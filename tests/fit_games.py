"""Games with ordinary and long text, for tests/test_fit.py: the starter of
each system (what `sixes new` writes) with every prose field set to a
multiple of its floor (issue 27: what a box must hold), and the starter
with every text of the data longer by a factor (`lengthen_every_text`),
which finds the texts no list here names."""
from __future__ import annotations

from pathlib import Path

import yaml

from generator.commands.cli import main

# Fields that hold prose, by the key the data files spell them with; short
# labels (names, signals, reminders) keep what the starter wrote.
PROSE = {"description", "rule", "note", "gm_notes", "blurb", "background", "secret", "covers", "comment"}
# Words each field must hold, by (file, key); any other prose field holds ORDINARY.
ORDINARY = 30
FLOORS = {("challenges.yaml", "description"): 40, ("challenges.yaml", "gm_notes"): 40,
          ("specials.yaml", "rule"): 40,
          ("characters", "description"): 60, ("characters", "background"): 800,
          ("heroes", "description"): 60, ("heroes", "secret"): 800}
NAME_FLOOR = 60         # characters in a name
# Optional prose the starter leaves out, added: (file, a key the mapping has, the field).
ADDED = {("challenges.yaml", "critical_numbers", "gm_notes")}
# Plain words of every length, so lines break as they would in real prose.
WORDS = ("the crew finds a narrow alley behind the old bank where a nervous clerk waits with keys and "
         "a story about the vault that nobody quite believes tonight while rain hammers on copper roofs").split()
# The same kind of prose in the other shipped languages, with their longer
# words (a German compound is as long as an English phrase), for the games
# whose `language:` is theirs (`sixes new --language`).
LANGUAGE_WORDS = {
    "en": WORDS,
    "fr": ("la bande trouve une ruelle étroite derrière la vieille banque où un employé nerveux attend avec "
           "ses clés et une histoire invraisemblable sur le coffre pendant que la pluie martèle les toitures "
           "de cuivre").split(),
    "de": ("die Bande findet hinter der alten Bank eine schmale Gasse wo ein nervöser Angestellter mit "
           "Tresorschlüsseln und einer Geschichte über den Nahkampfwaffenschrank wartet während "
           "Gewitterregen auf die Kupferdächer prasselt").split(),
}


def words(count: int, language: str = "en") -> str:
    """`count` words of ordinary prose in `language`, ending with a full stop."""
    pool = LANGUAGE_WORDS[language]
    text = " ".join((pool * (count // len(pool) + 1))[:count])
    return text[:1].upper() + text[1:] + "."


def floor_of(path: Path, key: str) -> int:
    return FLOORS.get((path.name, key)) or FLOORS.get((path.parent.name, key)) or ORDINARY


def make_game(dest: Path, system: str, factor: float, only: tuple[str, str] | None = None,
              over: int = 0) -> Path:
    """A game folder of one system: every prose field at `factor` times its
    floor, or with `only` (file name, key) set to `over` words and the rest
    as the starter wrote them."""
    assert main.main(["new", str(dest)], standalone_mode=False) in (None, 0)
    settings = dest / "sixes.yaml"
    settings.write_text(settings.read_text() + f"systems: [{system}]\n")
    for path in sorted((dest / system).rglob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        _set(data, path, factor, only, over)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return dest


def _set(data, path: Path, factor: float, only, over: int) -> None:
    if isinstance(data, list):
        for item in data:
            _set(item, path, factor, only, over)
    elif isinstance(data, dict):
        for file, has, field in ADDED:
            if path.name == file and has in data:
                data.setdefault(field, "")
        for key, value in data.items():
            if isinstance(value, str) and key in PROSE:
                if only is None:
                    data[key] = words(max(1, round(floor_of(path, key) * factor)))
                elif only == (path.name, key) or only == (path.parent.name, key):
                    data[key] = words(over)
            else:
                _set(value, path, factor, only, over)


# Keys whose values other entries refer to by name (a character's specials,
# a weapon's reach): lengthening one would break the reference, not the fit.
REFERENCES = {"name", "specials", "faction", "reach", "key", "icon", "slug", "systems"}


def new_game(dest: Path, language: str = "en") -> Path:
    """What `sixes new` writes: every system's starter, in `language` (its
    settings' `language:`, and the starter written in it)."""
    assert main.main(["new", str(dest), "--language", language], standalone_mode=False) in (None, 0)
    return dest


def lengthen_every_text(dest: Path, factor: float, language: str = "en") -> Path:
    """Every system's starter in `language`, with every text of four words
    or more (a turn step, a reminder, a rule, a note, whatever the data
    holds) made `factor` times as long with ordinary words of the language."""
    new_game(dest, language)
    for path in sorted(dest.rglob("*.yaml")):
        if path.name != "sixes.yaml":
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            path.write_text(yaml.safe_dump(_longer(data, factor, language), sort_keys=False, allow_unicode=True),
                            encoding="utf-8")
    return dest


def _longer(value, factor: float, language: str, key: str | None = None):
    if isinstance(value, dict):
        return {k: _longer(v, factor, language, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_longer(v, factor, language, key) for v in value]
    if isinstance(value, str) and key not in REFERENCES and len(value.split()) >= 4:
        more = words(round(len(value.split()) * (factor - 1)), language)
        return value.rstrip().rstrip(".") + " " + more[:1].lower() + more[1:]
    return value


def lengthen_every_name(dest: Path, extra: str, language: str = "en", joiner: str = " ") -> Path:
    """Every system's starter in `language` with every name the data gives
    (characters, specials, actions, weapons, damage levels, challenges, the
    titles) longer by `extra` (after `joiner`: "" makes each name's last
    word one long compound), and every reference to it with it.
    Descriptors and traits keep theirs: their names are the rules' own
    words, checked as such."""
    new_game(dest, language)
    files = [p for p in sorted(dest.rglob("*.yaml")) if p.name != "sixes.yaml"]
    data = {p: yaml.safe_load(p.read_text(encoding="utf-8")) for p in files}
    fixed: set[str] = set()
    for path, content in data.items():
        if path.name == "traits.yaml":
            fixed |= _names(content)
        elif path.name == "rules.yaml" and "descriptors" in content:
            fixed |= _names(content["descriptors"])
    names = set().union(*(_names(content) for content in data.values())) - fixed
    for path, content in data.items():
        path.write_text(yaml.safe_dump(_renamed(content, names, joiner + extra), sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
    return dest


def _names(value) -> set[str]:
    if isinstance(value, dict):
        return {v for k, v in value.items() if k in ("name", "title") and isinstance(v, str)} \
            | set().union(*(_names(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_names(v) for v in value))
    return set()


def _renamed(value, names: set[str], extra: str):
    if isinstance(value, dict):
        return {(f"{k}{extra}" if k in names else k): _renamed(v, names, extra) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names, extra) for v in value]
    return f"{value}{extra}" if isinstance(value, str) and value in names else value


def name_first_weapon(dest: Path, name: str) -> str:
    """The D6xD6 game's first weapon renamed `name` (nothing refers to a
    weapon by name): a word as long as its column or longer."""
    path = dest / "d6xd6" / "weapons" / "core.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["categories"][0]["weapons"][0]["name"] = name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return name
