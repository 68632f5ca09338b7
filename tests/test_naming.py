"""Names become file names, keys and envelopes only through naming.slug, so
no two entities share one: a clash is an error naming both files, a sheet
never shares a slot with a public document, and casting resolves by name."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pdf_text import text

from generator.core import naming
from generator.game.load import load_all
from generator.core.errors import DataError
from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4
from generator.systems import SYSTEMS
from generator.systems.sixes import SYSTEM as SIXES
from matches import matched


@pytest.mark.parametrize("a, b", [("First Rival", "First-Rival"), ("First Rival", "first rival"),
                                  ("Zoë Marsh", "Zoe Marsh"), ("O'Brien", "O Brien")])
def test_names_differing_in_case_accents_or_punctuation_share_a_slug(a, b):
    assert naming.slug(a) == naming.slug(b)


@pytest.mark.parametrize("a, b", [("李 Wei", "王 Wei"), ("李", "王"), ("x" * 70 + "a", "x" * 70 + "b"),
                                  ("!!!", "???"), ("Ned", "Ned 2")])
def test_distinct_names_keep_distinct_slugs_in_any_script_and_length(a, b):
    assert naming.slug(a) != naming.slug(b)


@pytest.mark.parametrize("name", ["../../etc/passwd", "/abs", "a/b\\c", "CON", "nul", "", " ", ".", "..",
                                  "\x1b[31mred", "名前", "x" * 500])
def test_a_slug_is_always_a_plain_safe_file_name(name):
    value = naming.slug(name)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", value), value
    assert len(value) <= naming.MAX_SLUG
    assert value not in {"con", "nul", "prn", "aux"}


def starter(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    return data


def set_name(path: Path, name: str, secret: str | None = None) -> None:
    body = path.read_text()
    body = re.sub(r"^name: .*$", f"name: {name}", body, flags=re.M)
    if secret:
        body = re.sub(r"background: \|\n(  .*\n|\n)+", f"background: |\n  {secret}.\n", body)
    path.write_text(body)


def problems(data: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_all(data)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("second", ["First-Rival", "FIRST RIVAL", "First_Rival", "First Rivál"])
def test_two_characters_whose_names_make_one_file_name_are_refused_naming_both_files(tmp_path, second):
    data = starter(tmp_path)
    set_name(data / "sixes" / "characters" / "second-rival.yaml", second)
    found = problems(data)
    assert found == [f"data/sixes/characters/second-rival.yaml:2:7: error: name: duplicate character name "
                     f"'{second}'; data/sixes/characters/first-rival.yaml ('First Rival') already uses it "
                     f"(names may not differ only in case or punctuation)"]


@pytest.mark.parametrize("a, b, other", [("Mara", "Mаra", "Mira"), ("Oleg", "Οleg", "Olga"),
                                         ("Agent 007", "Agent OO7", "Agent 008")])
def test_names_that_print_alike_are_the_same_name(a, b, other):
    """A Cyrillic а, a Greek Ο, the digit 0 and the letter O look alike;
    a name that prints differently stays another name."""
    assert a != b and naming.same_name(a, b)
    assert not naming.same_name(a, other) and not naming.same_name(b, other)


def test_a_character_whose_name_prints_like_another_s_is_refused_naming_both(tmp_path):
    """'Sеcond Rival' with a Cyrillic е beside 'Second Rival': a different
    file name, the same name on the sheet and the envelope."""
    data = starter(tmp_path)
    set_name(data / "sixes" / "characters" / "first-rival.yaml", "S\u0435cond Rival")
    found = [p for p in problems(data) if "duplicate" in p]
    assert found == ["data/sixes/characters/second-rival.yaml:2:7: error: name: duplicate character name "
                     "'Second Rival'; data/sixes/characters/first-rival.yaml ('Sеcond Rival') already uses it "
                     "(names may not look alike when printed)"]


def test_a_list_entry_that_prints_like_an_earlier_one_is_refused_where_it_stands(tmp_path):
    data = starter(tmp_path)
    path = data / "sixes" / "specials.yaml"
    body = path.read_text(encoding="utf-8")
    first = matched(re.search(r"^  - name: (.*)$", body, flags=re.M))
    twin = first.group(1).replace("e", "\\u0435", 1)
    path.write_text(body + f"  - name: \"{twin}\"\n    rule: The same again.\n", encoding="utf-8")
    line = body.count("\n") + 1
    found = [p for p in problems(data) if "duplicate special" in p]
    assert len(found) == 1 and found[0].startswith(f"data/sixes/specials.yaml:{line}:")
    assert found[0].endswith(f"it looks like the name on line {body[:first.start()].count(chr(10)) + 1} when printed")


def test_two_character_files_that_make_one_file_name_are_refused(tmp_path):
    data = starter(tmp_path)
    characters = data / "sixes" / "characters"
    shutil.copy(characters / "second-rival.yaml", characters / "Second_Rival.yaml")
    set_name(characters / "Second_Rival.yaml", "Third Rival")
    found = problems(data)
    assert found == ["data/sixes/characters/second-rival.yaml: error: this character file would print to the "
                     "same file as data/sixes/characters/Second_Rival.yaml (second-rival.pdf); rename one of the "
                     "two files (names may not differ only in case or punctuation)"]


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s.slug in ("i6", "sixes-system")], ids=lambda s: s.slug)
def test_every_one_file_per_entity_system_refuses_files_that_make_one_file_name(tmp_path, system):
    data = tmp_path / "data"
    shutil.copytree(system.starter, data / system.slug)
    folder = next(p for p in (data / system.slug).iterdir() if p.is_dir())
    first = sorted(folder.glob("*.yaml"))[0]
    twin = folder / (first.stem.upper().replace("-", "_") + ".yaml")
    twin.write_text(re.sub(r"^name: .*$", "name: Somebody Else Entirely", first.read_text(), flags=re.M))
    found = problems(data)
    assert any("would print to the same file as" in p and first.name in p and twin.name in p for p in found), found


def test_six_shooter_operators_whose_names_make_one_file_name_are_refused(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(next(s for s in SYSTEMS if s.slug == "six-shooter").starter, data / "six-shooter")
    operators = data / "six-shooter" / "operators.yaml"
    names = re.findall(r"^  - name: (.*)$", operators.read_text(), flags=re.M)
    assert len(names) >= 2
    operators.write_text(operators.read_text().replace(f"name: {names[1]}", f"name: {names[0].upper()}!"))
    found = problems(data)
    assert any(f"duplicate Operator name '{names[0].upper()}!'; it is already used on line" in p for p in found), found


@pytest.fixture(scope="module")
def clash_game(tmp_path_factory) -> Path:
    """A character whose file is named like a public document, and a second
    one whose file stem is the first one's name."""
    data = tmp_path_factory.mktemp("naming") / "data"
    shutil.copytree(SIXES.starter, data / "sixes")
    characters = data / "sixes" / "characters"
    (characters / "first-rival.yaml").rename(characters / "rules-reference.yaml")
    set_name(characters / "rules-reference.yaml", "Marigold", "Marigold owes the ferryman nine crowns")
    (characters / "second-rival.yaml").rename(characters / "marigold-x.yaml")
    set_name(characters / "marigold-x.yaml", "Hawthorn", "Hawthorn burned the harbour ledger")
    return data


