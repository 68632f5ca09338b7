"""Six Shooter odds against hand-written tables, brute-force enumeration
(bf_ functions) and seeded simulation. Each bf_ oracle follows the text
directly, position by position or die face by die face, sharing no code
with the rules module beyond the numbers it is given."""
from __future__ import annotations

import random
import statistics
from fractions import Fraction as F
from functools import lru_cache
from itertools import product

import pytest

from generator.systems.six_shooter.contest import Side, contest_odds
from generator.systems.six_shooter.markov import HandState, Luck, expected_challenges, removal_within
from generator.systems.six_shooter.rules import (card_allowed, effective_critical, help_allowed, odds,
                                                 stage_odds, stages_within)

FACES = range(1, 7)


# --- one roll --------------------------------------------------------------------------------------

def bf_roll(base, strikes=0, reduction=0, wager=0):
    """(clean, with hand, failure) by reading each die face against the number."""
    number = base
    for _ in range(strikes):
        number = min(number + 1, 7)
    number -= reduction + wager
    if number <= 0:
        return (F(1), F(0), F(0))
    clean = sum(F(1, 6) for d in FACES if d > number)
    hand = sum(F(1, 6) for d in FACES if d == number)
    fail = sum(F(1, 6) for d in FACES if d < number)
    return (clean, hand, fail)


# Written out by hand from the rules: sixths of (clean, success with hand roll, failure).
GOLDEN_SIXTHS: dict[int, tuple[object, ...]] = {1: (5, 1, 0), 2: (4, 1, 1), 3: (3, 1, 2), 4: (2, 1, 3), 5: (1, 1, 4),
                                                6: (0, 1, 5), 7: (0, 0, 6)}


@pytest.mark.parametrize("base", range(1, 8))
def test_plain_rolls_match_the_hand_written_table(base):
    o = odds(base)
    assert (o.clean * 6, o.with_hand * 6, o.failure * 6) == GOLDEN_SIXTHS[base]
    assert o.clean + o.with_hand + o.failure == 1


def test_every_legal_combination_matches_brute_force():
    checked = 0
    for base, strikes, reduction in product(range(1, 8), range(3), range(6)):
        o = odds(base, strikes, reduction=reduction)
        assert (o.clean, o.with_hand, o.failure) == bf_roll(base, strikes, reduction), (base, strikes, reduction)
        checked += 1
    for base, strikes in product(range(1, 8), range(3)):
        for wager in range(0, 4 - strikes):
            o = odds(base, strikes, wager=wager)
            assert (o.clean, o.with_hand, o.failure) == bf_roll(base, strikes, wager=wager)
            checked += 1
    assert checked == 7 * 3 * 6 + 7 * (4 + 3 + 2)


def test_worked_examples():
    assert effective_critical(6, strikes=2) == 7          # capped
    assert effective_critical(6, strikes=2, reduction=5) == 2   # ace after the cap
    assert effective_critical(4, strikes=2) == 6
    assert odds(2, reduction=2).clean == 1               # 0 or lower: no roll
    assert odds(7, wager=3).success == F(1, 2)           # 7 - 3 = 4: success on 4 (with hand), 5 or 6
    assert odds(7).success == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"strikes": 3}, "0 to 2 strikes"),
    ({"reduction": 1, "wager": 1}, "cannot be used on an All Or Nothing roll"),
    ({"strikes": 2, "wager": 2}, "at most 1 may be wagered"),
    ({"reduction": -1}, "cannot be negative"),
])
def test_illegal_rolls_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        effective_critical(4, **kwargs)


# --- cards ------------------------------------------------------------------------------------------

SUIT = {"danger": "clubs", "sharpness": "diamonds", "slyness": "spades", "charm": "hearts"}


def test_own_cards_follow_suit_unless_the_method_is_your_own():
    # The text's example: a Dangerous Operator may play a three of spades on a Danger roll.
    assert card_allowed("spades", "danger", SUIT["danger"], own_method="danger")
    # A Sly Operator fighting needs clubs.
    assert card_allowed("clubs", "danger", SUIT["danger"], own_method="slyness")
    assert not card_allowed("spades", "danger", SUIT["danger"], own_method="slyness")
    allowed = sum(card_allowed(s, m, SUIT[m], own) for s in SUIT.values() for m in SUIT for own in SUIT)
    # Per (method, own): 4 suits when own == method (4 pairs), 1 suit otherwise (12 pairs).
    assert allowed == 4 * 4 + 12 * 1


