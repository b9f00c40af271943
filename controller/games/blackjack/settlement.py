"""Money on the main hands (docs/rules.md §1.1.6, §1.2): wins, pushes and losses, insurance, the
hands that wait on the dealer's first two cards, and the Bet Behind owner's share.

Every payout of a main or Bet Behind bet goes through ``pay``, so the owner's share is taken in
one place.
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from controller.games.base import Settlement
from controller.games.blackjack.hand import BLACKJACK, CHARLIE, LIVE, Hand, HandBet
from controller.games.blackjack.options import ONE_TO_ONE
from controller.games.blackjack.state import Box, RoundState
from controller.money import scale

PUSH, LOSE = "push", "lose"  # hand results that are not a win at some ratio


def pay(st: RoundState, b: Box, hand: int, bet: HandBet, payout: int) -> None:
    """Record ``payout`` for ``bet``; a winning Bet Behind gives the box owner his share."""
    opts = st._opts
    share = opts.owner_share
    if share and bet.kind == "behind" and payout > bet.stake:
        cut = scale(payout - bet.stake, share, opts.rounding)
        if cut:
            st.settlements.append(Settlement(b.number, hand, "behind", bet.player, bet.stake, payout - cut))
            st.settlements.append(Settlement(b.number, hand, "behind_share", b.owner, 0, cut))
            return
    st.settlements.append(Settlement(b.number, hand, bet.kind, bet.player, bet.stake, payout))


def settle_hand(st: RoundState, b: Box, hand: int, h: Hand, result: Fraction | str) -> None:
    """``result``: PUSH, LOSE or a win at that ratio."""
    h.settled = True
    rounding = st._opts.rounding
    for bet in h.bets:
        if result is PUSH:
            payout = bet.stake
        elif result is LOSE:
            payout = 0
        else:  # the house's free money wins for the player, but is not the player's to get back
            payout = bet.stake + scale(bet.stake + bet.free, cast(Fraction, result), rounding)
        pay(st, b, hand, bet, payout)


def settle_pending(st: RoundState, dealer_blackjack: bool) -> None:
    """Insurance, and blackjacks and Charlies waiting for the dealer's first two cards."""
    opts = st._opts
    bj_pays = opts.blackjack_pays
    for b in st._boxes:
        if b.insurance:
            payout = b.insurance + scale(b.insurance, opts.insurance_pays, opts.rounding) if dealer_blackjack else 0
            st.settlements.append(Settlement(b.number, 1, "insurance", b.owner, b.insurance, payout))
        for i, h in enumerate(b.hands, 1):
            if h.settled:
                continue
            if h.status == BLACKJACK:
                settle_hand(st, b, i, h, PUSH if dealer_blackjack else bj_pays)
            elif h.status == CHARLIE and not dealer_blackjack:  # else it loses as any hand does
                settle_hand(st, b, i, h, ONE_TO_ONE)


def settle_live(st: RoundState, dealer_total: int) -> None:
    """The dealer stood on ``dealer_total`` (or busted): every hand waiting for him settles."""
    push_22 = st._opts.dealer_22_pushes and dealer_total == 22
    for b in st._boxes:
        for i, h in enumerate(b.hands, 1):
            if h.status != LIVE or h.settled:
                continue
            t = h.total
            if dealer_total > 21:
                result: Fraction | str = PUSH if push_22 else ONE_TO_ONE
            else:
                result = ONE_TO_ONE if t > dealer_total else PUSH if t == dealer_total else LOSE
            settle_hand(st, b, i, h, result)


def lose_to_blackjack(st: RoundState, b: Box) -> None:
    """Every unsettled hand of ``b`` loses to the dealer's blackjack (a no-hole-card dealer
    takes only the original bets where the rules say so)."""
    takes_original = st._opts.takes_original
    for i, h in enumerate(b.hands, 1):
        if h.settled:
            continue
        h.settled = True
        for bet in h.bets:
            pay(st, b, i, bet, bet.stake - bet.original if takes_original else 0)
