"""What casting is asked to do, as plain data: players and their ranked
choices, characters, the hard rules, and the objective that orders castings.

Game layer, standard library only: no solver here (cast_solve.py is the one
module that asks HiGHS), so the tests' brute force and the report judge a
casting with the very same `objective_of` the solver optimises.

A casting gives each player at most one character and each character at
most one player; `Rule`s are the hard rules, each a few linear rows over the
0/1 choice "player p plays character c", so every kind (pre-cast, refusals,
apart pairs, quotas, everyone cast) is enforced the same way and can be
named when rules conflict.

The objective, compared as a tuple (smaller is better), in this order:

0. in a re-cast, the fewest players moved off the character they had;
1. the worst rank any cast player gets (a character not in their list
   counts as one worse than the longest list);
2. the most first choices (counted negatively);
3. the smallest sum of squared ranks (so two seconds beat a first and a third);
4. a tie-break drawn from the seed, player by character, so two runs agree.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Literal, Mapping, Sequence

RuleKind = Literal["cast", "precast", "refuse", "apart", "quota"]
TIE_RANGE = 1000            # tie-break weights are drawn in 0..TIE_RANGE-1


@dataclass(frozen=True)
class Row:
    """One linear row: low <= sum of coefficient * x[player, character] <= high."""

    terms: tuple[tuple[int, int, int], ...]     # (player index, character index, coefficient)
    low: int | None = None
    high: int | None = None


@dataclass(frozen=True)
class Rule:
    """A hard rule, with the words that name it and the players it concerns."""

    kind: RuleKind
    text: str
    players: tuple[str, ...]
    rows: tuple[Row, ...]

    def holds(self, cast: Mapping[int, int]) -> bool:
        """Whether the casting (player index -> character index) keeps every row."""
        for row in self.rows:
            total = sum(k for p, c, k in row.terms if cast.get(p) == c)
            if (row.low is not None and total < row.low) or (row.high is not None and total > row.high):
                return False
        return True


@dataclass(frozen=True)
class CastProblem:
    """Players (display names) with their ranked choices (character indices,
    best first), characters (display names), the hard rules, the seed, and in
    a re-cast the casting it starts from (player index -> character index)."""

    players: tuple[str, ...]
    characters: tuple[str, ...]
    choices: tuple[tuple[int, ...], ...]
    rules: tuple[Rule, ...] = ()
    seed: int = 1
    current: Mapping[int, int] = field(default_factory=dict)

    @cached_property
    def unranked(self) -> int:
        """The rank of a character a player did not list: worse than any listed."""
        return max((len(c) for c in self.choices), default=0) + 1

    @cached_property
    def _ranks(self) -> tuple[dict[int, int], ...]:
        return tuple({c: i + 1 for i, c in reversed(list(enumerate(listed)))} for listed in self.choices)

    def rank(self, player: int, character: int) -> int:
        return self._ranks[player].get(character, self.unranked)

    @property
    def size(self) -> int:
        """How many players are cast: every character, or every player, whichever is fewer."""
        return min(len(self.players), len(self.characters))

    def tie(self, player: int, character: int) -> int:
        """The seed's tie-break weight of one pair, from the names (not the
        order they came in), so reordering the questionnaire changes nothing."""
        text = f"{self.seed}\x00{self.players[player]}\x00{self.characters[character]}"
        return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") % TIE_RANGE


Objective = tuple[int, int, int, int, int]


def objective_of(problem: CastProblem, cast: Mapping[int, int]) -> Objective:
    """The objective of a casting (player index -> character index)."""
    ranks = [problem.rank(p, c) for p, c in cast.items()]
    moves = sum(1 for p, c in problem.current.items() if cast.get(p) != c)
    return (moves, max(ranks, default=0), -sum(1 for r in ranks if r == 1), sum(r * r for r in ranks),
            sum(problem.tie(p, c) for p, c in cast.items()))


def structural_rules(players: Sequence[str], characters: Sequence[str]) -> list[Rule]:
    """Everyone cast that can be: each character played when there are at
    least as many players, else each player given a character (one rule each,
    so a conflict names the very character or player)."""
    if len(players) >= len(characters):
        return [Rule("cast", f"{name} is played by someone", (),
                     (Row(tuple((p, c, 1) for p in range(len(players))), low=1),))
                for c, name in enumerate(characters)]
    return [Rule("cast", f"{name} gets a character", (name,),
                 (Row(tuple((p, c, 1) for c in range(len(characters))), low=1),))
            for p, name in enumerate(players)]


def precast_rule(players: Sequence[str], characters: Sequence[str], player: int, character: int) -> Rule:
    return Rule("precast", f"{characters[character]} is pre-cast to {players[player]}", (players[player],),
                (Row(((player, character, 1),), low=1),))


def refuse_rule(players: Sequence[str], characters: Sequence[str], player: int, refused: Iterable[int]) -> Rule:
    refused = sorted(set(refused))
    names = ", ".join(characters[c] for c in refused)
    return Rule("refuse", f"{players[player]} will not play {names}", (players[player],),
                (Row(tuple((player, c, 1) for c in refused), high=0),))


def apart_rule(players: Sequence[str], characters: Sequence[str], a: int, b: int,
               opposite: Iterable[tuple[int, int]], why: str = "") -> Rule:
    """Players a and b are never cast on two characters that face each other
    (any pair of `opposite`, either way round)."""
    rows = tuple(Row(((a, c, 1), (b, d, 1)), high=1) for c, d in sorted(set(opposite)) for c, d in ((c, d), (d, c)))
    text = f"{players[a]} and {players[b]} are not cast opposite each other" + (f", {why}" if why else "")
    return Rule("apart", text, (players[a], players[b]), rows)


def quota_rule(text: str, pairs: Iterable[tuple[int, int]], involved: Iterable[str],
               at_least: int | None, at_most: int | None) -> Rule:
    """At least / at most so many of these (player, character) pairs are cast."""
    return Rule("quota", text, tuple(dict.fromkeys(involved)),
                (Row(tuple((p, c, 1) for p, c in sorted(set(pairs))), low=at_least, high=at_most),))


def feasible_by_rules(problem: CastProblem, cast: Mapping[int, int], rules: Iterable[Rule] | None = None) -> bool:
    """Whether a casting is a casting at all (one character each, each
    character once, as many cast as can be) and keeps the rules."""
    if len(set(cast.values())) != len(cast) or len(cast) != problem.size:
        return False
    return all(rule.holds(cast) for rule in (problem.rules if rules is None else rules))
