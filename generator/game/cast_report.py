"""The casting report: who plays whom and at which rank of their list, how
many got their first, second… choice, who got none of theirs and why, who
moved in a re-cast, and every rule that bound.

Game layer, pure: Markdown text made from the plan and the solution. The
report is GM material, written in English like the command's other
messages; it names players and characters, never what else a player wrote.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from .cast_model import Rule
from .cast_rules import Plan
from .cast_solve import Solved

OBJECTIVE = ("(1) the worst rank any player gets as good as it can be (a character "
             "not in a player's list counts as worse than any listed), (2) the most first choices, (3) the "
             "smallest sum of squared ranks (the fewest low choices), (4) ties broken by the seed")
RECAST = "(0) the fewest players moved off the character they had, "


@dataclass(frozen=True)
class Facts:
    """What the command found out besides the casting itself."""

    source: str                             # the questionnaire, as shown
    title: str                              # the game's title
    bound: list[tuple[Rule, bool]] | None   # each rule that bound, and whether without it the casting is better
    reachable: Callable[[int, int], bool]   # whether a player could have had a character under the rules


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# What makes Markdown of a name anywhere in a line (emphasis, code, links,
# HTML, entities, table cells, strikethrough), and at its start (a heading,
# a list, a quote, a numbered item): a backslash makes each plain text.
_INLINE = re.compile(r"([\\`*_\[\]<>|~&])")
_LEADING = re.compile(r"^([#+=-])")
_NUMBERED = re.compile(r"^(\d+)([.)])")


def _cell(text: str) -> str:
    """A name (a player's, a character's, a file's) as plain text inside a
    Markdown table cell, list item or heading: nothing in it is markup."""
    text = _INLINE.sub(r"\\\1", " ".join(text.split()))
    return _NUMBERED.sub(r"\1\\\2", _LEADING.sub(r"\\\1", text))


def rank_text(plan: Plan, p: int, c: int) -> str:
    r = plan.problem.rank(p, c)
    return f"{ordinal(r)} choice" if r < plan.problem.unranked else "not in their list"


def report(plan: Plan, solved: Solved, facts: Facts) -> str:
    """The whole report, as Markdown."""
    pr, cast = plan.problem, solved.cast
    lines = [f"# Casting: {_cell(facts.title)}", "",
             f"{len(cast)} of {len(pr.players)} players cast to {len(pr.characters)} characters, from "
             f"{_cell(facts.source)} (seed {pr.seed}).", "",
             "How the casting was chosen: every hard rule kept; then, in this order, "
             + (RECAST if pr.current else "") + OBJECTIVE + ".", "",
             "## Who plays whom", "", "| Player | Character | Rank |", "|---|---|---|"]
    lines += [f"| {_cell(pr.players[p])} | {_cell(pr.characters[c])} | {rank_text(plan, p, c)} |"
              for p, c in sorted(cast.items(), key=lambda pc: pc[1])]
    lines += ["", "## Choices given", ""] + _counts(plan, solved)
    lines += _moves(plan, solved) + _unlucky(plan, solved, facts) + _rest(plan, solved, facts)
    lines += ["", "## Rules that bound", ""] + _bound(facts.bound)
    return "\n".join(lines) + "\n"


def _counts(plan: Plan, solved: Solved) -> list[str]:
    pr = plan.problem
    counts = Counter(pr.rank(p, c) for p, c in solved.cast.items())
    out = [f"- {ordinal(r)} choice: {counts[r]}" for r in sorted(counts) if r < pr.unranked]
    if counts[pr.unranked]:
        out.append(f"- a character not in their list: {counts[pr.unranked]}")
    worst = max(counts, default=0)
    if worst:
        out += ["", "Worst rank given: " + (f"{ordinal(worst)} choice" if worst < pr.unranked
                                             else "a character not in the player's list") + "."]
    return out


def _moves(plan: Plan, solved: Solved) -> list[str]:
    pr = plan.problem
    if not pr.current:
        return []
    out = ["", "## Who moves", ""]
    out += [f"- {_cell(player)} " + (f"loses {_cell(character)}, which is cut" if stays
                                     else f"leaves: {_cell(character)} is free")
            for player, character, stays in plan.gone]
    start = len(out)
    for p, c in sorted(pr.current.items()):
        now = solved.cast.get(p)
        if now != c:
            to = f"to {_cell(pr.characters[now])} ({rank_text(plan, p, now)})" if now is not None else \
                "out of the casting"
            out.append(f"- {_cell(pr.players[p])} moves from {_cell(pr.characters[c])} {to}")
    if len(out) == start:
        out.append("- Nobody else moves: every other player cast before keeps their character.")
    recast = {player for player, _, stays in plan.gone if stays}
    out += [f"- {_cell(pr.players[p])} {'now plays' if pr.players[p] in recast else 'comes in as'} "
            f"{_cell(pr.characters[c])} ({rank_text(plan, p, c)})"
            for p, c in sorted(solved.cast.items()) if p not in pr.current]
    return out


def _unlucky(plan: Plan, solved: Solved, facts: Facts) -> list[str]:
    """Players cast on a character outside their list, and why."""
    pr, cast = plan.problem, solved.cast
    out = [f"- {_cell(pr.players[p])} plays {_cell(pr.characters[c])}: {_why(plan, solved, p, facts)}"
           for p, c in sorted(cast.items()) if pr.rank(p, c) == pr.unranked]
    return (["", "## Without a choice of theirs", ""] + out) if out else []


def _why(plan: Plan, solved: Solved, p: int, facts: Facts) -> str:
    """Why a player has none of their choices: where each went (to a player
    who ranked it as high or higher, said once for all), or that no casting
    keeping the rules could give it to them."""
    pr = plan.problem
    if not pr.choices[p]:
        return "they listed no character" if plan.answers[p] is not None else "they gave no answers"
    holder = {c: q for q, c in solved.cast.items()}
    reasons, fair = [], 0
    for c in pr.choices[p]:
        what, other = f"{_cell(pr.characters[c])} ({ordinal(pr.rank(p, c))})", holder.get(c)
        if other is not None and pr.rank(other, c) <= pr.rank(p, c):
            fair += 1
        elif not facts.reachable(p, c):
            reasons.append(f"{what} cannot be theirs under the hard rules")
        elif other is None:
            reasons.append(f"{what} is left unplayed")
        else:
            reasons.append(f"{what} went to {_cell(pr.players[other])} ({rank_text(plan, other, c)})")
    if fair:
        reasons.insert(0, f"{'all' if fair == len(pr.choices[p]) else fair} of their choices went to players "
                          "who ranked them as high or higher")
    return "; ".join(reasons)


def _rest(plan: Plan, solved: Solved, facts: Facts) -> list[str]:
    pr, cast = plan.problem, solved.cast
    out: list[str] = []
    uncast = [p for p in range(len(pr.players)) if p not in cast]
    if uncast:
        out += ["", f"## Left without a character ({len(uncast)})", "",
                f"{len(pr.players)} players for {len(pr.characters)} characters: a waiting list, in the "
                "questionnaire's order.", ""]
        out += [f"- {_cell(pr.players[p])}: {_why(plan, solved, p, facts)}" for p in uncast]
    unplayed = [pr.characters[c] for c in range(len(pr.characters)) if c not in cast.values()]
    if unplayed:
        out += ["", f"## Characters without a player ({len(unplayed)})", "",
                f"{len(pr.characters)} characters for {len(pr.players)} players: these are not in the casting "
                "file, so `sixes pack` makes no envelope for them.", ""]
        out += [f"- {_cell(n)}" for n in unplayed]
    return out


def _bound(bound: Sequence[tuple[Rule, bool]] | None) -> list[str]:
    if bound is None:
        return ["Not worked out: a game this size has too many rules to solve again without each."]
    if not bound:
        return ["None: without any one of the hard rules, the casting would be the same."]
    return ["Without each of these, the casting would differ:", ""] + [
        f"- {_cell(r.text)} ({'without it, a better casting' if better else 'without it, another as good'})"
        for r, better in bound]


def conflict_text(rules: Sequence[Rule]) -> list[str]:
    """The lines naming rules that cannot all hold, and the players they involve."""
    players = sorted({p for r in rules for p in r.players})
    return ([f"- {r.text}" for r in rules]
            + ([f"players involved: {', '.join(players)}"] if players else []))
