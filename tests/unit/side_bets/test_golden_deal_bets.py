"""Suit'em Up, Lucky Lucky and Hot 3, settled on the box's second card, worked by hand.

Deal order (no hole card): box card, dealer up card, box card. Stakes 100 cents; a win at a:1
returns 100 + 100*a. Scripts stop after the deal: the side bet is settled by then.
"""

import pytest

from controller.games.base import BetRefused, RulesConfigError
from controller.games.blackjack.engine import BlackjackRound
from tests.unit.blackjack.helpers import money, refused, rules, run, start

ALL = ("suit_em_up", "lucky_lucky", "hot_3", "bust_it", "crazy_7", "perfect_pairs", "21+3")
TABLE = rules("ru6", side_bets=ALL)


def side(kind: str, script: str, table=TABLE) -> list[tuple[int, int]]:
    """(stake, payout) rows of ``kind`` after dealing ``script`` to box 1 with 100 on it."""
    rnd = run(start(table, [(1, "main", 1000), (1, kind, 100)]), script)
    return [(s.stake, s.payout) for s in rnd.settlements if s.kind == kind]


@pytest.mark.parametrize(
    ("script", "payout"),
    [
        ("AS 7C AS", 6100),  # suited A-A 60:1 (also a suited pair)
        ("AH 7C KH", 1100),  # suited blackjack 10:1
        ("8D 7C 8D", 600),  # suited pair 5:1
        ("5C 7D 6C", 400),  # suited 11 3:1
        ("2S 7D 9S", 400),  # suited 11 (2-9) 3:1
        ("AD 7C 2D", 300),  # an ace is not in a suited 11: any other suited 2:1
        ("9H 7C 4H", 300),  # suited 2:1
        ("9H 7H 4S", 0),  # two suits: lost (the up card plays no part)
    ],
)
def test_suit_em_up(script, payout):
    assert side("suit_em_up", script) == [(100, payout)]


@pytest.mark.parametrize(
    ("script", "payout"),
    [
        ("7H 7H 7H", 20100),  # suited 7-7-7 200:1
        ("7H 7S 7H", 5100),  # 7-7-7 50:1
        ("6D 8D 7D", 10100),  # suited 6-7-8 (any order) 100:1
        ("8C 6H 7S", 3100),  # 6-7-8 30:1
        ("AS 9S AS", 1600),  # suited 21: one ace 11, one 1 (11+9+1) 15:1
        ("KS QS AS", 1600),  # suited 21 with the ace counted 1 (10+10+1)
        ("AH 9C AD", 400),  # 21 (11+9+1) 3:1
        ("AS 9S 9C", 300),  # 19: the ace counts 1 (1+9+9) 2:1
        ("AH AD 8C", 300),  # 20 (11+1+8) 2:1
        ("5H 9H 5H", 300),  # suited 19 is only a 19 2:1
        ("TH 8C 5D", 0),  # 23
        ("TH 8C 8D", 0),  # 26
        ("9H 8C TD", 0),  # 27
        ("TH 7C TD", 0),  # 27
        ("TH 8C QD", 0),  # 28
        ("9H 9C 9D", 0),  # 27
        ("TH 4C 4D", 0),  # 18 pays nothing
    ],
)
def test_lucky_lucky(script, payout):
    assert side("lucky_lucky", script) == [(100, payout)]


@pytest.mark.parametrize(
    ("script", "payout"),
    [
        ("7H 7S 7D", 10100),  # 7-7-7 any suits 100:1
        ("7C 7C 7C", 10100),  # suited 7-7-7 is still 100:1 (better than suited 21)
        ("AS 9S AS", 2100),  # suited 21 (11+9+1) 20:1
        ("6D 8D 7D", 2100),  # suited 21
        ("AH 9C AD", 500),  # 21 4:1
        ("AS 9S 9C", 200),  # 19, the ace counted 1: 1:1
        ("AH AD 8C", 300),  # 20 (11+1+8) 2:1
        ("KS 5D 3C", 0),  # 18
    ],
)
def test_hot_3(script, payout):
    assert side("hot_3", script) == [(100, payout)]


