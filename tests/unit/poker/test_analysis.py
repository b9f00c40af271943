"""Russian poker Monte Carlo: the fields every analysis reports, the Bonus against its exact
figure, the Ante edge no better than Caribbean Stud's optimal strategy allows."""

from fractions import Fraction

import pytest

from controller.analysis import HouseEdgeOptions
from controller.games.russian_poker import russian_poker_rules
from controller.games.russian_poker.analysis import bonus_exact, house_edge, simple

CARIBBEAN_STUD_OPTIMAL = 0.05224  # same game and paytable as the standard preset, optimal play


def test_bonus_exact_edge_is_hand_worked():
    # returns: flush 5108 x 51 + full house 3744 x 71 + quads 624 x 201 + straight flush 36 x 501
    # + royal 4 x 1001 = 673,796 per 2,598,960 staked -> edge 1 - 673796/2598960
    assert bonus_exact(russian_poker_rules()) == pytest.approx(float(1 - Fraction(673_796, 2_598_960)), abs=1e-15)


@pytest.mark.slow  # a Monte Carlo run of 30,000 rounds: make test runs it, make test-fast does not
def test_monte_carlo_fields_and_figures():
    result = house_edge(HouseEdgeOptions(rounds=30_000, seed=3, progress=False))
    assert result["method"] == "monte-carlo" and result["theoretical_edge"] is None
    assert set(result) >= {"house_edge", "std_error", "theoretical_edge", "rounds", "rounds_per_s", "method", "bets"}
    assert set(result["bets"]) == {"ante", "bonus"}
    # the simple strategy raises every flush or better, so the Bonus sees every dealt hand
    bonus, se = result["bets"]["bonus"], result["std_errors"]["bonus"]
    assert abs(bonus - result["exact_bets"]["bonus"]) < 4 * se
    assert result["house_edge"] > CARIBBEAN_STUD_OPTIMAL - 4 * result["std_error"]


def test_exchange_preset_runs_and_has_no_exact_bonus():
    result = house_edge(HouseEdgeOptions(preset="exchange", rounds=2_000, seed=3, progress=False, strategy="pair"))
    assert "exact_bets" not in result and result["strategy"] == "pair"


@pytest.mark.parametrize(
    ("cards", "up", "exchange", "choice"),
    [
        ("2S 2D 7C 9H JS", "KD", False, ("raise", None)),  # a pair: raise
        ("AS KD 7C 9H JS", "7D", False, ("raise", None)),  # A-K with the dealer's up rank (7)
        ("AS KD 7C 9H JS", "8D", False, ("fold", None)),  # A-K without a match
        ("AS QD 7C 9H JS", "7D", False, ("fold", None)),  # below A-K
        ("AH QH 7H 9H JS", "7D", True, ("exchange", "JS")),  # four hearts: exchange the spade
    ],
)
def test_simple_strategy(cards, up, exchange, choice):
    assert simple(cards.split(), up, exchange) == choice
