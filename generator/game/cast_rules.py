"""From the answers, the settings' rules and (in a re-cast) the current
casting with its change, to the problem the solver takes (cast_model.py).

Game layer, pure. Every name in a rule is matched as people type names
(naming.match_key: case, accents, punctuation and the kind of apostrophe
aside), and a name that matches nothing is a problem at the
line of sixes.yaml (or the cell of the questionnaire, or the command-line
option) that wrote it, with a did-you-mean; every problem comes at once.

Players kept apart are never cast on two characters that are *opposite*
each other. Which characters are opposite is `opposite_characters`' one
answer: today the settings' explicit `opposite:` pairs; when groups and
relationships exist (issue 49), the pairs they imply join there, and every
rule built on them follows.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..core import naming
from ..core.errors import Problem, Severity, did_you_mean
from ..core.loading import YamlDocument
from .cast_model import (CastProblem, Rule, apart_rule, precast_rule, quota_rule, refuse_rule,
                         structural_rules)
from .cast_settings import CastingSettings, Quota
from .questionnaire import Answer, name_fault

COMMAND_LINE = "command line"


@dataclass(frozen=True)
class Change:
    """A re-cast's change to the current casting."""

    drop: tuple[str, ...] = ()      # players who leave
    join: tuple[str, ...] = ()      # players who join (their answers, if any, are in the questionnaire)
    cut: tuple[str, ...] = ()       # characters no longer played


@dataclass
class Plan:
    """The problem to solve, and what the report needs to name its parts."""

    problem: CastProblem
    slugs: tuple[str, ...]                      # each character's slug, by index
    answers: tuple[Answer | None, ...]          # each player's answers (None: they gave none)
    problems: list[Problem] = field(default_factory=list)
    gone: tuple[tuple[str, str, bool], ...] = ()   # a re-cast's (player, character, whether the player stays)
                                                   # for each role the change ended: a player left, a character cut


class _Where:
    """Problems at the settings' line (or on the command line)."""

    def __init__(self, doc: YamlDocument | None, shown: str):
        self.doc, self.shown = doc, shown

    def __call__(self, loc: tuple, message: str, hint: str | None = None, severity: Severity = "error") -> Problem:
        level = severity
        if self.doc is not None:
            return self.doc.problem(("casting", *loc), message, hint=hint, severity=level)
        return Problem(self.shown, None, None, message, hint=hint, severity=level)


def plan(answers: Sequence[Answer], settings: CastingSettings, characters: Mapping[str, str], *,
         doc: YamlDocument | None = None, shown: str = "sixes.yaml",
         current: Sequence[tuple[str, str | None]] = (), change: Change = Change(), seed: int | None = None) -> Plan:
    """The casting problem: the players (the questionnaire's, and in a re-cast
    the current casting's and those joining, less those leaving), the
    characters (less those cut), and every hard rule."""
    where, problems = _Where(doc, shown), list[Problem]()
    names = _characters(characters, change.cut, problems)
    slugs = tuple(characters[n] for n in names)
    players, given = _players(answers, current, change, problems)
    key = {naming.match_key(p): i for i, p in enumerate(players)}
    at = {slug: i for i, slug in enumerate(slugs)}
    choices = tuple(tuple(at[s] for s in a.choices if s in at) if a else () for a in given)
    rules: list[Rule] = structural_rules(players, names)
    for character, player in settings.precast.items():
        c, p = _find(character, names, ("precast", character), where, problems, "character"), \
            _find(player, players, ("precast", character), where, problems, "player")
        if c is not None and p is not None:
            rules.append(precast_rule(players, names, p, c))
    for p, answer in enumerate(given):
        refused = [at[s] for s in (answer.refuses if answer else ()) if s in at]
        if refused:
            rules.append(refuse_rule(players, names, p, refused))
    opposite = opposite_characters(settings, names, where, problems)
    rules += _apart(settings, given, players, names, key, opposite, where, problems)
    for i, quota in enumerate(settings.quotas):
        rules += _quota(i, quota, settings, given, players, names, choices, where, problems)
    current_index = {key[naming.match_key(p)]: at[s] for p, s in current
                     if s in at and naming.match_key(p) in key}
    problem = CastProblem(tuple(players), names, choices, tuple(rules),
                          settings.seed if seed is None else seed, current_index)
    names_of = {slug: name for name, slug in characters.items()}
    gone = tuple((p, names_of.get(s or "", s or ""), naming.match_key(p) in key) for p, s in current
                 if s not in at or naming.match_key(p) not in key)
    return Plan(problem, slugs, tuple(given), problems, gone)


def _characters(characters: Mapping[str, str], cut: Iterable[str], problems: list[Problem]) -> tuple[str, ...]:
    names = list(characters)
    gone = set()
    for name in cut:
        found = next((n for n in names if naming.match_key(n) == naming.match_key(name) or characters[n] == name), None)
        if found is None:
            problems.append(Problem(COMMAND_LINE, None, None, f"--cut: no character called '{name}'",
                                    hint=did_you_mean(name, names) or "name a character of the game"))
        else:
            gone.add(found)
    return tuple(n for n in names if n not in gone)


