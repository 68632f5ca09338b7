"""Load a Six Shooter data folder into one validated, cross-checked adventure.

Core layer: reads YAML through `loading`, validates with the models, then
checks what one file cannot: unique names, the table's starting Lucky
Numbers, and the v0.03 rule for holding more than two Lucky Numbers.
Every problem is reported in one run.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ...core.datafiles import duplicate_list_names, read_validated
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
    """No repeats; starting numbers unique at the table; at most `cap`; more
    than two only while every other Operator holds at least one fewer."""
    problems = []
    first_owner: dict[int, int] = {}
    for i, op in enumerate(operators):
        numbers = op.lucky_numbers
        for j, n in enumerate(numbers):
            if n in numbers[:j]:
                problems.append(doc.problem(("operators", i, "lucky_numbers", j), f"Lucky Number {n} is listed twice",
                                            hint="an Operator holds each number at most once"))
        start = numbers[0]
        if start in first_owner:
            other = operators[first_owner[start]].name
            problems.append(doc.problem(("operators", i, "lucky_numbers", 0),
                                        f"starting Lucky Number {start} is already {other}'s",
                                        hint="no two Operators at the table start with the same number"))
        else:
            first_owner[start] = i
        if len(numbers) > cap:
            problems.append(doc.problem(("operators", i, "lucky_numbers"),
                                        f"{op.name} holds {len(numbers)} Lucky Numbers; the cap is {cap}",
                                        hint="lucky_number_cap in game.yaml sets it"))
        elif len(numbers) > FREE_LUCKY_NUMBERS:
            short = [o.name for k, o in enumerate(operators) if k != i and len(o.lucky_numbers) < len(numbers) - 1]
            if short:
                problems.append(doc.problem(
                    ("operators", i, "lucky_numbers"),
                    f"{op.name} holds {len(numbers)} Lucky Numbers, but {', '.join(short)} "
                    f"{'holds' if len(short) == 1 else 'hold'} fewer than {len(numbers) - 1}",
                    hint=f"beyond {FREE_LUCKY_NUMBERS}, every other Operator must hold at least one fewer"))
    return problems


