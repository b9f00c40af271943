"""Crazy 7 (first two or three cards of the box) and Bust It (the dealer's final hand), worked by
hand. Stakes 100 cents on the side bet, 1000 on the main; a:1 returns 100 + 100*a.
Deal order without a hole card: box card, dealer up card, box card; with one, the hole card last.
"""

import pytest

from tests.unit.blackjack.helpers import money, rules, run, start

TABLE = rules("ru6", side_bets=("crazy_7", "bust_it"))
HOLE = rules("ru6", side_bets=("crazy_7", "bust_it"), hole_card=True)


def rows(rnd, kind: str) -> list[tuple[int, int, int]]:
    return [(s.hand, s.stake, s.payout) for s in rnd.settlements if s.kind == kind]


def crazy(script: str, table=TABLE):
    return run(start(table, [(1, "main", 1000), (1, "crazy_7", 100)]), script)


# ------------------------------------------------------------------ Crazy 7
def test_first_card_a_seven_settles_on_the_deal():
    rnd = crazy("7S 9D 5H")  # 7 then 5: first card 7 -> 5:1
    assert rows(rnd, "crazy_7") == [(1, 100, 600)]


def test_no_seven_first_loses_on_the_deal_whatever_the_up_card():
    assert rows(crazy("5H 7D 7C"), "crazy_7") == [(1, 100, 0)]


def test_seven_seven_waits_and_a_stand_settles_on_two():
    rnd = crazy("7S TD 7H")
    assert rows(rnd, "crazy_7") == []  # 7-7: the third card decides
    assert [(s.kind, s.payout) for s in rnd.open_bets() if s.kind == "crazy_7"] == [("crazy_7", 100)]
    run(rnd, "stand")  # no third card: 7-7 unsuited 25:1
    assert rows(rnd, "crazy_7") == [(1, 100, 2600)]


@pytest.mark.parametrize(
    ("script", "payout"),
    [
        ("7S 9D 7S hit 5C", 15100),  # suited 7-7, third not a 7: 150:1
        ("7S 9D 7S hit 7S", 200100),  # suited 7-7-7: 2000:1
        ("7S 9D 7H hit 7S", 50100),  # 7-7-7: 500:1
        ("7S 6D 7H double 7C", 50100),  # the double card is the third card: 500:1
        ("7S 6D 7S double 4C", 15100),  # doubled, third a 4: suited 7-7 150:1
    ],
)
def test_the_third_card_by_hit_or_double(script, payout):
    rnd = crazy(script)
    assert rows(rnd, "crazy_7") == [(1, 100, payout)]


def test_after_a_split_of_sevens_the_first_hands_card_is_the_third():
    # 7♥ 7♥ split: hand 1 gets 7♥ (its second card, the box's third): suited 7-7-7 2000:1,
    # settled on that card; hand 2's 7♣ plays no part
    rnd = crazy("7H 6D 7H split 7H")
    assert rows(rnd, "crazy_7") == [(1, 100, 200100)]
    run(rnd, "stand 7C")
    assert rows(rnd, "crazy_7") == [(1, 100, 200100)]


def test_after_a_split_the_second_hands_seven_does_not_count():
    # 7♠ 7♥ split: hand 1 gets 2♣ -> 7-7 25:1; hand 2's 7♦ comes too late
    rnd = crazy("7S 6D 7H split 2C")
    assert rows(rnd, "crazy_7") == [(1, 100, 2600)]
    run(rnd, "hit TC stand 7D")
    assert rows(rnd, "crazy_7") == [(1, 100, 2600)]


def test_hole_card_dealer_blackjack_settles_on_two():
    # hole-card dealer: 7♠, A♦ up, 7♥, hole K♣; no insurance; peek: blackjack. No third card:
    # 7-7 unsuited 25:1; the main 1000 lost
    rnd = crazy("7S AD 7H KC no_insurance", HOLE)
    assert rnd.done
    assert money(rnd) == [(1, 1, "crazy_7", "", 100, 2600), (1, 1, "main", "", 1000, 0)]


