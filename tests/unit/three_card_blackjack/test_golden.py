"""Hand-worked rounds of docs/rules.md §2; every settlement in cents (Ante 10.00 unless noted)."""

from __future__ import annotations

import pytest

from controller.games.three_card_blackjack import three_card_blackjack_rules
from tests.unit.three_card_blackjack.golden import play

A = 1000  # the Ante, cents


def one_box(hand: str, dealer: str, decision: str = "play", **kw):
    return play({1: hand}, dealer, {1: decision}, {1: A}, **kw)[1]


def test_three_card_total_beats_qualifying_dealer():
    # player 9+8+2 = 19; dealer 7+K = 17 (7+5+K = 22 is too many), qualifies; 19 > 17:
    # Ante and Bet each 1:1 -> 1000 + 1000
    assert one_box("9H 8D 2C", "7S 5C KH") == [(1, "ante", A, 2000), (1, "play", A, 2000)]


def test_two_card_total_when_three_bust_loses_to_higher_dealer():
    # player 9-8-7: all three 24, best two 9+8 = 17; dealer T+Q = 20 qualifies and is higher:
    # Ante and Bet lost
    assert one_box("9H 8D 7C", "TD 7S QS") == [(1, "ante", A, 0), (1, "play", A, 0)]


def test_soft_two_card_total_ties_and_pushes():
    # player 9-8-A: 9+A = 20 (soft), beats 9+8 = 17 and 9+8+A = 18; dealer 9+9+2 = 20:
    # tie of non-blackjacks pushes both
    assert one_box("9H 8D AC", "9C 9D 2H") == [(1, "ante", A, A), (1, "play", A, A)]


def test_blackjack_beats_dealer_three_card_21():
    # player T-8-A: T+A blackjack; dealer 7+7+7 = 21 qualifies; blackjack ranks above 21: 1:1 both
    assert one_box("TH 8D AC", "7C 7D 7H") == [(1, "ante", A, 2000), (1, "play", A, 2000)]


def test_both_blackjack_player_wins():
    # player A+K, dealer A+Q: both blackjack, the player wins: 1:1 on Ante and Bet
    assert one_box("AS KH 2C", "AD QC 3S") == [(1, "ante", A, 2000), (1, "play", A, 2000)]


def test_dealer_blackjack_beats_player_21():
    # player 7+7+7 = 21; dealer A+K blackjack: dealer higher, both lost
    assert one_box("7S 7D 7H", "AH KD 2S") == [(1, "ante", A, 0), (1, "play", A, 0)]


def test_non_qualifying_dealer_pays_blackjack_on_the_ante_only():
    # player A+J blackjack; dealer 6+5+4 = 15 < 17 does not qualify:
    # Ante paid 1:1 (2000), the Bet pushes (1000)
    assert one_box("AH JD 5C", "6S 5H 4D") == [(1, "ante", A, 2000), (1, "play", A, A)]


def test_non_qualifying_dealer_pushes_a_20():
    # player T+Q = 20; dealer 6+5+5 = 16 < 17 does not qualify: both push, whatever the player holds
    assert one_box("TH QD 2C", "6S 5H 5D") == [(1, "ante", A, A), (1, "play", A, A)]


def test_dealer_exactly_17_qualifies_and_ties_push():
    # player 9+8 = 17 (9+8+6 = 23, 9+6 = 15); dealer 9+8 = 17 (9+8+5 = 22): the dealer qualifies
    # with exactly 17, and the tie pushes both
    assert one_box("9C 8D 6C", "9S 8H 5D") == [(1, "ante", A, A), (1, "play", A, A)]


def test_soft_three_card_dealer_16_does_not_qualify():
    # dealer 2+3+A: 2+3+A(11) = 16, does not qualify; player 9+T = 19: pushes, no bonus
    assert one_box("9H TD 4C", "2S 3H AD") == [(1, "ante", A, A), (1, "play", A, A)]


def test_two_aces_and_a_nine_make_21_and_win():
    # player A+A+9: 11+1+9 = 21; dealer T+K = 20 qualifies; 21 > 20: both 1:1
    assert one_box("AH AD 9C", "TS KH 4D") == [(1, "ante", A, 2000), (1, "play", A, 2000)]