def test_a_character_named_like_a_public_document_stays_out_of_every_other_envelope(clash_game, tmp_path):
    report = pack(PackRequest(clash_game, tmp_path, (A4,), workers=1))
    envelopes = sorted((report.root / "a4" / "envelopes").glob("*.pdf"))
    assert len(envelopes) == 2
    by_secret = {e.name: text(e) for e in envelopes}
    marigold = [n for n, t in by_secret.items() if "nine crowns" in t]
    hawthorn = [n for n, t in by_secret.items() if "harbour ledger" in t]
    assert len(marigold) == 1 and len(hawthorn) == 1 and marigold != hawthorn
    # Every envelope still holds the real rules reference.
    for body in by_secret.values():
        assert "Speed" in body and "hit points" in body.lower()


def test_casting_resolves_by_name_and_warns_when_it_falls_back_to_a_file_name(clash_game, tmp_path):
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Ann\n    character: marigold x\n"
                       "  - player: Bob\n    character: MARIGOLD\n")
    report = pack(PackRequest(clash_game, tmp_path / "out", (A4,), casting_file=casting, workers=1))
    assert [(e.player, e.character) for e in report.envelopes] == [("Ann", "Hawthorn"), ("Bob", "Marigold")]
    assert [str(w) for w in report.warnings if "file name" in w.message] == [
        f"{casting}:3:16: warning: envelopes[0].character: 'marigold x' is a file name, not a character's "
        "name; taken as Hawthorn; write `character: Hawthorn`"]
    envelopes = sorted((report.root / "a4" / "envelopes").glob("*.pdf"))
    assert "harbour ledger" in text(envelopes[0]) and "nine crowns" not in text(envelopes[0])
    assert "nine crowns" in text(envelopes[1]) and "harbour ledger" not in text(envelopes[1])


def test_a_name_wins_over_another_characters_file_name(tmp_path):
    """`character: marigold-x` is Hawthorn's file, but when a character is
    called 'Marigold X' the name wins."""
    from generator.game.casting import load_casting
    casting = tmp_path / "casting.yaml"
    casting.write_text("envelopes:\n  - player: Ann\n    character: marigold-x\n")
    roles, found = load_casting(casting, {"Marigold X": "rules-reference", "Hawthorn": "marigold-x"}, (tmp_path,))
    assert [(r.player, r.slug) for r in roles] == [("Ann", "rules-reference")] and found == []


@pytest.mark.parametrize("name, expected", [("Sœur Bénédicte", "soeur-benedicte"), ("Ærø", "aero"), ("Łódź", "lodz"),
                                            ("Straße", "strasse"), ("Ørsted", "orsted"), ("Þóra", "thora"),
                                            ("Đorđe", "dorde")])
def test_letters_without_a_decomposition_are_spelled_out_not_dropped(name, expected):
    assert naming.slug(name) == expected


@pytest.mark.parametrize("name, expected", [("Ned Tregarth", "ned-tregarth"), ("First Rival", "first-rival"),
                                            ("O'Brien", "o-brien"), ("Zoë Marsh", "zoe-marsh"), ("CON", "con-name")])
def test_plain_names_keep_the_file_names_they_had(name, expected):
    assert naming.slug(name) == expected


def test_the_sites_heading_anchors_are_the_names_slugs(tmp_path):
    """MkDocs' toc makes the anchors with naming.anchor (site_mkdocs sets it),
    so a heading keeps every letter and agrees with its name's slug."""
    import markdown

    from generator.render.site.mkdocs_build import PLAIN_LOOK, config_overrides
    names, configs = [], {}
    for extension in config_overrides(PLAIN_LOOK, tmp_path)["markdown_extensions"]:
        name = extension if isinstance(extension, str) else next(iter(extension))
        names.append(name)
        configs[name] = {} if isinstance(extension, str) else extension[name]
    html = markdown.markdown("## Sœur Bénédicte\n\n## Łukasz Straße\n", extensions=names, extension_configs=configs)
    assert 'id="soeur-benedicte"' in html and 'id="lukasz-strasse"' in html, html
