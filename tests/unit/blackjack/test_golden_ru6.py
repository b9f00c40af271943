"""Hand-worked rounds under preset ru6 (6 decks, no hole card, S17, 3:2, split by points,
split aces one card, double in the dark on 9-11, surrender not against an ace, insurance up to
half the bet). Deal order in every script: box card, dealer up card, box card, then play.
Main bets are 1000 (10.00) unless said otherwise."""

import pytest

from controller.games.base import BetRefused, ExpectKind, IllegalDecision, UnexpectedCard
from controller.games.blackjack.engine import BlackjackRound

from .helpers import money, play, refused, rules, run, start

RU6 = rules("ru6")
MAIN = [(1, "main", 1000)]


@pytest.mark.parametrize(
    ("script", "payout"),
    [
        # 10+9=19 stands; dealer 7+10=17 stands: 19 beats 17 -> stake back + 1:1 = 2000
        ("TS 7D 9H stand TC", 2000),
        # 10+7=17 against 7+10=17: push -> 1000
        ("TS 7D 7H stand TC", 1000),
        # 12 stands; dealer 6+10=16 draws 9 -> 25 bust: every live hand wins 1:1 -> 2000
        ("TS 6D 2H stand TC 9C", 2000),
        # 10+8=18; dealer 7+Q=17 stands; 18 > 17 -> 2000
        ("TS 7D 8H stand QC", 2000),
        # 10+6=16 stands; dealer 9+10=19 -> loses: 0
        ("TS 9D 6H stand KC", 0),
    ],
)
def test_plain_results(script, payout):
    rnd = play(RU6, MAIN, script)
    assert rnd.done
    assert money(rnd) == [(1, 1, "main", "", 1000, payout)]


def test_bust_loses_at_once_and_dealer_draws_nothing():
    # 10+6=16 hits a 10 -> 26: lost (0) the moment the card lands; no live hand -> no dealer card
    rnd = play(RU6, MAIN, "TS 6D 6H hit TC")
    assert rnd.done and rnd.dealer_cards() == ("6D",)
    assert money(rnd) == [(1, 1, "main", "", 1000, 0)]


def test_blackjack_against_small_card_is_paid_at_once():
    # A+K against a 6 up: the dealer cannot make blackjack -> 3:2 now: 1000 + 1500 = 2500
    rnd = play(RU6, MAIN, "AS 6D KH")
    assert rnd.done and rnd.dealer_cards() == ("6D",)
    assert money(rnd) == [(1, 1, "main", "", 1000, 2500)]


