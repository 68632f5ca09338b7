"""Load a Six Shooter data folder into one validated, cross-checked adventure.

Core layer: reads YAML through `loading`, validates with the models, then
checks what one file cannot: unique names, the table's starting Lucky
Numbers, and the v0.03 rule for holding more than two Lucky Numbers.
Every problem is reported in one run.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Mapping, Sequence

from ...core.cast_order import casting_first
from ...core.datafiles import duplicate_list_names, read_validated
from ...core.naming import slug
from ...core.errors import Problem
from ...core.loading import YamlDocument
from ...core.rulings import Ruling, load_rulings
from .models import (CardValue, Challenge, ChallengesFile, Descriptor, GameInfo, GuideEntry, Operator,
                     OperatorsFile, RulesFile)

RULINGS_FILE = Path(__file__).with_name("rulings.yaml")
FILES = {"game.yaml": GameInfo, "rules.yaml": RulesFile, "operators.yaml": OperatorsFile,
         "challenges.yaml": ChallengesFile}
# Up to this many Lucky Numbers need nothing from the rest of the table (v0.03).
FREE_LUCKY_NUMBERS = 2


@dataclass(frozen=True)
class Adventure:
    folder: Path
    info: GameInfo
    descriptors: tuple[Descriptor, ...]
    card_values: tuple[CardValue, ...]
    guide: tuple[GuideEntry, ...]
    operators: tuple[Operator, ...]
    challenges: tuple[Challenge, ...]
    rulings: tuple[Ruling, ...]

    @property
    def by_descriptor(self) -> Mapping[str, Descriptor]:
        return {d.name: d for d in self.descriptors}

    @property
    def by_method(self) -> Mapping[str, Descriptor]:
        return {d.method: d for d in self.descriptors}


def load_game(folder: Path, display_root: Path) -> tuple[Adventure | None, list[Problem]]:
    """Load data/six-shooter/."""
    problems: list[Problem] = []
    models, docs = {}, {}
    for name, model in FILES.items():
        value, doc = read_validated(folder / name, display_root, model, problems)
        if doc is None:
            continue
        docs[name], models[name] = doc, value

    info, rules = models.get("game.yaml"), models.get("rules.yaml")
    operators, challenges = models.get("operators.yaml"), models.get("challenges.yaml")
    if operators:
        doc = docs["operators.yaml"]
        problems.extend(duplicate_list_names(doc, [o.name for o in operators.operators],
                                             lambda i: ("operators", i, "name"), "Operator"))
        problems.extend(check_lucky_numbers(doc, operators.operators, info.lucky_number_cap if info else 9))
    if challenges:
        problems.extend(duplicate_list_names(docs["challenges.yaml"], [c.name for c in challenges.challenges],
                                             lambda i: ("challenges", i, "name"), "challenge"))
    rulings, found = load_rulings(RULINGS_FILE)
    problems.extend(found)
    if any(p.severity == "error" for p in problems) or not (info and rules and operators and challenges):
        return None, problems
    return Adventure(folder, info, tuple(rules.descriptors), tuple(rules.card_values), tuple(rules.guide),
                     tuple(operators.operators), tuple(challenges.challenges), rulings), problems


def check_lucky_numbers(doc: YamlDocument, operators: list[Operator], cap: int) -> list[Problem]:
    """No repeats; starting numbers unique at the table; at most `cap`; none
    only after losing some; more than two only as the v0.03 rule allows."""
    problems = []
    first_owner: dict[int, int] = {}
    for i, op in enumerate(operators):
        numbers = op.lucky_numbers
        for j, n in enumerate(numbers):
            if n in numbers[:j]:
                problems.append(doc.problem(("operators", i, "lucky_numbers", j), f"Lucky Number {n} is listed twice",
                                            hint="an Operator holds each number at most once"))
        if not numbers and not op.lost_lucky_numbers:
            problems.append(doc.problem(("operators", i, "lucky_numbers"),
                                        f"{op.name} holds no Lucky Number and has lost none",
                                        hint="every Operator starts with one; an Operator who gave up their last "
                                             "after three Strikes records it with lost_lucky_numbers"))
        if numbers and not op.lost_lucky_numbers:
            # An Operator who lost one may have lost the starting one, so only the others are checked.
            problems.extend(_starting_number(doc, operators, i, first_owner))
        if len(numbers) > cap:
            problems.append(doc.problem(("operators", i, "lucky_numbers"),
                                        f"{op.name} holds {len(numbers)} Lucky Numbers; the cap is {cap}",
                                        hint="lucky_number_cap in game.yaml sets it"))
        elif len(numbers) > FREE_LUCKY_NUMBERS:
            problems.extend(_gained_past_two(doc, operators, i))
    return problems


def _starting_number(doc: YamlDocument, operators: list[Operator], i: int,
                     first_owner: dict[int, int]) -> list[Problem]:
    start = operators[i].lucky_numbers[0]
    if start not in first_owner:
        first_owner[start] = i
        return []
    return [doc.problem(("operators", i, "lucky_numbers", 0),
                        f"starting Lucky Number {start} is already {operators[first_owner[start]].name}'s",
                        hint="no two Operators at the table start with the same number")]


def _gained_past_two(doc: YamlDocument, operators: list[Operator], i: int) -> list[Problem]:
    """v0.03: past two, an Operator gains a Lucky Number only while every
    other Operator holds at least as many as they do. So whoever holds n had
    every other Operator at n - 1 or more when they gained it; those others
    may have lost some since, so what they hold and what they lost together
    must reach n - 1 (ruling lucky-number-limit)."""
    held = len(operators[i].lucky_numbers)
    short = [o.name for k, o in enumerate(operators)
             if k != i and len(o.lucky_numbers) + o.lost_lucky_numbers < held - 1]
    if not short:
        return []
    return [doc.problem(
        ("operators", i, "lucky_numbers"),
        f"{operators[i].name} holds {held} Lucky Numbers, but {', '.join(short)} "
        f"{'has' if len(short) == 1 else 'have'} never held {held - 1}, counting those lost",
        hint=f"past {FREE_LUCKY_NUMBERS}, an Operator gains one only while every other Operator holds "
             "at least as many as they do; record numbers given up after three Strikes with lost_lucky_numbers")]


def operator_slug(name: str) -> str:
    """An Operator's sheet: names are unique by naming.slug (the loader checks), so sheets never share a file."""
    return "operator-" + slug(name)


def recast(adventure: Adventure, slugs: Sequence[str]) -> Adventure:
    """The adventure with its Operators in a casting file's order (core/cast_order.py)."""
    return replace(adventure, operators=tuple(casting_first(adventure.operators,
                                                            lambda op: operator_slug(op.name), slugs)))
