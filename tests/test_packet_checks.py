"""The packet (packet.yaml: groups, relationships, plots) checked by the one
gather: every mistake at file:line:col, all at once, with a did-you-mean;
the example game's packet resolved both ways. Messages are compared whole."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from matches import matched

from generator.core.errors import DataError, Problem
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.gather import gather
from generator.game.settings import load_settings


@pytest.fixture
def game(tmp_path) -> Path:
    """The example Sixes game alone, with its packet."""
    target = tmp_path / "wreck"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", target / "sixes")
    shutil.copy(DEFAULT_DATA_DIR / "packet.yaml", target / "packet.yaml")
    (target / "sixes.yaml").write_text("paper: a4\n")
    return target


def packet_of(game: Path) -> dict:
    data = {k: v for k, v in yaml.safe_load((game / "packet.yaml").read_text()).items() if k != "six-shooter"}
    return data


def write(game: Path, data: dict) -> None:
    (game / "packet.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def problems_of(game: Path, *, casting: Path | None = None) -> list[Problem]:
    try:
        found = gather(game, load_settings(game, game.parent), site=False, casting=casting)
    except DataError as exc:
        return list(exc.problems)
    return found.warnings


def shown(problems: list[Problem], severity: str = "error") -> list[str]:
    return [str(p) for p in problems if p.severity == severity]


def line_of(game: Path, text: str, file: str = "packet.yaml") -> int:
    lines = (game / file).read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_the_example_packet_reads_both_ways(game):
    found = gather(game, load_settings(game, game.parent), site=False)
    packet = found.packets["sixes"]
    assert not [p for p in found.warnings if "packet" in p.file]
    known = {p.id: [q.id for q, _ in packet.known_by(p.id)] for p in packet.people}
    # Dr Vane holds Quick's debts, on both sheets.
    assert "honoria-vane" in known["absalom-quick"] and "absalom-quick" in known["honoria-vane"]
    # A one-sided tie reaches its side only: Anselm knows Ned's face; Ned does not know it.
    assert "ned-tregarth" in known["brother-anselm"] and "brother-anselm" not in known["ned-tregarth"]
    groups = {g.name: g for g in packet.groups}
    assert groups["House Carrow"].faction and "ned-tregarth" in groups["House Carrow"].members
    assert groups["The Lantern Night"].membership == "secret"
    assert [g.name for g in packet.groups_of("jacca-rowe")] == ["The Island", "The Lantern Night"]
    # People you know come in cast order (the cast by name here).
    order = [p.id for p in packet.people]
    assert [p.id for p, _ in packet.known_by("judith-carrow")] == sorted(known["judith-carrow"], key=order.index)


def test_every_mistake_is_reported_at_its_place_at_once(game):
    data = packet_of(game)
    sixes = data["sixes"]
    sixes["groups"][4]["members"][2] = "ned-tregath"          # misspelt
    sixes["groups"].append({"name": "The Empty Chair", "description": "Nobody sits in it."})
    sixes["relationships"][0]["sides"].pop("honoria-vane")     # the other side missing
    sixes["relationships"].append({"between": ["honoria-vane", "absalom-quick"],
                                   "sides": {"honoria-vane": "again", "absalom-quick": "again"}})
    sixes["plots"][0]["members"]["Sally Brea"] = sixes["plots"][0]["members"].pop("sally-brea")
    write(game, data)
    found = shown(problems_of(game))
    tregath = line_of(game, "ned-tregath")
    assert f"wreck/packet.yaml:{tregath}:" in "\n".join(found)
    assert any(f":{tregath}:" in p and "no character with the id 'ned-tregath'" in p and "ned-tregarth" in p
               for p in found)
    empty = line_of(game, "The Empty Chair")
    assert any(f"packet.yaml:{empty}:" in p and "the group 'The Empty Chair' has no members" in p for p in found)
    assert any("the other side is missing: what does Honoria Vane know of Absalom Quick?" in p for p in found)
    twice = next(p for p in found if "the relationship of Honoria Vane and Absalom Quick is written twice" in p)
    first = int(matched(re.search(r"first on line (\d+)", twice)).group(1))
    assert "absalom-quick" in (game / "packet.yaml").read_text().splitlines()[first - 1]
    assert any("no character with the id 'Sally Brea'" in p and "write sally-brea" in p for p in found)
    assert len(found) == 5


def test_a_secret_group_named_in_public_text_is_refused_at_its_line(game):
    quick = game / "sixes" / "characters" / "absalom-quick.yaml"
    quick.write_text(quick.read_text().replace("Attorney of Truro,", "Attorney of Truro, no friend of the "
                                                                      "Lantern Night,"))
    data = packet_of(game)
    data["sixes"]["relationships"][1]["public"] = "Both dine with the lantern night on Sundays."
    data["sixes"]["groups"][0]["sheet"] += "Beware The Lantern Night.\n"
    write(game, data)
    found = shown(problems_of(game))
    described = line_of(game, "description:", "sixes/characters/absalom-quick.yaml")
    assert any(p.startswith(f"wreck/sixes/characters/absalom-quick.yaml:{described}:14: error: description: "
                            "Absalom Quick's public description names the secret group 'The Lantern Night'")
               for p in found), found
    public = line_of(game, "dine with the lantern night")
    assert any(p.startswith(f"wreck/packet.yaml:{public}:") and "a relationship's public line names the secret "
               "group 'The Lantern Night'" in p for p in found)
    assert any("the open group 'House Carrow' (sheet) names the secret group" in p for p in found)
    assert len(found) == 3


def test_plots_and_groups_warn_of_who_is_left_out(game):
    data = packet_of(game)
    plots = data["sixes"]["plots"]
    plots[:] = [p for p in plots if p["name"] != "Jory's letter"]
    del plots[0]["members"]["mercy-pascoe"]
    plots.append({"name": "A lonely plot", "members": {"sally-brea": "Only you."}})
    write(game, data)
    (game / "casting.yaml").write_text("envelopes:\n  - player: Ann\n    character: Wenna Hocking\n")
    wenna = game / "sixes" / "characters" / "wenna-hocking.yaml"
    wenna.write_text(wenna.read_text().replace("faction: The Island\n", ""))
    warnings = shown(problems_of(game), "warning")
    assert any("the plot 'A lonely plot' has one member" in w for w in warnings)
    assert not any("Tamsin Penhale (tamsin-penhale) is in no plot" in w for w in warnings)   # in the wedding
    plots_at = line_of(game, "plots:")
    assert any(w.startswith(f"wreck/packet.yaml:{plots_at}:") and "Mercy Pascoe (mercy-pascoe) is in no plot" in w
               for w in warnings)
    # Wenna's only group left is the GM's own, which she does not know of.
    assert any(w.startswith("wreck/casting.yaml:2:5:") and "Wenna Hocking is cast but in no group" in w
               for w in warnings), warnings


def test_a_faction_made_secret_and_a_gm_only_sheet_are_refused(game):
    data = packet_of(game)
    data["sixes"]["groups"][0]["membership"] = "secret"
    data["sixes"]["groups"][5]["sheet"] = "What no member will read."
    data["nonsense"] = {}
    write(game, data)
    found = shown(problems_of(game))
    assert any("'House Carrow' is a faction of the characters' files" in p for p in found)
    assert any("the GM-only group 'Witnesses of the Charity' has a members' sheet" in p for p in found)
    assert any("no game with characters called 'nonsense'" in p for p in found)


def test_the_example_packet_points_at_its_schema_and_agrees_with_it(tmp_path):
    import json
    import re as _re

    from generator.commands.build import export_schemas
    path = DEFAULT_DATA_DIR / "packet.yaml"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = _re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match and (path.parent / match.group(1)).resolve() == DEFAULT_DATA_DIR.parent / "output" / "schemas" / \
        "packet.schema.json"
    written = {p.name: p for p in export_schemas(tmp_path)}
    schema = json.loads(written["packet.schema.json"].read_text())
    assert set(schema["properties"]) >= {"sixes", "six-shooter", "i6"} and schema["additionalProperties"] is False
    group = schema["$defs"]["Group"]["properties"]
    assert group["membership"]["enum"] == ["open", "secret", "gm-only"]


def test_other_systems_take_a_packet_and_a_secret_name_is_found_in_their_files(tmp_path):
    """Six Shooter (Operators in one file) and I6 (a file per hero) have packets too."""
    game = tmp_path / "multi"
    for system in ("six-shooter", "i6"):
        shutil.copytree(DEFAULT_DATA_DIR / system, game / system)
    (game / "sixes.yaml").write_text("paper: a4\n")
    hero = game / "i6" / "heroes" / "oskar-vell.yaml"
    hero.write_text(hero.read_text().replace("description: ", "description: Sworn to the Ninth Lamp. ", 1))
    operators = game / "six-shooter" / "operators.yaml"
    operators.write_text(operators.read_text().replace("Ex-prizefighter", "Ex-prizefighter of the Ninth Lamp", 1))
    packet = {"i6": {"groups": [{"name": "The Ninth Lamp", "membership": "secret", "members": ["reya-thorn"],
                                 "sheet": "Members only."}],
                     "relationships": [{"between": ["oskar-vell", "reya-thorn"],
                                        "sides": {"oskar-vell": "Old friend.", "reya-thorn": "Old friend."}}]},
              "six-shooter": {"groups": [{"name": "The Ninth Lamp", "membership": "secret",
                                          "members": ["operator-professor-amos-crane"]}]}}
    write(game, packet)
    found = shown(problems_of(game))
    hero_line = line_of(game, "Ninth Lamp", "i6/heroes/oskar-vell.yaml")
    operator_line = line_of(game, "Ninth Lamp", "six-shooter/operators.yaml")
    assert any(p.startswith(f"multi/i6/heroes/oskar-vell.yaml:{hero_line}:") and "Oskar Vell's public description "
               "names the secret group 'The Ninth Lamp'" in p for p in found), found
    assert any(p.startswith(f"multi/six-shooter/operators.yaml:{operator_line}:") for p in found), found
    assert len(found) == 2


def test_renaming_a_character_carries_through_the_packet(game):
    ned = game / "sixes" / "characters" / "ned-tregarth.yaml"
    ned.write_text(ned.read_text().replace("name: Ned Tregarth", "name: Edward Tregarth"))
    found = gather(game, load_settings(game, game.parent), site=False)
    packet = found.packets["sixes"]
    assert packet.person("ned-tregarth").name == "Edward Tregarth"
    assert "Edward Tregarth" in [p.name for p, _ in packet.known_by("kit-penhale")]
    assert "Edward Tregarth" in [packet.person(m).name for g in packet.groups if g.name == "The Lantern Night"
                                 for m in g.members]
