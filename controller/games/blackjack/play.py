"""The players' turn (docs/rules.md §1.1.4): whose turn it is, the decisions a hand is offered,
and what hit, stand, double (triple, quadruple; dark and Free Bet doubles), split (Free Bet
splits) and surrender do to the hand, and the cards they draw."""

from __future__ import annotations

from controller.games.blackjack.dealer import start_dealer
from controller.games.blackjack.hand import (
    BUST,
    CARD_POINTS,
    CHARLIE,
    DOUBLING,
    HIT,
    LIVE,
    OPEN,
    SURRENDERED,
    Hand,
    HandBet,
)
from controller.games.blackjack.options import DARK_TOTALS, FREE_DOUBLE_TOTALS, HALF, ONE_TO_ONE, RoundOptions
from controller.games.blackjack.settlement import pay, settle_hand
from controller.games.blackjack.side_settlement import settle_crazy_7
from controller.games.blackjack.state import CARD, DECISION, Box, RoundState, expect
from controller.money import scale

HIT_STAND, STAND = ("hit", "stand"), ("stand",)
MULTIPLIER = {"double": 2, "triple": 3, "quadruple": 4}


def play_decision(st: RoundState, b: Box, box: int, hand: int, action: str) -> None:
    """Carry out ``action``, one of the options offered to the hand whose turn it is."""
    h = b.hands[st._hand_i]
    b.acted = True
    if b.crazy is not None and action in ("stand", "surrender"):  # no third card for Crazy 7
        settle_crazy_7(st, b, None)
    if action == "hit":
        h.status = HIT
        st._expect = expect(CARD, box, hand)
    elif action == "stand":
        h.status = LIVE
        st._hand_i += 1
        next_turn(st)
    elif action == "split":
        split(st, b, h)
        st._expect = expect(CARD, box, hand)
    elif action == "surrender":
        for bet in h.bets:
            pay(st, b, 1, bet, scale(bet.stake, HALF, st._opts.rounding))
        h.status = SURRENDERED
        h.settled = True
        st._hand_i += 1
        next_turn(st)
    else:
        double(st._opts, h, MULTIPLIER[action])
        st._expect = expect(CARD, box, hand, face_down=h.dark)


def next_turn(st: RoundState) -> None:
    """Point at the next hand that needs a card or a decision, or hand over to the dealer."""
    boxes = st._boxes
    box_i, hand_i = st._box_i, st._hand_i
    while box_i < len(boxes):
        box = boxes[box_i]
        hands = box.hands
        while hand_i < len(hands):
            h = hands[hand_i]
            status = h.status
            if len(h.cards) < 2 or status in (HIT, DOUBLING):
                st._box_i, st._hand_i = box_i, hand_i
                st._expect = expect(CARD, box.number, hand_i + 1, face_down=h.dark)
                return
            if status == OPEN:
                st._box_i, st._hand_i = box_i, hand_i
                st._expect = expect(DECISION, box.number, hand_i + 1, options(st, box, h), box.players)
                return
            hand_i += 1
        box_i += 1
        hand_i = 0
    st._box_i, st._hand_i = box_i, hand_i
    start_dealer(st)


def options(st: RoundState, box: Box, h: Hand) -> tuple[str, ...]:
    """The decisions open to hand ``h``, in the order they are offered."""
    opts = st._opts
    can_draw = not h.split_aces or opts.hit_split_aces
    if len(h.cards) != 2:  # after a hit: nothing but drawing on or standing
        return HIT_STAND if can_draw else STAND
    double_on = opts.double_on_totals
    can_double = (
        can_draw
        and (not h.split or opts.double_after_split)
        and (double_on is None or h.total in double_on)
    )
    can_split = (
        len(box.hands) < opts.max_hands
        and is_pair(opts, h)
        and not (h.split_aces and opts.split_aces_one_card)
    )
    can_surrender = (
        opts.surrender
        and not box.acted
        and len(box.hands) == 1
        and (opts.surrender_vs_ace or st._dealer[0][0] != "A")
    )
    return opts.two_card_options[can_draw, can_double, can_split, can_surrender]


def is_pair(opts: RoundOptions, h: Hand) -> bool:
    """A two-card hand that splits: same rank, or same points, as the table splits."""
    a, b = h.cards
    if opts.split_by_rank:
        return a[0] == b[0]
    return CARD_POINTS[a] == CARD_POINTS[b]


def double(opts: RoundOptions, h: Hand, mult: int) -> None:
    """Raise the following bets to ``mult`` times; a Free Bet double on 9-11 is the house's money."""
    total = h.total
    free = opts.free_bet and mult == 2 and total in FREE_DOUBLE_TOTALS
    for bet in h.bets:
        if bet.follows:
            extra = (bet.stake + bet.free) * (mult - 1)
            if free:
                bet.free += extra
            else:
                bet.stake += extra
    h.mult = mult
    h.dark = opts.double_in_dark and mult == 2 and total in DARK_TOTALS
    h.status = DOUBLING


def split(st: RoundState, b: Box, h: Hand) -> None:
    """The second card starts a new hand to the right; the house stakes it on a free split."""
    free = st._opts.free_bet and CARD_POINTS[h.cards[0]] != 10
    new_bets = []
    for bet in h.bets:
        if bet.splits:
            amount = bet.stake + bet.free
            nb = HandBet(bet.player, bet.kind, 0 if free else amount, bet.follows, splits=True)
            if free:
                nb.free = amount
            new_bets.append(nb)
    new = Hand(new_bets, split=True)
    new.add(h.pop())
    h.split = True
    if new.ace:
        h.split_aces = new.split_aces = True
    b.hands.insert(st._hand_i + 1, new)


def deal_to_hand(st: RoundState, card: str) -> None:
    """A card to the hand whose turn it is: bust, Charlie, done drawing or a decision next."""
    box = st._boxes[st._box_i]
    hand_i = st._hand_i
    h = box.hands[hand_i]
    if box.crazy is not None and hand_i == 0:  # the box's third card
        settle_crazy_7(st, box, card)
    doubling = h.status == DOUBLING
    h.add(card)
    opts = st._opts
    if h.hard > 21:
        h.status = BUST
        h.settled = True
        for bet in h.bets:
            pay(st, box, hand_i + 1, bet, 0)
    elif len(h.cards) >= opts.charlie:
        h.status = CHARLIE
        if not st._bj_possible:
            settle_hand(st, box, hand_i + 1, h, ONE_TO_ONE)
    elif doubling or h.total == 21 or (h.split_aces and opts.split_aces_one_card):
        h.status = LIVE
    else:
        h.status = OPEN
    next_turn(st)
