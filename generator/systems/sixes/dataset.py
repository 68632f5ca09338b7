"""Load a Sixes data folder into one validated, cross-checked game.

Core layer: reads YAML through `loading`, validates with the models, and
checks what a single file cannot (names unique, specials that exist,
portraits and handouts inside the game folder, named from it by the one
rule of core/game_paths.py, and readable: assets.py).
It reports every problem it finds.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Mapping, Sequence

from ...core.assets import asset_fault
from ...core.cast_order import casting_first
from ...core.datafiles import display_path, duplicate_list_names, load_cast, read_validated, unused_files
from ...core.errors import Problem, did_you_mean, errors_in
from ...core.game_paths import RULE, PathFault, game_path, moved_from, written_now
from ...core.loading import YamlDocument
from ...core.paths import ICONS_DIR
from ...core.rulings import Ruling, load_rulings
from .effects import rides_on
from .models import ACTION_KEYS, Action, ActionsFile, Character, GameInfo, Special, SpecialsFile
from .rules import SPEEDS, effect_for_speed
from .special_wording import unconditional_wording

RULINGS_FILE = Path(__file__).with_name("rulings.yaml")
PORTRAIT_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
# The source's usual range; outside it is allowed but worth a second look.
USUAL_HIT_POINTS = range(4, 7)
KNOWN_FILES = {"game.yaml", "specials.yaml", "actions.yaml"}


@dataclass(frozen=True)
class CastMember:
    """A character with what the printers need: a stable slug, the portrait
    file and the handouts for their envelope."""

    slug: str
    source: str
    character: Character
    portrait_file: Path | None
    handout_files: tuple[Path, ...] = ()
    handouts_at: tuple[int, int] = (0, 0)     # line and column of its handouts in `source`, for a pack's problems
    handout_places: tuple[tuple[int, int], ...] = ()     # each handout file's line and column, for its paper check


@dataclass(frozen=True)
class SixesGame:
    folder: Path
    info: GameInfo
    specials: tuple[Special, ...]
    actions: Mapping[str, Action]
    cast: tuple[CastMember, ...]
    rulings: tuple[Ruling, ...]

    @property
    def library(self) -> Mapping[str, Special]:
        return MappingProxyType({s.name: s for s in self.specials})

    @property
    def public_specials(self) -> tuple[Special, ...]:
        return tuple(s for s in self.specials if not s.secret)


def load_game(folder: Path, display_root: Path) -> tuple[SixesGame | None, list[Problem]]:
    """Load data/sixes/; an action's icon must be one of the shipped icons."""
    problems: list[Problem] = []

    info, _ = read_validated(folder / "game.yaml", display_root, GameInfo, problems)
    specials_file, specials_doc = read_validated(folder / "specials.yaml", display_root, SpecialsFile, problems)
    if specials_file and specials_doc:
        problems.extend(duplicate_list_names(specials_doc, [s.name for s in specials_file.specials],
                                             lambda i: ("specials", i, "name"), "special"))
        problems.extend(_check_conditions(specials_doc, specials_file.specials))
        problems.extend(_check_rides_on(specials_doc, specials_file.specials))
        problems.extend(unconditional_wording(specials_doc, specials_file.specials))
    actions_file, actions_doc = read_validated(folder / "actions.yaml", display_root, ActionsFile, problems)
    icon_names = frozenset(p.stem for p in ICONS_DIR.glob("*.svg"))
    if actions_file and actions_doc:
        for key, action in actions_file.actions.items():
            if action.icon not in icon_names:
                problems.append(actions_doc.problem(
                    ("actions", key, "icon"), f"unknown icon '{action.icon}'",
                    hint=did_you_mean(action.icon, sorted(icon_names))
                    or "the icons are the .svg files in templates/icons"))

    library = {s.name: s for s in specials_file.specials} if specials_file else None
    cast, found = _load_cast(folder, display_root, library)
    problems.extend(found)
    rulings, found = load_rulings(RULINGS_FILE)
    problems.extend(found)

    problems.extend(unused_files(folder, display_root, KNOWN_FILES, "characters go in characters/"))
    if info and cast and len(cast) != info.players and not errors_in(problems):
        count = f"{len(cast)} character is" if len(cast) == 1 else f"{len(cast)} characters are"
        problems.append(Problem(display_path(folder / "game.yaml", display_root), None, None,
                                f"the game is for {info.players} players but {count} defined",
                                field="players", severity="warning"))

    if errors_in(problems) or not (info and specials_file and actions_file):
        return None, problems
    actions = {key: actions_file.actions[key] for key in ACTION_KEYS}
    return SixesGame(folder, info, tuple(specials_file.specials), MappingProxyType(actions),
                     tuple(cast), rulings), problems


