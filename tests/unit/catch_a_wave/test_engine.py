"""Prompts and refusals of the Catch a Wave engine."""

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
from controller.games.catch_a_wave import CatchAWaveRound, catch_a_wave_rules


def started() -> CatchAWaveRound:
    """Boxes 2 (ann, 1000) and 4 (bob, 2000); box 2 holds 6H, box 4 QD, dealer 9S."""
    rnd = CatchAWaveRound(catch_a_wave_rules())
    rnd.place_bet(2, "main", 1000, "ann")
    rnd.place_bet(4, "main", 2000, "bob")
    rnd.close_betting()
    for card in ("6H", "QD", "9S"):
        rnd.deal(card)
    return rnd


def test_prompts_through_a_round():
    rnd = CatchAWaveRound(catch_a_wave_rules())
    assert rnd.expects().kind is ExpectKind.BETS
    rnd.place_bet(2, "main", 1000, "ann")
    rnd.close_betting()
    e = rnd.expects()
    assert (e.kind, e.box, e.face_down) == (ExpectKind.CARD, 2, False)
    rnd.deal("6H")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD
    rnd.deal("9S")
    e = rnd.expects()
    assert (e.kind, e.box, e.options, e.players) == (ExpectKind.DECISION, 2, ("stand", "higher", "lower"), ("ann",))
    rnd.decide(2, "higher")
    e = rnd.expects()
    assert (e.kind, e.box, e.options) == (ExpectKind.CARD, 2, ("higher",))
    rnd.deal("8C")
    assert rnd.expects().note == "1 right calls"
    rnd.decide(2, "stand")
    e = rnd.expects()  # dealer 9: first call lower, predicted
    assert (e.kind, e.options, e.note) == (ExpectKind.DEALER_CARD, ("lower",), "dealer calls lower")
    rnd.deal("2C")  # right (1); on a 2 the dealer calls higher
    assert rnd.expects().options == ("higher",)
    rnd.deal("2D")  # equal: wrong, live bet paid 1:1
    assert rnd.expects().kind is ExpectKind.DONE
    assert [(s.box, s.stake, s.payout) for s in rnd.settlements] == [(2, 1000, 2000)]
    out = rnd.outcome().record()
    json.dumps(out)
    assert out["boxes"][0] == {"box": 2, "cards": ["6H", "8C"], "calls": ["higher"], "right_calls": 1, "status": "stood"}
    assert out["dealer"] == {"cards": ["9S", "2C", "2D"], "calls": ["lower", "higher"], "right_calls": 1, "wrong": True}


def test_void_returns_unsettled_bets_only():
    rnd = started()
    rnd.apply(Decide(2, "higher"))
    rnd.apply(Deal("3C"))  # box 2 wrong: lost, settled
    rnd.apply(VoidRound("shoe jam"))
    assert [(s.box, s.stake, s.payout) for s in rnd.settlements] == [(2, 1000, 0), (4, 2000, 2000)]
    with pytest.raises(PhaseError):
        rnd.apply(VoidRound("again"))


def test_clear_and_rebet():
    rnd = CatchAWaveRound(catch_a_wave_rules())
    rnd.apply(PlaceBet(1, "main", 1000, "ann"))
    rnd.apply(ClearBets(1))
    rnd.apply(PlaceBet(1, "main", 700, "bob"))
    rnd.apply(CloseBetting())
    with pytest.raises(BetRefused):
        CatchAWaveRound(catch_a_wave_rules()).close_betting()


@pytest.mark.parametrize(
    ("action", "error", "rule"),
    [
        (Decide(4, "stand"), IllegalDecision, "caw.turn"),
        (Decide(2, "hit"), IllegalDecision, "caw.option"),
        (Decide(2, "stand", player="bob"), IllegalDecision, "caw.box.owner"),
        (Decide(2, "higher", amount=100), IllegalDecision, "caw.amount"),
        (Deal("7C"), UnexpectedCard, "caw.card.no_call"),
        (Deal("7X"), UnexpectedCard, "caw.card"),
        (PlaceBet(1, "main", 1000), BetRefused, "caw.betting_closed"),
        (ClearBets(2), BetRefused, "caw.betting_closed"),
        (CloseBetting(), PhaseError, "caw.phase"),
    ],
)
def test_refusals_in_play_change_nothing(action, error, rule):
    rnd = started()
    before = pickle.dumps(rnd)
    with pytest.raises(error) as info:
        rnd.apply(action)
    assert info.value.rule == rule and pickle.dumps(rnd) == before


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (PlaceBet(8, "main", 1000), "caw.box"),
        (PlaceBet(1, "ace_plus", 1000), "caw.kind"),
        (PlaceBet(1, "main", 0), "caw.amount"),
        (PlaceBet(1, "main", 10), "caw.limits"),
        (PlaceBet(2, "main", 1000, "bob"), "caw.box.owner"),
        (Deal("AS"), "caw.betting_open"),
        (Decide(2, "stand"), "caw.phase"),
    ],
)
def test_refusals_while_betting(action, rule):
    rnd = CatchAWaveRound(catch_a_wave_rules())
    rnd.place_bet(2, "main", 1000, "ann")
    before = pickle.dumps(rnd)
    with pytest.raises(RuleError) as info:
        rnd.apply(action)
    assert info.value.rule == rule and pickle.dumps(rnd) == before


def test_a_second_call_before_the_card_is_refused():
    rnd = started()
    rnd.decide(2, "lower")
    before = pickle.dumps(rnd)
    with pytest.raises(IllegalDecision, match="caw.card_due"):
        rnd.decide(2, "higher")
    assert pickle.dumps(rnd) == before


def test_dealer_thresholds_are_settings():
    rules = catch_a_wave_rules(overrides={"dealer_first_higher_to": "8", "dealer_higher_to": "5", "dealer_lower_from": "Q"})
    # rank indices: 2 -> 0 ... 8 -> 6 ... A -> 12
    assert rules.dealer_call(6, 0) == "higher" and rules.dealer_call(7, 0) == "lower"
    assert [rules.dealer_call(i, 1) for i in (3, 4, 9, 10)] == ["higher", "stand", "stand", "lower"]
    with pytest.raises(ValueError):
        catch_a_wave_rules(overrides={"dealer_higher_to": "Q", "dealer_lower_from": "J"})
