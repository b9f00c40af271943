"""Blackjack side bets (RULES.md §1.2): which paytable lines a set of cards makes.

A hand can make several lines at once (a perfect pair is also a coloured and a mixed pair;
suited trips are also trips and a flush); the bet pays the best line the table's paytable
holds, so a paytable that drops a line falls back to the next one the cards still make.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from controller.cards import RANK_INDEX, RED_SUITS
from controller.money import Rounding, win

ACE_LOW_STRAIGHT = (0, 1, 12)  # 2-3-A sorted by rank index: A-2-3


def perfect_pairs_lines(first: str, second: str) -> tuple[str, ...]:
    """Lines of the Perfect Pairs paytable made by a box's first two cards."""
    if first[0] != second[0]:
        return ()
    if first[1] == second[1]:
        return ("perfect", "coloured", "mixed")
    if (first[1] in RED_SUITS) == (second[1] in RED_SUITS):
        return ("coloured", "mixed")
    return ("mixed",)


def twenty_one_plus_three_lines(a: str, b: str, c: str) -> tuple[str, ...]:
    """Lines of the 21+3 paytable made by the first two cards and the dealer's up card."""
    ranks = sorted((RANK_INDEX[a[0]], RANK_INDEX[b[0]], RANK_INDEX[c[0]]))
    flush = a[1] == b[1] == c[1]
    trips = ranks[0] == ranks[2]
    straight = (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1) or tuple(ranks) == ACE_LOW_STRAIGHT
    lines: list[str] = []
    if trips and flush:
        lines.append("suited_trips")
    if straight and flush:
        lines.append("straight_flush")
    if trips:
        lines.append("three_of_a_kind")
    if straight:
        lines.append("straight")
    if flush:
        lines.append("flush")
    return tuple(lines)


def side_bet_payout(
    lines: tuple[str, ...], paytable: Mapping[str, Fraction], stake: int, rounding: Rounding
) -> tuple[str | None, int]:
    """The best paying line the paytable holds and what the bet returns (0: lost)."""
    best: str | None = None
    for line in lines:
        ratio = paytable.get(line)
        if ratio is not None and (best is None or ratio > paytable[best]):
            best = line
    if best is None:
        return None, 0
    return best, win(stake, paytable[best], rounding)
