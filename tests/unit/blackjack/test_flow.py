"""Round flow: what the round expects at each step, and the typed refusals of illegal input."""

import json

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
    UnexpectedCard,
    VoidRound,
)
from controller.games.blackjack.engine import BlackjackRound
from controller.shoe import Composition, ImpossibleCard

from .helpers import money, refused, rules, run, start

RU6 = rules("ru6")
MAIN = [(1, "main", 1000)]


def _kinds(rnd: BlackjackRound, cards: list[str]) -> list[tuple]:
    seen = []
    for card in cards:
        e = rnd.expects()
        seen.append((e.kind.value, e.box, e.face_down))
        rnd.deal(card)
    return seen


def test_deal_order_no_hole_card():
    rnd = start(RU6, [(3, "main", 1000), (1, "main", 1000)])
    assert _kinds(rnd, ["2S", "3S", "4S", "5S", "6S"]) == [
        ("card", 1, False), ("card", 3, False), ("dealer_card", None, False), ("card", 1, False), ("card", 3, False),
    ]  # fmt: skip
    assert rnd.dealer_cards() == ("4S",) and rnd.hand_cards(1, 1) == ("2S", "5S")
    assert rnd.expects().kind is ExpectKind.DECISION and rnd.expects().box == 1


def test_deal_order_with_hole_card():
    rnd = start(rules("power"), MAIN)
    assert _kinds(rnd, ["2S", "3S", "4S", "5S"]) == [
        ("card", 1, False), ("dealer_card", None, False), ("card", 1, False), ("dealer_card", None, True),
    ]  # fmt: skip


def test_betting_then_cards():
    rnd = BlackjackRound(RU6)
    assert rnd.expects().kind is ExpectKind.BETS
    refused(rnd, UnexpectedCard, "blackjack.card.betting_open", rnd.deal, "AS")
    refused(rnd, BetRefused, "blackjack.bet.limits", rnd.place_bet, 1, "main", 500_001)
    refused(rnd, BetRefused, "blackjack.bet.limits", rnd.place_bet, 1, "main", 99)
    refused(rnd, BetRefused, "blackjack.bet.amount", rnd.place_bet, 1, "main", -5)
    refused(rnd, BetRefused, "blackjack.bet.box", rnd.place_bet, 8, "main", 1000)
    refused(rnd, BetRefused, "blackjack.bet.kind", rnd.place_bet, 1, "lucky", 1000)
    refused(rnd, PhaseError, "blackjack.phase", rnd.decide, 1, 1, "hit")
    rnd.place_bet(1, "main", 1000)
    rnd.close_betting()
    refused(rnd, PhaseError, "blackjack.bet.closed", rnd.place_bet, 2, "main", 1000)
    refused(rnd, PhaseError, "blackjack.bet.closed", rnd.close_betting)


def test_box_total_capped_by_table_max():
    rnd = BlackjackRound(RU6)
    rnd.place_bet(1, "main", 400_000, "alice")
    rnd.place_bet(1, "main", 100_000, "bob")
    refused(rnd, BetRefused, "blackjack.bet.box_max", rnd.place_bet, 1, "main", 100, "carol")


def test_clear_bets_and_empty_round():
    rnd = BlackjackRound(RU6)
    rnd.place_bet(1, "main", 1000, "alice")
    rnd.place_bet(2, "main", 1000, "bob")
    rnd.clear_bets(2, "bob")
    rnd.clear_bets(1)
    rnd.close_betting()
    assert rnd.done and rnd.settlements == [] and rnd.expects().kind is ExpectKind.DONE
    refused(rnd, UnexpectedCard, "blackjack.card.round_over", rnd.deal, "AS")


def test_out_of_turn_inputs():
    rnd = run(start(RU6, MAIN), "TS 6D")
    refused(rnd, IllegalDecision, "blackjack.turn", rnd.decide, 1, 1, "stand")
    run(rnd, "5H")
    refused(rnd, UnexpectedCard, "blackjack.card.decision_pending", rnd.deal, "2C")
    refused(rnd, IllegalDecision, "blackjack.turn", rnd.decide, 1, 2, "stand")
    refused(rnd, IllegalDecision, "blackjack.decision.unknown", rnd.decide, 1, 1, "fold")
    refused(rnd, IllegalDecision, "blackjack.insurance.closed", rnd.decide, 1, 1, "insurance")
    refused(rnd, IllegalDecision, "blackjack.double.multiplier", rnd.decide, 1, 1, "triple")
    refused(rnd, IllegalDecision, "blackjack.decision.amount", rnd.decide, 1, 1, "hit", amount=100)
    refused(rnd, UnexpectedCard, "blackjack.card.not_a_card", rnd.deal, "1S")
    run(rnd, "hit 2C")
    refused(rnd, IllegalDecision, "blackjack.double.first_two_cards", rnd.decide, 1, 1, "double")


