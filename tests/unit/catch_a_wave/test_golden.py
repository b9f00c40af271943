"""Hand-worked rounds of docs/rules.md §3; every settlement in cents (bet 10.00 unless noted).

Rank order 2 < 3 < ... < T < J < Q < K < A. Dealer: first call higher on an up card of 7 or
lower, lower on 8 or higher; after a right call higher on 4 or lower, stand on 5..10, lower on J+.
"""

from __future__ import annotations

import pytest

from controller.games.base import UnexpectedCard
from controller.games.catch_a_wave import catch_a_wave_rules
from tests.unit.catch_a_wave.golden import play

SIX_RIGHT = ["higher 9D", "lower 3C", "higher KS", "lower 5H", "higher QD", "lower 4C"]


def test_six_right_calls_catch_the_wave_at_once():
    # 2 < 9 < ... : 2->9 up, 9->3 down, 3->K up, K->5 down, 5->Q up, Q->4 down = six right calls:
    # 6:1 at once -> 1000 + 6000; no live bet is left, so the dealer does not play
    rnd, money = play({1: "2H"}, "7S", {1: SIX_RIGHT})
    assert money == [(1, 1000, 7000)]
    assert rnd.dealer_cards == ["7S"] and rnd.dealer_calls == []


def test_wrong_call_loses_at_once():
    # 5, called higher, 3 comes: wrong, the 1000 is collected
    assert play({1: "5H"}, "9S", {1: ["higher 3C"]})[1] == [(1, 1000, 0)]


def test_equal_card_loses_at_once():
    # 7, called higher, another 7: an equal card loses
    assert play({1: "7H"}, "9S", {1: ["higher 7D"]})[1] == [(1, 1000, 0)]


def test_dealer_up_7_calls_higher_and_an_equal_card_pays_every_live_bet():
    # player stands on his first card (0 right calls); dealer 7 calls higher, draws 7: equal = wrong,
    # live bet 1:1 -> 2000
    rnd, money = play({1: "9H"}, "7S", {1: ["stand"]}, "7D")
    assert rnd.dealer_calls == ["higher"] and money == [(1, 1000, 2000)]


def test_dealer_up_8_calls_lower_and_wrong_pays_1_to_1():
    # player 6 -> higher 8 (1 right), stands; dealer 8 calls lower, draws 9: wrong -> 2000
    rnd, money = play({1: "6H"}, "8S", {1: ["higher 8D", "stand"]}, "9C")
    assert rnd.dealer_calls == ["lower"] and money == [(1, 1000, 2000)]


def test_dealer_more_right_calls_takes_the_bet():
    # player stands with 0; dealer 2 calls higher, 6 is right (1), 6 is in 5..10: stands.
    # dealer 1 > player 0: the house wins
    rnd, money = play({1: "8H"}, "2S", {1: ["stand"]}, "6C")
    assert rnd.dealer_right == 1 and money == [(1, 1000, 0)]
    assert rnd.expects().options == ("stand",)  # the stand is predicted and shown, not an input


def test_equal_counts_push():
    # player 4 -> higher 9 (1), stands; dealer 3 higher, 5 right (1), stands on 5: 1 = 1 -> push 1000
    assert play({1: "4H"}, "3S", {1: ["higher 9D", "stand"]}, "5C")[1] == [(1, 1000, 1000)]


def test_player_ahead_by_two_is_paid_2_to_1():
    # player 2 -> 9 -> 3 -> K (3 right), stands; dealer T (8+) calls lower, 6 right (1), stands.
    # 3 - 1 = 2 -> 2:1 -> 1000 + 2000
    assert play({1: "2H"}, "TS", {1: [*SIX_RIGHT[:3], "stand"]}, "6C")[1] == [(1, 1000, 3000)]