def test_blackjack_against_ten_waits_for_dealer_second_card():
    rnd = play(RU6, MAIN, "AS TD KH")
    assert rnd.settlements == [] and rnd.expects().kind is ExpectKind.DEALER_CARD
    # dealer 10+5=15: no blackjack; no live hand so he draws no more; BJ paid 2500
    run(rnd, "5C")
    assert rnd.done and rnd.dealer_cards() == ("TD", "5C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2500)]


def test_blackjack_pushes_dealer_blackjack():
    # A+K against 10 then A: dealer blackjack; player blackjack pushes: 1000 back
    rnd = play(RU6, MAIN, "AS TD KH AC")
    assert money(rnd) == [(1, 1, "main", "", 1000, 1000)]


@pytest.mark.parametrize(("takes", "payout"), [("all", 0), ("original", 1000)])
def test_dealer_blackjack_on_a_doubled_hand(takes, payout):
    # 6+5=11 doubles (in the dark: a 9-11) to stake 2000, draws 9 -> 20; dealer T then A: blackjack.
    # all: the whole 2000 is lost; original: only the first 1000, the double (1000) comes back.
    rnd = play(rules("ru6", dealer_blackjack_takes=takes), MAIN, "6S TD 5H double 9C AC")
    assert money(rnd) == [(1, 1, "main", "", 2000, payout)]


@pytest.mark.parametrize(("takes", "second"), [("all", 0), ("original", 1000)])
def test_dealer_blackjack_on_a_split_box(takes, second):
    # 8-8 split: hand 1 8+3=11 stands, hand 2 8+2=10 stands; dealer T then A = blackjack.
    # all: both hands lose (0, 0); original: hand 1 carries the original bet and loses it,
    # hand 2 (the split money) is returned: 1000.
    rnd = play(rules("ru6", dealer_blackjack_takes=takes), MAIN, "8S TD 8H split 3C stand 2D stand AC")
    assert money(rnd) == [(1, 1, "main", "", 1000, 0), (1, 2, "main", "", 1000, second)]


def test_dealer_stands_on_soft_17_and_a_further_card_is_refused():
    # 10+8=18; dealer 6 then A = soft 17: ru6 stands on every 17 -> 18 wins: 2000
    rnd = play(RU6, MAIN, "TS 6D 8H stand AC")
    assert rnd.done and money(rnd) == [(1, 1, "main", "", 1000, 2000)]
    refused(rnd, UnexpectedCard, "blackjack.dealer.stands", rnd.deal, "3C")


def test_dealer_hits_soft_17_when_the_option_is_on():
    # same cards, dealer_hits_soft_17: 6+A soft 17 draws 3 -> soft 20; 18 loses: 0
    rnd = play(rules("ru6", dealer_hits_soft_17=True), MAIN, "TS 6D 8H stand AC")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD
    run(rnd, "3C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 0)]


def test_dealer_card_refused_while_the_rule_says_stand_mid_draw():
    # dealer 7+10 = 17 with a live 18: he stands, so a third card is a procedure error
    rnd = play(RU6, MAIN, "TS 7D 8H stand KC")
    refused(rnd, UnexpectedCard, "blackjack.dealer.stands", rnd.deal, "2C")


def test_insurance_pays_two_to_one_on_dealer_blackjack():
    # 19 against an ace; insurance 500 (half of 1000, the most allowed); dealer A+K blackjack:
    # insurance 500 returns 500 + 2*500 = 1500; the 19 loses: 0
    rnd = play(RU6, MAIN, "TS AD 9H insurance=500 stand KC")
    assert money(rnd) == [(1, 1, "insurance", "", 500, 1500), (1, 1, "main", "", 1000, 0)]


def test_insurance_lost_when_dealer_has_no_blackjack():
    # insurance 250 lost (dealer A+7 = soft 18, no blackjack); 19 beats 18: main 2000
    rnd = play(RU6, MAIN, "TS AD 9H insurance=250 stand 7C")
    assert money(rnd) == [(1, 1, "insurance", "", 250, 0), (1, 1, "main", "", 1000, 2000)]


def test_insurance_amount_limits_ru6():
    # at most half the box bet (500), at least half the table minimum (100 // 2 = 50)
    rnd = run(start(RU6, MAIN), "TS AD 9H")
    refused(rnd, IllegalDecision, "blackjack.insurance.amount", rnd.decide, 1, 1, "insurance", amount=501)
    refused(rnd, IllegalDecision, "blackjack.insurance.amount", rnd.decide, 1, 1, "insurance", amount=49)
    rnd.decide(1, 1, "insurance", amount=50)
    assert rnd.expects().options == ("hit", "stand", "double")  # no surrender against an ace


def test_insurance_alone_makes_the_dealer_draw_his_second_card():
    # 10+6 insured (500) then busts with a 10 -> main 0 at once; the insurance still needs the
    # dealer's second card: K -> blackjack -> insurance 1500
    rnd = play(RU6, MAIN, "TS AD 6H insurance hit TC")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD
    run(rnd, "KC")
    assert money(rnd) == [(1, 1, "insurance", "", 500, 1500), (1, 1, "main", "", 1000, 0)]


def test_even_money_settles_at_once():
    # A+K against an ace takes even money: 1000 + 1000 = 2000 now; nothing waits for the dealer
    rnd = play(RU6, MAIN, "AS AD KH even_money")
    assert rnd.done and rnd.dealer_cards() == ("AD",)
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000)]


