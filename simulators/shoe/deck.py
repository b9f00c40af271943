"""What the simulated shoe deals from: any ``DealOrder`` the caller hands it (``docs/devices.md``).

The firmware is a device, not a game: it does not know compositions or rules, only "the next
card, and is the cut card out". The table passes its own shuffled shoe (so a restart rebuilds
the same deal from a seed); standalone runs get ``ShuffledDeck``, a plain shuffle of whole
decks with the cut card at 70-80 % penetration.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

RANKS = "23456789TJQKA"
SUITS = "SHDC"


class DealOrder(Protocol):
    """The cards in the shoe, in the order they will leave it."""

    @property
    def dealt(self) -> int: ...

    @property
    def remaining(self) -> int: ...

    @property
    def cut_reached(self) -> bool: ...

    def draw(self) -> str: ...


#: a new shoe of N decks, shuffled (the firmware calls it on the host's ``SHOE`` command)
Reshuffle = Callable[[int], DealOrder]


class ShuffledDeck:
    """``decks`` whole decks shuffled by ``rng``, the cut card after 70-80 % of them."""

    def __init__(self, decks: int, rng: random.Random) -> None:
        cards = [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]
        rng.shuffle(cards)
        cards.reverse()  # dealt by pop() from the end
        self._cards = cards
        self.size = len(cards)
        self.cut_after = rng.randint(round(self.size * 0.7), round(self.size * 0.8))

    @property
    def dealt(self) -> int:
        return self.size - len(self._cards)

    @property
    def remaining(self) -> int:
        return len(self._cards)

    @property
    def cut_reached(self) -> bool:
        return self.dealt >= self.cut_after

    def draw(self) -> str:
        if not self._cards:
            raise IndexError("the shoe is empty")
        return self._cards.pop()


def shuffler(rng: random.Random) -> Reshuffle:
    """The standalone firmware's reshuffle: a ``ShuffledDeck`` from ``rng``."""
    return lambda decks: ShuffledDeck(decks, rng)
