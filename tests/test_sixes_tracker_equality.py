"""The fight tracker's JavaScript resolver gives exactly what resolver.py
gives: the same fighters after every slot, the same log, word for word, the
same questions for the GM, and the same reasons for refusing a declaration.

Random fights (random casts, specials of every kind in random libraries,
armour, damage, hit points 1 to 10, two to four sides, every simulator
policy, mixed) are played round by round with the simulator's policies;
each round's declarations are then sometimes changed (killing blows, GM
confirmations, GM-adjudicated specials, Recover on the Unconscious, random
Speeds, targets and actions, dropped and doubled declarations, a shuffled
order) and the starting state sometimes shaken (Rattled above 0 hit points,
knocked out), so the rarer paths of the rules come up too. Legal rounds are
resolved by resolver.py with its on_slot hook; illegal ones keep the
reasons resolver.validate gives. All of it goes to one Node process as one
JSON file; Node resolves every round with templates/sixes/tracker/resolver.js
and reports each difference it finds.

Every shipped language is played: resolver.py speaks inside `speaking()`,
and the JavaScript gets the same language's tracker catalogue as the page
does (core/i18n.script_catalogue), so the log, the questions put to the GM
and the reasons a declaration is refused must match word for word in French
and German too, and none of them may be left in English.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from tracker_words import english_left, english_pieces

from generator.core.i18n import SHIPPED, script_catalogue, speaking, words_for
from generator.core.paths import TEMPLATES_DIR
from generator.render.site.tracker import TRACKER_DOMAIN
from generator.systems.sixes.effects import EFFECTS, may_ride
from generator.systems.sixes.models import CONDITION_WORDS, USAGE_WORDS, Character, Special
from generator.systems.sixes.narration import CONDITION_NAMES, USAGE_NAMES
from generator.systems.sixes.resolver import (ACTION_NAMES, Declaration, IllegalDeclaration, fresh, resolve_round,
                                              validate)
from generator.systems.sixes.simulate import POLICIES
from generator.systems.sixes.tracker import declaration_data, profile_data, rules_data

NODE = shutil.which("node")
RESOLVER_JS = TEMPLATES_DIR / "sixes" / "tracker" / "resolver.js"
# At least this many legal rounds are resolved by both; SIXES_TRACKER_ROUNDS
# asks for more (and SIXES_TRACKER_SEED for other fights) when hunting a bug.
ROUNDS = int(os.environ.get("SIXES_TRACKER_ROUNDS", "10000"))
SEED = int(os.environ.get("SIXES_TRACKER_SEED", "23"))
# English is played in full; each other language on a fifth as many rounds
# (the same rules, told in other words).
TRANSLATED = [language for language in SHIPPED if language != "en"]


def rounds_for(language: str) -> int:
    return ROUNDS if language == "en" else max(ROUNDS // 5, 200)

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (make test installs it)")

# Names that are awkward in JavaScript or in the log: property names of every
# object, quotes, an " and " inside a name, accents and a no-break space (a
# right-to-left mark is refused in a name now: core/text.py).
AWKWARD = ["__proto__", "constructor", "toString", "hasOwnProperty", "Ann and Bo", 'Kit "Quick" O\'Neil',
           "Zoë Ménard", "Hana\u00a0Ōta", "valueOf", "</script>"]
PLAIN = ["Ash", "Bryn", "Cass", "Dee", "Ezra", "Fen", "Gil", "Hal", "Ivo", "Jem", "Kay", "Lew", "Mo", "Nell",
         "Oak", "Pim", "Quin", "Rue", "Sol", "Tam"]
USAGES = ("unlimited", "once per combat", "once per game")


def compact(c) -> list:
    """A fighter's state in a few bytes: hit points, the four flags, uses left."""
    return [c.hp, int(c.rattled), int(c.unconscious), int(c.dead), int(c.escaped), [[k, v] for k, v in c.uses.items()]]


