"""The outcome of a roulette spin (``RouletteRound.outcome()``)."""

from __future__ import annotations

from controller.games.outcome import Outcome


class RouletteOutcome(Outcome):
    #: european or american
    wheel: str
    #: the winning pocket of each ball ("0", "00", "1".."36")
    numbers: tuple[str, ...]
    #: red, black or green, per number
    colours: tuple[str, ...]
    #: the multiplier draw (straight-up number -> multiplier)
    multipliers: dict[str, int]
    #: the reasons of the spins voided before this one (ball out, miss-spin)
    voids: tuple[str, ...]
