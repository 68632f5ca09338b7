"""Reading packet.yaml: one section per game with characters, checked.

Game layer: pure. The gather (gather.py) calls `read_packets` with the games
that loaded, in cast order, and the casting; every problem comes back at
file:line:col with the rest of the gather's, all at once. The file is read
through the one YAML reader inside the game folder (core/loading).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from ..core.errors import Problem, did_you_mean
from ..core.glyphs import unprintable_text
from ..core.loading import YamlDocument, load_yaml, reading_game
from ..core.validation import validate
from .casting import CastingCheck
from .load import Loaded
from .packet import Packet, people_of
from .packet_checks import check_game, secret_names, unplaced_cast
from .packet_models import PACKET_FILE, PacketGame


def find_packet(data_dir: Path) -> Path | None:
    path = Path(data_dir) / PACKET_FILE
    return path if path.exists() or path.is_symlink() else None


def read_packets(data_dir: Path, loaded: list[Loaded], casting: CastingCheck | None = None,
                 broken: Iterable[str] = ()) -> tuple[dict[str, Packet], list[Problem]]:
    """Each game with characters and its packet (an empty one without a
    packet.yaml), and every problem of the file. `broken`: games whose data
    has errors: their sections are left unchecked, with no complaint."""
    games = {item.system.slug: people_of(item) for item in loaded}
    games = {slug: people for slug, people in games.items() if people}
    packets = {slug: Packet(slug, people) for slug, people in games.items()}
    path = find_packet(data_dir)
    if path is None:
        return packets, []
    with reading_game(data_dir):
        doc, problems = load_yaml(path, f"{Path(data_dir).resolve().name}/{PACKET_FILE}")
    if doc is None:
        return packets, problems
    problems += unprintable_text([doc])
    if not isinstance(doc.data, dict):
        return packets, problems + [doc.problem((), "packet.yaml holds a section per game, e.g. `sixes:`",
                                                hint=_sections_hint(games))]
    for slug, section in doc.data.items():
        if slug in broken:
            continue
        if slug not in games:
            problems.append(_unknown_section(doc, slug, games))
            continue
        model, found = validate(PacketGame, doc, section, (slug,))
        problems += found
        if model is not None:
            packet, found = check_game(doc, slug, model, games[slug])
            packets[slug] = packet
            problems += found
    for packet in packets.values():
        problems += secret_names(doc, packet, data_dir)
        problems += unplaced_cast(doc, packet, casting)
    return packets, problems


def _sections_hint(games: Mapping[str, Any]) -> str:
    return ("the games with characters here: " + ", ".join(games)) if games else \
        "this folder has no game with characters"


def _unknown_section(doc: YamlDocument, slug: object, games: Mapping[str, Any]) -> Problem:
    found = str(slug)
    return doc.problem((slug,), f"no game with characters called '{found}' in this folder", key=True,
                       hint=did_you_mean(found, list(games)) or _sections_hint(games))
