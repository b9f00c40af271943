"""The outcome of a blackjack round (``BlackjackRound.outcome()``): cards, totals and results
per hand and of the dealer. ``face_down`` lists the indexes of cards not shown yet (a dark
double, the hole card before the dealer's turn); totals and blackjack count only cards shown."""

from __future__ import annotations

from controller.games.outcome import Outcome


class BlackjackDealer(Outcome):
    cards: tuple[str, ...]
    face_down: tuple[int, ...]
    total: int
    blackjack: bool


class BlackjackHand(Outcome):
    hand: int
    cards: tuple[str, ...]
    total: int
    #: ``hand.STATUS_NAMES``: open, hit, doubling, live (stood), bust, surrendered, blackjack, charlie
    status: str
    #: 2, 3 or 4 once doubled (tripled, quadrupled)
    multiplier: int
    face_down: tuple[int, ...]


class BlackjackBox(Outcome):
    box: int
    owner: str
    insurance: int
    hands: tuple[BlackjackHand, ...]


class BlackjackOutcome(Outcome):
    phase: str
    dealer: BlackjackDealer
    boxes: tuple[BlackjackBox, ...]
