"""Hand-worked rounds under preset am8 (8 decks, no hole card, split by rank, split aces
hittable, surrender against any card, insurance exactly half, 7-card Charlie, Bet Behind,
Perfect Pairs and 21+3). Deal order: box card(s), dealer up card, box card(s), then play."""

import pytest

from controller.games.base import BetRefused, ExpectKind, IllegalDecision
from controller.games.blackjack.engine import BlackjackRound

from .helpers import money, play, refused, rules, run, start

AM8 = rules("am8")
MAIN = [(1, "main", 1000)]


def test_split_by_rank_refuses_king_ten():
    rnd = run(start(AM8, MAIN), "KS 6D TH")
    assert "split" not in rnd.expects().options
    refused(rnd, IllegalDecision, "blackjack.split.not_a_pair", rnd.decide, 1, 1, "split")


def test_split_by_points_option_on_am8():
    rnd = run(start(rules("am8", split_by="points"), MAIN), "KS 6D TH")
    assert "split" in rnd.expects().options


def test_split_aces_may_hit():
    # A-A split; hand 1 A+5 soft 16 hits 5 -> 21 (stops by itself); hand 2 A+K=21, not blackjack.
    # Dealer 6+10=16 draws 2 -> 18: both 21s win 1:1 -> 2000 each
    rnd = run(start(AM8, MAIN), "AS 6D AH split 5C")
    assert rnd.expects().options[:2] == ("hit", "stand")
    run(rnd, "hit 5D KH TC 2C")
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000), (1, 2, "main", "", 1000, 2000)]


def test_surrender_against_an_ace():
    # 10+6 against an ace, insurance declined, surrenders: 500 back at once; nothing left for
    # the dealer to draw for
    rnd = play(AM8, MAIN, "TS AD 6H no_insurance surrender")
    assert rnd.done and rnd.dealer_cards() == ("AD",)
    assert money(rnd) == [(1, 1, "main", "", 1000, 500)]


def test_insurance_is_exactly_half():
    rnd = run(start(AM8, MAIN), "TS AD 9H")
    refused(rnd, IllegalDecision, "blackjack.insurance.exactly_half", rnd.decide, 1, 1, "insurance", amount=400)
    # default amount: half of 1000 = 500; dealer A+Q blackjack: insurance 1500, the 19 loses
    run(rnd, "insurance stand QC")
    assert money(rnd) == [(1, 1, "insurance", "", 500, 1500), (1, 1, "main", "", 1000, 0)]


def test_even_money_offered_per_box_and_insurance_to_the_other():
    # box 1 A+K: even money -> 2000 at once; box 2 10+9: insurance 500; dealer A+9 = 20:
    # insurance lost, 19 loses to 20
    bets = [(1, "main", 1000), (2, "main", 1000)]
    rnd = run(start(AM8, bets), "AS TS AD KH 9H")
    assert rnd.expects().options == ("even_money", "no_even_money") and rnd.expects().box == 1
    run(rnd, "even_money")
    assert rnd.expects().options == ("insurance", "no_insurance") and rnd.expects().box == 2
    run(rnd, "insurance stand 9C")
    assert money(rnd) == [
        (1, 1, "main", "", 1000, 2000),
        (2, 1, "insurance", "", 500, 0),
        (2, 1, "main", "", 1000, 0),
    ]


SEVEN_CARDS = "2S {up} 2H hit 2D hit 2C hit 3S hit 3H hit 3D"  # 2+2+2+2+3+3+3 = 17 in 7 cards


def test_seven_card_charlie_wins_at_once():
    # 7 cards without bust against a 6: wins 1:1 at once (2000); the dealer draws nothing
    rnd = play(AM8, MAIN, SEVEN_CARDS.format(up="6D"))
    assert rnd.done and rnd.dealer_cards() == ("6D",)
    assert money(rnd) == [(1, 1, "main", "", 1000, 2000)]


@pytest.mark.parametrize(("second", "payout"), [("AC", 0), ("5C", 2000)])
def test_charlie_against_a_ten_waits_for_dealer_blackjack(second, payout):
    # against a 10 up the Charlie waits: dealer 10+A blackjack takes it (0); 10+5 -> Charlie 2000
    rnd = run(start(AM8, MAIN), SEVEN_CARDS.format(up="TD"))
    assert rnd.settlements == [] and rnd.expects().kind is ExpectKind.DEALER_CARD
    run(rnd, second)
    assert rnd.done and len(rnd.dealer_cards()) == 2
    assert money(rnd) == [(1, 1, "main", "", 1000, payout)]


def test_no_charlie_on_ru6():
    rnd = run(start(rules("ru6"), MAIN), SEVEN_CARDS.format(up="6D"))
    assert rnd.expects().kind is ExpectKind.DECISION


BEHIND = [(1, "main", 1000, "alice"), (1, "behind", 500, "bob"), (1, "behind_stay", 300, "carol")]


def test_bet_behind_follows_a_double_or_stays_out():
    # 5+6=11 doubled (face up: am8 has no dark double) -> +9 = 20; dealer 7+10=17: hand wins.
    # alice 2000 -> 4000; bob follows: 1000 -> 2000; carol stays at 300 -> 600
    rnd = play(AM8, BEHIND, "5S 7D 6H double 9C TS")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 1000, 2000),
        (1, 1, "behind", "carol", 300, 600),
        (1, 1, "main", "alice", 2000, 4000),
    ]


