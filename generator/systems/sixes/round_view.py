"""One round of a simulated fight as every side sees it: foes, allies, the
weakest and the downed, worked out once per round instead of once per
fighter.

Core layer: standard library only. The simulator's policies keep their call
signature `policy(rng, fight, side, i)`; they ask `round_view(fight, side)`,
which builds a RoundView on the first call of a round and hands the same one
to every other fighter of that round (it is cached on the identity of the
immutable `fight` and `side` tuples). So a brawl of n fighters costs O(n)
per round to look at, not O(n^2).

Every list keeps the order the straightforward code had (roster order, and
stable sorts for "weakest"), so a random pick among them draws the same
numbers and picks the same fighter.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:          # named for the type checker only: this module imports no rules
    from .resolver import Combatant


class Without(Sequence):
    """`items` with some positions (`left_out`, ascending) skipped, without
    copying: its length and any element come straight from `items`, so a
    random pick among a side's foes costs no pass over the roster."""

    __slots__ = ("items", "left_out", "_shift", "_len")

    def __init__(self, items: Sequence, left_out: Sequence[int] = ()):
        self.items, self.left_out = items, left_out
        self._len = len(items) - len(left_out)
        self._shift: list[int] | None = None    # made on the first look inside: often only len() is asked

    def __len__(self) -> int:
        return self._len

    # Integers only (no slices): random.choice and the policies index one item at a time.
    def __getitem__(self, j: int) -> Any:  # type: ignore[override]
        if j < 0:
            j += self._len
        if not 0 <= j < self._len:
            raise IndexError(j)
        shift = self._shift
        if shift is None:
            # shift[t]: how many kept items come before the t-th left-out one;
            # the kept item j sits after exactly bisect_right(shift, j) of them.
            shift = self._shift = [p - t for t, p in enumerate(self.left_out)]
        return self.items[j + bisect_right(shift, j)]


# Sort keys, as C-level getters: sorting is the bulk of a round view's work.
hit_points = attrgetter("hp")
weakness = attrgetter("hp", "profile.armour")   # who counts as weakest: fewest hit points, then least armour


def downed(c: Combatant) -> bool:
    """Rattled at 0 hit points: open to a killing blow."""
    return c.rattled and c.hp == 0


