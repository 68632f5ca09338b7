"""What each Sixes document and page is given to render. Public documents and
site pages must not even receive a secret: then no template change can print
one by accident."""
from __future__ import annotations

import dataclasses

from pydantic import BaseModel

from generator.game.load import load_all
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes import SYSTEM


def strings_in(value) -> list[str]:
    """Every string reachable from a template context."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, BaseModel):
        return strings_in(value.model_dump())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return strings_in({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, dict) or hasattr(value, "items"):
        return [s for k, v in value.items() for s in strings_in(k) + strings_in(v)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [s for item in value for s in strings_in(item)]
    return []


def example_game():
    loaded, _ = load_all(DEFAULT_DATA_DIR)
    return loaded[0].game


def secrets_of(game) -> list[str]:
    secrets = [game.info.gm_notes] + [m.character.background for m in game.cast]
    secrets += [s.rule for s in game.specials if s.secret]
    return [s for s in secrets if s]


def test_public_documents_and_pages_receive_no_secret():
    game = example_game()
    secrets = secrets_of(game)
    assert len(secrets) > 10
    public = [d.context for d in SYSTEM.documents(game) if d.audience == "public"]
    public += [p.context for p in SYSTEM.pages(game)]
    assert len(public) == 8
    for context in public:
        reachable = set(strings_in(context))
        assert not [s for s in secrets if s in reachable]


def test_each_character_sheet_receives_only_its_own_background():
    game = example_game()
    sheets = {d.slug: d for d in SYSTEM.documents(game) if d.audience == "player"}
    assert set(sheets) == {m.slug for m in game.cast}
    for member in game.cast:
        reachable = set(strings_in(sheets[member.slug].context))
        assert member.character.background in reachable
        others = [m.character.background for m in game.cast if m is not member]
        assert not [b for b in others if b in reachable]