def unchanged_as_null(slots: list) -> list:
    """Each slot's states, or None where nothing changed since the slot
    before (most slots): the JSON stays a few megabytes."""
    out, last = [], None
    for slot, states in slots:
        out.append([slot, None if states == last else states])
        last = states
    return out


def random_library(rng: random.Random) -> dict[str, Special]:
    specials: list[Special] = []
    for k in range(rng.randint(3, 9)):
        name = rng.choice(AWKWARD) if rng.random() < 0.2 else f"Knack {k}"
        if any(s.name == name for s in specials):
            name = f"Knack {k}"
        roll = rng.random()
        fields: dict[str, object] = {"name": name, "rule": "A made-up special for the test.",
                                     "usage": rng.choice(USAGES)}
        if roll < 0.55:
            fields["effect"] = rng.choice(sorted(EFFECTS))
        elif roll < 0.8:
            action = rng.choice(("attack", "defend_other", "defend_self", "special"))
            fields["adds_effect"] = {action: rng.randint(1, 2)}
            when = rng.choice((None, None, "beside_ally", "target_rattled", "hurt"))
            if when == "target_rattled" and action == "defend_self":
                when = "hurt"
            fields["when"] = when
        if "effect" not in fields:              # which action it may be called with, or none (the default)
            fields["rides_on"] = rng.choice((None, "none", "any", "any", "attack", "defend_other", "defend_self",
                                             "escape", "recover"))
        specials.append(Special.model_validate(fields))      # else: neither, so the GM adjudicates
    return {s.name: s for s in specials}


def random_cast(rng: random.Random, library: dict[str, Special]) -> list[Character]:
    size = rng.choice((2, 2, 3, 4, 5, 6, 8, 10, 12, 16))
    names = rng.sample(PLAIN, size)
    for k in range(size):
        if rng.random() < 0.1:
            candidate = rng.choice(AWKWARD)
            if candidate not in names:
                names[k] = candidate
    cast = []
    for name in names:
        held = rng.sample(sorted(library), rng.choice((0, 1, 1, 2, 3)))
        cast.append(Character(name=name, description="A test fighter.", hit_points=rng.randint(1, 10),
                              armour=rng.choice((0, 0, 0, 1, 1, 2, 3, 5)), damage=rng.choice((0, 0, 1, 2)),
                              specials=held))
    return cast


def mutate(rng: random.Random, fight, d: Declaration) -> Declaration:
    """A changed declaration, legal or not: resolver.validate decides."""
    me = fight[[c.name for c in fight].index(d.actor)]
    names = [c.name for c in fight]
    held = list(me.profile.specials)
    roll = rng.random()
    if roll < 0.15 and d.action == "attack":
        return replace(d, finish=rng.choice(("kill", "knock_out")))
    if roll < 0.25:
        return replace(d, confirmed=("beside_ally",))
    if roll < 0.4 and held:
        special = rng.choice(held)
        sp = me.profile.specials[special]
        if sp.effect is None:               # mostly where it may ride, now and then where it may not
            rides = may_ride(sp, d.action) or rng.random() < 0.3
            return replace(d, special=special) if rides and rng.random() < 0.6 else \
                Declaration(d.actor, "special", d.speed, rng.choice(names + [None]), special)
        return replace(d, special=special)
    if roll < 0.5:
        out = [c.name for c in fight if c.unconscious and not c.dead and c.name != d.actor]
        if out:
            return Declaration(d.actor, "recover", rng.choice((1, 1, 2, 3)), rng.choice(out))
    if roll < 0.6:
        return replace(d, speed=rng.randint(1, 5))
    if roll < 0.7:
        return replace(d, target=rng.choice(names + [None]))
    if roll < 0.8:
        return replace(d, redirect_to=rng.choice(names))
    if roll < 0.9:
        return Declaration(d.actor, rng.choice(list(ACTION_NAMES)), rng.randint(1, 5), rng.choice(names + [None]),
                           rng.choice(held + [None, None]), rng.choice((None, None, "kill", "knock_out")),
                           None, rng.choice(((), ("beside_ally",), ("hurt",))))
    return replace(d, confirmed=(rng.choice(("hurt", "target_rattled", "high ground")),))


