"""Loading and validation: every mistake is reported at its file:line:column,
in plain words, with a hint, and all of them in one run.

Each file in tests/data/invalid/ holds one defect. A test copies the starter
game (what `sixes new` writes: two characters, two specials, no warnings) and
puts the case file in place of one of its files, so the lines expected in
CASES below are the complete list of errors. They were written by hand from
the case files, column by column.
"""
from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import pytest

from generator.game.load import load_all
from generator.core.errors import DataError, Problem
from generator.core.loading import load_yaml
from generator.core.validation import missing_note
from generator.systems import SYSTEMS
from generator.systems.sixes import SYSTEM as SIXES

INVALID = Path(__file__).parent / "data" / "invalid"

# Targets, relative to data/sixes/, and how errors name them.
CHAR, SPECIALS, GAME, ACTIONS = "characters/first-rival.yaml", "specials.yaml", "game.yaml", "actions.yaml"
C = f"data/sixes/{CHAR}"
S = f"data/sixes/{SPECIALS}"
G = f"data/sixes/{GAME}"
A = f"data/sixes/{ACTIONS}"
YAML_HINT = "check indentation and quoting around this point"
TAB_HINT = "YAML indents with spaces; replace the tab with spaces"
CHARACTER_KEYS = ("'name', 'faction', 'description', 'background', 'visibility', 'gm_notes', 'hit_points', 'armour', "
                  "'damage', 'specials', 'portrait', 'handouts'")
RULE = "paths are relative to the game folder (the one holding sixes.yaml)"
PORTRAIT_HINT = f"name a file inside the game folder; {RULE}, e.g. sixes/portraits/mara.png"
RELATIVE_HINT = f"{RULE}, e.g. sixes/portraits/mara.png; copy the file into the game folder"

