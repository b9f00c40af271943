"""Round flow, prompts and refusals of the Three Card Blackjack engine."""

from __future__ import annotations

import json
import pickle

import pytest

from controller.games.base import (
    BetRefused,
    ClearBets,
    CloseBetting,
    Deal,
    Decide,
    ExpectKind,
    IllegalDecision,
    PhaseError,
    PlaceBet,
    RuleError,
    UnexpectedCard,
    VoidRound,
)
from controller.games.three_card_blackjack import ThreeCardBlackjackRound, three_card_blackjack_rules


def dealt_round(ace_plus: bool = True) -> ThreeCardBlackjackRound:
    """Boxes 1 and 3 (Ante 1000, Ace Plus 500 each), all nine cards dealt."""
    rnd = ThreeCardBlackjackRound(three_card_blackjack_rules())
    for box in (1, 3):
        rnd.place_bet(box, "ante", 1000, "ann")
        if ace_plus:
            rnd.place_bet(box, "ace_plus", 500, "ann")
    rnd.close_betting()
    # shoe order: b1 b3 dealer x3 -> box 1 AH 5D 6C, box 3 AS AD 2C, dealer KH QS 9D (9D up)
    for card in ("AH", "AS", "KH", "5D", "AD", "QS", "6C", "2C", "9D"):
        rnd.deal(card)
    return rnd


def test_deal_prompts_round_robin_face_down_and_dealer_up_card_last():
    rnd = ThreeCardBlackjackRound(three_card_blackjack_rules())
    rnd.place_bet(2, "ante", 1000)
    rnd.place_bet(5, "main", 1000)  # the spot's generic kind is the Ante
    rnd.close_betting()
    seen = []
    for card in ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"):
        e = rnd.expects()
        seen.append((e.kind, e.box, e.face_down))
        rnd.deal(card)
    C, D = ExpectKind.CARD, ExpectKind.DEALER_CARD
    assert seen == [(C, 2, True), (C, 5, True), (D, None, True)] * 2 + [(C, 2, True), (C, 5, True), (D, None, False)]
    assert rnd.dealer_cards[-1] == "TH"
    e = rnd.expects()
    assert (e.kind, e.box, e.options, e.note) == (ExpectKind.DECISION, 2, ("play", "fold"), "15")


def test_ace_plus_settles_when_each_box_is_turned():
    rnd = dealt_round()
    # box 1 (A-5-6: A-x-x 1:1) is turned at once; box 3 (A-A-2: A-A-x 15:1) only after box 1 decides
    assert [(s.box, s.kind, s.payout) for s in rnd.settlements] == [(1, "ace_plus", 1000)]
    rnd.decide(1, "fold")
    assert [(s.box, s.kind, s.payout) for s in rnd.settlements] == [
        (1, "ace_plus", 1000),
        (1, "ante", 0),
        (3, "ace_plus", 8000),
    ]
    assert rnd.expects().box == 3


def test_round_ends_after_the_last_decision_with_outcome():
    rnd = dealt_round(ace_plus=False)
    rnd.decide(1, "play", amount=1000)
    rnd.decide(3, "play")
    # dealer K+Q = 20 qualifies; box 1 A-5-6: A+6 = 17 (A+5 = 16, all three 12 or 22) loses;
    # box 3 A+A+2: 11+1+2 = 14 loses
    assert rnd.expects().kind is ExpectKind.DONE
    assert [(s.box, s.kind, s.payout) for s in rnd.settlements] == [
        (1, "ante", 0), (1, "play", 0), (3, "ante", 0), (3, "play", 0)
    ]
    out = rnd.outcome().record()
    json.dumps(out)
    assert out["dealer"] == {"cards": ["KH", "QS", "9D"], "value": 20, "blackjack": False, "qualifies": True}
    assert [(b["box"], b["value"], b["decision"]) for b in out["boxes"]] == [(1, 17, "play"), (3, 14, "play")]


