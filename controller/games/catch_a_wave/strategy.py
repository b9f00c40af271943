"""The published seed strategy of Catch a Wave (docs/rules.md §3) as data, and a player that uses it.

``SEED_TABLE`` is the rule book's table verbatim: per dealer up card, the stand range for 0..5
right calls so far ("none" = always hit). Outside the range the player calls higher below it and
lower above it; an 8 that must be hit is called towards the side of 8 with more unseen cards.
"""

from __future__ import annotations

from typing import Final, Protocol

from controller.cards import RANK_INDEX
from controller.games.catch_a_wave.rules import HIGHER, LOWER, STAND

SEED_TABLE: Final[dict[str, tuple[str, ...]]] = {
    "2": ("none", "8", "7-9", "6-10", "6-10", "7-9"),
    "3": ("none", "8", "6-10", "6-10", "6-10", "7-9"),
    "4": ("8", "7-9", "6-10", "5-J", "6-10", "8"),
    "5": ("7-9", "6-10", "6-10", "6-10", "7-9", "8"),
    "6": ("5-J", "6-10", "5-J", "6-10", "7-9", "8"),
    "7": ("4-Q", "5-J", "5-J", "6-10", "8", "none"),
    "8": ("4-Q", "4-Q", "5-J", "6-10", "8", "none"),
    "9": ("4-Q", "5-J", "5-J", "6-10", "8", "none"),
    "10": ("5-J", "6-10", "5-J", "6-10", "7-9", "8"),
    "J": ("7-9", "6-10", "6-10", "6-10", "7-9", "8"),
    "Q": ("8", "7-9", "6-10", "5-J", "6-10", "8"),
    "K": ("none", "8", "6-10", "6-10", "6-10", "7-9"),
    "A": ("none", "8", "7-9", "6-10", "6-10", "7-9"),
}

EIGHT: Final = RANK_INDEX["8"]
BELOW_EIGHT: Final = "234567"
ABOVE_EIGHT: Final = "9TJQKA"


class Unseen(Protocol):
    """What the player knows of the shoe: cards of a rank not yet seen (``Composition``)."""

    def rank_left(self, rank: str) -> int: ...


def _index(text: str) -> int:
    return RANK_INDEX["T" if text == "10" else text]


def parse_range(text: str) -> tuple[int, int] | None:
    """``"6-10"`` -> (4, 8) rank indices, ``"8"`` -> (6, 6), ``"none"`` -> None (always hit)."""
    if text == "none":
        return None
    lo, _, hi = text.partition("-")
    return _index(lo), _index(hi or lo)


class SeedStrategy:
    """Plays a box by ``table`` (default the seed table); ties at an 8 call ``tie_call``."""

    def __init__(self, table: dict[str, tuple[str, ...]] = SEED_TABLE, tie_call: str = HIGHER) -> None:
        self._ranges = {
            (_index(up), calls): parse_range(cell) for up, row in table.items() for calls, cell in enumerate(row)
        }
        self.tie_call = tie_call

    def decide(self, dealer_up: int, right_calls: int, last: int, unseen: Unseen) -> str:
        """stand / higher / lower for a box whose last card is ``last`` (rank indices)."""
        span = self._ranges[dealer_up, right_calls]
        if span is not None:
            lo, hi = span
            if last < lo:
                return HIGHER
            if last > hi:
                return LOWER
            return STAND
        if last != EIGHT:
            return HIGHER if last < EIGHT else LOWER
        below = sum(unseen.rank_left(r) for r in BELOW_EIGHT)
        above = sum(unseen.rank_left(r) for r in ABOVE_EIGHT)
        if above == below:
            return self.tie_call
        return HIGHER if above > below else LOWER
