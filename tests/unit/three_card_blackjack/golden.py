"""Golden-round helper: play a Three Card Blackjack round from per-box hands and return its money."""

from __future__ import annotations

from controller.games.base import CloseBetting, Deal, Decide, PlaceBet
from controller.games.three_card_blackjack import (
    ThreeCardBlackjackRound,
    ThreeCardBlackjackRules,
    three_card_blackjack_rules,
)


def play(
    hands: dict[int, str],
    dealer: str,
    decisions: dict[int, str],
    antes: dict[int, int],
    ace_plus: dict[int, int] | None = None,
    rules: ThreeCardBlackjackRules | None = None,
) -> tuple[ThreeCardBlackjackRound, list[tuple[int, str, int, int]]]:
    """Bets, the round-robin deal of ``hands`` ("9H 8D 2C") and ``dealer`` (third card = up card),
    the decisions; returns the round and its settlements as (box, kind, stake, payout)."""
    rnd = ThreeCardBlackjackRound(rules or three_card_blackjack_rules())
    for box, amount in antes.items():
        rnd.apply(PlaceBet(box, "ante", amount, f"p{box}"))
    for box, amount in (ace_plus or {}).items():
        rnd.apply(PlaceBet(box, "ace_plus", amount, f"p{box}"))
    rnd.apply(CloseBetting())
    boxes = sorted(hands)
    for i in range(3):
        for box in boxes:
            rnd.apply(Deal(hands[box].split()[i]))
        rnd.apply(Deal(dealer.split()[i]))
    for box in boxes:
        rnd.apply(Decide(box, decisions[box]))
    return rnd, [(s.box, s.kind, s.stake, s.payout) for s in rnd.settlements]