CASES = [
    # (case file, the file it replaces, the exact error lines; {folder} is the copy's data/sixes)
    ("yaml-unclosed-bracket", CHAR, [f"{C}:4:11: error: YAML syntax: expected ',' or ']', but got ':'; {YAML_HINT}"]),
    ("yaml-unquoted-colon", CHAR, [f"{C}:2:22: error: YAML syntax: mapping values are not allowed here; {YAML_HINT}"]),
    ("tab-indent", CHAR,
     [f"{C}:5:1: error: YAML syntax: found character '\\t' that cannot start any token; {TAB_HINT}"]),
    ("bad-indent", CHAR, [f"{C}:2:14: error: YAML syntax: mapping values are not allowed here; {YAML_HINT}"]),
    ("duplicate-key", CHAR, [f"{C}:5:1: error: hit_points: duplicate key 'hit_points'; it is already set on line 3"]),
    # The typo is reported once: the missing 'hit_points' it causes is implied by the hint.
    ("unknown-key-close", CHAR, [
        f"{C}:3:1: error: hitpoints: unknown key 'hitpoints'; did you mean 'hit_points'?"]),
    ("unknown-key-far", CHAR, [f"{C}:4:1: error: colour: unknown key 'colour'; allowed: {CHARACTER_KEYS}"]),
    ("missing-name", CHAR, [f"{C}:1:1: error: missing required key 'name'"]),
    ("empty-name", CHAR, [f"{C}:1:7: error: name: must not be empty"]),
    ("hit-points-word", CHAR, [f"{C}:3:13: error: hit_points: expected a whole number, found 'five'"]),
    ("hit-points-string", CHAR, [f"{C}:3:13: error: hit_points: expected a whole number, found '5'"]),
    ("hit-points-decimal", CHAR, [f"{C}:3:13: error: hit_points: expected a whole number, found 5.5"]),
    ("hit-points-too-high", CHAR, [f"{C}:3:13: error: hit_points: must be at most 10, found 12"]),
    ("armour-negative", CHAR, [f"{C}:4:9: error: armour: must be at least 0, found -1"]),
    ("specials-not-a-list", CHAR, [f"{C}:4:11: error: specials: expected a list, found 'Heal'"]),
    ("unknown-special-close", CHAR, [
        f"{C}:4:18: error: specials[1]: unknown special 'Steady Gaurd'; did you mean 'Steady Guard'?"]),
    ("unknown-special-far", CHAR, [
        f"{C}:4:12: error: specials[0]: unknown special 'Bone Rattler'; specials must be defined in specials.yaml"]),
    ("special-listed-twice", CHAR, [f"{C}:7:5: error: specials[2]: special 'Heal' is listed twice"]),
    ("duplicate-character-name", "characters/second-rival.yaml", [
        "data/sixes/characters/second-rival.yaml:1:7: error: name: duplicate character name 'first rival'; "
        f"{C} ('First Rival') already uses it (names may not differ only in case or punctuation)"]),
    ("top-level-list", CHAR, [f"{C}:1:1: error: expected a mapping, found a list"]),
    ("portrait-file-url", CHAR, [f"{C}:4:11: error: portrait: found a URL 'file:///etc/passwd'; {PORTRAIT_HINT}"]),
    ("portrait-http-url", CHAR, [
        f"{C}:4:11: error: portrait: found a URL 'http://example.com/x.png'; {PORTRAIT_HINT}"]),
    ("portrait-parent", CHAR, [
        f"{C}:4:11: error: portrait: 'portraits/../../../secret.png' is outside the game folder; {RELATIVE_HINT}"]),
    ("portrait-absolute", CHAR,
     [f"{C}:4:11: error: portrait: '/etc/mara.png' is outside the game folder; {RELATIVE_HINT}"]),
    ("portrait-not-image", CHAR, [
        f"{C}:4:11: error: portrait: 'portraits/mara.txt' is not an image file; "
        "allowed: .png, .jpg, .jpeg, .gif, .svg, .webp"]),
    ("portrait-missing", CHAR, [
        f"{C}:4:11: error: portrait: portrait file 'portraits/mara.png' not found; "
        f"{RULE}, e.g. sixes/portraits/mara.png"]),
    # Every handout is checked, and each mistake reported where it is.
    ("handouts-wrong", CHAR, [
        f"{C}:4:12: error: handouts[0]: handout file 'handouts/debts.pdf' not found; "
        f"{RULE}, e.g. sixes/handouts/tide-table.pdf",
        f"{C}:4:32: error: handouts[1]: 'notes.txt' is not a PDF file; allowed: .pdf",
        f"{C}:4:43: error: handouts[2]: '../../elsewhere.pdf' is outside the game folder; "
        f"{RULE}, e.g. sixes/handouts/tide-table.pdf; copy the file into the game folder"]),
    ("empty", CHAR, [f"{C}:1:1: error: the file is empty; see `sixes new` for a starter file"]),
    ("comments-only", CHAR, [f"{C}:1:1: error: the file is empty; see `sixes new` for a starter file"]),
    ("duplicate-special-name", SPECIALS, [
        f"{S}:6:11: error: specials[2].name: duplicate special name 'heal'; it is already used on line 2"]),
    ("usage-close", SPECIALS,
     [f"{S}:6:12: error: specials[1].usage: found 'once per gam'; did you mean 'once per game'?"]),
    ("adds-effect-zero", SPECIALS,
     [f"{S}:6:33: error: specials[1].adds_effect.defend_other: must be at least 1, found 0"]),
    ("special-missing-rule", SPECIALS, [f"{S}:2:5: error: specials[0]: missing required key 'rule'"]),
    ("game-unknown-key", GAME, [f"{G}:4:1: error: gm_note: unknown key 'gm_note'; did you mean 'gm_notes'?"]),
    ("game-no-players", GAME, [f"{G}:3:10: error: players: must be at least 1, found 0"]),
    ("actions-missing-recover", ACTIONS, [f"{A}:2:3: error: actions: every action needs an entry; missing: recover"]),
    ("icon-close", ACTIONS, [f"{A}:2:87: error: actions.attack.icon: unknown icon 'fists'; did you mean 'fist'?"]),
    ("icon-far", ACTIONS, [
        f"{A}:2:87: error: actions.attack.icon: unknown icon 'sword'; "
        "the icons are the .svg files in templates/icons"]),
]
# Cases tested by their own functions below rather than in the CASES table.
PARTLY_WRONG = {"yaml-unclosed-quote", "not-utf8", "usage-fight", "adds-effect-recover", "actions-misspelt-key"}


