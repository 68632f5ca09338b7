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
from typing import Any, Callable


class Without(Sequence):
    """`items` with some positions (`left_out`, ascending) skipped, without
    copying: its length and any element come straight from `items`, so a
    random pick among a side's foes costs no pass over the roster."""

    __slots__ = ("items", "_shift", "_len")

    def __init__(self, items: Sequence, left_out: Sequence[int] = ()):
        self.items = items
        # _shift[t]: how many kept items come before the t-th left-out one;
        # the kept item j sits after exactly bisect_right(_shift, j) of them.
        self._shift = [p - t for t, p in enumerate(left_out)]
        self._len = len(items) - len(left_out)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, j: int) -> Any:
        if j < 0:
            j += self._len
        if not 0 <= j < self._len:
            raise IndexError(j)
        return self.items[j + bisect_right(self._shift, j)]


def hit_points(c) -> int:
    return c.hp


def weakness(c) -> tuple[int, int]:
    """Who counts as weakest: fewest hit points, then least armour."""
    return c.hp, c.profile.armour


def downed(c) -> bool:
    """Rattled at 0 hit points: open to a killing blow."""
    return c.rattled and c.hp == 0


class RoundView:
    """The fighters able to act (roster order), grouped by side, and what
    the policies ask about them; each answer is computed on first use."""

    __slots__ = ("fight", "side", "acting", "acting_index", "acting_sides", "_members", "_foes", "_orders",
                 "_first", "_allies", "_down", "_hurt")

    def __init__(self, fight: tuple, side: tuple):
        self.fight, self.side = fight, side
        self.acting_index = [j for j, c in enumerate(fight) if c.can_act]
        self.acting = [fight[j] for j in self.acting_index]
        self.acting_sides = [side[j] for j in self.acting_index]
        self._members: dict[int, list[int]] = {}        # side -> positions in `acting` of its members
        for p, k in enumerate(self.acting_sides):
            self._members.setdefault(k, []).append(p)
        self._foes: dict[int, Without] = {}
        self._orders: dict[tuple, list[int]] = {}
        self._first: dict[tuple, list] = {}
        self._allies: dict[int, tuple[list, list[int]]] = {}
        self._down: dict[int, list[int]] | None = None
        self._hurt: dict[int, Any] | None = None

    # --- foes --------------------------------------------------------------

    def foes(self, k: int) -> Without:
        """Everyone able to act who is not on side k, in roster order."""
        found = self._foes.get(k)
        if found is None:
            found = self._foes[k] = Without(self.acting, self._members.get(k, ()))
        return found

    def _order(self, key: Callable, only: Callable | None) -> list[int]:
        """Positions in `acting` of those passing `only`, sorted by `key`;
        ties stay in roster order (the sort is stable)."""
        found = self._orders.get((key, only))
        if found is None:
            acting = self.acting
            kept = range(len(acting)) if only is None else [p for p, c in enumerate(acting) if only(c)]
            found = self._orders[(key, only)] = sorted(kept, key=lambda p: key(acting[p]))
        return found

    def _first_foes(self, k: int, key: Callable, count: int, only: Callable | None = None) -> list:
        """The first `count` foes of side k (of those passing `only`) in `key`
        order. The walk passes over side k's own members at most."""
        found = self._first.get((k, key, count, only))
        if found is None:
            found, sides, acting = [], self.acting_sides, self.acting
            for p in self._order(key, only):
                if sides[p] != k:
                    found.append(acting[p])
                    if len(found) == count:
                        break
            self._first[(k, key, count, only)] = found
        return found

    def weakest_foes(self, k: int, count: int) -> list:
        """Side k's `count` foes with fewest hit points (ties in roster order)."""
        return self._first_foes(k, hit_points, count)

    def weakest_foe(self, k: int):
        """Side k's weakest foe (see `weakness`), or None."""
        found = self._first_foes(k, weakness, 1)
        return found[0] if found else None

    def weakest_downed_foe(self, k: int):
        """Side k's weakest foe who is Rattled at 0 hit points, or None."""
        found = self._first_foes(k, weakness, 1, downed)
        return found[0] if found else None

    # --- allies ------------------------------------------------------------

    def allies_acting(self, i: int) -> Without:
        """Everyone able to act on fighter i's side except i, in roster order."""
        k = self.side[i]
        found = self._allies.get(k)
        if found is None:
            positions = self._members.get(k, [])
            found = self._allies[k] = ([self.acting[p] for p in positions],
                                       [self.acting_index[p] for p in positions])
        fighters, indices = found
        mine = bisect_left(indices, i)
        return Without(fighters, [mine] if mine < len(indices) and indices[mine] == i else [])

    def downed_ally(self, i: int):
        """The first fighter on i's side (roster order), other than i, able to
        act and Rattled at 0 hit points, or None."""
        if self._down is None:
            self._down = {}
            for p, c in enumerate(self.acting):
                if downed(c):
                    self._down.setdefault(self.acting_sides[p], []).append(self.acting_index[p])
        for j in self._down.get(self.side[i], ()):
            if j != i:
                return self.fight[j]
        return None

    def weakest_hurt_ally(self, k: int):
        """The weakest fighter still in the fight on side k (the asker too)
        below half hit points, leaving out anyone Rattled and able to act (they
        are escaping), or None."""
        if self._hurt is None:
            hurt: dict[int, list] = {}
            for j, c in enumerate(self.fight):
                if c.in_fight and 2 * c.hp < c.profile.hit_points and not (c.rattled and c.can_act):
                    hurt.setdefault(self.side[j], []).append(c)
            self._hurt = {side: min(cs, key=weakness) for side, cs in hurt.items()}
        return self._hurt.get(k)


_last: RoundView | None = None


def round_view(fight: Sequence, side: Sequence[int]) -> RoundView:
    """The view of this round, shared by every fighter who declares in it.
    Only tuples are cached (their contents cannot change under the cache)."""
    global _last
    view = _last
    if view is not None and view.fight is fight and view.side is side:
        return view
    if not (isinstance(fight, tuple) and isinstance(side, tuple)):
        return RoundView(tuple(fight), tuple(side))
    view = _last = RoundView(fight, side)
    return view
