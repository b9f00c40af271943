"""Hand-worked rounds of the variants (docs/rules.md §1.2): Free Bet, Infinite Free Bet, Power
Blackjack, One Blackjack. A free double or split is the house's money: the settlement's stake
is the player's own money only, a winning free bet pays its amount, a losing one costs nothing."""

import pytest

from controller.games.base import ExpectKind, IllegalDecision
from controller.shoe import Composition, ImpossibleCard

from .helpers import money, play, refused, rules, run, start

FREE = rules("free-bet")
POWER = rules("power")
MAIN = [(1, "main", 1000)]


@pytest.mark.parametrize(
    ("draw", "payout"),
    [
        # 6+4=10 free double (house adds 1000) draws 10 -> 20; dealer 7+10=17: wins on 2000:
        # own 1000 back + 1000 won + 1000 won on the free part = 3000
        ("TC", 3000),
        # draws 2 -> 12 loses: the player loses the own 1000 only
        ("2C", 0),
    ],
)
def test_free_double(draw, payout):
    rnd = play(FREE, MAIN, f"6S 7D 4H double {draw} TS")
    assert money(rnd) == [(1, 1, "main", "", 1000, payout)]


def test_paid_double_outside_nine_to_eleven():
    # 10+2=12 doubles with own money (stake 2000) -> +8 = 20; dealer 7+10=17: 4000
    rnd = play(FREE, MAIN, "TS 7D 2H double 8C TD")
    assert money(rnd) == [(1, 1, "main", "", 2000, 4000)]


@pytest.mark.parametrize(
    ("second_draw", "payout2"),
    [
        ("TD", 1000),  # hand 2 8+10=18 beats 17: the free 1000 wins 1000
        ("9D", 0),  # hand 2 8+9=17 pushes: the free stake goes back to the house, 0 to the player
        ("4D", 0),  # hand 2 8+4=12 loses: costs the player nothing
    ],
)
def test_free_split(second_draw, payout2):
    # 8-8 free split: hand 1 own 1000, hand 2 staked by the house. Hand 1 8+10=18 stands;
    # dealer 7+10=17: hand 1 wins 2000
    rnd = play(FREE, MAIN, f"8S 7D 8H split TC stand {second_draw} stand TS")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000), (1, 2, "main", "", 0, payout2)]


def test_ten_pair_split_is_paid():
    # 10-10 split with own money: hand 2 stake 1000. Hand 1 10+8=18, hand 2 10+9=19 stand;
    # dealer 7+10=17: 2000 each
    rnd = play(FREE, MAIN, "TS 7D TH split 8C stand 9C stand TD")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000), (1, 2, "main", "", 1000, 2000)]


def test_dealer_22_pushes_live_hands_but_blackjack_wins():
    # box 1 10+9=19 stands, box 2 A+K blackjack against a 6 (paid 3:2 at once: 2500);
    # dealer 6+10+6 = 22: box 1 pushes -> 1000
    bets = [(1, "main", 1000), (2, "main", 1000)]
    rnd = run(start(FREE, bets), "TS AS 6D 9H KH")
    assert money(rnd) == [(2, 1, "main", "", 1000, 2500)]
    run(rnd, "stand TC 6C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 1000), (2, 1, "main", "", 1000, 2500)]


def test_dealer_23_still_pays_in_free_bet():
    # dealer 6+10+7 = 23 is a bust: 19 wins 2000
    rnd = play(FREE, MAIN, "TS 6D 9H stand TC 7C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000)]


@pytest.mark.parametrize("preset", ["infinite-free-bet", "one-blackjack"])
def test_six_card_charlie(preset):
    # 2+2+2+2+3+3 = 14 in six cards against a 6: Charlie wins at once 1:1 -> 2000
    rnd = play(rules(preset), MAIN, "2S 6D 2H hit 2D hit 2C hit 3S hit 3H")
    assert rnd.done and money(rnd) == [(1, 1, "main", "", 1000, 2000)]


def test_one_blackjack_split_aces_stand_only():
    # A-A split: A+5 may only stand (no hit on split aces)
    rnd = run(start(rules("one-blackjack"), MAIN), "AS 6D AH split 5C")
    assert rnd.expects().options == ("stand",)
    refused(rnd, IllegalDecision, "blackjack.split_aces.no_hit", rnd.decide, 1, 1, "hit")


def test_power_removes_nines_and_tens():
    rnd = start(POWER, MAIN, Composition(8, "9T"))
    refused_card = rnd.expects()
    for card in ("9S", "TD"):
        with pytest.raises(ImpossibleCard):
            rnd.deal(card)
    assert rnd.expects() == refused_card and rnd.hand_cards(1, 1) == ()
    # the engine refuses them even without a composition to check against
    bare = start(POWER, MAIN)
    with pytest.raises(ImpossibleCard):
        bare.deal("9H")


def test_power_triple_with_hole_card():
    # deal: box 6, dealer up 7, box 5, dealer hole 8 (face down). 6+5=11 triples: stake 3000,
    # +K = 21; dealer 7+8=15 draws 5 -> 20: 21 wins: 6000
    rnd = run(start(POWER, MAIN), "6S 7D 5H")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD and rnd.expects().face_down
    run(rnd, "8C")
    assert rnd.expects().options == ("hit", "stand", "double", "triple", "quadruple", "surrender")
    run(rnd, "triple KC 5C")
    assert money(rnd) == [(1, 1, "main", "", 3000, 6000)]


def test_power_quadruple_after_split():
    # 8-8 (hole 8): hand 1 8+3=11 quadruples -> stake 4000, +K = 21; hand 2 8+2=10 stands;
    # dealer 7+8=15 draws 2 -> 17: hand 1 wins 8000, hand 2 (10) loses 0
    rnd = play(POWER, MAIN, "8S 7D 8H 8C split 3C quadruple KC 2D stand 2S")
    assert money(rnd) == [(1, 1, "main", "", 4000, 8000), (1, 2, "main", "", 1000, 0)]


def test_power_peeks_on_a_king_and_settles_at_once():
    # up K, hole A: dealer blackjack found before any decision: the 18 loses 0
    rnd = play(POWER, MAIN, "JS KD 8H AC")
    assert rnd.done and money(rnd) == [(1, 1, "main", "", 1000, 0)]


def test_power_insurance_then_peek():
    # up A, hole Q; insurance (exactly half: 500) -> peek: blackjack: insurance 1500, main 0
    rnd = play(POWER, MAIN, "JS AD 8H QC insurance")
    assert rnd.done and money(rnd) == [(1, 1, "insurance", "", 500, 1500), (1, 1, "main", "", 1000, 0)]


def test_power_blackjack_paid_after_the_peek():
    # A+Q against K up, hole 7: the peek finds no blackjack; 3:2 paid at once: 2500; no dealer draw
    rnd = play(POWER, MAIN, "AS KD QH 7C")
    assert rnd.done and rnd.dealer_cards() == ("KD", "7C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2500)]