def test_void_returns_every_unsettled_bet():
    rnd = dealt_round()
    rnd.decide(1, "play")
    rnd.apply(VoidRound("misdeal"))
    # both Ace Plus bets were settled when their boxes were turned (box 3 after box 1 played) and
    # stand; the Antes and box 1's Bet return
    assert [(s.box, s.kind, s.stake, s.payout) for s in rnd.settlements] == [
        (1, "ace_plus", 500, 1000),
        (3, "ace_plus", 500, 8000),
        (1, "ante", 1000, 1000),
        (1, "play", 1000, 1000),
        (3, "ante", 1000, 1000),
    ]
    assert rnd.outcome()["void"] == "misdeal"
    with pytest.raises(PhaseError):
        rnd.void_round("again")


def test_clear_bets_then_rebet():
    rnd = ThreeCardBlackjackRound(three_card_blackjack_rules())
    rnd.apply(PlaceBet(1, "ante", 1000, "ann"))
    rnd.apply(ClearBets(1, "ann"))
    rnd.apply(PlaceBet(1, "ante", 2000, "bob"))
    rnd.close_betting()
    assert rnd.expects().box == 1


@pytest.mark.parametrize(
    ("setup", "action", "error", "rule"),
    [
        ("open", PlaceBet(6, "ante", 1000), BetRefused, "tcb.box"),
        ("open", PlaceBet(1, "bonus", 1000), BetRefused, "tcb.kind"),
        ("open", PlaceBet(2, "ace_plus", 500), BetRefused, "tcb.ace_plus.needs_ante"),
        ("open", PlaceBet(1, "ante", 1000, "bob"), BetRefused, "tcb.box.owner"),
        ("open", PlaceBet(1, "ante", -5, "ann"), BetRefused, "tcb.amount"),
        ("open", PlaceBet(1, "ante", 600_000, "ann"), BetRefused, "tcb.limits"),
        ("open", Deal("AS"), UnexpectedCard, "tcb.card.betting"),
        ("open", Decide(1, "play"), PhaseError, "tcb.phase"),
        ("dealing", Deal("QS"), UnexpectedCard, "tcb.card.duplicate"),
        ("dealing", Deal("1S"), UnexpectedCard, "tcb.card"),
        ("dealing", PlaceBet(1, "ante", 100, "ann"), BetRefused, "tcb.betting_closed"),
        ("dealt", Decide(3, "play"), IllegalDecision, "tcb.turn"),
        ("dealt", Decide(1, "hit"), IllegalDecision, "tcb.option"),
        ("dealt", Decide(1, "play", amount=2000), IllegalDecision, "tcb.play.amount"),
        ("dealt", Decide(1, "play", player="bob"), IllegalDecision, "tcb.box.owner"),
        ("dealt", Deal("2D"), UnexpectedCard, "tcb.card.decisions"),
        ("dealt", CloseBetting(), PhaseError, "tcb.phase"),
    ],
)
def test_refusals_name_the_rule_and_change_nothing(setup, action, error, rule):
    if setup == "open":
        rnd = ThreeCardBlackjackRound(three_card_blackjack_rules())
        rnd.place_bet(1, "ante", 1000, "ann")
    elif setup == "dealing":
        rnd = ThreeCardBlackjackRound(three_card_blackjack_rules())
        rnd.place_bet(1, "ante", 1000, "ann")
        rnd.close_betting()
        rnd.deal("QS")
    else:
        rnd = dealt_round()
    before = pickle.dumps(rnd)
    with pytest.raises(error) as info:
        rnd.apply(action)
    assert info.value.rule == rule
    assert pickle.dumps(rnd) == before


def test_table_without_ace_plus_and_empty_close_are_refused():
    rnd = ThreeCardBlackjackRound(three_card_blackjack_rules(overrides={"ace_plus": False}))
    with pytest.raises(BetRefused, match="tcb.close.no_ante"):
        rnd.close_betting()
    rnd.place_bet(1, "ante", 1000)
    with pytest.raises(RuleError, match="tcb.ace_plus.off"):
        rnd.place_bet(1, "ace_plus", 500)
