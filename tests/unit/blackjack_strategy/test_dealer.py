"""Dealer outcome probabilities on shoes small enough to enumerate by hand."""

import pytest

from controller.games.blackjack.strategy_dealer import BUST, D17, D21, DEALER_BJ, dealer_outcomes


def counts(**by_value: int) -> list[int]:
    c = [0] * 11
    for name, n in by_value.items():
        c[int(name[1:])] = n
    return c


def test_six_up_over_ace_ten_ten() -> None:
    # Hole card A (1/3): soft 17, stands. Hole card T (2/3): 16, draws from {A, T}:
    # A (1/2) makes 17, T busts. So 17 with 2/3, bust with 1/3.
    d = dealer_outcomes(6, counts(v1=1, v10=2), hits_soft_17=False)
    assert d[D17] == pytest.approx(2 / 3)
    assert d[BUST] == pytest.approx(1 / 3)
    assert sum(d) == pytest.approx(1.0)


def test_soft_17_hit_rule_draws_on_soft_17() -> None:
    # Up 6, hole A = soft 17; hitting it draws a T (hard 17) or a 5 (hard 22, a bust on 22).
    # Shoe {A, T, 5}: hole A (1/3) -> draws T or 5 (1/2 each): 17 or 22.
    # Hole T (1/3): 16 -> A (17) or 5 (21), 1/2 each. Hole 5 (1/3): 11 -> A (soft 12 -> T: 22)
    # or T (21), 1/2 each.
    d = dealer_outcomes(6, counts(v1=1, v5=1, v10=1), hits_soft_17=True)
    assert d[D17] == pytest.approx(1 / 6 + 1 / 6)
    assert d[D21] == pytest.approx(1 / 6 + 1 / 6)
    assert d[BUST] + d[BUST + 1] == pytest.approx(1 / 3)


def test_ace_up_blackjack_is_the_share_of_tens_left() -> None:
    # 6 decks less the up ace: 96 tens among 311 cards.
    full = [0] + [24] * 9 + [96]
    full[1] -= 1
    d = dealer_outcomes(1, full, hits_soft_17=False)
    assert d[DEALER_BJ] == pytest.approx(96 / 311)
    assert sum(d) == pytest.approx(1.0)
