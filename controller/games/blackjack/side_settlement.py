"""Side bets settled as their cards become known (docs/rules.md §1.2): the deal bets on a box's
second card, Crazy 7 on the first hand's third card, Bust It on the dealer's final hand."""

from __future__ import annotations

from controller.games.base import Settlement
from controller.games.blackjack.paytables import DEAL_KINDS
from controller.games.blackjack.sidebets import (
    bust_it_lines,
    crazy_7_lines,
    hot_3_lines,
    lucky_lucky_lines,
    perfect_pairs_lines,
    side_bet_payout,
    suit_em_up_lines,
    twenty_one_plus_three_lines,
)
from controller.games.blackjack.state import Box, RoundState


def settle_deal_side_bets(st: RoundState, box: Box) -> None:
    """The box's second card: settle what the first two cards and the up card decide."""
    first, second = box.hands[0].cards
    up = st._dealer[0]
    lines: tuple[str, ...]
    for player, kind, amount in list(box.side or ()):
        if kind == "crazy_7":
            if first[0] == second[0] == "7":
                box.crazy = (first, second)
                continue
            lines = crazy_7_lines((first, second))
        elif kind not in DEAL_KINDS:
            continue
        elif kind == "perfect_pairs":
            lines = perfect_pairs_lines(first, second)
        elif kind == "21+3":
            lines = twenty_one_plus_three_lines(first, second, up)
        elif kind == "suit_em_up":
            lines = suit_em_up_lines(first, second)
        elif kind == "lucky_lucky":
            lines = lucky_lucky_lines(first, second, up)
        else:
            lines = hot_3_lines(first, second, up)
        settle_side(st, box, player, kind, amount, lines)


def settle_side(st: RoundState, box: Box, player: str, kind: str, amount: int, lines: tuple[str, ...]) -> None:
    """Pay one side bet on the paytable lines it hit and take it off the box."""
    opts = st._opts
    _, payout = side_bet_payout(lines, opts.paytables[kind], amount, opts.rounding)
    st.settlements.append(Settlement(box.number, 1, kind, player, amount, payout))
    side = box.side
    if side is not None:
        side.remove((player, kind, amount))


def settle_crazy_7(st: RoundState, box: Box, third: str | None) -> None:
    """A 7-7 Crazy 7 settles on the first hand's next card, or on two if none comes."""
    first_two = box.crazy
    if first_two is None:
        return
    box.crazy = None
    cards = (*first_two, third) if third else first_two
    for player, kind, amount in [bet for bet in box.side or () if bet[1] == "crazy_7"]:
        settle_side(st, box, player, kind, amount, crazy_7_lines(cards))


def settle_bust_it(st: RoundState, dealer_blackjack: bool) -> None:
    """Bust It on the dealer's final hand (a blackjack loses it)."""
    if not st._bust_it:
        return
    st._bust_it = False
    lines = bust_it_lines(st._dealer, dealer_blackjack)
    for b in st._boxes:
        for player, kind, amount in [bet for bet in b.side or () if bet[1] == "bust_it"]:
            settle_side(st, b, player, kind, amount, lines)