def _load_cast(folder: Path, display_root: Path, library: dict[str, Special] | None
               ) -> tuple[list[CastMember], list[Problem]]:
    problems: list[Problem] = []

    def references(doc: YamlDocument, character: Character | None) -> list[Problem]:
        # An invalid file's specials are still checked, so one run shows every mistake.
        raw = doc.data.get("specials") if character is None and isinstance(doc.data, dict) else None
        if isinstance(raw, list) and all(isinstance(n, str) for n in raw):
            return _check_specials(doc, raw, library)
        return []

    def member(key: str, doc: YamlDocument, character: Character) -> tuple[CastMember, list[Problem]]:
        found = _check_specials(doc, character.specials, library)
        found += _check_hit_points(doc, character) + _check_armour(doc, character)
        portrait, bad = _check_portrait(doc, character, folder)
        handouts, places = [], []
        for i, raw in enumerate(character.handouts):
            handout, more = _data_file(doc, ("handouts", i), raw, folder, "handout")
            bad += more
            if handout:
                handouts.append(handout)
                places.append(doc.position(("handouts", i)))
        return CastMember(key, doc.display, character, portrait, tuple(handouts),
                          doc.position(("handouts",)), tuple(places)), found + bad

    cast = load_cast(folder / "characters", display_root, Character, "character", problems, references, member)
    return cast, problems


def _check_specials(doc: YamlDocument, names: list[str], library: dict[str, Special] | None) -> list[Problem]:
    if library is None:  # specials.yaml is broken; that is reported already
        return []
    problems = []
    seen = set()
    for i, name in enumerate(names):
        if name not in library:
            problems.append(doc.problem(("specials", i), f"unknown special '{name}'",
                                        hint=did_you_mean(name, library)
                                        or "specials must be defined in specials.yaml"))
        elif name in seen:
            problems.append(doc.problem(("specials", i), f"special '{name}' is listed twice"))
        seen.add(name)
    return problems


def _check_conditions(doc: YamlDocument, specials: list[Special]) -> list[Problem]:
    """`when` qualifies an adds_effect bonus, so it needs one, and a bonus it
    qualifies must be able to meet it."""
    problems = []
    for i, special in enumerate(specials):
        if special.when is None:
            continue
        if not special.adds_effect:
            problems.append(doc.problem(("specials", i, "when"),
                                        f"'when: {special.when}' says when an adds_effect bonus applies, "
                                        "but this special has no adds_effect",
                                        hint="add a bonus such as adds_effect: {attack: 1}, or remove 'when'"))
        elif special.when == "target_rattled" and "defend_self" in special.adds_effect:
            problems.append(doc.problem(("specials", i, "when"),
                                        "'when: target_rattled' can never hold for a Defend Self bonus: "
                                        "Defend Self has no target but yourself, and a Rattled fighter "
                                        "cannot Defend",
                                        hint="put the bonus on attack, defend_other or special, "
                                             "or choose another condition"))
    return problems