@pytest.mark.parametrize(("second", "payout"), [("KC", 1000), ("5C", 2500)])
def test_declined_even_money(second, payout):
    # no even money: dealer A+K blackjack -> push 1000; dealer A+5 -> blackjack pays 3:2: 2500
    rnd = play(RU6, MAIN, f"AS AD KH no_even_money {second}")
    assert rnd.done and money(rnd) == [(1, 1, "main", "", 1000, payout)]


def test_surrender_against_a_ten_is_settled_at_once():
    # 10+6 against a 10 surrenders: half of 1000 back = 500; no live hand -> no dealer card
    rnd = play(RU6, MAIN, "TS TD 6H surrender")
    assert rnd.done and rnd.dealer_cards() == ("TD",)
    assert money(rnd) == [(1, 1, "main", "", 1000, 500)]


def test_no_surrender_against_an_ace_in_ru6():
    rnd = run(start(RU6, MAIN), "TS AD 6H no_insurance")
    assert "surrender" not in rnd.expects().options
    refused(rnd, IllegalDecision, "blackjack.surrender.not_vs_ace", rnd.decide, 1, 1, "surrender")


def test_surrender_after_a_hit_is_refused():
    rnd = run(start(RU6, MAIN), "TS 9D 2H hit 3C")
    refused(rnd, IllegalDecision, "blackjack.surrender.first_decision", rnd.decide, 1, 1, "surrender")


def test_split_by_points_king_ten_and_both_hands_win():
    # K-10 split (ru6 splits equal points). Hand 1 K+9=19, hand 2 10+8=18, both stand;
    # dealer 6+10=16 draws 8 -> 24 bust: each hand 1000 -> 2000
    rnd = play(RU6, MAIN, "KS 6D TH split 9C stand 8D stand TC 8S")
    assert rnd.hand_cards(1, 1) == ("KS", "9C") and rnd.hand_cards(1, 2) == ("TH", "8D")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000), (1, 2, "main", "", 1000, 2000)]


