"""From the last card of the deal to the first decision (docs/rules.md §1.1.3): insurance and
even money offered box by box on a dealer ace, the peek for the dealer's blackjack, then play."""

from __future__ import annotations

from controller.games.base import IllegalDecision
from controller.games.blackjack.dealer import dealer_blackjack
from controller.games.blackjack.hand import BLACKJACK, CARD_POINTS
from controller.games.blackjack.phases import EVEN_MONEY_OPTIONS, INSURANCE, INSURANCE_OPTIONS, PLAY
from controller.games.blackjack.play import next_turn
from controller.games.blackjack.settlement import pay, settle_pending
from controller.games.blackjack.state import DECISION, Box, RoundState, expect


def after_deal(st: RoundState) -> None:
    """The deal is complete: offer insurance on an ace, else start play."""
    up = st._dealer[0]
    st._bj_possible = CARD_POINTS[up] in (1, 10)
    if not st._bj_possible:
        settle_pending(st, dealer_blackjack=False)
    opts = st._opts
    if up[0] == "A" and (opts.insurance or opts.even_money):
        st._phase = INSURANCE
        st._box_i = -1
        next_offer(st)
    else:
        start_play(st)


def next_offer(st: RoundState) -> None:
    """Insurance / even money box by box on a dealer ace; then play starts."""
    opts = st._opts
    boxes = st._boxes
    i = st._box_i + 1
    while i < len(boxes):
        b = boxes[i]
        h = b.hands[0]
        if h.status == BLACKJACK and opts.even_money:
            offered = EVEN_MONEY_OPTIONS
        elif opts.insurance:
            offered = INSURANCE_OPTIONS
        else:
            i += 1
            continue
        st._box_i = i
        st._expect = expect(DECISION, b.number, 1, offered, b.players)
        return
    start_play(st)


def insurance_decision(st: RoundState, b: Box, action: str, amount: int | None) -> None:
    """The box owner's answer to the offer; ``amount`` is the insurance stake (default: half the
    box bet, the most allowed). The box bet is every player's main bet on the box (RULES §1: "at
    most half the box bet"), so the owner of a shared box may insure all of it."""
    opts = st._opts
    if action == "insurance":
        half = sum(bet.stake for bet in b.hands[0].bets if bet.kind == "main") // 2
        if amount is None:
            amount = half
        elif not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalDecision("blackjack.insurance.amount", f"insurance is whole minor units, not {amount!r}")
        elif opts.insurance_exact and amount != half:
            raise IllegalDecision("blackjack.insurance.exactly_half", f"insurance is exactly {half}, not {amount}")
        elif not min(opts.insurance_min, half) <= amount <= half:
            raise IllegalDecision(
                "blackjack.insurance.amount",
                f"insurance {amount} outside {min(opts.insurance_min, half)}..{half}",
            )
        if amount <= 0:
            raise IllegalDecision("blackjack.insurance.amount", f"insurance must be positive, not {amount}")
        b.insurance = amount
        b.behind_insured = b.insures  # the Bet Behinds whose preset follows the owner's insurance
    elif amount is not None:
        raise IllegalDecision("blackjack.decision.amount", f"{action} takes no amount")
    elif action == "even_money":
        h = b.hands[0]
        for bet in h.bets:
            pay(st, b, 1, bet, 2 * bet.stake)
        h.settled = True
    next_offer(st)


def start_play(st: RoundState) -> None:
    """Peek where the rules peek (a blackjack ends the round), then the first hand's turn."""
    opts = st._opts
    if opts.hole_card and st._dealer[0][0] in opts.peek_on:
        if st._dealer_ace and st._dealer_hard == 11:
            dealer_blackjack(st)
            return
        st._bj_possible = False
        settle_pending(st, dealer_blackjack=False)
    st._phase = PLAY
    st._box_i = 0
    st._hand_i = 0
    next_turn(st)