def test_insurance_phase_refusals():
    rnd = run(start(RU6, [(1, "main", 1000), (2, "main", 1000)]), "TS AS AD 9H KH")
    refused(rnd, IllegalDecision, "blackjack.insurance.pending", rnd.decide, 1, 1, "stand")
    refused(rnd, IllegalDecision, "blackjack.even_money.blackjack_only", rnd.decide, 1, 1, "even_money")
    refused(rnd, UnexpectedCard, "blackjack.card.insurance_open", rnd.deal, "2C")
    run(rnd, "no_insurance")
    refused(rnd, IllegalDecision, "blackjack.insurance.even_money", rnd.decide, 2, 1, "insurance")


def test_double_only_on_nine_to_eleven_when_so_set():
    rnd = run(start(rules("ru6", double_on="9_10_11"), MAIN), "TS 6D 2H")
    refused(rnd, IllegalDecision, "blackjack.double.totals", rnd.decide, 1, 1, "double")


def test_composition_refuses_an_impossible_card():
    comp = Composition(1)
    rnd = run(start(RU6, MAIN, comp), "AS 6D")
    left = len(comp)
    refused_expect = rnd.expects()
    with pytest.raises(ImpossibleCard):
        rnd.deal("AS")
    assert len(comp) == left and rnd.expects() == refused_expect and rnd.hand_cards(1, 1) == ("AS",)


def test_apply_dispatches_actions():
    rnd = BlackjackRound(RU6)
    for action in [
        PlaceBet(1, "main", 1000),
        PlaceBet(2, "main", 500),
        ClearBets(2),
        CloseBetting(),
        Deal("TS"),
        Deal("7D"),
        Deal("9H"),
        Decide(1, "stand"),
        Deal("TC"),
    ]:
        rnd.apply(action)
    # 19 against 17: 2000
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000)]
    outcome = json.loads(json.dumps(rnd.outcome().record()))
    assert outcome["dealer"] == {"cards": ["7D", "TC"], "face_down": [], "total": 17, "blackjack": False}
    assert outcome["boxes"][0]["hands"][0]["cards"] == ["TS", "9H"]
    assert outcome["boxes"][0]["hands"][0]["total"] == 19


def test_hole_card_stays_face_down_until_the_dealers_turn():
    # power: box J+7, up 7, hole 8 (15): during play the outcome shows only the 7
    rnd = run(start(rules("power"), MAIN), "JS 7D 7H 8C")
    dealer = rnd.outcome()["dealer"]
    assert dealer["face_down"] == [1] and dealer["total"] == 7
    # stand on 17; dealer 15 draws 3 -> 18: shown, 17 loses
    run(rnd, "stand 3C")
    assert rnd.outcome()["dealer"] == {"cards": ["7D", "8C", "3C"], "face_down": [], "total": 18, "blackjack": False}
    assert money(rnd) == [(1, 1, "main", "", 1000, 0)]


def test_void_returns_what_is_still_riding():
    # box 1: 1000 main + 100 21+3; box 2: 1000 main. Deal 8S (box 1), 9S (box 2), AD (up),
    # 8H (box 1), KH (box 2): 21+3 on 8S 8H AD settles now (no line: 0).
    table = rules("ru6", side_bets=("21+3",))
    rnd = run(start(table, [(1, "main", 1000), (1, "21+3", 100), (2, "main", 1000)]), "8S 9S AD 8H KH")
    # box 1 insures 500, splits; hand 1 8+T hits T -> 28 bust (0); then the round is voided:
    # box 1 hand 2 (1000), box 2 (1000) and the insurance (500) come back; the bust and 21+3 stay
    run(rnd, "insurance no_insurance split TC hit TD")
    refunds = rnd.open_bets()
    rnd.apply(VoidRound("shoe jammed"))
    assert rnd.done and rnd.settlements[-len(refunds):] == refunds
    assert money(rnd) == [
        (1, 1, "21+3", "", 100, 0),
        (1, 1, "insurance", "", 500, 500),
        (1, 1, "main", "", 1000, 0),
        (1, 2, "main", "", 1000, 1000),
        (2, 1, "main", "", 1000, 1000),
    ]
    refused(rnd, PhaseError, "blackjack.phase", rnd.void_round)


def test_open_bets_while_betting_are_the_booked_bets():
    rnd = BlackjackRound(rules("am8"))
    rnd.place_bet(1, "main", 1000, "alice")
    rnd.place_bet(1, "perfect_pairs", 100, "alice")
    rnd.place_bet(1, "behind", 500, "bob")
    assert sorted((s.box, s.kind, s.player, s.stake, s.payout) for s in rnd.open_bets()) == [
        (1, "behind", "bob", 500, 500),
        (1, "main", "alice", 1000, 1000),
        (1, "perfect_pairs", "alice", 100, 100),
    ]
