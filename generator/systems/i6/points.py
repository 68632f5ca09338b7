"""Point-buy arithmetic for I6 heroes. Core layer: pure functions.

Each level of a trait costs one point except the fifth, which costs two, so a
trait rated 5 costs 6. Features and gear each carry their own price.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

FIFTH_LEVEL_COST = 2


def trait_cost(rating: int) -> int:
    """Points spent on one trait at `rating` (1-5)."""
    if not 1 <= rating <= 5:
        raise ValueError(f"a trait is rated 1 to 5, not {rating}")
    return rating - 1 + FIFTH_LEVEL_COST if rating == 5 else rating


@dataclass(frozen=True)
class Spend:
    """Where a hero's points went, and how that compares with the budget."""

    traits: int
    features: int
    gear: int
    budget: int

    @property
    def total(self) -> int:
        return self.traits + self.features + self.gear

    @property
    def left(self) -> int:
        """Unspent points; negative when the hero is over budget."""
        return self.budget - self.total


def spend(ratings: Mapping[str, int], feature_costs: Iterable[int], gear_costs: Iterable[int],
          budget: int) -> Spend:
    return Spend(sum(trait_cost(r) for r in ratings.values()), sum(feature_costs), sum(gear_costs), budget)
