"""Blackjack side bets (docs/rules.md, blackjack §1.2): which paytable lines a set of cards makes.

A hand can make several lines at once (a perfect pair is also a coloured and a mixed pair;
suited trips are also trips and a flush); the bet pays the best line the table's paytable
holds, so a paytable that drops a line falls back to the next one the cards still make.
Line names are those of ``paytables.SIDE_BETS``. In Lucky Lucky and Hot 3 an ace counts 1 or
11, whichever gives the better total (A-9-A is 21, A-9-9 is 19).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from controller.cards import BJ_POINTS, RANK_INDEX, RED_SUITS, TEN_VALUES
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


def suit_em_up_lines(first: str, second: str) -> tuple[str, ...]:
    """Suit'em Up lines of a box's first two cards (every line needs one suit)."""
    if first[1] != second[1]:
        return ()
    ranks = {first[0], second[0]}
    lines: list[str] = []
    if ranks == {"A"}:
        lines.append("suited_aces")
    if "A" in ranks and ranks & TEN_VALUES:
        lines.append("suited_blackjack")
    if first[0] == second[0]:
        lines.append("suited_pair")
    if "A" not in ranks and BJ_POINTS[first[0]] + BJ_POINTS[second[0]] == 11:
        lines.append("suited_11")
    lines.append("suited")
    return tuple(lines)


def three_card_total(cards: tuple[str, str, str]) -> int:
    """Best total of three cards, an ace counting 11 where that does not pass 21."""
    hard = sum(BJ_POINTS[c[0]] for c in cards)
    return hard + 10 if hard <= 11 and any(c[0] == "A" for c in cards) else hard


def _totals_lines(cards: tuple[str, str, str], suited: bool) -> list[str]:
    total = three_card_total(cards)
    lines = []
    if total == 21 and suited:
        lines.append("suited_21")
    if total in (19, 20, 21):
        lines.append(str(total))
    return lines


def lucky_lucky_lines(first: str, second: str, up: str) -> tuple[str, ...]:
    """Lucky Lucky lines of a box's first two cards and the dealer's up card."""
    cards = (first, second, up)
    suited = first[1] == second[1] == up[1]
    ranks = sorted(c[0] for c in cards)
    lines: list[str] = []
    if ranks == ["7", "7", "7"]:
        lines += ["suited_7_7_7", "7_7_7"] if suited else ["7_7_7"]
    elif ranks == ["6", "7", "8"]:
        lines += ["suited_6_7_8", "6_7_8"] if suited else ["6_7_8"]
    return tuple(lines + _totals_lines(cards, suited))


def hot_3_lines(first: str, second: str, up: str) -> tuple[str, ...]:
    """Hot 3 lines of a box's first two cards and the dealer's up card."""
    cards = (first, second, up)
    suited = first[1] == second[1] == up[1]
    lines = ["7_7_7"] if first[0] == second[0] == up[0] == "7" else []
    return tuple(lines + _totals_lines(cards, suited))


def bust_it_line(ncards: int) -> str:
    """The Bust It line of a dealer bust in ``ncards`` cards."""
    return "8_or_more_cards" if ncards >= 8 else f"{ncards}_cards"


def bust_it_lines(dealer: tuple[str, ...] | list[str], dealer_blackjack: bool) -> tuple[str, ...]:
    """The Bust It line of the dealer's final hand: his card count if he busted (22 included)."""
    if dealer_blackjack or sum(BJ_POINTS[c[0]] for c in dealer) <= 21:
        return ()
    return (bust_it_line(len(dealer)),)


def crazy_7_lines(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Crazy 7 lines of a box's first two or three cards, in the order dealt."""
    lines: list[str] = []
    if not cards or cards[0][0] != "7":
        return ()
    if len(cards) >= 2 and cards[1][0] == "7":
        if len(cards) >= 3 and cards[2][0] == "7":
            if cards[0][1] == cards[1][1] == cards[2][1]:
                lines.append("suited_7_7_7")
            lines.append("7_7_7")
        if cards[0][1] == cards[1][1]:
            lines.append("suited_7_7")
        lines.append("7_7")
    lines.append("first_7")
    return tuple(lines)


def best_ratio(lines: tuple[str, ...], paytable: Mapping[str, Fraction]) -> tuple[str | None, Fraction | None]:
    """The best paying line of ``lines`` the paytable holds, and its ratio (None: the bet loses)."""
    best: str | None = None
    ratio: Fraction | None = None
    for line in lines:
        r = paytable.get(line)
        if r is not None and (ratio is None or r > ratio):
            best, ratio = line, r
    return best, ratio


def side_bet_payout(
    lines: tuple[str, ...], paytable: Mapping[str, Fraction], stake: int, rounding: Rounding
) -> tuple[str | None, int]:
    """The best paying line the paytable holds and what the bet returns (0: lost)."""
    best, ratio = best_ratio(lines, paytable)
    if ratio is None:
        return None, 0
    return best, win(stake, ratio, rounding)
