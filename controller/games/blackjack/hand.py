"""A blackjack hand and the bets riding on it.

Kept as plain slotted objects: the house-edge runner plays hundreds of thousands of rounds
through the engine, so a hand is a few integers and a list, not a validated model.
"""

from __future__ import annotations

from typing import Final

from controller.cards import BJ_POINTS, DECK

#: Blackjack points of every card (ace counted 1), looked up by the two-character card.
CARD_POINTS: Final[dict[str, int]] = {c: BJ_POINTS[c[0]] for c in DECK}

# Hand status. OPEN waits for a decision, HIT/DOUBLING for the card a decision asked for;
# LIVE is finished by the player and waits for the dealer; the rest are final results.
OPEN, HIT, DOUBLING, LIVE, BUST, SURRENDERED, BLACKJACK, CHARLIE = range(8)
STATUS_NAMES: Final = ("open", "hit", "doubling", "live", "bust", "surrendered", "blackjack", "charlie")


class HandBet:
    """One player's money on one hand.

    ``stake`` is the player's own money, ``free`` the house's (Free Bet free doubles and
    splits), ``original`` the part a no-hole-card dealer blackjack takes under
    ``dealer_blackjack_takes = original`` (the first bet, on hand 1 only). ``follows`` is
    False for a Bet Behind that opted out of doubles, ``splits`` for one that opted out of splits.
    """

    __slots__ = ("follows", "free", "kind", "original", "player", "splits", "stake")

    def __init__(self, player: str, kind: str, stake: int, follows: bool = True, original: int = 0,
                 splits: bool | None = None) -> None:
        self.player = player
        self.kind = kind
        self.stake = stake
        self.free = 0
        self.original = original
        self.follows = follows
        self.splits = follows if splits is None else splits


class Hand:
    """Cards of one hand with a running hard total (aces as 1) and whether it holds an ace."""

    __slots__ = ("ace", "bets", "cards", "dark", "hard", "mult", "settled", "split", "split_aces", "status")

    def __init__(self, bets: list[HandBet], split: bool = False) -> None:
        self.cards: list[str] = []
        self.hard = 0
        self.ace = False
        self.bets = bets
        self.split = split  # born of a split: 21 is not blackjack, DAS applies
        self.split_aces = False
        self.mult = 1  # 2/3/4 once doubled/tripled/quadrupled
        self.dark = False  # the double card lies face down until settlement
        self.status = OPEN
        self.settled = False

    def add(self, card: str) -> None:
        pts = CARD_POINTS[card]
        self.cards.append(card)
        self.hard += pts
        if pts == 1:
            self.ace = True

    def pop(self) -> str:
        """Take the second card away (a split); the hand keeps its first card."""
        card = self.cards.pop()
        self.hard = CARD_POINTS[self.cards[0]]
        self.ace = self.hard == 1
        return card

    @property
    def total(self) -> int:
        """Best total: an ace counts 11 where that does not bust."""
        return self.hard + 10 if self.ace and self.hard <= 11 else self.hard

    @property
    def soft(self) -> bool:
        return self.ace and self.hard <= 11

    @property
    def natural(self) -> bool:
        """Blackjack: two cards making 21 on a hand not born of a split."""
        return not self.split and len(self.cards) == 2 and self.ace and self.hard == 11


def hand_total(cards: list[str] | tuple[str, ...]) -> int:
    """Best blackjack total of any cards (used for the dealer and in reports)."""
    hard = 0
    ace = False
    for c in cards:
        p = CARD_POINTS[c]
        hard += p
        ace = ace or p == 1
    return hard + 10 if ace and hard <= 11 else hard