def test_helping_needs_suit_descriptor_and_method_to_agree():
    # The text's example: a Sly helper's jack of spades on a Charming Operator's Slyness roll.
    assert help_allowed("spades", "slyness", helper_suit="spades", helper_method="slyness")
    assert not help_allowed("spades", "charm", helper_suit="spades", helper_method="slyness")
    assert not help_allowed("hearts", "slyness", helper_suit="spades", helper_method="slyness")
    allowed = sum(help_allowed(s, m, SUIT[h], h) for s in SUIT.values() for m in SUIT for h in SUIT)
    assert allowed == 4   # one suit, one method, per helper descriptor


# --- the hand as a Markov chain ---------------------------------------------------------------------

def bf_removal_within(positions: str, strikes: int, base: int, n: int, lucky: int = 0, jokers: bool = False) -> F:
    """Enumerate every die face, every hand position and every card draw,
    keeping the six positions as a string: d face-down, u face-up, j joker, g gone."""
    lucky_p = F(4 * lucky, 52)

    @lru_cache(maxsize=None)
    def go(pos: str, s: int, k: int) -> F:
        if k == 0:
            return F(0)
        joker_p = F(2 - pos.count("j"), 54) if jokers else F(0)
        number = min(base + s, 7)
        total = F(0)

        def swap(i: int, to: str) -> str:
            """The hand with position i turned to `to`."""
            return pos[:i] + to + pos[i + 1:]
        for face in FACES:
            if face > number:
                total += F(1, 6) * go(pos, s, k - 1)
                continue
            for i in range(6):
                here = F(1, 36)
                card = pos[i]
                if card == "d":
                    total += here * ((1 - joker_p) * go(swap(i, "u"), s, k - 1) + joker_p * go(swap(i, "j"), s, k - 1))
                elif card == "u":
                    total += here * ((1 - lucky_p) * go(swap(i, "g"), s, k - 1)
                                     + lucky_p * (1 - joker_p) * go(pos, s, k - 1)
                                     + lucky_p * joker_p * go(swap(i, "j"), s, k - 1))
                elif card == "j":
                    total += here * go(pos, s, k - 1)
                else:
                    total += here * (F(1) if s + 1 == 3 else go(pos, s + 1, k - 1))
        return total

    return go(positions, strikes, n)


@pytest.mark.parametrize("positions, strikes, base, n, lucky, jokers", [
    ("gggggg", 0, 3, 4, 0, False),
    ("uugggg", 1, 4, 4, 0, False),
    ("duuggg", 2, 2, 4, 2, False),
    ("dujggg", 1, 5, 3, 1, True),
    ("ddduug", 2, 7, 4, 3, True),
])
def test_removal_curve_matches_enumeration(positions, strikes, base, n, lucky, jokers):
    state = HandState(positions.count("d"), positions.count("u"), positions.count("j"), positions.count("g"), strikes)
    curve = removal_within(base, n, Luck(lucky, jokers), state)
    assert curve == [bf_removal_within(positions, strikes, base, k, lucky, jokers) for k in range(n + 1)]


def sim_challenges_until_removal(base: int, lucky: int, jokers: bool, rng: random.Random) -> int:
    """Play one Operator with a real hand of six cards until the third strike."""
    values = list(range(1, 14)) * 4 + ([0, 0] if jokers else [])

    def draw(hand):
        held = [c for c in hand if c == 0]
        while True:
            card = rng.choice(values)
            if card != 0 or len(held) < 2:
                return card
    lucky_values = set(range(2, 2 + lucky))
    hand: list[int] = []
    for _ in range(6):
        hand.append(draw(hand))
    state = ["d"] * 6
    state[rng.randrange(6)] = "u"
    strikes = challenges = 0
    while True:
        challenges += 1
        if rng.randint(1, 6) > min(base + strikes, 7):
            continue
        i = rng.randrange(6)
        if state[i] == "d":
            state[i] = "u"
        elif state[i] == "u" and hand[i] != 0:
            if hand[i] in lucky_values:
                hand[i] = draw(hand)
            else:
                state[i] = "g"
        elif state[i] == "g":
            strikes += 1
            if strikes == 3:
                return challenges


