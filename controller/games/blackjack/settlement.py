"""Money on the main hands (docs/rules.md §1.1.6, §1.2): wins, pushes and losses, insurance, the
hands that wait on the dealer's first two cards, and the Bet Behind owner's share.

Every payout of a main or Bet Behind bet goes through ``pay``. The owner's share is taken once
the round ends (``end_round``), on each Bet Behind's *net* win over the round: a Bet Behind that
followed a split wins on one hand and loses on another, and only what it won overall is shared.
The owner gets one ``behind_share`` row per box, whatever the number of Bet Behinds on it.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import cast

from controller.games.base import Settlement
from controller.games.blackjack.hand import BLACKJACK, CHARLIE, LIVE, Hand, HandBet
from controller.games.blackjack.options import ONE_TO_ONE
from controller.games.blackjack.state import Box, RoundState, finish
from controller.money import scale

PUSH, LOSE = "push", "lose"  # hand results that are not a win at some ratio


def pay(st: RoundState, b: Box, hand: int, bet: HandBet, payout: int) -> None:
    """Record ``payout`` for ``bet`` (a Bet Behind's share to the owner comes at ``end_round``)."""
    st.settlements.append(Settlement(b.number, hand, bet.kind, bet.player, bet.stake, payout))


def end_round(st: RoundState) -> None:
    """Nothing more is expected: the owners' shares of the Bet Behinds' net wins, then the end."""
    if st._opts.owner_share:
        settle_owner_shares(st)
    finish(st)


def settle_owner_shares(st: RoundState) -> None:
    """Each Bet Behind's net win over the round (every row of its player on the box, a split's
    hands together) gives ``bet_behind_owner_share`` of it to the box owner: that much comes off
    the Bet Behind's winning rows (largest win first, never more than a row's own win: a push or a
    lost row gives nothing), and the owner gets one ``behind_share`` row per
    box (stake 0, hand 1), after the box's last row. A net push or loss shares nothing."""
    opts = st._opts
    rows = st.settlements
    for b in st._boxes:
        mine = [i for i, s in enumerate(rows) if s.box == b.number and s.kind == "behind"]
        nets: dict[str, int] = {}
        for i in mine:
            nets[rows[i].player] = nets.get(rows[i].player, 0) + rows[i].payout - rows[i].stake
        owed = 0
        for player, net in nets.items():
            cut = scale(net, opts.owner_share, opts.rounding) if net > 0 else 0
            owed += cut
            # only a winning row gives, at most its own win: a push or a lost row keeps what it paid
            winning = [i for i in mine if rows[i].player == player and rows[i].payout > rows[i].stake]
            for i in sorted(winning, key=lambda i: -(rows[i].payout - rows[i].stake)):
                take = min(cut, rows[i].payout - rows[i].stake)
                if take:
                    rows[i] = replace(rows[i], payout=rows[i].payout - take)
                    cut -= take
        if owed:
            last = max(i for i, s in enumerate(rows) if s.box == b.number)
            rows.insert(last + 1, Settlement(b.number, 1, "behind_share", b.owner, 0, owed))


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
            for player, stake in ((b.owner, b.insurance), *b.behind_insured):
                payout = stake + scale(stake, opts.insurance_pays, opts.rounding) if dealer_blackjack else 0
                st.settlements.append(Settlement(b.number, 1, "insurance", player, stake, payout))
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
