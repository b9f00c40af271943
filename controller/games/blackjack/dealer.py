"""The dealer's hand (docs/rules.md §1.1.5): his cards, the reveal of his first two, his forced
play, and what his blackjack or his standing total settles."""

from __future__ import annotations

from controller.games.blackjack.hand import BLACKJACK, CARD_POINTS, CHARLIE, LIVE
from controller.games.blackjack.phases import DEALER
from controller.games.blackjack.settlement import end_round, lose_to_blackjack, settle_live, settle_pending
from controller.games.blackjack.side_settlement import settle_bust_it, settle_crazy_7
from controller.games.blackjack.state import DEALER_FACE_UP, RoundState


def dealer_add(st: RoundState, card: str) -> None:
    st._dealer.append(card)
    points = CARD_POINTS[card]
    st._dealer_hard += points
    if points == 1:
        st._dealer_ace = True


def start_dealer(st: RoundState) -> None:
    """Every hand is played: the dealer's turn (or the end, when nothing waits for him)."""
    st._phase = DEALER
    if st._bj_possible:
        if len(st._dealer) == 2:  # hole card, not peeked: shown now
            reveal(st)
        elif any_live(st) or any_pending(st) or st._bust_it:
            st._expect = DEALER_FACE_UP
        else:
            end_round(st)
        return
    dealer_continue(st)


def reveal(st: RoundState) -> None:
    """The dealer's first two cards are known: blackjack settles everything, else play on."""
    st._bj_possible = False
    if st._dealer_ace and st._dealer_hard == 11:
        dealer_blackjack(st)
        return
    settle_pending(st, dealer_blackjack=False)
    dealer_continue(st)


def dealer_continue(st: RoundState) -> None:
    if any_live(st) or st._bust_it:
        dealer_draw_or_stand(st)
    else:
        end_round(st)


def dealer_draw_or_stand(st: RoundState) -> None:
    """The dealer's forced play (docs/rules.md §1.1.5); standing settles the live hands."""
    hard = st._dealer_hard
    ace = st._dealer_ace
    total = hard + 10 if ace and hard <= 11 else hard
    if total < 17 or (total == 17 and ace and hard <= 7 and st._opts.hits_soft_17):
        st._expect = DEALER_FACE_UP
        return
    st._dealer_stood = True
    settle_live(st, total)
    settle_bust_it(st, dealer_blackjack=False)
    end_round(st)


def dealer_blackjack(st: RoundState) -> None:
    """Dealer blackjack beats every hand but a blackjack (which pushes)."""
    st._bj_possible = False
    settle_pending(st, dealer_blackjack=True)
    settle_bust_it(st, dealer_blackjack=True)
    for b in st._boxes:
        settle_crazy_7(st, b, None)  # a peeked blackjack: no third card comes
        lose_to_blackjack(st, b)
    end_round(st)


def any_live(st: RoundState) -> bool:
    for b in st._boxes:
        for h in b.hands:
            if h.status == LIVE and not h.settled:
                return True
    return False


def any_pending(st: RoundState) -> bool:
    """Insurance, or a blackjack or Charlie that waits for the dealer's first two cards."""
    return any(b.insurance for b in st._boxes) or any(
        not h.settled and (h.status == BLACKJACK or h.status == CHARLIE) for b in st._boxes for h in b.hands
    )