@pytest.mark.parametrize("base, lucky, jokers", [(2, 0, False), (4, 0, False), (6, 0, False), (3, 2, True)])
def test_expected_challenges_agree_with_a_seeded_simulation(base, lucky, jokers):
    rng = random.Random(4 * base + lucky)
    runs = [sim_challenges_until_removal(base, lucky, jokers, rng) for _ in range(3000)]
    exact = float(expected_challenges(base, Luck(lucky, jokers)))
    error = statistics.stdev(runs) / len(runs) ** 0.5
    assert abs(statistics.mean(runs) - exact) < 4 * error, (statistics.mean(runs), exact)


def test_luck_lasts_longer_at_lower_numbers_and_with_lucky_numbers():
    plain = [expected_challenges(c) for c in range(1, 8)]
    assert plain == sorted(plain, reverse=True)
    assert plain[5] == plain[6]   # at 6 and 7 every roll forces a hand roll
    assert expected_challenges(3, Luck(2)) > expected_challenges(3)
    curve = removal_within(4, 30)
    assert curve == sorted(curve) and curve[0] == 0 and curve[-1] < 1
    # Quickest way out: discard the face-up card, then hit its empty place three times.
    assert removal_within(6, 3)[-1] == 0
    assert removal_within(6, 4)[-1] == F(1, 6) * F(1, 6) ** 3


# --- multi-stage challenges ---------------------------------------------------------------------------

def bf_stages_within(number: int, stages: int, rolls: int) -> F:
    total = F(0)
    for faces in product(FACES, repeat=rolls):
        if sum(1 for d in faces if d >= number) >= stages:
            total += F(1, 6 ** rolls)
    return total


@pytest.mark.parametrize("number, stages, rolls", [(1, 2, 3), (3, 2, 4), (4, 3, 5), (6, 2, 5), (7, 1, 4)])
def test_stages_within_matches_enumeration(number, stages, rolls):
    assert stages_within(number, stages, rolls) == bf_stages_within(number, stages, rolls)


def test_stage_odds_by_hand_and_by_simulation():
    three = stage_odds(4, 3)
    assert three.per_roll == F(1, 2) and three.clean_sweep == F(1, 8)
    assert three.expected_rolls == 6 and three.expected_hand_rolls == 4   # 6 rolls, 4 in 6 roll the hand
    assert stage_odds(7, 2).expected_rolls is None
    rng = random.Random(7)
    runs = []
    for _ in range(20000):
        rolls = wins = 0
        while wins < 3:
            rolls += 1
            wins += rng.randint(1, 6) >= 5
        runs.append(rolls)
    exact = float(stage_odds(5, 3).expected_rolls or 0)
    assert exact == 9.0
    assert abs(statistics.mean(runs) - exact) < 4 * statistics.stdev(runs) / len(runs) ** 0.5


# --- contests -----------------------------------------------------------------------------------------

def bf_last_exchange(sa: Side, sb: Side):
    """Both hands empty: whoever rolls the hand gains a strike, so one exchange settles it."""
    win_a = win_b = both = again = F(0)
    for x, y in product(FACES, FACES):
        na = min(y + sa.strikes, 7) - sa.reduction - sa.wager
        nb = min(x + sb.strikes, 7) - sb.reduction - sb.wager
        a_out, b_out = x <= na, y <= nb
        p = F(1, 36)
        if a_out and b_out:
            both += p
        elif a_out:
            win_b += p
        elif b_out:
            win_a += p
        else:
            again += p
    # Nothing changed on a miss by both; later exchanges have no card or wager.
    if again:
        later = bf_last_exchange(Side(strikes=sa.strikes, down=0, up=0, gone=6),
                                 Side(strikes=sb.strikes, down=0, up=0, gone=6))
        win_a, win_b, both = (win_a + again * later[0], win_b + again * later[1], both + again * later[2])
    return win_a, win_b, both


EMPTY = {"down": 0, "up": 0, "gone": 6}


@pytest.mark.parametrize("a, b", [
    (Side(**EMPTY), Side(**EMPTY)),
    (Side(strikes=1, **EMPTY), Side(**EMPTY)),
    (Side(reduction=2, **EMPTY), Side(strikes=2, **EMPTY)),
    (Side(wager=1, **EMPTY), Side(reduction=5, **EMPTY)),
])
def test_contest_from_empty_hands_matches_enumeration(a, b):
    r = contest_odds(a, b)
    assert (r.first_wins, r.second_wins, r.both_struck) == bf_last_exchange(a, b)