def _check_rides_on(doc: YamlDocument, specials: list[Special]) -> list[Problem]:
    """A special with an effect goes with that effect's action; `rides_on`
    may only repeat it, never send it elsewhere (ruling special-rides-on)."""
    problems = []
    for i, special in enumerate(specials):
        if special.effect is None or special.rides_on is None or special.rides_on == rides_on(special):
            continue
        ride = rides_on(special)
        goes = "is never called with another action" if ride == "none" else f"is called with {ride}"
        problems.append(doc.problem(("specials", i, "rides_on"),
                                    f"'rides_on: {special.rides_on}' disagrees with 'effect: {special.effect}', "
                                    f"which {goes}",
                                    hint="remove rides_on: the effect decides which action the special goes with"))
    return problems


def _check_hit_points(doc: YamlDocument, character: Character) -> list[Problem]:
    if character.hit_points in USUAL_HIT_POINTS:
        return []
    return [doc.problem(("hit_points",), f"{character.hit_points} hit points is outside the usual 4 to 6",
                        hint="fine if intended", severity="warning")]


def _check_armour(doc: YamlDocument, character: Character) -> list[Problem]:
    """Armour at or above the largest Effect a Speed can give stops every hit
    from a fighter without Damage: legal, but rarely what the author meant."""
    strongest = max(effect_for_speed(speed) for speed in SPEEDS)
    if character.armour < strongest:
        return []
    return [doc.problem(("armour",), f"armour {character.armour} stops every hit from a fighter without Damage "
                        f"(the strongest plain Effect is {strongest})", hint="fine if intended",
                        severity="warning")]


def _check_portrait(doc: YamlDocument, character: Character, data_root: Path) -> tuple[Path | None, list[Problem]]:
    if character.portrait is None:
        return None, []
    return _data_file(doc, ("portrait",), character.portrait, data_root, "portrait")


# The files a character may name: allowed suffixes, what they are, an example (after the system's folder).
_FILE_KINDS = {"portrait": (PORTRAIT_SUFFIXES, "an image file", "portraits/mara.png"),
               "handout": ((".pdf",), "a PDF file", "handouts/tide-table.pdf")}


def _data_file(doc: YamlDocument, loc: tuple, raw: str, data_root: Path, kind: str
               ) -> tuple[Path | None, list[Problem]]:
    """A file a character names (a portrait, a handout), by the one rule
    (core/game_paths.py): relative to the game folder, anywhere inside it.
    A path written the old way, from the system's folder, is still read,
    with a warning saying how to write it now."""
    suffixes, what, example = _FILE_KINDS[kind]
    game_folder = data_root.parent
    example = f"{data_root.name}/{example}"
    found = game_path(raw, game_folder, example)
    if isinstance(found, PathFault):
        return None, [doc.problem(loc, found.message, hint=found.hint)]
    if found.suffix.lower() not in suffixes:
        return None, [doc.problem(loc, f"'{raw}' is not {what}", hint="allowed: " + ", ".join(suffixes))]
    problems = []
    if not found.exists():
        old = moved_from(raw, data_root, game_folder)
        if old is None:
            return None, [doc.problem(loc, f"{kind} file '{raw}' not found", hint=f"{RULE}, e.g. {example}")]
        found = old
        problems.append(doc.problem(loc, f"'{raw}' was found in the {data_root.name} folder, where paths in "
                                    f"character files used to start; {RULE}",
                                    hint=f"write '{written_now(old, game_folder)}'", severity="warning"))
    fault = asset_fault(found, raw)      # decoded now, not found broken by the renderer or the pack
    if fault is not None:
        return None, problems + [doc.problem(loc, fault.message, hint=fault.hint)]
    return found, problems


def recast(game: SixesGame, slugs: Sequence[str]) -> SixesGame:
    """The game with its cast in a casting file's order (core/cast_order.py)."""
    return replace(game, cast=tuple(casting_first(game.cast, lambda member: member.slug, slugs)))