def shaken(rng: random.Random, fight):
    """Now and then, a state the policies rarely reach: Rattled above 0 hit
    points (a special did it), or knocked out."""
    fight = list(fight)
    for i, c in enumerate(fight):
        if c.can_act and rng.random() < 0.05:
            fight[i] = c._replace(rattled=True) if rng.random() < 0.6 else c._replace(rattled=True, unconscious=True)
    return tuple(fight)


def declarations(rng: random.Random, fight, side, policies) -> list[Declaration]:
    made = []
    for i, c in enumerate(fight):
        if c.can_act:
            d = policies[i](rng, fight, side, i)
            if d is not None:
                made.append(d)
    return made


def cases(seed: int, wanted: int, language: str = "en") -> dict:
    """Random fights until `wanted` legal rounds are recorded: the JSON the
    Node side reads, with what resolver.py said about each round in
    `language`, and that language's tracker catalogue."""
    return played(seed, wanted, language)[0]


@cache
def played(seed: int, wanted: int, language: str = "en") -> tuple[dict, tuple]:
    """cases(), and each refused round as resolver.py saw it: (fighters, declarations)."""
    refused: list[tuple] = []
    with speaking(words_for(language)):
        return _cases(seed, wanted, refused), tuple(refused)


def _cases(seed: int, wanted: int, refused: list[tuple]) -> dict:
    rng = random.Random(f"tracker-equality:{seed}")
    policy_names = sorted(POLICIES)
    fights, invalid, legal, special_rounds = [], [], 0, 0
    while legal < wanted:
        library = random_library(rng)
        cast = random_cast(rng, library)
        sides = [rng.randrange(rng.choice((2, 2, 3, 4))) for _ in cast]
        if len(set(sides)) < 2:
            sides[0], sides[-1] = 0, 1
        side = tuple(sides)
        policies = [POLICIES[rng.choice(policy_names)] for _ in cast]
        fight = tuple(fresh(c, library) for c in cast)
        record = {"profiles": [profile_data(c.profile) for c in fight], "rounds": [], "invalid": []}
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.3:
                fight = shaken(rng, fight)
            made = declarations(rng, fight, side, policies)
            if not made:
                break
            changed = [mutate(rng, fight, d) if rng.random() < 0.2 else d for d in made]
            if rng.random() < 0.05:
                changed = changed[1:]                     # someone is off-guard
            if rng.random() < 0.03 and changed:
                changed.append(rng.choice(changed))       # declared twice
            if rng.random() < 0.03:
                out = [c.name for c in fight if not c.can_act]
                if out:
                    changed.append(Declaration(rng.choice(out), "recover", 1))
            if rng.random() < 0.3:
                rng.shuffle(changed)
            reasons = validate(fight, changed)
            if reasons:
                refused.append((fight, changed))
                record["invalid"].append({"before": [compact(c) for c in fight],
                                          "decls": [list(declaration_data(d).values()) for d in changed],
                                          "reasons": reasons})
                changed = made
                if validate(fight, made):
                    break          # a shaken state can make a policy's choice illegal: end this fight
            slots = []
            # on_slot runs inside resolve_round, in this iteration: `slots` is this round's list.
            result = resolve_round(fight, changed,
                                   on_slot=lambda s, f: slots.append([s, [compact(c) for c in f]]))  # noqa: B023
            record["rounds"].append({
                "before": [compact(c) for c in fight], "decls": [list(declaration_data(d).values()) for d in changed],
                "slots": unchanged_as_null(slots), "after": [compact(c) for c in result.combatants],
                "log": [[line.slot, line.phase, line.text] for line in result.log],
                "adjudications": list(result.adjudications)})
            special_rounds += bool(result.adjudications)
            legal += 1
            fight = result.combatants
            if sum(1 for c in fight if c.can_act) < 2:
                break
        invalid.extend(record["invalid"])
        fights.append(record)
    return {"rules": rules_data(), "messages": script_catalogue(TRACKER_DOMAIN), "fights": fights,
            "counts": {"rounds": legal, "invalid": len(invalid), "with_adjudications": special_rounds}}