def test_split_aces_one_card_each_and_21_is_not_blackjack():
    # A-A split: hand 1 A+K=21 (not blackjack), hand 2 A+5=soft 16; no decisions on either.
    # Dealer 6+10=16 draws 2 -> 18: the 21 wins 1:1 (2000, not 2500); the 16 loses (0)
    rnd = start(RU6, MAIN)
    run(rnd, "AS 6D AH split KC")
    assert rnd.expects().kind is ExpectKind.CARD and rnd.expects().hand == 2
    run(rnd, "5D")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD
    run(rnd, "TC 2C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000), (1, 2, "main", "", 1000, 0)]


def test_four_hands_at_most():
    # 8s split three times (4 hands); the fourth 8 on hand 1 cannot split again.
    rnd = run(start(RU6, MAIN), "8S 5D 8H split 8C split 8D split 8C")
    assert rnd.hand_count(1) == 4 and "split" not in rnd.expects().options
    refused(rnd, IllegalDecision, "blackjack.split.max_splits", rnd.decide, 1, 1, "split")
    # hand 1 8+8=16, hands 2..4: 8+2=10, 8+3=11, 8+10=18, all stand; dealer 5+10+10=25 bust:
    # every hand 1000 -> 2000
    run(rnd, "stand 2S stand 3S stand TS stand TD TH")
    assert money(rnd) == [(1, h, "main", "", 1000, 2000) for h in (1, 2, 3, 4)]


def test_split_of_non_pair_is_refused():
    rnd = run(start(RU6, MAIN), "9S 6D 8H")
    refused(rnd, IllegalDecision, "blackjack.split.not_a_pair", rnd.decide, 1, 1, "split")


def test_double_in_the_dark_card_face_down_until_settlement():
    # 5+4=9 doubles: stake 2000, the card comes face down; 9+10=19; dealer 7+10=17: 19 wins:
    # 2000 + 2000 = 4000
    rnd = run(start(RU6, MAIN), "5S 7D 4H double")
    assert rnd.expects().kind is ExpectKind.CARD and rnd.expects().face_down
    run(rnd, "TC")
    assert rnd.outcome()["boxes"][0]["hands"][0]["face_down"] == [2]
    run(rnd, "TS")
    assert rnd.outcome()["boxes"][0]["hands"][0]["face_down"] == []
    assert money(rnd) == [(1, 1, "main", "", 2000, 4000)]


def test_double_on_twelve_is_face_up():
    # 10+2=12 doubles (any two cards): face up; 12+9=21; dealer 6+10=16 draws 5 -> 21: push 2000
    rnd = run(start(RU6, MAIN), "TS 6D 2H double")
    assert not rnd.expects().face_down
    run(rnd, "9C TC 5C")
    assert money(rnd) == [(1, 1, "main", "", 2000, 2000)]


def test_double_after_split():
    # 8-8 split; hand 1 8+3=11 doubles (dark) -> +10 = 21, stake 2000; hand 2 8+2=10 stands;
    # dealer 6+10=16 draws 9 -> 25 bust: hand 1 4000, hand 2 2000
    rnd = play(RU6, MAIN, "8S 6D 8H split 3C double TC 2D stand TS 9S")
    assert money(rnd) == [(1, 1, "main", "", 2000, 4000), (1, 2, "main", "", 1000, 2000)]


def test_no_double_after_split_when_off():
    rnd = run(start(rules("ru6", double_after_split=False), MAIN), "8S 6D 8H split 3C")
    assert rnd.expects().options == ("hit", "stand")
    refused(rnd, IllegalDecision, "blackjack.double.after_split", rnd.decide, 1, 1, "double")


def test_hand_at_21_takes_no_more_cards():
    # 10+5 hits 6 -> 21: no decision, the dealer's turn comes; dealer 6+10=16 +10 = 26: 2000
    rnd = run(start(RU6, MAIN), "TS 6D 5H hit 6C")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD
    run(rnd, "TC TD")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000)]


def test_three_players_on_one_box_follow_the_owner():
    bets = [(1, "main", 1000, "alice"), (1, "main", 2000, "bob"), (1, "main", 500, "carol")]
    rnd = run(start(RU6, bets), "5S 7D 6H")
    refused(rnd, IllegalDecision, "blackjack.box_owner", rnd.decide, 1, 1, "stand", player="bob")
    # alice doubles 11 (dark) for everyone: 11+9=20 against 7+10=17: each doubled stake wins 1:1
    rnd.decide(1, 1, "double", player="alice")
    run(rnd, "9C TS")
    assert money(rnd) == [
        (1, 1, "main", "alice", 2000, 4000),
        (1, 1, "main", "bob", 4000, 8000),
        (1, 1, "main", "carol", 1000, 2000),
    ]


@pytest.mark.parametrize(("rounding", "payout"), [("down", 2512), ("half_up", 2513)])
def test_blackjack_on_odd_stake_rounds_per_option(rounding, payout):
    # 1005 at 3:2 = 1507.5 winnings: down 1507 -> 2512, half up 1508 -> 2513
    rnd = play(rules("ru6", rounding=rounding), [(1, "main", 1005)], "AS 6D KH")
    assert money(rnd) == [(1, 1, "main", "", 1005, payout)]


@pytest.mark.parametrize(("rounding", "payout"), [("down", 502), ("half_up", 503)])
def test_surrender_on_odd_stake_rounds_per_option(rounding, payout):
    # half of 1005 = 502.5
    rnd = play(rules("ru6", rounding=rounding), [(1, "main", 1005)], "TS TD 6H surrender")
    assert money(rnd) == [(1, 1, "main", "", 1005, payout)]