class RoundView:
    """The fighters able to act (roster order), grouped by side, and what
    the policies ask about them. Each answer is worked out on first use and
    kept for the rest of the round: everyone on a side sees the same foes."""

    __slots__ = ("fight", "side", "acting", "acting_index", "acting_sides", "standing_sides", "_members", "_downed",
                 "_answers")

    def __init__(self, fight: tuple, side: tuple):
        self.fight, self.side = fight, side
        # One plain loop: a duel builds a view every round, so its fixed cost counts too.
        acting: list[Any] = []                          # the fighters able to act, in roster order
        index: list[int] = []
        sides: list[int] = []
        down: list[int] = []
        standing: set[int] = set()
        members: dict[int, list[int]] = {}              # side -> positions in `acting` of its members
        for j, c in enumerate(fight):
            if c.can_act:
                k = side[j]
                members.setdefault(k, []).append(len(acting))
                if not c.rattled:
                    standing.add(k)
                elif downed(c):
                    down.append(len(acting))
                acting.append(c)
                index.append(j)
                sides.append(k)
        self.acting, self.acting_index, self.acting_sides, self._members = acting, index, sides, members
        self._downed = down                             # positions in `acting` of the downed
        # Sides with someone on their feet (able to act, not Rattled): see simulate.standing_sides.
        self.standing_sides = standing
        self._answers: dict[Any, Any] = {}               # question (a key or a tuple) -> answer, this round

    def _order(self, key: Callable) -> list[int]:
        """Positions in `acting` sorted by `key`; ties stay in roster order
        (the sort is stable). `downed` orders the downed by weakness."""
        found = self._answers.get(key)
        if found is None:
            acting = self.acting
            if key is downed:
                found = sorted(self._downed, key=lambda p: weakness(acting[p]))
            else:
                found = sorted(range(len(acting)), key=list(map(key, acting)).__getitem__)
            self._answers[key] = found
        return found

    def _first_foes(self, k: int, key: Callable, count: int) -> list[Combatant]:
        """The first `count` fighters not on side k in `key` order, kept for
        the round: the walk passes over side k's own members at most."""
        found = self._answers.get((key, k, count))
        if found is None:
            found, sides, acting = [], self.acting_sides, self.acting
            for p in self._order(key):
                if sides[p] != k:
                    found.append(acting[p])
                    if len(found) == count:
                        break
            self._answers[(key, k, count)] = found
        return found

    def remember(self, key: Any, make: Callable[[], Any]) -> Any:
        """An answer a policy works out once per round (e.g. who guards whom),
        kept with the view's own answers for the rest of the round."""
        found = self._answers.get(key, self)
        if found is self:
            found = self._answers[key] = make()
        return found

    # --- foes --------------------------------------------------------------

    def foe_standing(self, k: int) -> bool:
        """Whether any foe of side k is on their feet (able to act, not Rattled)."""
        standing = self.standing_sides
        return len(standing) > 1 or (len(standing) == 1 and k not in standing)

    def foe_count(self, k: int) -> int:
        """How many not on side k are able to act."""
        return len(self.acting) - len(self._members.get(k, ()))

    def foes(self, k: int) -> Without:
        """Everyone able to act who is not on side k, in roster order."""
        found = self._answers.get(("foes", k))
        if found is None:
            found = self._answers[("foes", k)] = Without(self.acting, self._members.get(k, ()))
        return found

    def weakest_foes(self, k: int, count: int) -> list[Combatant]:
        """Side k's `count` foes with fewest hit points (ties in roster order)."""
        return self._first_foes(k, hit_points, count)

    def weakest_foe(self, k: int) -> Combatant | None:
        """Side k's weakest foe (see `weakness`), or None."""
        found = self._first_foes(k, weakness, 1)
        return found[0] if found else None

    def weakest_downed_foe(self, k: int) -> Combatant | None:
        """Side k's weakest foe who is Rattled at 0 hit points, or None."""
        if not self._downed:
            return None         # the usual case, answered at once
        found = self._first_foes(k, downed, 1)
        return found[0] if found else None

    # --- allies ------------------------------------------------------------

    def ally_count(self, i: int) -> int:
        """How many on fighter i's side, other than i, are able to act."""
        same_side = len(self._members.get(self.side[i], ()))
        return same_side - 1 if self.fight[i].can_act else same_side

    def allies_acting(self, i: int) -> list[Combatant]:
        """Everyone able to act on fighter i's side except i, in roster order
        (two slices of the side's list: a copy at C speed)."""
        k = self.side[i]
        found = self._answers.get(("allies", k))
        if found is None:
            positions = self._members.get(k, ())
            found = self._answers[("allies", k)] = ([self.acting[p] for p in positions],
                                                    [self.acting_index[p] for p in positions])
        fighters, indices = found
        mine = bisect_left(indices, i)
        if mine < len(indices) and indices[mine] == i:
            return fighters[:mine] + fighters[mine + 1:]
        return list(fighters)

    def rattled_allies(self, k: int) -> list[int]:
        """Roster positions of side k's fighters who are Rattled and able to
        act (so escaping or recovering), in roster order."""
        found = self._answers.get(("rattled allies", k))
        if found is None:
            acting, index = self.acting, self.acting_index
            found = self._answers[("rattled allies", k)] = [index[p] for p in self._members.get(k, ())
                                                             if acting[p].rattled]
        return found

    def downed_ally(self, i: int) -> Combatant | None:
        """The first fighter on i's side (roster order), other than i, able to
        act and Rattled at 0 hit points, or None."""
        by_side = self._answers.get("downed allies")
        if by_side is None:
            by_side = self._answers["downed allies"] = {}
            for p in self._downed:
                by_side.setdefault(self.acting_sides[p], []).append(self.acting_index[p])
        for j in by_side.get(self.side[i], ()):
            if j != i:
                return self.fight[j]
        return None

    def weakest_hurt_ally(self, k: int) -> Combatant | None:
        """The weakest fighter still in the fight on side k (the asker too)
        below half hit points, leaving out anyone Rattled and able to act (they
        are escaping), or None."""
        by_side = self._answers.get("hurt allies")
        if by_side is None:
            hurt: dict[int, list] = {}
            for j, c in enumerate(self.fight):
                if c.in_fight and 2 * c.hp < c.profile.hit_points and not (c.rattled and c.can_act):
                    hurt.setdefault(self.side[j], []).append(c)
            by_side = self._answers["hurt allies"] = {k: min(cs, key=weakness) for k, cs in hurt.items()}
        return by_side.get(k)


_last: RoundView | None = None


def round_view(fight: Sequence, side: Sequence[int]) -> RoundView:
    """The view of this round, shared by every fighter who declares in it.
    Only tuples are cached: a tuple of Combatants (immutable named tuples)
    cannot change under the cache, so the same object means the same round."""
    global _last
    view = _last
    if view is not None and view.fight is fight and view.side is side:
        return view
    if not (isinstance(fight, tuple) and isinstance(side, tuple)):
        return RoundView(tuple(fight), tuple(side))
    view = _last = RoundView(fight, side)
    return view