HARNESS = r"""
const fs = require("fs");
const api = require(process.argv[2]);
const doc = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const R = api.create(doc.rules, doc.messages);
const compact = c => [c.hp, +c.rattled, +c.unconscious, +c.dead, +c.escaped, Array.from(c.uses.entries())];
const state = s => ({hp: s[0], rattled: !!s[1], unconscious: !!s[2], dead: !!s[3], escaped: !!s[4], uses: s[5]});
function unchangedAsNull(slots) {
  let last = null;
  return slots.map(([s, states]) => {
    const out = [s, same(states, last) ? null : states]; last = states; return out;
  });
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const KEYS = ["actor", "action", "speed", "target", "special", "finish", "redirect_to", "confirmed"];
const decl = a => api.declaration(Object.fromEntries(KEYS.map((k, i) => [k, a[i]])));
const faults = [];
let rounds = 0, invalid = 0, lines = 0;
function fault(where, what, python, js) {
  if (faults.length < 8) faults.push({where, what, python, js});
}
doc.fights.forEach((fight, f) => {
  const profiles = fight.profiles.map(api.profileOf);
  const cast = states => states.map((s, i) => api.combatant(profiles[i], state(s)));
  fight.rounds.forEach((r, k) => {
    const where = `fight ${f}, round ${k + 1}`;
    const seen = [];
    const out = R.resolve(cast(r.before), r.decls.map(decl),
                          (s, fs) => seen.push([s, fs.map(compact)]));
    const slots = unchangedAsNull(seen);
    rounds += 1;
    if (out.reasons) { fault(where, "refused", [], out.reasons.map(x => x.text)); return; }
    for (let j = 0; j < Math.max(r.slots.length, slots.length); j++) {
      if (!same(r.slots[j], slots[j])) { fault(where, "state after a slot", r.slots[j], slots[j]); return; }
    }
    const log = out.log.map(l => [l.slot, l.phase, l.text]);
    lines += log.length;
    for (let j = 0; j < Math.max(r.log.length, log.length); j++) {
      if (!same(r.log[j], log[j])) { fault(where, `log line ${j + 1}`, r.log[j], log[j]); return; }
    }
    const after = out.combatants.map(compact);
    if (!same(r.after, after)) fault(where, "state after the round", r.after, after);
    if (!same(r.adjudications, out.adjudications)) fault(where, "GM questions", r.adjudications, out.adjudications);
  });
  fight.invalid.forEach((r, k) => {
    invalid += 1;
    const reasons = R.validate(cast(r.before), r.decls.map(decl)).map(x => x.text);
    if (!same(r.reasons, reasons)) fault(`fight ${f}, refused round ${k + 1}`, "reasons", r.reasons, reasons);
  });
});
process.stdout.write(JSON.stringify({rounds, invalid, lines, faults}));
"""


