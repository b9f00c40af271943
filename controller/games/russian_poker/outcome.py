"""The outcome of a Russian poker round (``RussianPokerRound.outcome()``); boxes are keyed by
their number as text, in the order the boxes play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from controller.games.outcome import Outcome
from controller.games.poker_hands import AK_HIGH, evaluate, hand_class

HAND_SIZE: Final = 5


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


def hand_label(cards: Sequence[str]) -> str | None:
    """The hand class of five cards; None for any other count (a hand not complete, a misdeal)."""
    return hand_class(evaluate(cards)).label if len(cards) == HAND_SIZE else None


def russian_outcome(boxes: Iterable[tuple[int, Sequence[str], str, bool]], dealer: Sequence[str],
                    dealer_up: str | None, void: str | None) -> RussianPokerOutcome:
    """The outcome from each box's (number, cards, status, exchanged) and the dealer's cards."""
    dealer_hand = hand_label(dealer)
    return RussianPokerOutcome(
        boxes={
            str(n): RussianPokerBox(cards=tuple(cards), hand=hand_label(cards), status=status, exchanged=exchanged)
            for n, cards, status, exchanged in boxes
        },
        dealer=RussianPokerDealer(
            cards=tuple(dealer),
            up=dealer_up,
            hand=dealer_hand,
            qualifies=(evaluate(dealer) >= AK_HIGH) if dealer_hand else None,
        ),
        void=void,
    )
