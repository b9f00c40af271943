"""Decisions against the published no-hole-card (ENHC) basic-strategy chart.

The facts are those of the standard European no-hole-card chart for 4-8 decks, dealer stands on
soft 17, double any two, double after split, dealer blackjack takes doubles and splits
(e.g. the Wizard of Odds "no hole card" strategy): with no peek, doubling or splitting against
a ten or an ace puts more money at risk of a dealer blackjack, so 11, 10 and 8-8 only hit there.
"""

import pytest

from controller.games.blackjack.rules import blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy

FIRST = ("hit", "stand", "double", "split", "surrender")
UPS = "23456789TA"


@pytest.fixture(scope="module")
def ru6() -> BasicStrategy:
    return BasicStrategy.for_rules(blackjack_rules("ru6", {"surrender": "none"}))


def first(strategy: BasicStrategy, cards: str, up: str) -> str:
    hand = [c + "S" for c in cards]
    options = [o for o in FIRST if o != "split" or cards[0] == cards[1]]
    return strategy.decide(hand, up + "H", options)


@pytest.mark.parametrize(
    ("cards", "up", "action"),
    [
        # 11 and 10: double against 2-9, hit against a ten or an ace (ENHC chart)
        ("65", "6", "double"),
        ("65", "9", "double"),
        ("65", "T", "hit"),
        ("65", "A", "hit"),
        ("64", "9", "double"),
        ("64", "T", "hit"),
        # 9: double against 3-6 only
        ("54", "2", "hit"),
        ("54", "3", "double"),
        ("54", "7", "hit"),
        # 12: stand against 4-6, hit against 2, 3 and 7+
        ("T2", "4", "stand"),
        ("T2", "3", "hit"),
        ("T2", "7", "hit"),
        # 13-16: stand against 2-6, hit against 7+; 16 against a ten hits without surrender
        ("T3", "2", "stand"),
        ("T6", "6", "stand"),
        ("T6", "7", "hit"),
        ("T6", "T", "hit"),
        ("T7", "A", "stand"),
        # soft 18: stand against 2, 7, 8; double against 3-6; hit against 9, ten, ace
        ("A7", "2", "stand"),
        ("A7", "4", "double"),
        ("A7", "8", "stand"),
        ("A7", "9", "hit"),
        ("A7", "T", "hit"),
        ("A7", "A", "hit"),
        # soft 13-17
        ("A2", "5", "double"),
        ("A2", "4", "hit"),
        ("A6", "3", "double"),
        ("A6", "7", "hit"),
        # pairs: A-A split except against an ace; 8-8 hit against ten and ace
        ("AA", "6", "split"),
        ("AA", "T", "split"),
        ("AA", "A", "hit"),
        ("88", "9", "split"),
        ("88", "T", "hit"),
        ("88", "A", "hit"),
        # 5-5 never splits: a 10
        ("55", "6", "double"),
        ("55", "T", "hit"),
        # T-T stands; 9-9 stands against 7, ten and ace
        ("TT", "6", "stand"),
        ("99", "6", "split"),
        ("99", "7", "stand"),
        ("99", "8", "split"),
        ("99", "T", "stand"),
        # 4-4 split against 5-6 with double after split; 2-2, 3-3, 7-7 against 2-7
        ("44", "5", "split"),
        ("44", "4", "hit"),
        ("22", "7", "split"),
        ("33", "8", "hit"),
        ("77", "7", "split"),
        ("77", "8", "hit"),
        ("66", "2", "split"),
        ("66", "7", "hit"),
    ],
)
def test_published_enhc_chart(ru6: BasicStrategy, cards: str, up: str, action: str) -> None:
    assert first(ru6, cards, up) == action


@pytest.mark.parametrize("up", UPS)
def test_hard_17_and_up_always_stand(ru6: BasicStrategy, up: str) -> None:
    assert first(ru6, "T7", up) == "stand"
    assert ru6.decide(["5S", "5D", "7C"], up + "S", ("hit", "stand")) == "stand"


def test_three_card_hands_follow_totals(ru6: BasicStrategy) -> None:
    assert ru6.decide(["4S", "4D", "4C"], "4S", ("hit", "stand")) == "stand"  # hard 12 vs 4
    assert ru6.decide(["5S", "5D", "6C"], "TS", ("hit", "stand")) == "hit"  # hard 16 vs T
    assert ru6.decide(["AS", "2D", "5C"], "9S", ("hit", "stand")) == "hit"  # soft 18 vs 9
    assert ru6.decide(["AS", "2D", "5C"], "7S", ("hit", "stand")) == "stand"  # soft 18 vs 7


def test_only_offered_options_are_chosen(ru6: BasicStrategy) -> None:
    # 11 against a 6 doubles; where doubling is not offered it hits
    assert ru6.decide(["6S", "5D"], "6S", ("hit", "stand")) == "hit"
    # 8-8 against a 9 splits; at the split limit it plays as a hard 16 and hits
    assert ru6.decide(["8S", "8D"], "9S", ("hit", "stand", "double")) == "hit"


def test_insurance_and_even_money_are_declined(ru6: BasicStrategy) -> None:
    assert ru6.decide(["TS", "9D"], "AS", ("insurance", "no_insurance")) == "no_insurance"
    assert ru6.decide(["AS", "KD"], "AH", ("even_money", "no_even_money")) == "no_even_money"


def test_early_surrender_against_ten() -> None:
    # ru6 surrenders before the hole card, never against an ace: 16 against a ten surrenders,
    # 16 against an ace may not and hits.
    s = BasicStrategy.for_rules(blackjack_rules("ru6"))
    assert first(s, "T6", "T") == "surrender"
    assert s.decide(["TS", "6D"], "AS", ("hit", "stand", "double")) == "hit"


def test_hole_card_peek_doubles_and_splits_against_ten() -> None:
    # With a peeking dealer (US rules, 6 decks, S17, DAS) the published chart doubles 11 and
    # 10 against a ten and splits 8-8 against a ten and an ace.
    s = BasicStrategy.for_rules(blackjack_rules("ru6", {"surrender": "none", "hole_card": True}))
    assert first(s, "65", "T") == "double"
    assert first(s, "64", "9") == "double"
    assert first(s, "88", "T") == "split"
    assert first(s, "88", "A") == "split"
    assert first(s, "AA", "A") == "split"


@pytest.mark.parametrize(
    ("cards", "up", "action"),
    [
        # published Free Bet strategy: take every free double on 9, 10, 11 ...
        ("65", "A", "double"),
        ("64", "T", "double"),
        ("54", "2", "double"),
        # ... and every free split (all pairs but tens; 5-5 is a free double instead)
        ("88", "T", "split"),
        ("44", "T", "split"),
        ("22", "T", "split"),
        ("55", "6", "double"),
        ("TT", "6", "stand"),
    ],
)
def test_free_bet_takes_free_doubles_and_splits(cards: str, up: str, action: str) -> None:
    s = BasicStrategy.for_rules(blackjack_rules("free-bet", {"surrender": "none"}))
    assert first(s, cards, up) == action
