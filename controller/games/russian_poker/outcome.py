"""The outcome of a Russian poker round (``RussianPokerRound.outcome()``); boxes are keyed by
their number as text, in the order the boxes play."""

from __future__ import annotations

from controller.games.outcome import Outcome


class RussianPokerBox(Outcome):
    cards: tuple[str, ...]
    #: the hand class of five cards (``poker_hands.HandClass`` label), None before that
    hand: str | None
    #: live, folded, raised or void
    status: str
    exchanged: bool


class RussianPokerDealer(Outcome):
    cards: tuple[str, ...]
    up: str | None
    hand: str | None
    #: None while the dealer's hand is not complete
    qualifies: bool | None


class RussianPokerOutcome(Outcome):
    boxes: dict[str, RussianPokerBox]
    dealer: RussianPokerDealer
    void: str | None