def test_fold_loses_the_ante_only():
    # player 2+3+4 = 9 folds: Ante 1000 lost at once, no Bet placed; dealer hand irrelevant
    assert one_box("2H 3D 4C", "TS KH 4D", "fold") == [(1, "ante", A, 0)]


@pytest.mark.parametrize(
    ("hand", "dealer", "line_payout"),
    [
        # Ace Plus stake 500: A-A-A 100:1 -> 500 + 50000
        ("AH AD AC", "2S 3H 4D", 50500),
        # A-A-T 25:1 -> 500 + 12500 (T = any ten-value: a Queen)
        ("AH AD QC", "2S 3H 4D", 13000),
        # A-A-x 15:1 -> 500 + 7500
        ("AH AD 5C", "2S 3H 4D", 8000),
        # A-T-T 6:1 -> 500 + 3000 (ten and king)
        ("AH TD KC", "2S 3H 4D", 3500),
        # A-T-x 3:1 -> 500 + 1500
        ("AH JD 5C", "2S 3H 4D", 2000),
        # A-x-x 1:1 -> 500 + 500
        ("AH 6D 5C", "2S 3H 4D", 1000),
        # no ace loses the 500
        ("KH 6D 5C", "2S 3H 4D", 0),
    ],
)
def test_ace_plus_paytable_lines(hand, dealer, line_payout):
    # the box folds: Ace Plus stands on its own (settled when the cards were turned, before the fold)
    _, money = play({1: hand}, dealer, {1: "fold"}, {1: A}, {1: 500})
    assert money == [(1, "ace_plus", 500, line_payout), (1, "ante", A, 0)]


def test_three_boxes_round_robin_deal_and_mixed_decisions():
    # cards in shoe order: b1 b2 b4 dealer, three times; the dealer's third card (9C) is up.
    # box 1: T+9 = 19, plays; box 2: 2+3+5 = 10, folds; box 4: A+K blackjack, plays, Ace Plus A-T-x.
    # dealer K+Q+9: K+Q = 20 qualifies. box 1 19 < 20 loses 2 x 1500; box 4 blackjack wins 2 x 2000.
    rnd, money = play(
        {1: "TH 9D 8C", 2: "2H 3D 5C", 4: "AS KS 6S"},
        "KD QH 9C",
        {1: "play", 2: "fold", 4: "play"},
        {1: 1500, 2: 1000, 4: 2000},
        {4: 500},
    )
    assert rnd.cards == {1: ["TH", "9D", "8C"], 2: ["2H", "3D", "5C"], 4: ["AS", "KS", "6S"]}
    assert rnd.dealer_cards == ["KD", "QH", "9C"]
    assert money == [
        (2, "ante", 1000, 0),  # fold, settled at the decision
        (4, "ace_plus", 500, 2000),  # A-T-x 3:1, settled when box 4 was turned
        (1, "ante", 1500, 0),
        (1, "play", 1500, 0),
        (4, "ante", 2000, 4000),
        (4, "play", 2000, 4000),
    ]


@pytest.mark.parametrize(("rounding", "ante_payout"), [("down", 2512), ("half_up", 2513)])
def test_blackjack_bonus_ratio_and_rounding_are_settings(rounding, ante_payout):
    # non-qualifying blackjack paid 3:2 on an Ante of 1005: 1005 * 3/2 = 1507.5 -> 1507 down / 1508 half up
    rules = three_card_blackjack_rules(overrides={"non_qualifying_blackjack_pays": "3:2", "rounding": rounding})
    _, money = play({1: "AH JD 5C"}, "6S 5H 4D", {1: "play"}, {1: 1005}, rules=rules)
    assert money == [(1, "ante", 1005, ante_payout), (1, "play", 1005, 1005)]


def test_ace_plus_paytable_is_configurable():
    # A-x-x set to 2:1 and A-T-x left out (loses): 500 -> 1500, and a missing line pays nothing
    rules = three_card_blackjack_rules(overrides={"ace_plus_pays": {"A-x-x": "2:1", "A-A-A": "100:1"}})
    _, money = play({1: "AH 6D 5C", 2: "AS JD 5S"}, "2S 3H 4D", {1: "fold", 2: "fold"}, {1: A, 2: A}, {1: 500, 2: 500}, rules)
    assert (1, "ace_plus", 500, 1500) in money and (2, "ace_plus", 500, 0) in money