def test_settled_at_the_second_card_with_the_other_deal_bets():
    # box 1 A♥ 9♣ A♦ (21 for the side bets; the box holds A-A): every deal bet settles on the
    # second card, before any decision; Bust It and Crazy 7 (no 7 first: lost) too.
    bets = [(1, "main", 1000)] + [(1, k, 100) for k in ALL]
    rnd = run(start(TABLE, bets), "AH 9C AD")
    assert money(rnd) == [
        (1, 1, "21+3", "", 100, 0),
        (1, 1, "crazy_7", "", 100, 0),
        (1, 1, "hot_3", "", 100, 500),
        (1, 1, "lucky_lucky", "", 100, 400),
        (1, 1, "perfect_pairs", "", 100, 1300),  # coloured pair 12:1
        (1, 1, "suit_em_up", "", 100, 0),
    ]
    assert [s.kind for s in rnd.open_bets() if s.kind not in ("main",)] == ["bust_it"]


def test_a_changed_paytable_and_a_dropped_line():
    # Hot 3 with 19 at 2:1 and no suited-21 line: a suited 21 falls back to 21 (4:1)
    table = rules("ru6", side_bets=("hot_3",), hot_3={"7_7_7": "100:1", "21": "4:1", "20": "2:1", "19": "2:1"})
    assert side("hot_3", "AS 9S 9C", table) == [(100, 300)]
    assert side("hot_3", "AS 9S AS", table) == [(100, 500)]


def test_rounding_down_of_an_odd_stake():
    # 333 at 3:1 (suited 11) returns 333 + 999; Lucky Lucky 5:2 on a 20: 333 + 832.5 -> 1165
    table = rules("ru6", side_bets=("suit_em_up", "lucky_lucky"), lucky_lucky={"20": "5:2"})
    rnd = run(start(table, [(1, "main", 1000), (1, "suit_em_up", 333), (1, "lucky_lucky", 333)]), "5C AD 6C")
    assert money(rnd) == [(1, 1, "lucky_lucky", "", 333, 0), (1, 1, "suit_em_up", "", 333, 1332)]
    rnd = run(start(table, [(1, "main", 1000), (1, "lucky_lucky", 333)]), "AH AD 8C")
    assert money(rnd) == [(1, 1, "lucky_lucky", "", 333, 1165)]


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"suit_em_up": {"suited_ace": "60:1"}}, ["suited_ace", "did you mean 'suited_aces'"]),
        ({"crazy_7": {"seven_seven": "25:1"}}, ["seven_seven", "known: suited_7_7_7"]),
        ({"bust_it": {"8_or_more": "250:1"}}, ["did you mean '8_or_more_cards'"]),
        ({"side_bets": ["crazy7"]}, ["crazy7", "did you mean 'crazy_7'"]),
        ({"limits": {"suit_em_upp": {"min": 100, "max": 500}}}, ["suit_em_upp", "did you mean 'suit_em_up'"]),
        ({"hot_3": {}}, ["has no line"]),
    ],
)
def test_a_misspelt_line_or_bet_is_refused_naming_it(settings, words):
    with pytest.raises(RulesConfigError) as exc:
        rules("ru6", **settings)
    for word in words:
        assert word in str(exc.value)


def test_side_bet_limits_and_offer():
    table = rules("ru6", side_bets=("hot_3",), limits={"main": {"min": 100, "max": 5000}, "hot_3": {"min": 100, "max": 500}})
    rnd = BlackjackRound(table)
    rnd.place_bet(1, "main", 1000)
    refused(rnd, BetRefused, "blackjack.bet.limits", rnd.place_bet, 1, "hot_3", 600)
    refused(rnd, BetRefused, "blackjack.bet.kind", rnd.place_bet, 1, "lucky_lucky", 100)
    refused(rnd, BetRefused, "blackjack.bet.kind", rnd.place_bet, 1, "hot3", 100)
    rnd.place_bet(1, "hot_3", 500)