def test_bet_behind_follows_a_split_or_stays_on_hand_one():
    # 8-8 split: hand 1 8+10=18, hand 2 8+9=17, both stand; dealer 7+10=17: hand 1 wins, hand 2 pushes.
    # alice 1000/1000 on both; bob follows: 500 on both; carol only on hand 1 at 300
    rnd = play(AM8, BEHIND, "8S 7D 8H split TC stand 9D stand TS")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 500, 1000),
        (1, 1, "behind", "carol", 300, 600),
        (1, 1, "main", "alice", 1000, 2000),
        (1, 2, "behind", "bob", 500, 500),
        (1, 2, "main", "alice", 1000, 1000),
    ]


def test_bet_behind_returned_when_the_box_does_not_play():
    # bob bets 500 behind box 2, nobody plays box 2: returned at close (500 -> 500)
    rnd = start(AM8, [(1, "main", 1000, "alice"), (2, "behind", 500, "bob")])
    assert money(rnd) == [(2, 1, "behind", "bob", 500, 500)]
    assert rnd.hand_count(2) == 0 and rnd.expects().box == 1


def test_no_bet_behind_on_own_box():
    rnd = BlackjackRound(AM8)
    rnd.place_bet(1, "main", 1000, "alice")
    refused(rnd, BetRefused, "blackjack.bet_behind.own_box", rnd.place_bet, 1, "behind", 500, "alice")


def test_one_player_per_box_and_three_boxes_per_player():
    rnd = BlackjackRound(AM8)
    for box in (1, 2, 3):
        rnd.place_bet(box, "main", 1000, "alice")
    refused(rnd, BetRefused, "blackjack.bet.boxes_per_player", rnd.place_bet, 4, "main", 1000, "alice")
    refused(rnd, BetRefused, "blackjack.bet.players_per_box", rnd.place_bet, 1, "main", 1000, "bob")


# Perfect Pairs on the first two cards (100 bet; main 1000 loses or wins separately, not asserted here)
@pytest.mark.parametrize(
    ("first", "second", "payout"),
    [
        ("KS", "KS", 2600),  # perfect pair 25:1 -> 100 + 2500
        ("KH", "KD", 1300),  # coloured (both red) 12:1 -> 100 + 1200
        ("KC", "KS", 1300),  # coloured (both black)
        ("KS", "KH", 700),  # mixed 6:1 -> 100 + 600
        ("KS", "QS", 0),  # no pair
    ],
)
def test_perfect_pairs_paytable(first, second, payout):
    rnd = run(start(AM8, [(1, "main", 1000), (1, "perfect_pairs", 100)]), f"{first} 7D {second}")
    assert [(s.kind, s.stake, s.payout) for s in rnd.settlements] == [("perfect_pairs", 100, payout)]


# 21+3 on the first two cards and the dealer's up card (the middle card of each script)
@pytest.mark.parametrize(
    ("cards", "payout"),
    [
        ("7H 7H 7H", 10100),  # suited trips 100:1
        ("5S 6S 7S", 4100),  # straight flush 40:1
        ("7H 7S 7D", 3100),  # three of a kind 30:1
        ("AS 2H 3D", 1100),  # A-2-3 straight 10:1
        ("QS KH AD", 1100),  # Q-K-A straight 10:1
        ("2S 9S KS", 600),  # flush 5:1
        ("KS AH 2D", 0),  # K-A-2 does not wrap round
        ("2S 9H KD", 0),
    ],
)
def test_twenty_one_plus_three_paytable(cards, payout):
    rnd = run(start(AM8, [(1, "main", 1000), (1, "21+3", 100)]), cards)
    assert next(s for s in rnd.settlements if s.kind == "21+3").payout == payout


def test_side_bet_paytables_are_configurable():
    # without a suited-trips line, suited trips pay the best line they still make: trips 30:1 -> 3100;
    # mixed pair at 5:1 -> 600
    table = rules(
        "am8",
        twenty_one_plus_three={"three_of_a_kind": "30:1", "straight": "10:1", "flush": "5:1"},
        perfect_pairs={"perfect": "25:1", "coloured": "12:1", "mixed": "5:1"},
    )
    bets = [(1, "main", 1000), (1, "21+3", 100), (2, "main", 1000), (2, "perfect_pairs", 100)]
    # box 1 7H, box 2 KS, dealer 7H, box 1 7H, box 2 KH: side bets settle as each box's second card lands
    rnd = run(start(table, bets), "7H KS 7H 7H KH")
    assert money(rnd) == [(1, 1, "21+3", "", 100, 3100), (2, 1, "perfect_pairs", "", 100, 600)]


def test_side_bet_needs_the_players_main_bet():
    rnd = BlackjackRound(AM8)
    refused(rnd, BetRefused, "blackjack.side_bet.needs_main", rnd.place_bet, 1, "21+3", 100)
    ru6 = BlackjackRound(rules("ru6"))
    ru6.place_bet(1, "main", 1000)
    refused(ru6, BetRefused, "blackjack.bet.kind", ru6.place_bet, 1, "perfect_pairs", 100)


@pytest.mark.parametrize(("takes", "second"), [("all", 0), ("original", 1000)])
def test_dealer_blackjack_takes_a_split_charlie_like_any_split_hand(takes, second):
    # 2-2 split against a 10: hand 1 2+10=12 stands; hand 2 2,2,2,3,3,3,A = 16 in 7 cards: a Charlie
    # waiting on the dealer's second card. Dealer 10+A blackjack: hand 1 (the original bet) loses;
    # hand 2 loses too under `all`, comes back (1000) under `original`.
    table = rules("am8", dealer_blackjack_takes=takes)
    rnd = play(table, MAIN, "2S TD 2H split TC stand 2D hit 2C hit 3S hit 3H hit 3D hit AS AC")
    assert money(rnd) == [(1, 1, "main", "", 1000, 0), (1, 2, "main", "", 1000, second)]