def test_plain_contest_between_empty_hands_by_hand():
    r = contest_odds(Side(**EMPTY), Side(**EMPTY))
    assert (r.first_wins, r.second_wins, r.both_struck) == (F(15, 36), F(15, 36), F(6, 36))


def sim_contest(a: Side, b: Side, rng: random.Random) -> str:
    hands = [["d"] * a.down + ["u"] * a.up + ["g"] * a.gone, ["d"] * b.down + ["u"] * b.up + ["g"] * b.gone]
    sides, first = [a, b], True
    while True:
        x, y = rng.randint(1, 6), rng.randint(1, 6)
        struck = [False, False]
        for k, (mine, theirs) in enumerate([(x, y), (y, x)]):
            side = sides[k]
            red, wag = (side.reduction, side.wager) if first else (0, 0)
            number = min(theirs + side.strikes, 7) - red - wag
            if wag and mine < number:
                struck[k] = True
            elif mine <= number:
                i = rng.randrange(6)
                card = hands[k][i]
                hands[k][i] = {"d": "u", "u": "g", "g": "g"}[card]
                struck[k] = card == "g"
        first = False
        if any(struck):
            return {(True, False): "b", (False, True): "a", (True, True): "both"}[(struck[0], struck[1])]


def test_contest_agrees_with_a_seeded_simulation():
    a, b = Side(strikes=1, down=2, up=2, gone=2), Side(reduction=2, down=3, up=2, gone=1)
    exact = contest_odds(a, b)
    rng = random.Random(11)
    n = 6000
    results = [sim_contest(a, b, rng) for _ in range(n)]
    for key, p in (("a", exact.first_wins), ("b", exact.second_wins), ("both", exact.both_struck)):
        share = results.count(key) / n
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(share - float(p)) < 4 * se + 1e-9, (key, share, float(p))


def test_a_fair_contest_is_symmetric_and_edges_help():
    fair = contest_odds(Side(down=3, up=2, gone=1), Side(down=3, up=2, gone=1))
    assert fair.first_wins == fair.second_wins
    assert fair.first_wins + fair.second_wins + fair.both_struck == 1
    carded = contest_odds(Side(reduction=3, down=3, up=2, gone=1), Side(down=3, up=2, gone=1))
    struck = contest_odds(Side(strikes=2, down=3, up=2, gone=1), Side(down=3, up=2, gone=1))
    assert carded.first_wins > fair.first_wins > struck.first_wins


def test_a_lost_wager_removes_only_when_it_reaches_the_third_strike():
    from generator.systems.six_shooter.rules import wager_removal
    assert wager_removal(4, strikes=0, wager=2) == 0               # two strikes from a loss: still in
    # 1 strike held, wager 2 at CN 5: faced as min(5+1, 7) - 2 = 4; fail on 1-3.
    assert wager_removal(5, strikes=1, wager=2) == F(3, 6) == bf_roll(5, 1, wager=2)[2]
    assert wager_removal(7, strikes=2, wager=1) == F(5, 6)         # 7 - 1 = 6: fail on 1-5


def test_challenge_cards_show_impossible_and_stage_odds():
    from generator.core.paths import DEFAULT_DATA_DIR
    from generator.systems.six_shooter.dataset import load_game
    from generator.systems.six_shooter.outputs import challenge_odds, contest_rows, luck_rows
    adventure, _ = load_game(DEFAULT_DATA_DIR / "six-shooter", DEFAULT_DATA_DIR.parent)
    assert adventure is not None
    by_name = {c.name: c for c in adventure.challenges}
    climb = challenge_odds(adventure, by_name["Moonlight Climb"])
    assert [m.odds for m in climb] == [None] * 4 and {m.label for m in climb} == {"Impossible"}
    case = {m.method: m for m in challenge_odds(adventure, by_name["The Glass Case"])}
    danger, sharpness = case["danger"].stages, case["sharpness"].odds
    assert danger is not None and danger.expected_rolls == 18        # 3 stages at 1 in 6
    assert sharpness is not None and sharpness.success == F(1, 2) and case["charm"].stages is None
    rows = contest_rows()
    assert rows[0].result == contest_odds(Side(down=1, up=2, gone=3), Side(down=1, up=2, gone=3))
    assert rows[0].result.first_wins == rows[0].result.second_wins
    assert [r.base for r in luck_rows()] == list(range(1, 8))
    assert luck_rows()[2].points[0] == (0, F(0)) and luck_rows()[2].expected[0] == expected_challenges(3)
