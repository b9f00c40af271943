"""The outcome of a Three Card Blackjack round (``ThreeCardBlackjackRound.outcome()``)."""

from __future__ import annotations

from controller.games.outcome import Outcome


class ThreeCardHand(Outcome):
    cards: tuple[str, ...]
    #: the hand's value once it holds three cards (``hand.BLACKJACK`` for a blackjack)
    value: int | None
    blackjack: bool


class ThreeCardDealer(ThreeCardHand):
    qualifies: bool


class ThreeCardBox(ThreeCardHand):
    box: int
    #: "play" or "fold" once decided
    decision: str | None
    #: the Ace Plus line of the three cards (``rules.ACE_PLUS_LINES``), None without an ace
    ace_plus: str | None


class ThreeCardBlackjackOutcome(Outcome):
    phase: str
    void: str | None
    dealer: ThreeCardDealer
    boxes: tuple[ThreeCardBox, ...]