def test_a_void_returns_a_waiting_crazy_7():
    rnd = crazy("7S TD 7H")
    rnd.void_round("misdeal")
    assert money(rnd) == [(1, 1, "crazy_7", "", 100, 100), (1, 1, "main", "", 1000, 1000)]


# ------------------------------------------------------------------ Bust It
def bust(script: str, table=TABLE):
    return run(start(table, [(1, "main", 1000), (1, "bust_it", 100)]), script)


def test_bust_it_three_card_bust():
    # 20 stands; dealer 6 + T = 16, + 8 = 24 bust in 3 cards: 1:1; main wins 2000
    rnd = bust("TS 6D KH stand TC 8S")
    assert money(rnd) == [(1, 1, "bust_it", "", 100, 200), (1, 1, "main", "", 1000, 2000)]


def test_bust_it_loses_when_the_dealer_stands():
    rnd = bust("TS 6D KH stand TC 2S")  # dealer 18
    assert money(rnd) == [(1, 1, "bust_it", "", 100, 0), (1, 1, "main", "", 1000, 2000)]


def test_bust_it_dealer_plays_out_though_every_hand_is_bust():
    # box 10+6 hits 9: bust, lost at once. The dealer still plays: 5 4 2 3 2 = 16, then T: 26,
    # bust in 6 cards: 50:1
    rnd = bust("TS 5D 6H hit 9C")
    assert rows(rnd, "main") == [(1, 1000, 0)] and not rnd.done
    run(rnd, "4C 2C 3D 2H TC")
    assert rnd.done and rnd.dealer_cards() == ("5D", "4C", "2C", "3D", "2H", "TC")
    assert rows(rnd, "bust_it") == [(1, 100, 5100)]


def test_bust_it_after_a_player_blackjack_paid_on_the_deal():
    # A+K against a 6: the blackjack is paid (2500) at once; the dealer plays for Bust It:
    # 6 T 9 = 25 in 3 cards: 1:1
    rnd = bust("AS 6D KH")
    assert rows(rnd, "main") == [(1, 1000, 2500)] and not rnd.done
    run(rnd, "TC 9C")
    assert rows(rnd, "bust_it") == [(1, 100, 200)]


def test_bust_it_eight_or_more_cards():
    # dealer 2 2 2 2 3 3 2 = 16 in 7 cards, then T: 26 in 8 cards: 250:1
    rnd = bust("TS 2D TH stand 2C 2H 2S 3D 3C 2D TC")
    assert rows(rnd, "bust_it") == [(1, 100, 25100)]
    assert rows(rnd, "main") == [(1, 1000, 2000)]


def test_bust_it_against_a_dealer_blackjack():
    # no hole card: 9+9 stands; dealer T up, A second: blackjack; Bust It lost
    rnd = bust("9S TD 9H stand AC")
    assert money(rnd) == [(1, 1, "bust_it", "", 100, 0), (1, 1, "main", "", 1000, 0)]


def test_bust_it_against_a_peeked_blackjack():
    rnd = bust("9S AD 9H KC no_insurance", HOLE)
    assert rnd.done and money(rnd) == [(1, 1, "bust_it", "", 100, 0), (1, 1, "main", "", 1000, 0)]


def test_bust_it_dealer_22_on_a_free_bet_table_is_a_bust():
    # Free Bet: a dealer 22 pushes the live 20 (1000 back) but is a bust for Bust It: 3 cards 1:1
    table = rules("free-bet", side_bets=("bust_it",))
    rnd = bust("TS 6D KH stand 6C TC", table)
    assert money(rnd) == [(1, 1, "bust_it", "", 100, 200), (1, 1, "main", "", 1000, 1000)]


def test_seven_seven_surrendered_settles_on_two():
    # ru6 surrenders against a ten: half the main back (500); no third card: suited 7-7 150:1
    rnd = crazy("7D TC 7D surrender")
    assert money(rnd) == [(1, 1, "crazy_7", "", 100, 15100), (1, 1, "main", "", 1000, 500)]


def test_a_void_returns_a_riding_bust_it():
    rnd = bust("TS 6D KH stand")
    rnd.void_round("shoe fault")
    assert money(rnd) == [(1, 1, "bust_it", "", 100, 100), (1, 1, "main", "", 1000, 1000)]
