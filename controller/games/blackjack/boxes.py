"""From the bet book to the boxes that play (docs/rules.md §1.1.1-§1.1.2): the boxes a closed
book seats, the initial deal plan, and every bet still riding (what a void returns)."""

from __future__ import annotations

from controller.games.base import Expect, Settlement
from controller.games.blackjack.phases import BETTING, DONE
from controller.games.blackjack.state import CARD, DEALER_FACE_UP, DEALER_HOLE, Box, RoundState, expect

SECOND_CARD = 100  # deal-plan target offset of a box's second card


def seat_boxes(st: RoundState) -> tuple[int, ...]:
    """The boxes with a main bet, in order, as the round's boxes; a Bet Behind on a box that
    does not play is returned. Gives the numbers of the boxes that play."""
    book = st._book
    numbers = []
    for number in sorted(book):
        bets = book[number]
        if bets.main:
            box = Box(number, bets)
            if box.side and any(k == "bust_it" for _, k, _ in box.side):
                st._bust_it = True
            st._boxes.append(box)
            st._by_number[number] = box
            numbers.append(number)
        else:
            for player, (amount, _) in bets.behind.items():
                st.settlements.append(Settlement(number, 1, "behind", player, amount, amount))
    return tuple(numbers)


_PLANS: dict[tuple[tuple[int, ...], bool], tuple[tuple[int, ...], tuple[Expect | None, ...]]] = {}


def deal_plan(numbers: tuple[int, ...], hole_card: bool) -> tuple[tuple[int, ...], tuple[Expect | None, ...]]:
    """Initial deal order (docs/rules.md §1.1.2): a card to each box, the dealer's up card, a second
    card to each box, then (hole-card games) the dealer's face-down card. Targets are box
    indexes, SECOND_CARD + index for the second card, -1 the up card, -2 the hole card; the
    expects end with None (the deal is complete)."""
    plan = _PLANS.get((numbers, hole_card))
    if plan is None:
        n = len(numbers)
        cards = tuple(expect(CARD, b, 1) for b in numbers)
        plan = _PLANS[(numbers, hole_card)] = (
            (*range(n), -1, *range(SECOND_CARD, SECOND_CARD + n)) + ((-2,) if hole_card else ()),
            (*cards, DEALER_FACE_UP, *cards, *((DEALER_HOLE,) if hole_card else ()), None),
        )
    return plan


def open_bets(st: RoundState) -> list[Settlement]:
    """Every bet still riding, as the refund a void would make (payout = stake)."""
    if st._phase == DONE:
        return []
    out = []
    if st._phase == BETTING:
        for number, bets in sorted(st._book.items()):
            out += [Settlement(number, 1, "main", p, a, a) for p, a in bets.main.items()]
            out += [Settlement(number, 1, "behind", p, a, a) for p, (a, _) in bets.behind.items()]
            out += [Settlement(number, 1, k, p, a, a) for (p, k), a in bets.side.items()]
        return out
    for b in st._boxes:
        for i, h in enumerate(b.hands, 1):
            if not h.settled:
                out += [Settlement(b.number, i, bet.kind, bet.player, bet.stake, bet.stake) for bet in h.bets]
        if b.side:
            out += [Settlement(b.number, 1, k, p, a, a) for p, k, a in b.side]
        if b.insurance and st._bj_possible:
            out += [Settlement(b.number, 1, "insurance", p, a, a) for p, a in ((b.owner, b.insurance), *b.behind_insured)]
    return out