def run_node(doc: dict, tmp_path: Path) -> dict:
    data, harness = tmp_path / "rounds.json", tmp_path / "harness.js"
    assert NODE is not None
    data.write_text(json.dumps(doc), encoding="utf-8")
    harness.write_text(HARNESS, encoding="utf-8")
    done = subprocess.run([NODE, str(harness), str(RESOLVER_JS), str(data)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("language", SHIPPED)
def test_the_javascript_resolver_matches_the_python_resolver_on_random_rounds(tmp_path, language):
    wanted = rounds_for(language)
    started = time.perf_counter()
    doc = cases(SEED, wanted, language)
    made = time.perf_counter()
    report = run_node(doc, tmp_path)
    counts = doc["counts"]
    print(f"\n{language}: {counts['rounds']} legal rounds ({counts['with_adjudications']} with a GM question), "
          f"{counts['invalid']} refused, {report['lines']} log lines; Python {made - started:.1f} s, "
          f"Node {time.perf_counter() - made:.1f} s")
    assert report["faults"] == []
    assert report["rounds"] == counts["rounds"] >= wanted
    assert report["invalid"] == counts["invalid"] >= wanted // 20
    assert counts["with_adjudications"] >= wanted // 50


def told(doc: dict) -> dict[str, list[str]]:
    """What the random rounds said, by kind: the log's lines, the GM's
    questions and the reasons rounds were refused, in order."""
    fights = doc["fights"]
    return {"log": [line[2] for fight in fights for r in fight["rounds"] for line in r["log"]],
            "questions": [q for fight in fights for r in fight["rounds"] for q in r["adjudications"]],
            "reasons": [reason for fight in fights for r in fight["invalid"] for reason in r["reasons"]]}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_log_questions_and_refusals_of_random_rounds_are_all_in_the_language(language):
    """No English sentence of the tracker's catalogue is left in the log,
    the GM's questions or the reasons for refusing a round, which both
    resolvers write (the test above holds them equal); the rules are told
    in other words, not changed: the same rounds in English say as many
    things, and not one of them is the English one."""
    wanted = rounds_for(language)
    said, english = told(cases(SEED, wanted, language)), told(cases(SEED, wanted, "en"))
    with speaking(words_for(language)):
        assert english_pieces() and english_left("\n".join(sum(said.values(), []))) == []
    for kind in ("questions", "reasons"):
        assert len(said[kind]) == len(english[kind]) >= 20, kind
        assert [text for text, same in zip(said[kind], english[kind], strict=True) if text == same] == [], kind
    lines = [len(r["log"]) for doc in (cases(SEED, wanted, language), cases(SEED, wanted, "en"))
             for fight in doc["fights"] for r in fight["rounds"]]
    assert lines[:len(lines) // 2] == lines[len(lines) // 2:]


def test_the_random_rounds_reach_every_path_worth_testing():
    """The log of the random rounds says every kind of thing the resolver
    can say: if a change to the generator stopped reaching one, this fails."""
    doc = cases(SEED, ROUNDS, "en")
    text = "\n".join(line[2] for fight in doc["fights"] for r in fight["rounds"] for line in r["log"])
    for words in ("did not declare in time", "does not happen", "is lost (Rattled", "GM adjudicates: the resolver "
                  "leaves", "GM adjudicates: the resolver changes", "starts defending", "(armour stops",
                  ": doubled)", "turns the unhurt attack onto", "(chose the Speed", "(no armour or defence counts)",
                  "will be Rattled", "calls a killing blow: kill", "calls a killing blow: knock out", "no kill:",
                  "finds nobody", "counts +", "on a Rattled target", "while hurt", "beside an ally",
                  "and they wake", "1 hit point back, and Rattled ends.", "takes Recover: 1 hit point back.",
                  "is no longer Unconscious", "though not at 0 hit points", "is no longer Rattled",
                  "Defend Other stops", "Defend Self stops", "Escape fails", "escapes and must leave",
                  "Still able to act: nobody", "hit points back, never above"):
        assert words in text, words
    reasons = "\n".join(reason for fight in doc["fights"] for r in fight["invalid"] for reason in r["reasons"])
    for words in ("declared twice", "and cannot act", "may only Escape or Recover", "may not act faster",
                  "must be aimed at someone else", "can only be aimed at yourself", "works only on an Unconscious",
                  "needs a target", "has already used", "works by itself and is not called", "goes with",
                  "is used as the Special action, not with", "is used as the Special action or called with",
                  "a killing blow ('kill'", "is not a condition for the GM to confirm",
                  "only a Defend Self with a redirecting special", "cannot turn attacks onto", "and not in the fight"):
        assert words in reasons, words


def refusal_record(fight, decls: list[Declaration]) -> dict:
    """One refused round as a fight of its own for the Node side, with
    resolver.py's reasons in the language of the run."""
    return {"profiles": [profile_data(c.profile) for c in fight], "rounds": [],
            "invalid": [{"before": [compact(c) for c in fight],
                         "decls": [list(declaration_data(d).values()) for d in decls],
                         "reasons": validate(fight, decls)}]}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_reason_to_refuse_is_given_in_the_language_by_both(tmp_path, language):
    """The refused rounds of the full English run, which reach every reason
    (the test above), refused again in the language: resolver.js gives the
    same reasons as resolver.py, not one of them is the English reason, and
    no English piece of the tracker's catalogue is left in them. A reason
    left as a bare English string on either side fails here."""
    doc, refused = played(SEED, ROUNDS, "en")
    english = told(doc)["reasons"]
    with speaking(words_for(language)):
        fights = [refusal_record(fight, decls) for fight, decls in refused]
        messages = script_catalogue(TRACKER_DOMAIN)
        reasons = [reason for fight in fights for reason in fight["invalid"][0]["reasons"]]
        assert english_pieces() and english_left("\n".join(reasons)) == []
    report = run_node({"rules": rules_data(), "messages": messages, "fights": fights}, tmp_path)
    assert report["faults"] == [] and report["invalid"] == len(refused) >= ROUNDS // 20
    assert len(reasons) == len(english)
    assert [text for text, same in zip(reasons, english, strict=True) if text == same] == []


HAND_MADE_REASONS = ("Ash is Rattled and may only Escape or Recover, not Attack",
                     "Bo: Defend Other must be aimed at someone else (use Defend Self)")


@pytest.mark.parametrize("language", SHIPPED)
def test_an_illegal_round_is_refused_by_both_with_the_same_reasons(tmp_path, language):
    """A hand-made refusal, so the test above cannot pass by never refusing:
    the same reasons from both, in the language (the English ones are these)."""
    ash = Character(name="Ash", description="A test fighter.", hit_points=4)
    bo = Character(name="Bo", description="A test fighter.", hit_points=4)
    fight = (fresh(ash, {})._replace(rattled=True), fresh(bo, {}))
    decls = [Declaration("Ash", "attack", 3, "Bo"), Declaration("Bo", "defend_other", 2, "Bo")]
    with speaking(words_for(language)), pytest.raises(IllegalDeclaration) as refused:
        resolve_round(fight, decls)
    with speaking(words_for(language)):
        messages = script_catalogue(TRACKER_DOMAIN)
        left = english_left("\n".join(refused.value.reasons))
        assert refusal_record(fight, decls)["invalid"][0]["reasons"] == list(refused.value.reasons)
        doc = {"rules": rules_data(), "messages": messages, "fights": [refusal_record(fight, decls)]}
    report = run_node(doc, tmp_path)
    assert report["invalid"] == 1 and report["faults"] == []
    if language == "en":
        assert refused.value.reasons == HAND_MADE_REASONS
    else:
        assert left == [] and len(refused.value.reasons) == 2
        assert not set(refused.value.reasons) & set(HAND_MADE_REASONS)


def test_the_words_the_log_translates_are_the_rules_words():
    """resolver.js translates the condition words the rules hand it
    (models.CONDITION_WORDS, through tracker.rules_data); narration.py marks
    the same words for the catalogue: if one changed alone, the JavaScript
    would look up an id the catalogue lacks and print English."""
    assert CONDITION_NAMES == CONDITION_WORDS
    # and the usages it names when a special is spent (models.USAGE_WORDS)
    assert list(USAGE_NAMES) == list(USAGE_NAMES.values()) == list(USAGE_WORDS)
