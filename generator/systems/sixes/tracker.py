"""What the GM's fight tracker knows, as plain JSON-ready data.

Core layer: standard library and this package only; it never renders and
never touches a file. The tracker (templates/sixes/tracker/) resolves rounds
with a JavaScript port of resolver.py. Everything the two must agree on
comes from here, computed by the Python code itself: each fighter's profile
(its Effect bonuses, conditional bonuses, redirect and slot-choosing
specials), each fighter's state at the start of a fight, and the rules'
constants and words (Speeds, action names, the specials vocabulary). So the
port holds the rules' steps only, and tests/test_sixes_tracker_equality.py
checks those steps against resolver.py on thousands of random rounds.

Names from the data are never used as keys of a JSON object here: mappings
keyed by a name travel as lists of pairs, so a fighter called "__proto__" is
only a name on the JavaScript side too.

This is GM material: it holds every figure and every secret special of the
cast. It goes only into the GM's output (render/site/tracker.py), never the site.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .dataset import SixesGame
from .effects import EFFECTS, describe, handled, rides_on
from .glossary import GLOSSARY
from .models import ACTION_KEYS, CONDITION_WORDS, CONDITIONS, GM_CONDITIONS, Character, Special
from .resolver import ACTION_NAMES, Combatant, Declaration, LogLine, Profile, RoundResult, fresh
from .rules import ACTION_POINTS, RATTLED_MAX_SPEED, RECOVER_HIT_POINTS, SPEEDS

# Bumped when the shape of the data changes, so a fight saved on a phone by
# an older tracker is not read back by a newer one.
DATA_VERSION = 1


def rules_data() -> dict:
    """The constants and words both resolvers use."""
    return {
        "action_points": ACTION_POINTS,
        "speeds": list(SPEEDS),
        "rattled_max_speed": RATTLED_MAX_SPEED,
        "recover_hit_points": RECOVER_HIT_POINTS,
        "action_keys": list(ACTION_KEYS),
        "action_names": [[key, ACTION_NAMES[key]] for key in ACTION_KEYS],
        "effects": [[name, {"action": rule.action, "called": rule.called, "summary": rule.summary}]
                    for name, rule in EFFECTS.items()],
        "conditions": list(CONDITIONS),
        "condition_words": [[when, CONDITION_WORDS[when]] for when in CONDITIONS],
        "gm_conditions": sorted(GM_CONDITIONS),
    }


def profile_data(profile: Profile) -> dict:
    """A fighter's fixed figures, as resolver.Profile worked them out."""
    return {
        "name": profile.name,
        "hit_points": profile.hit_points,
        "armour": profile.armour,
        "damage": profile.damage,
        "specials": [[name, {"effect": s.effect, "usage": s.usage, "rides_on": rides_on(s)}]
                     for name, s in profile.specials.items()],
        "redirects": profile.redirects,
        "chooses_slot": profile.chooses_slot,
        "attack_plus": profile.attack_plus,
        "defend_other_plus": profile.defend_other_plus,
        "defend_self_plus": profile.defend_self_plus,
        "special_plus": profile.special_plus,
        "conditional": [[action, [[when, amount] for when, amount in pairs]]
                        for action, pairs in profile.conditional.items()],
    }


def combatant_data(c: Combatant) -> dict:
    """A fighter's state between rounds (or after a slot)."""
    return {"name": c.name, "hp": c.hp, "rattled": c.rattled, "unconscious": c.unconscious, "dead": c.dead,
            "escaped": c.escaped, "uses": [[name, left] for name, left in c.uses.items()]}


def declaration_data(d: Declaration) -> dict:
    return {"actor": d.actor, "action": d.action, "speed": d.speed, "target": d.target, "special": d.special,
            "finish": d.finish, "redirect_to": d.redirect_to, "confirmed": list(d.confirmed)}


def log_data(lines: Sequence[LogLine]) -> list[dict]:
    return [{"slot": line.slot, "phase": line.phase, "text": line.text} for line in lines]


def result_data(result: RoundResult) -> dict:
    return {"combatants": [combatant_data(c) for c in result.combatants], "log": log_data(result.log),
            "adjudications": list(result.adjudications)}


def special_data(special: Special) -> dict:
    """A special as the GM sees it in the tracker: its own rule text and
    how the resolver treats it (or that the GM must)."""
    rule = EFFECTS.get(special.effect) if special.effect else None
    # called: named in a declaration with `action`; passive: works by itself
    # (or is an Effect bonus); gm: the resolver leaves it, and the whole
    # action it is named with, to the GM (ruling gm-adjudicates).
    kind = "gm" if not handled(special) else "called" if rule and rule.called else "passive"
    return {"rule": special.rule, "usage": special.usage, "secret": special.secret, "effect": special.effect,
            "resolver": describe(special), "kind": kind, "action": rule.action if rule else None,
            "rides_on": rides_on(special)}


def fighter_data(character: Character, library: Mapping[str, Special]) -> dict:
    start = fresh(character, library)
    return {"name": character.name, "faction": character.faction, "profile": profile_data(start.profile),
            "start": combatant_data(start)}


def tracker_data(game: SixesGame) -> dict:
    """Everything the tracker page embeds: the game's title, the cast in
    cast order (core/cast_order.py) with their factions (first seen first), the specials they
    hold, and the rules."""
    library = game.library
    cast = [member.character for member in game.cast]
    held = {name for c in cast for name in c.specials}
    factions: list[str] = []
    for c in cast:
        if c.faction and c.faction not in factions:
            factions.append(c.faction)
    return {
        "version": DATA_VERSION,
        "title": game.info.title,
        "factions": factions,
        "cast": [fighter_data(c, library) for c in cast],
        "specials": [[name, special_data(library[name])] for name in library if name in held],
        "rules": rules_data(),
        "words": dict(GLOSSARY),     # the glossary's words by id, as the printed sheets say them
    }
