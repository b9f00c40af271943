"""Expected values checked against hand-worked figures, and the house edge of ru6."""

import time

import pytest

from controller.games.blackjack.rules import blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy, ev_rules, shoe_counts
from controller.games.blackjack.strategy_ev import Deal

#: ru6 without surrender (6 decks, S17, no hole card, dealer blackjack takes all, DAS, split to
#: 4 hands, one card to split aces, 3:2): house edge 0.517 %, computed independently.
RU6_NO_SURRENDER_EDGE = 0.00517


@pytest.fixture(scope="module")
def ru6() -> BasicStrategy:
    return BasicStrategy.for_rules(blackjack_rules("ru6", {"surrender": "none"}))


def test_theoretical_edge_of_ru6_without_surrender(ru6: BasicStrategy) -> None:
    assert ru6.theoretical_edge == pytest.approx(RU6_NO_SURRENDER_EDGE, abs=0.0005)


def test_strategy_is_computed_in_seconds_and_cached() -> None:
    rules = blackjack_rules("ru6", {"decks": 4})
    started = time.perf_counter()
    first = BasicStrategy.for_rules(rules)
    assert time.perf_counter() - started < 20
    assert BasicStrategy.for_rules(blackjack_rules("ru6", {"decks": 4})) is first


def test_standing_on_20_against_6(ru6: BasicStrategy) -> None:
    # Infinite-deck dealer outcomes for a 6 up, S17 (published): 17 .165438, 18 .106267,
    # 19 .106267, 20 .101715, 21 .097166, bust .423149. 20 wins on 17-19 and busts, pushes 20,
    # loses to 21: 0.801121 - 0.097166 = 0.703955. Six decks less T-T-6 differ by a few 0.001.
    assert ru6.values[(("P", 10), 6)]["stand"] == pytest.approx(0.703955, abs=0.005)


def test_player_blackjack_against_a_ten_up() -> None:
    # No hole card: the dealer's second card is an ace with 23/309 (6 decks less A, T, T);
    # then the blackjack pushes, otherwise it is paid 3:2.
    rules = blackjack_rules("ru6", {"surrender": "none"})
    counts, _ = shoe_counts(rules)
    deal = Deal(ev_rules(rules), counts, (1, 10), 10)
    assert deal.natural() == pytest.approx(1.5 * (1 - 23 / 309))


def test_early_surrender_costs_half_whatever_the_dealer_holds() -> None:
    rules = blackjack_rules("ru6")
    counts, _ = shoe_counts(rules)
    acts = Deal(ev_rules(rules), counts, (10, 6), 10).first_actions(10, 6, False)
    assert acts["surrender"] == -0.5


def test_doubling_against_a_ten_loses_the_double_to_a_dealer_blackjack() -> None:
    # With 'all', a doubled hand loses 2 units on a dealer blackjack; with 'original' only 1,
    # so doubling 11 against a ten gains exactly P(ace hole) by switching the rule.
    base = blackjack_rules("ru6", {"surrender": "none"})
    orig = blackjack_rules("ru6", {"surrender": "none", "dealer_blackjack_takes": "original"})
    counts, _ = shoe_counts(base)
    p_ace = 24 / 309  # 6 decks less 6, 5 and the ten up card
    d_all = Deal(ev_rules(base), counts, (6, 5), 10).first_actions(6, 5, False)
    d_orig = Deal(ev_rules(orig), counts, (6, 5), 10).first_actions(6, 5, False)
    assert d_orig["double"] - d_all["double"] == pytest.approx(p_ace)
    assert d_orig["hit"] == pytest.approx(d_all["hit"])
