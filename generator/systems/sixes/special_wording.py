"""Where a special's words and its data disagree: a rule that states a
condition ("next to someone of your own faction", "if ...") over a bonus
the data applies always. Sheets, the resolver and the simulator follow the
data, so players would read one rule and the tools play another; a warning
at load time catches it while the author can still choose which is meant.

Core layer: pure text checks over validated specials.
"""
from __future__ import annotations

import re

from ...core.errors import Problem
from ...core.loading import YamlDocument
from .models import CONDITIONS, Special

# Words that put a condition on a bonus. "when/if/while you <the action the
# bonus is on>" only restates which action it is, so that is left out below.
CONDITION_WORDS = re.compile(
    r"\b(next to|beside|within reach|within arm's reach|whenever|when|if|while|against|as long as|unless)\b",
    re.IGNORECASE)
RESTATED_ACTION = (r"\b(?:whenever|when|if|while)\s+you\s+(?:use\s+|take\s+|declare\s+|make\s+)?"
                   r"(?:an?\s+|the\s+|your\s+)?")
# Which `when:` a condition's words point at, first match wins.
HINTED_CONDITION = (
    (re.compile(r"next to|beside|within|reach|faction|house|ally|allies|friend", re.IGNORECASE), "beside_ally"),
    (re.compile(r"rattled|shaken", re.IGNORECASE), "target_rattled"),
    (re.compile(r"hurt|wounded|injured|below your|lost", re.IGNORECASE), "hurt"),
)


def stated_condition(special: Special) -> str | None:
    """The first condition word in the rule, once any "when you <its own
    action>" is set aside; None when the rule states none."""
    text = special.rule
    for action in special.adds_effect:
        words = r"\s+".join(action.split("_"))
        text = re.sub(RESTATED_ACTION + words + r"\b", " ", text, flags=re.IGNORECASE)
    found = CONDITION_WORDS.search(text)
    return found.group(1) if found else None


def unconditional_wording(doc: YamlDocument, specials: list[Special]) -> list[Problem]:
    """A warning at the rule of each special whose words state a condition
    while its adds_effect bonus has no `when:`, naming the condition that
    fits the words when one does."""
    problems = []
    for i, special in enumerate(specials):
        if not special.adds_effect or special.when is not None:
            continue
        word = stated_condition(special)
        if word is None:
            continue
        fits = [when for pattern, when in HINTED_CONDITION if pattern.search(special.rule)]
        add = f"add 'when: {fits[0]}'" if fits else "add a 'when:' (" + ", ".join(CONDITIONS) + ")"
        problems.append(doc.problem(
            ("specials", i, "rule"),
            f"the rule of '{special.name}' states a condition ('{word}') but its adds_effect bonus always applies",
            hint=f"{add} so the sheets and fights apply it only then, or word the rule without a condition "
                 "if the bonus is meant to count every time",
            severity="warning"))
    return problems