@pytest.fixture
def starter_copy(tmp_path) -> Path:
    """A writable data folder holding the starter game only."""
    target = tmp_path / "data"
    shutil.copytree(SIXES.starter, target / "sixes")
    return target


def place(data: Path, case: str, target: str) -> None:
    shutil.copyfile(INVALID / f"{case}.yaml", data / "sixes" / target)


def problems_of(data: Path, **kwargs) -> list[Problem]:
    with pytest.raises(DataError) as raised:
        load_all(data, **kwargs)
    return raised.value.problems


def errors_of(data: Path) -> list[Problem]:
    return [p for p in problems_of(data) if p.severity == "error"]


def tiny_png() -> bytes:
    """A valid 1x1 greyscale PNG."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


# --- the baseline and the case folder -------------------------------------------------------

def test_the_starter_game_loads_without_any_problem(starter_copy):
    loaded, problems = load_all(starter_copy, strict=True)
    assert problems == []
    assert [item.system.slug for item in loaded][0] == "sixes"
    assert [m.slug for m in loaded[0].game.cast] == ["first-rival", "second-rival"]


def test_every_system_s_game_has_the_same_shape(data_copy):
    """Shared code reads any system's game alike: its folder, its game.yaml as
    `info` and its rulings."""
    loaded, _ = load_all(data_copy)
    assert sorted(item.system.slug for item in loaded) == sorted(s.slug for s in SYSTEMS)
    for item in loaded:
        doc = load_yaml(data_copy / item.system.slug / "game.yaml")[0]
        assert doc is not None
        title = doc.data["title"]
        assert (item.game.folder, item.game.info.title) == (data_copy / item.system.slug, title)
        assert item.game.rulings, item.system.slug


def test_each_system_is_made_of_its_own_package_s_parts():
    """System.of_package takes the loader, the outputs and the starter from the
    same places in every package; only Sixes has simulations."""
    for system in SYSTEMS:
        package = system.load.__module__.removesuffix(".dataset")
        assert (system.load.__name__, system.documents.__module__, system.pages.__module__) == (
            "load_game", f"{package}.outputs", f"{package}.outputs"), system.slug
        assert system.starter.is_dir() and system.starter.parent.name == package.rsplit(".", 1)[1]
        assert (system.simulations.__module__ == f"{package}.outputs") == (system.slug == "sixes")


def test_every_case_file_is_used_and_every_case_has_a_file():
    on_disk = {p.stem for p in INVALID.glob("*.yaml")}
    in_tests = {case for case, _, _ in CASES} | PARTLY_WRONG
    assert on_disk == in_tests
    assert len(CASES) == len({case for case, _, _ in CASES})


# --- one defect, one exact report -----------------------------------------------------------

@pytest.mark.parametrize("case, target, expected", [pytest.param(*c, id=c[0]) for c in CASES])
def test_each_defect_is_reported_exactly(starter_copy, case, target, expected):
    place(starter_copy, case, target)
    folder = str(starter_copy / "sixes")
    assert [str(p) for p in errors_of(starter_copy)] == [e.replace("{folder}", folder) for e in expected]


def test_an_unclosed_quote_points_at_where_the_quote_opens(starter_copy):
    """PyYAML notices only at the end of the file; the useful place is where the quote opened."""
    place(starter_copy, "yaml-unclosed-quote", CHAR)
    assert [str(p) for p in errors_of(starter_copy)] == [
        f"{C}:2:14: error: YAML syntax: while scanning a quoted scalar that never ends; "
        "close the quote or bracket that starts here"]


def test_a_file_that_is_not_utf8_is_named_with_a_hint(starter_copy):
    place(starter_copy, "not-utf8", CHAR)
    [error] = errors_of(starter_copy)
    assert error.file == C
    assert error.message.startswith("not UTF-8 text (")
    assert error.hint == "save the file as UTF-8"


def test_a_file_that_is_not_utf8_points_at_the_bad_byte(starter_copy):
    place(starter_copy, "not-utf8", CHAR)
    [error] = errors_of(starter_copy)
    assert (error.line, error.column) == (2, 17)


def test_a_usage_that_is_not_allowed_is_rejected_where_it_is(starter_copy):
    place(starter_copy, "usage-fight", SPECIALS)
    [error] = errors_of(starter_copy)
    assert (error.location, error.field, error.message) == (f"{S}:6:12", "specials[1].usage", "found 'once per fight'")


def test_a_usage_that_is_not_allowed_suggests_once_per_combat(starter_copy):
    place(starter_copy, "usage-fight", SPECIALS)
    [error] = errors_of(starter_copy)
    assert "'once per combat'" in (error.hint or "")


DICT_KEY_CASES = [
    # (case, target, file, message, hint, where the bad key is, its field)
    pytest.param("adds-effect-recover", SPECIALS, S, "found 'recover'",
                 "allowed: 'attack', 'defend_other', 'defend_self', 'special'",
                 (6, 19), "specials[1].adds_effect.recover", id="adds-effect-recover"),
    pytest.param("actions-misspelt-key", ACTIONS, A, "found 'attak'", "did you mean 'attack'?",
                 (2, 3), "actions.attak", id="actions-misspelt-key"),
]


@pytest.mark.parametrize("case, target, file, message, hint, where, field", DICT_KEY_CASES)
def test_a_mapping_key_that_is_not_allowed_is_rejected(starter_copy, case, target, file, message, hint,
                                                       where, field):
    place(starter_copy, case, target)
    [error] = errors_of(starter_copy)
    assert (error.file, error.message, error.hint) == (file, message, hint)


@pytest.mark.parametrize("case, target, file, message, hint, where, field", DICT_KEY_CASES)
def test_a_mapping_key_that_is_not_allowed_is_located_at_the_key(starter_copy, case, target, file, message,
                                                                 hint, where, field):
    place(starter_copy, case, target)
    [error] = errors_of(starter_copy)
    assert ((error.line, error.column), error.field) == (where, field)


def test_a_broken_character_file_adds_no_player_count_warning(starter_copy):
    place(starter_copy, "missing-name", CHAR)
    assert [str(p) for p in problems_of(starter_copy) if p.severity == "warning"] == []


# --- files and folders that are not there ------------------------------------------------

def test_a_missing_game_file_is_reported(starter_copy):
    (starter_copy / "sixes" / "game.yaml").unlink()
    assert [str(p) for p in errors_of(starter_copy)] == [
        f"{G}: error: file not found; `sixes new DIR` writes a complete starter folder"]


def test_a_missing_data_folder_is_reported(tmp_path):
    missing = tmp_path / "nowhere"
    assert [str(p) for p in problems_of(missing)] == [
        f"{missing}: error: data folder not found; pass --data DIR, or create one with `sixes new DIR`"]


def test_a_folder_without_game_data_is_reported(tmp_path):
    assert [str(p) for p in problems_of(tmp_path)] == [
        f"{tmp_path}: error: no game data in this folder; expected a sub-folder named "
        + " or ".join(s.slug for s in SYSTEMS)]


# --- all at once, on the example data ---------------------------------------------------------

def test_defects_in_several_files_are_all_reported_in_one_run(data_copy):
    sixes = data_copy / "sixes"
    (sixes / "game.yaml").write_text("title: Low Water\nblurb: A wedding.\nplayers: 0\n", encoding="utf-8")
    shutil.copyfile(INVALID / "icon-close.yaml", sixes / "actions.yaml")
    shutil.copyfile(INVALID / "hit-points-word.yaml", sixes / "characters" / "kit-penhale.yaml")
    shutil.copyfile(INVALID / "tab-indent.yaml", sixes / "characters" / "zz-tabbed.yaml")
    (sixes / "characters" / "zz-rattled.yaml").write_text(
        "name: Mara Quick\ndescription: A smuggler.\nhit_points: 5\nspecials: [Bone Ratler]\n", encoding="utf-8")

    errors = [str(p) for p in errors_of(data_copy)]

    assert errors == [
        f"{A}:2:87: error: actions.attack.icon: unknown icon 'fists'; did you mean 'fist'?",
        "data/sixes/characters/kit-penhale.yaml:3:13: error: hit_points: expected a whole number, found 'five'",
        "data/sixes/characters/zz-rattled.yaml:4:12: error: specials[0]: unknown special 'Bone Ratler'; "
        "did you mean 'Bone Rattler'?",
        "data/sixes/characters/zz-tabbed.yaml:5:1: error: YAML syntax: found character '\\t' that cannot "
        f"start any token; {TAB_HINT}",
        f"{G}:3:10: error: players: must be at least 1, found 0",
    ]
    assert len({line.split(":")[0] for line in errors}) == 5


# --- warnings -------------------------------------------------------------------------------------

@pytest.mark.parametrize("hit_points, warned", [(3, True), (4, False), (6, False), (7, True)])
def test_unusual_hit_points_warn_and_fail_only_when_strict(starter_copy, hit_points, warned):
    (starter_copy / "sixes" / CHAR).write_text(
        f"name: First Rival\ndescription: A merchant.\nhit_points: {hit_points}\n", encoding="utf-8")
    expected = [f"{C}:3:13: warning: hit_points: {hit_points} hit points is outside the usual 4 to 6; "
                "fine if intended"] if warned else []

    loaded, problems = load_all(starter_copy)
    assert [str(p) for p in problems] == expected
    assert loaded[0].game.cast[0].character.hit_points == hit_points

    if warned:
        assert [str(p) for p in problems_of(starter_copy, strict=True)] == expected
    else:
        assert load_all(starter_copy, strict=True)[1] == []


# --- portraits -------------------------------------------------------------------------------------

def test_a_portrait_inside_the_data_folder_is_accepted(data_copy):
    portrait = data_copy / "sixes" / "portraits" / "mara.png"
    portrait.parent.mkdir(exist_ok=True)
    portrait.write_bytes(tiny_png())
    (data_copy / "sixes" / "characters" / "zz-mara.yaml").write_text(
        "name: Mara Quick\ndescription: A smuggler.\nhit_points: 5\nportrait: sixes/portraits/mara.png\n",
        encoding="utf-8")

    loaded, problems = load_all(data_copy)

    assert not [p for p in problems if p.file.endswith("zz-mara.yaml")]
    [mara] = [m for m in loaded[0].game.cast if m.slug == "zz-mara"]
    assert mara.portrait_file.resolve() == portrait.resolve()
    assert mara.character.portrait == "sixes/portraits/mara.png"


@pytest.mark.parametrize("written", ["portraits/shared.png", "sixes/characters/../../portraits/shared.png",
                                     "./portraits/shared.png"])
def test_a_character_file_names_any_file_inside_the_game_folder_from_the_game_folder(starter_copy, written):
    """One rule for every path (core/game_paths.py): from the game folder,
    anywhere inside it, `..` too while it stays inside."""
    shared = starter_copy / "portraits" / "shared.png"
    shared.parent.mkdir()
    shared.write_bytes(tiny_png())
    (starter_copy / "sixes" / CHAR).write_text(
        f"name: First Rival\ndescription: A merchant.\nhit_points: 5\nportrait: {written}\n", encoding="utf-8")
    loaded, problems = load_all(starter_copy)
    assert [str(p) for p in problems] == []
    assert loaded[0].game.cast[0].portrait_file.resolve() == shared.resolve()


def test_a_path_written_from_the_systems_folder_still_reads_and_says_how_to_write_it(starter_copy):
    old = starter_copy / "sixes" / "portraits" / "mara.png"
    old.parent.mkdir()
    old.write_bytes(tiny_png())
    (starter_copy / "sixes" / CHAR).write_text(
        "name: First Rival\ndescription: A merchant.\nhit_points: 5\nportrait: portraits/mara.png\n",
        encoding="utf-8")
    loaded, problems = load_all(starter_copy)
    assert [str(p) for p in problems] == [
        f"{C}:4:11: warning: portrait: 'portraits/mara.png' was found in the sixes folder, where paths in character "
        "files used to start; paths are relative to the game folder (the one holding sixes.yaml); "
        "write 'sixes/portraits/mara.png'"]
    assert loaded[0].game.cast[0].portrait_file.resolve() == old.resolve()


def test_a_portrait_symlink_leading_out_of_the_data_folder_is_refused(starter_copy, tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(tiny_png())
    link = starter_copy / "sixes" / "portraits" / "link.png"
    link.parent.mkdir()
    link.symlink_to(secret)
    (starter_copy / "sixes" / CHAR).write_text(
        "name: First Rival\ndescription: A merchant.\nhit_points: 5\nportrait: sixes/portraits/link.png\n",
        encoding="utf-8")
    assert [str(p) for p in errors_of(starter_copy)] == [
        f"{C}:4:11: error: portrait: 'sixes/portraits/link.png' leads outside the game folder; "
        "copy the file into the game folder: nothing outside it is read"]


def test_missing_note_names_what_is_missing_in_the_required_order():
    """The one wording of every "each of these needs an entry" check."""
    assert missing_note("every action needs an entry", ("attack", "escape", "recover"), {"escape": 1}) == (
        "every action needs an entry; missing: attack, recover")
    assert missing_note("the matrix needs all pairings", [("a", "b"), ("c", "d")], {("a", "b")},
                        lambda pair: " vs ".join(pair)) == "the matrix needs all pairings; missing: c vs d"
    assert missing_note("every level needs an entry", ("low", "high"), ["high", "low"]) is None


# --- positions straight from the YAML reader ------------------------------------------------------

NESTED = """\
# a comment line
title: Game
specials:
  - name: Heal
    adds_effect: {defend_other: 1, attack: 2}
  -   name: Guard
      rule: |
        Text.