def _players(answers: Sequence[Answer], current: Sequence[tuple[str, str | None]], change: Change,
             problems: list[Problem]) -> tuple[list[str], list[Answer | None]]:
    """The players in play, each once, with their answers."""
    pool: dict[str, tuple[str, Answer | None]] = {naming.match_key(a.player): (a.player, a) for a in answers}
    for player, _ in current:
        pool.setdefault(naming.match_key(player), (player, None))
    for player in change.join:
        if (fault := name_fault(player)) is not None:
            problems.append(Problem(COMMAND_LINE, None, None, f"--join: {fault[0]}", hint=fault[1]))
            continue
        if naming.match_key(player) in {naming.match_key(p) for p, _ in current}:
            problems.append(Problem(COMMAND_LINE, None, None, f"--join: '{player}' is cast already",
                                    hint="join names a player new to the casting"))
        pool.setdefault(naming.match_key(player), (player, None))
    for player in change.drop:
        if pool.pop(naming.match_key(player), None) is None:
            problems.append(Problem(COMMAND_LINE, None, None, f"--drop: no player called '{player}'",
                                    hint=did_you_mean(player, [p for p, _ in pool.values()]) or
                                    "name a player of the casting or the questionnaire"))
    return [p for p, _ in pool.values()], [a for _, a in pool.values()]


def _find(name: str, among: Sequence[str], loc: tuple, where: _Where, problems: list[Problem],
          what: str) -> int | None:
    wanted = naming.match_key(name)
    found = next((i for i, n in enumerate(among) if naming.match_key(n) == wanted), None)
    if found is None:
        problems.append(where(loc, f"no {what} called '{name}' in this casting",
                              did_you_mean(name, among) or f"name a {what} as written in the "
                              f"{'game' if what == 'character' else 'questionnaire'}"))
    return found


def opposite_characters(settings: CastingSettings, names: Sequence[str], where: _Where,
                        problems: list[Problem]) -> list[tuple[int, int]]:
    """The pairs of characters who face each other in play: the extension
    point for groups and relationships (issue 49), which will add theirs here."""
    pairs = []
    for i, (a, b) in enumerate(settings.opposite):
        ca = _find(a, names, ("opposite", i, 0), where, problems, "character")
        cb = _find(b, names, ("opposite", i, 1), where, problems, "character")
        if ca is not None and cb is not None and ca != cb:
            pairs.append((ca, cb))
    return pairs


def _apart(settings: CastingSettings, answers: Sequence[Answer | None], players: Sequence[str],
           names: Sequence[str], key: Mapping[str, int], opposite: list[tuple[int, int]], where: _Where,
           problems: list[Problem]) -> list[Rule]:
    """One rule per pair of players kept apart: the settings' `apart` and
    each player's avoids (a name that is no player is a warning at its cell:
    they may simply not be coming)."""
    asked: dict[tuple[int, int], list[str]] = {}
    for i, (a, b) in enumerate(settings.apart):
        pa = _find(a, players, ("apart", i, 0), where, problems, "player")
        pb = _find(b, players, ("apart", i, 1), where, problems, "player")
        if pa is not None and pb is not None and pa != pb:
            asked.setdefault((min(pa, pb), max(pa, pb)), []).append("the organisers")
    for p, answer in enumerate(answers):
        for name, cell in (answer.avoids if answer else ()):
            other = key.get(naming.match_key(name))
            if other is None:
                problems.append(Problem(cell.file, cell.line, cell.column, f"'{name}' is not among the players; "
                                        "ignored", field=cell.field, severity="warning",
                                        hint=did_you_mean(name, players) or "they may not be coming"))
            elif other != p:
                asked.setdefault((min(p, other), max(p, other)), []).append(players[p])
    if asked and not opposite:
        problems.append(where(("apart",), "players are kept apart, but no characters are opposite each other, "
                              "so nothing keeps them apart", "list pairs of characters who face each other under "
                              "casting: opposite:", severity="warning"))
    return [apart_rule(players, names, a, b, opposite, "as " + " and ".join(dict.fromkeys(who)) + " asked")
            for (a, b), who in sorted(asked.items())]


def _quota(i: int, quota: Quota, settings: CastingSettings, answers: Sequence[Answer | None],
           players: Sequence[str], names: Sequence[str], choices: Sequence[tuple[int, ...]], where: _Where,
           problems: list[Problem]) -> list[Rule]:
    chars = range(len(names)) if quota.characters is None else \
        [c for j, n in enumerate(quota.characters)
         if (c := _find(n, names, ("quotas", i, "characters", j), where, problems, "character")) is not None]
    counted = range(len(players)) if quota.players is None else \
        [p for j, n in enumerate(quota.players)
         if (p := _find(n, players, ("quotas", i, "players", j), where, problems, "player")) is not None]
    if quota.attribute is not None:
        column = quota.attribute.casefold()
        if column not in {c.casefold() for c in settings.columns.attributes}:
            problems.append(where(("quotas", i, "attribute"), f"'{quota.attribute}' is not an attribute column",
                                  did_you_mean(quota.attribute, settings.columns.attributes) or
                                  "list it under casting: columns: attributes:"))
        values = {v.casefold() for v in quota.values}
        counted = [p for p in counted if (a := answers[p]) is not None
                   and a.attributes.get(column, "").strip().casefold() in values]
    pairs = [(p, c) for p in counted for c in chars if not quota.asked or c in choices[p]]
    who = [players[p] for p in sorted({p for p, _ in pairs})]
    return [quota_rule(quota.label or _quota_text(quota, names, chars), pairs, who, quota.at_least, quota.at_most)]


def _quota_text(quota: Quota, names: Sequence[str], chars: Iterable[int]) -> str:
    bounds = " and ".join(f"{word} {n}" for word, n in (("at least", quota.at_least), ("at most", quota.at_most))
                          if n is not None)
    listed = list(chars)
    of = "every character" if quota.characters is None else ", ".join(names[c] for c in listed)
    to = []
    if quota.players is not None:
        to.append("players " + ", ".join(quota.players))
    if quota.attribute is not None:
        to.append(f"players whose {quota.attribute} is " + " or ".join(quota.values))
    if quota.asked:
        to.append("players who asked for them")
    return f"{bounds} of {of} cast" + (" to " + ", ".join(to) if to else "")
