"""Hand values of Three Card Blackjack and the Ace Plus line, shared by engine and analysis.

A hand is worth the best blackjack total of all three cards or of any two (two cards never
exceed 21, so a hand never busts); blackjack (an ace and a ten-value card among the three)
ranks above every 21 and is represented as ``BLACKJACK`` = 22 so hands compare as integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from controller.cards import BJ_POINTS, TEN_VALUES

BLACKJACK: Final = 22
_PAIRS: Final = ((0, 1), (0, 2), (1, 2))

ONE: Final = Fraction(1)
PUSH: Final = Fraction(0)
LOSE: Final = Fraction(-1)


def _best(points: Sequence[int]) -> int:
    """Blackjack total of a few cards (aces given as 1): one ace counts 11 where that fits."""
    total = sum(points)
    if 1 in points and total + 10 <= 21:
        return total + 10
    return total


def hand_value(ranks: Sequence[str]) -> int:
    """Value of three ranks: BLACKJACK, else the best total of the three or of two of them."""
    if "A" in ranks and any(r in TEN_VALUES for r in ranks):
        return BLACKJACK
    pts = [BJ_POINTS[r] for r in ranks]
    best = _best(pts)
    if best > 21:
        best = 0
    for i, j in _PAIRS:
        v = _best((pts[i], pts[j]))
        if v > best:
            best = v
    return best


def ace_plus_line(ranks: Sequence[str]) -> str | None:
    """The Ace Plus line of three ranks (``"A-T-x"``...), None when there is no ace."""
    aces = sum(r == "A" for r in ranks)
    if aces == 0:
        return None
    tens = sum(r in TEN_VALUES for r in ranks)
    return "-".join(["A"] * aces + ["T"] * tens + ["x"] * (3 - aces - tens))


def resolve(player: int, dealer: int, qualifies: int, blackjack_pays: Fraction) -> tuple[Fraction, Fraction]:
    """Net result per unit staked of (Ante, Bet) of a box that played, from the two hand values.

    Dealer short of ``qualifies``: both push, but a player blackjack wins ``blackjack_pays`` on
    the Ante. Dealer qualifies: higher hand wins 1:1 on both, both blackjack goes to the player,
    any other tie pushes.
    """
    if dealer < qualifies:
        return (blackjack_pays if player == BLACKJACK else PUSH), PUSH
    if player > dealer or player == BLACKJACK:
        return ONE, ONE
    if player < dealer:
        return LOSE, LOSE
    return PUSH, PUSH
