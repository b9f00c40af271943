"""The outcome of a Catch a Wave round (``CatchAWaveRound.outcome()``)."""

from __future__ import annotations

from controller.games.outcome import Outcome


class CatchAWaveBox(Outcome):
    box: int
    cards: tuple[str, ...]
    #: "higher" / "lower", one per card after the first
    calls: tuple[str, ...]
    right_calls: int
    #: playing, stood, lost or wave
    status: str


class CatchAWaveDealer(Outcome):
    cards: tuple[str, ...]
    calls: tuple[str, ...]
    right_calls: int
    #: the dealer called wrong (or drew an equal card): every live bet won
    wrong: bool


class CatchAWaveOutcome(Outcome):
    phase: str
    void: str | None
    boxes: tuple[CatchAWaveBox, ...]
    dealer: CatchAWaveDealer