def test_two_boxes_in_order_never_returning():
    # box 1 10+6, box 2 10+7 against 9; box 2 may not act before box 1, box 1 never again after.
    rnd = run(start(RU6, [(1, "main", 1000), (2, "main", 1000)]), "TS TC 9D 6H 7S")
    refused(rnd, IllegalDecision, "blackjack.turn", rnd.decide, 2, 1, "stand")
    run(rnd, "stand")
    refused(rnd, IllegalDecision, "blackjack.turn", rnd.decide, 1, 1, "hit")
    # box 2 stands on 17; dealer 9+9=18: both lose
    run(rnd, "stand 9C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 0), (2, 1, "main", "", 1000, 0)]


def test_no_bet_behind_in_ru6():
    rnd = BlackjackRound(RU6)
    rnd.place_bet(1, "main", 1000, "alice")
    refused(rnd, BetRefused, "blackjack.bet_behind.off", rnd.place_bet, 1, "behind", 500, "bob")


def test_blackjack_pays_six_to_five_when_set():
    # 1000 at 6:5: 1000 + 1200 = 2200
    rnd = play(rules("ru6", blackjack_pays="6:5"), MAIN, "AS 6D KH")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2200)]


def test_surrender_off():
    rnd = run(start(rules("ru6", surrender="none"), MAIN), "TS TD 6H")
    assert rnd.expects().options == ("hit", "stand", "double")
    refused(rnd, IllegalDecision, "blackjack.surrender.off", rnd.decide, 1, 1, "surrender")


def test_no_insurance_offer_when_off_and_no_even_money_when_off():
    # insurance none + even money off: a dealer ace asks nothing; A+K against A waits:
    # dealer A+5 -> blackjack 3:2 = 2500
    table = rules("ru6", insurance="none", even_money=False)
    rnd = run(start(table, MAIN), "AS AD KH")
    assert rnd.expects().kind is ExpectKind.DEALER_CARD
    run(rnd, "5C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2500)]


def test_blackjack_offered_insurance_when_even_money_is_off():
    # A+K insures 500 against an ace; dealer A+Q: insurance 1500 and the blackjack pushes 1000
    rnd = play(rules("ru6", even_money=False), MAIN, "AS AD KH insurance QC")
    assert money(rnd) == [(1, 1, "insurance", "", 500, 1500), (1, 1, "main", "", 1000, 1000)]


def test_max_splits_one():
    # one split allowed (2 hands): the 8 landing on hand 1 cannot split again
    rnd = run(start(rules("ru6", max_splits=1), MAIN), "8S 6D 8H split 8C")
    assert rnd.expects().options == ("hit", "stand", "double")


def test_insurance_on_a_shared_box_may_be_half_the_box_bet():
    # RULES §1, ru6: insurance "at most half the box bet". alice and bob each put 1000 on box 1:
    # the box bet is 2000, so its owner may insure 1000 (not just half of his own 1000).
    # 9 8 against the dealer's ace, insured for 1000; the dealer's K makes blackjack: insurance
    # 2:1 -> 3000, both main bets lose.
    shared = [(1, "main", 1000, "alice"), (1, "main", 1000, "bob")]
    over = start(rules("ru6"), shared)
    run(over, "9S AH 8S")
    refused(over, IllegalDecision, "blackjack.insurance.amount", over.decide, 1, 1, "insurance", amount=1001)
    rnd = play(rules("ru6"), shared, "9S AH 8S insurance=1000 stand KD")
    assert money(rnd) == [
        (1, 1, "insurance", "alice", 1000, 3000),
        (1, 1, "main", "alice", 1000, 0),
        (1, 1, "main", "bob", 1000, 0),
    ]
    default = play(rules("ru6"), shared, "9S AH 8S insurance stand KD")  # the most allowed by default
    assert next(s for s in default.settlements if s.kind == "insurance").stake == 1000