def test_player_5_dealer_2_pays_3_to_1_and_dealer_calls_higher_on_4_then_stands_on_5():
    # player five right calls (2 9 3 K 5 Q), stands; dealer 9 calls lower: 4 right (1); on 4 calls
    # higher: 5 right (2); on 5 stands. 5 - 2 = 3 -> 3:1 -> 4000
    rnd, money = play({1: "2H"}, "9S", {1: [*SIX_RIGHT[:5], "stand"]}, "4C 5D")
    assert rnd.dealer_calls == ["lower", "higher"] and money == [(1, 1000, 4000)]


def test_dealer_calls_lower_on_a_jack_and_stands_on_a_ten():
    # player 3 -> higher 8 (1) -> lower 4 (2), stands; dealer 5 higher: J (1); J calls lower: T (2);
    # T stands. 2 = 2: push
    rnd, money = play({1: "3H"}, "5S", {1: ["higher 8D", "lower 4S", "stand"]}, "JC TD")
    assert rnd.dealer_calls == ["higher", "lower"] and money == [(1, 1000, 1000)]


def test_dealer_wrong_after_right_calls_still_pays_every_live_bet():
    # player stands with 0; dealer K lower: 3 (1); 3 calls higher: 2 comes, wrong -> 1:1 -> 2000
    rnd, money = play({1: "8H"}, "KS", {1: ["stand"]}, "3C 2D")
    assert rnd.dealer_calls == ["lower", "higher"] and rnd.dealer_wrong and money == [(1, 1000, 2000)]


def test_dealer_has_no_six_call_stop():
    # dealer 2 higher A (1), lower 2 (2), higher A (3), lower 2 (4), higher A (5), lower 2 (6),
    # higher A (7), lower 9 (8), stands on 9. Player stood with 5: dealer 8 > 5, house wins
    rnd, money = play({1: "2H"}, "2S", {1: [*SIX_RIGHT[:5], "stand"]}, "AC 2C AD 2D AH 2S AS 9C")
    assert rnd.dealer_right == 8
    assert rnd.dealer_calls == ["higher", "lower"] * 4
    assert money == [(1, 1000, 0)]


def test_three_boxes_lost_stood_and_ahead():
    # box 1: 9 higher 4 -> lost at once (0). box 3 stands on its 8 (0 right). box 5: 2 -> 9 -> 3
    # (2 right), stands. Dealer 4 calls higher: 6 (1), stands. box 3: 0 < 1 loses; box 5: 2 - 1 = 1:1
    _rnd, money = play(
        {1: "9H", 3: "8D", 5: "2C"},
        "4S",
        {1: ["higher 4C"], 3: ["stand"], 5: ["higher 9D", "lower 3C", "stand"]},
        "6H",
        stakes={1: 500, 3: 1000, 5: 2500},
    )
    assert money == [(1, 500, 0), (3, 1000, 0), (5, 2500, 5000)]


def test_no_live_bet_dealer_does_not_play():
    # the only box calls wrong: nothing is live, the round is over and a dealer card is refused
    rnd, money = play({1: "5H"}, "2S", {1: ["lower 9C"]})
    assert money == [(1, 1000, 0)]
    with pytest.raises(UnexpectedCard) as info:
        rnd.deal("3C")
    assert info.value.rule == "caw.no_live_bet"


def test_a_card_after_the_dealer_stands_is_refused():
    rnd, _ = play({1: "8H"}, "2S", {1: ["stand"]}, "6C")
    with pytest.raises(UnexpectedCard) as info:
        rnd.deal("9D")
    assert info.value.rule == "caw.dealer.stands"


@pytest.mark.parametrize(("rounding", "payout"), [("down", 3503), ("half_up", 3504)])
def test_wave_length_payout_and_rounding_are_settings(rounding, payout):
    # one right call catches the wave, paying 5:2: 1001 * 5/2 = 2502.5 -> 2502 down / 2503 half up
    rules = catch_a_wave_rules(overrides={"wave_calls": 1, "wave_pays": "5:2", "rounding": rounding})
    assert play({1: "5H"}, "9S", {1: ["higher 6C"]}, stakes={1: 1001}, rules=rules)[1] == [(1, 1001, payout)]
