"""How simulated players bet, so the advantage-play watch can be measured on the real table.

A style answers one question per round: given the true count the player has kept (a counter
counts the cards it has seen, as ``hilo.ShoeCount`` does), how much does the player bet, or does
the player sit this round out (``None``)? Stakes are whole betting units (the table minimum).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final, Protocol


class Bettor(Protocol):
    def units(self, true_count: float) -> int | None: ...


class Flat:
    """One unit, every round, whatever the count."""

    def units(self, true_count: float) -> int | None:
        return 1


class RandomBets:
    """One to eight units, drawn afresh each round, blind to the count."""

    def __init__(self, rng: random.Random, top: int = 8) -> None:
        self.rng, self.top = rng, top

    def units(self, true_count: float) -> int | None:
        return self.rng.randint(1, self.top)


class Ramp:
    """A Hi-Lo counter's bet ramp: one unit below a true count of +2, then doubling per count up to
    ``top`` units (1-8: 2, 4, 8 at +2, +3, +4; 1-12: 12 from +5)."""

    def __init__(self, top: int) -> None:
        self.top = top

    def units(self, true_count: float) -> int | None:
        count = math.floor(true_count)
        return 1 if count < 2 else min(self.top, 2 ** (count - 1))


class Covered:
    """A counter who hides the ramp: a quarter of the time the bet moves one step off the ramp."""

    def __init__(self, ramp: Ramp, rng: random.Random, noise: float = 0.25) -> None:
        self.ramp, self.rng, self.noise = ramp, rng, noise

    def units(self, true_count: float) -> int | None:
        units = self.ramp.units(true_count) or 1
        if self.rng.random() < self.noise:
            units = max(1, min(self.ramp.top, units * 2 if self.rng.random() < 0.5 else units // 2))
        return units


class Wonger:
    """Back-counts the shoe and sits in only while the true count is +1 or more, leaving once it
    drops below zero; two units a round while in."""

    def __init__(self, enter: float = 1.0, leave: float = 0.0) -> None:
        self.enter, self.leave = enter, leave
        self.seated = False

    def units(self, true_count: float) -> int | None:
        if self.seated and true_count < self.leave:
            self.seated = False
        elif not self.seated and true_count >= self.enter:
            self.seated = True
        return 2 if self.seated else None


STYLES: Final[dict[str, Callable[[random.Random], Bettor]]] = {
    "flat": lambda rng: Flat(),
    "random": RandomBets,
    "counter-1-8": lambda rng: Ramp(8),
    "counter-1-12": lambda rng: Ramp(12),
    "counter-cover": lambda rng: Covered(Ramp(8), rng),
    "wonger": lambda rng: Wonger(),
}


def bettor(style: str, rng: random.Random) -> Bettor:
    """The named style, or ValueError naming the styles there are."""
    try:
        return STYLES[style](rng)
    except KeyError:
        raise ValueError(f"unknown player style {style!r}; styles: {', '.join(STYLES)}") from None
