"""Five-card evaluator: full-deck class counts, hand-worked orderings, agreement with pokerkit."""

import random
from collections import Counter
from itertools import combinations

import pytest
from pokerkit import StandardHighHand

from controller.cards import DECK
from controller.games.poker_hands import AK_HIGH, HandClass, classify, evaluate, hand_class


@pytest.mark.slow  # all 2,598,960 hands enumerated: make test runs it, make test-fast does not
def test_class_counts_over_every_five_card_hand():
    counts = Counter(evaluate(hand) >> 20 for hand in combinations(DECK, 5))
    assert {HandClass(k).label: v for k, v in counts.items()} == {
        "high_card": 1_302_540,
        "pair": 1_098_240,
        "two_pair": 123_552,
        "trips": 54_912,
        "straight": 10_200,
        "flush": 5_108,
        "full_house": 3_744,
        "quads": 624,
        "straight_flush": 36,  # 40 straight flushes of which 4 are royal
        "royal_flush": 4,
    }
    assert sum(counts.values()) == 2_598_960


@pytest.mark.parametrize(
    ("cards", "label"),
    [
        ("AS KD 9C 7H 3S", "high_card"),
        ("5S 5D KC 9H 2S", "pair"),
        ("5S 5D KC KH 2S", "two_pair"),
        ("5S 5D 5C KH 2S", "trips"),
        ("AS 2D 3C 4H 5S", "straight"),  # the wheel
        ("TS JD QC KH AS", "straight"),
        ("2H 7H 9H JH KH", "flush"),
        ("5S 5D 5C KH KS", "full_house"),
        ("5S 5D 5C 5H KS", "quads"),
        ("AD 2D 3D 4D 5D", "straight_flush"),
        ("TC JC QC KC AC", "royal_flush"),
        ("QS KS AS 2S 3S", "flush"),  # no wrap-around straight
    ],
)
def test_classes(cards, label):
    assert classify(cards.split()).label == label


def _k(cards: str) -> int:
    return evaluate(cards.split())


def test_hand_worked_orderings():
    # wheel is the lowest straight, below 2-3-4-5-6; A-high straight is the highest
    assert _k("AS 2D 3C 4H 5S") < _k("2S 3D 4C 5H 6S") < _k("TS JD QC KH AS")
    # steel wheel is the lowest straight flush
    assert _k("AD 2D 3D 4D 5D") < _k("2C 3C 4C 5C 6C") < _k("9H TH JH QH KH") < _k("TC JC QC KC AC")
    # pair of kings: kickers decide A > Q, then the fifth card
    assert _k("KS KD AC 7H 2S") > _k("KH KC QC JH TS")
    assert _k("KS KD AC 7H 3S") > _k("KH KC AD 7C 2D")
    # two pair: higher pair first, then lower pair, then kicker
    assert _k("KS KD 3C 3H 2S") > _k("QS QD JC JH AS")
    assert _k("KS KD 4C 4H 2S") > _k("KH KC 3D 3S AD")
    assert _k("KS KD 4C 4H 5S") > _k("KH KC 4D 4S 3D")
    # full house by the trips; flush by its cards high to low
    assert _k("3S 3D 3C 2H 2S") > _k("2D 2C 2H AS AD")
    assert _k("AH 9H 5H 4H 2H") > _k("KS QS JS 9S 7S")
    # suits never break ties
    assert _k("AS KD 9C 7H 3S") == _k("AD KC 9H 7S 3C")


def test_ak_high_is_the_weakest_qualifier():
    assert _k("AS KD 4C 3H 2S") == AK_HIGH
    assert _k("AS QD JC 9H 8S") < AK_HIGH  # Ace-Queen does not qualify
    assert _k("2S 2D 3C 4H 5S") > AK_HIGH
    assert hand_class(AK_HIGH) is HandClass.HIGH_CARD


def _pk(cards: tuple[str, ...]) -> StandardHighHand:
    return StandardHighHand("".join(c[0] + c[1].lower() for c in cards))


@pytest.mark.slow  # a statistical check: make test runs it, make test-fast does not
def test_agrees_with_pokerkit_on_100000_random_pairs():
    rng = random.Random(20261129)
    for _ in range(100_000):
        cards = rng.sample(DECK, 10)
        a, b = tuple(cards[:5]), tuple(cards[5:])
        mine = (evaluate(a) > evaluate(b)) - (evaluate(a) < evaluate(b))
        ea, eb = _pk(a).entry, _pk(b).entry  # pokerkit: a larger entry is a stronger hand
        theirs = (ea > eb) - (ea < eb)
        assert mine == theirs, (a, b)