list: [a, "b", 3]
"""


def test_load_yaml_keeps_the_position_of_every_value_and_key(tmp_path):
    path = tmp_path / "nested.yaml"
    path.write_text(NESTED, encoding="utf-8")

    doc, problems = load_yaml(path, "shown/nested.yaml")

    assert problems == [] and doc is not None
    assert doc.data == {"title": "Game",
                        "specials": [{"name": "Heal", "adds_effect": {"defend_other": 1, "attack": 2}},
                                     {"name": "Guard", "rule": "Text.\n"}],
                        "list": ["a", "b", 3]}
    assert doc.values[()] == (2, 1)
    assert doc.values[("title",)] == (2, 8)
    assert doc.values[("specials",)] == (4, 3)
    assert doc.values[("specials", 0)] == (4, 5)
    assert doc.values[("specials", 0, "name")] == (4, 11)
    assert doc.values[("specials", 0, "adds_effect", "attack")] == (5, 44)
    assert doc.values[("specials", 1)] == (6, 7)
    assert doc.values[("specials", 1, "name")] == (6, 13)
    assert doc.values[("specials", 1, "rule")] == (7, 13)
    assert doc.values[("list", 2)] == (9, 16)
    assert doc.keys[("specials",)] == (3, 1)
    assert doc.keys[("specials", 0, "adds_effect")] == (5, 5)
    assert doc.keys[("specials", 0, "adds_effect", "defend_other")] == (5, 19)
    assert doc.keys[("specials", 1, "rule")] == (7, 7)


def test_a_position_falls_back_to_the_nearest_enclosing_value(tmp_path):
    path = tmp_path / "nested.yaml"
    path.write_text(NESTED, encoding="utf-8")
    doc, _ = load_yaml(path, "shown/nested.yaml")
    assert doc is not None

    assert doc.position(("specials", 1, "usage")) == (6, 7)
    assert doc.position(("nothing", "here")) == (2, 1)
    assert doc.position(("specials", 0, "name"), key=True) == (4, 5)
    assert doc.position(("specials", 0, "name")) == (4, 11)
    assert str(doc.problem(("specials", 1, "rule"), "too long", hint="shorten it", key=True)) == (
        "shown/nested.yaml:7:7: error: specials[1].rule: too long; shorten it")


def test_load_yaml_reports_a_nested_duplicate_key_and_keeps_the_first_value(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("a: 1\nb:\n  c: 2\n  c: 3\n", encoding="utf-8")
    doc, problems = load_yaml(path, "dup.yaml")
    assert [str(p) for p in problems] == ["dup.yaml:4:3: error: b.c: duplicate key 'c'; it is already set on line 3"]
    assert doc is not None and doc.data == {"a": 1, "b": {"c": 2}}


def test_load_yaml_refuses_merge_keys(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("base: &b {x: 1}\nuse:\n  <<: *b\n", encoding="utf-8")
    _, problems = load_yaml(path, "merge.yaml")
    assert [str(p) for p in problems] == [
        "merge.yaml:3:3: error: only plain keys are supported here (no merge keys or complex keys)"]


def test_load_yaml_of_a_syntax_error_returns_no_document(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("a: [1\n", encoding="utf-8")
    doc, problems = load_yaml(path, "bad.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        "bad.yaml:1:4: error: YAML syntax: while parsing a flow sequence that never ends; "
        "close the quote or bracket that starts here"]


def test_a_character_with_a_bad_key_still_has_its_specials_checked(starter_copy):
    """One run shows every mistake: an invalid character file still gets its
    special names checked against the library."""
    path = starter_copy / "sixes" / "characters" / "first-rival.yaml"
    path.write_text("name: First Rival\ndescription: A merchant.\nhitpoints: 5\nspecials: [Steady Gaurd]\n",
                    encoding="utf-8")
    assert [str(p) for p in errors_of(starter_copy)] == [
        f"{C}:3:1: error: hitpoints: unknown key 'hitpoints'; did you mean 'hit_points'?",
        f"{C}:4:12: error: specials[0]: unknown special 'Steady Gaurd'; did you mean 'Steady Guard'?"]


@pytest.mark.parametrize("armour, warned", [(4, False), (5, True), (12, True)])
def test_armour_that_stops_every_plain_hit_is_a_warning(starter_copy, armour, warned):
    """Speed 1 gives Effect 5, the most any action gets without Damage."""
    path = starter_copy / "sixes" / "characters" / "first-rival.yaml"
    path.write_text(f"name: First Rival\ndescription: A merchant.\nhit_points: 5\narmour: {armour}\n",
                    encoding="utf-8")
    _, found = load_all(starter_copy)
    problems = [str(p) for p in found if p.file == C]
    expected = [f"{C}:4:9: warning: armour: armour {armour} stops every hit from a fighter without Damage "
                "(the strongest plain Effect is 5); fine if intended"]
    assert problems == (expected if warned else [])


def test_the_fast_parser_keeps_every_position(tmp_path):
    """libyaml parses the valid files; its marks must equal the pure parser's."""
    import yaml as pyyaml
    from generator.core import loading
    path = tmp_path / "x.yaml"
    path.write_text("name: Ned\nspecials:\n  - Bone Rattler\n  - {a: 1, b: [2, 3]}\nhit_points: 7\n")
    fast, _ = load_yaml(path, "x.yaml")
    slow_loader, loading.FAST_LOADER = loading.FAST_LOADER, pyyaml.SafeLoader
    try:
        slow, _ = load_yaml(path, "x.yaml")
    finally:
        loading.FAST_LOADER = slow_loader
    assert fast is not None and slow is not None
    assert fast.data == slow.data and fast.values == slow.values and fast.keys == slow.keys
    assert fast.values[("specials", 1, "b", 1)] == (4, 19)   # the "3"
