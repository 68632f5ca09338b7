"""Where a special's words and its data disagree: a rule that states a
condition ("next to someone of your own faction", "si vous avez déjà perdu
des points de vie", "wenn du verletzt bist") over a bonus the data applies
always. Sheets, the resolver and the simulator follow the data, so players
would read one rule and the tools play another; a warning at load time
catches it while the author can still choose which is meant.

A rule is the GM's text in the game's language, and the loader does not
know that language (a game may also mix them), so the rule is read in every
shipped language at once (core/i18n.SHIPPED; tests/test_sixes_special_wording.py
holds that each has its words here).

Core layer: pure text checks over validated specials.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import Problem
from ...core.i18n import words_for
from ...core.loading import YamlDocument
from .models import CONDITIONS, Special


@dataclass(frozen=True)
class ConditionWords:
    """One language's words that put a condition on a bonus. `restated` is
    "when/if/while you ..." before the action the bonus is on: that only
    restates which action it is, so it is set aside before looking;
    `actions` how the language names each bonus action there; `hints` the
    words that point at each `when:`."""

    condition: str
    restated: str
    actions: dict[str, str]
    hints: dict[str, str]


_FLAGS = re.IGNORECASE
WORDINGS: dict[str, ConditionWords] = {
    "en": ConditionWords(
        condition=r"next to|beside|within reach|within arm's reach|whenever|when|if|while|against|as long as|"
                  r"unless",
        restated=r"(?:whenever|when|if|while)\s+you\s+(?:use\s+|take\s+|declare\s+|make\s+)?"
                 r"(?:an?\s+|the\s+|your\s+)?",
        actions={"attack": r"attack", "defend_self": r"defend\s+self", "defend_other": r"defend\s+other",
                 "special": r"special"},
        hints={"beside_ally": r"next to|beside|within|reach|faction|house|ally|allies|friend",
               "target_rattled": r"rattled|shaken",
               "hurt": r"hurt|wounded|injured|below your|lost"}),
    "fr": ConditionWords(
        condition=r"à côté d|auprès d|près d|au contact d|à portée|chaque fois qu|tant qu|pendant qu|"
                  r"lorsqu|quand|s['’]ils?|si|contre|sauf si|à moins qu",
        restated=r"(?:chaque fois qu|lorsqu|quand|si|s['’])e?\s*(?:vous|tu|on)\s+"
                 r"(?:utilise[zs]?\s+|fai(?:tes|s)\s+|déclare[zs]?\s+|prene?[zs]\s+)?"
                 r"(?:une?\s+|l['’]\s*|la\s+|le\s+|votre\s+|ton\s+|ta\s+)?(?:action\s+)?",
        actions={"attack": r"attaqu\w*", "defend_self": r"(?:vous\s+|te\s+)?(?:se\s+)?défend\w*(?!\s+autrui)",
                 "defend_other": r"défend\w*\s+(?:autrui|un\s+allié\w*|quelqu['’]un)",
                 "special": r"spécial\w*"},
        hints={"beside_ally": r"à côté|près d|auprès|portée|faction|maison|allié|ami",
               "target_rattled": r"ébranlé|secoué",
               "hurt": r"blessé|perdu|points de vie|touché"}),
    "de": ConditionWords(
        condition=r"neben|in Reichweite|wann immer|immer wenn|wenn|falls|sobald|solange|während|gegen|"
                  r"außer wenn|sofern",
        restated=r"(?:wann immer|immer wenn|wenn|falls|sobald|während)\s+(?:du|Sie|man)\s+"
                 r"(?:eine?n?\s+|die\s+|den\s+|deine?n?\s+|Ihre?n?\s+)?",
        actions={"attack": r"angreif\w*|Angriff\w*", "defend_self": r"(?:dich|sich)\s+(?:selbst\s+)?verteidig\w*|"
                                                                      r"Selbst\s+verteidig\w*",
                 "defend_other": r"(?:andere|einen\s+Verbündeten|jemanden)\s+verteidig\w*",
                 "special": r"Spezial\w*"},
        hints={"beside_ally": r"neben|Reichweite|Fraktion|Haus|Verbündet|Freund",
               "target_rattled": r"erschüttert",
               "hurt": r"verletzt|verwundet|verloren|Trefferpunkte"}),
}


def _rattled_words() -> str:
    """The tool's own word for Rattled in each shipped language (the sheet's
    word is the one a GM copies), beside each language's synonyms."""
    return "|".join(re.escape(words_for(code).gettext("Rattled")) for code in WORDINGS)


def stated_condition(special: Special) -> str | None:
    """The first condition word in the rule in any shipped language, once
    any "when you <its own action>" is set aside; None when it states none."""
    text = special.rule
    for wording in WORDINGS.values():
        for action in special.adds_effect:
            text = re.sub(rf"\b{wording.restated}(?:{wording.actions[action]})\b", " ", text, flags=_FLAGS)
    for wording in WORDINGS.values():
        if found := re.search(rf"(?<!\w)({wording.condition})(?!\w)", text, flags=_FLAGS):
            return found.group(1)
    return None


def hinted_conditions(rule: str) -> list[str]:
    """The `when:` values the rule's words point at, in the order of CONDITIONS."""
    found = []
    for when in CONDITIONS:
        words = "|".join(w.hints[when] for w in WORDINGS.values())
        if when == "target_rattled":
            words += "|" + _rattled_words()
        if re.search(rf"(?<!\w)(?:{words})", rule, flags=_FLAGS):
            found.append(when)
    return found


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
        fits = hinted_conditions(special.rule)
        add = f"add 'when: {fits[0]}'" if fits else "add a 'when:' (" + ", ".join(CONDITIONS) + ")"
        problems.append(doc.problem(
            ("specials", i, "rule"),
            f"the rule of '{special.name}' states a condition ('{word}') but its adds_effect bonus always applies",
            hint=f"{add} so the sheets and fights apply it only then, or word the rule without a condition "
                 "if the bonus is meant to count every time",
            severity="warning"))
    return problems
