"""Baccarat house edges: exact enumeration against the published 8-deck figures, and the
engine's Monte Carlo against the exact figures."""

from fractions import Fraction

import pytest

from controller.analysis import HouseEdgeOptions
from controller.games.baccarat.analysis import house_edge, outcome_probabilities


def test_exact_eight_deck_edges_match_the_published_figures():
    result = house_edge(HouseEdgeOptions())
    assert result["method"] == "exact"
    # 8 decks: Banker 1.06 %, Player 1.24 %, Tie at 8:1 14.36 %
    assert round(result["bets"]["banker"] * 100, 2) == 1.06
    assert round(result["bets"]["player"] * 100, 2) == 1.24
    assert round(result["bets"]["tie"] * 100, 2) == 14.36
    assert result["house_edge"] == result["bets"]["banker"]


def test_probabilities_are_exact_fractions_summing_to_one():
    p = outcome_probabilities(8)
    assert sum(p.values()) == Fraction(1)
    # published 8-deck probabilities: Banker 0.458597, Player 0.446247, Tie 0.095156
    assert (round(float(p["banker"]), 6), round(float(p["player"]), 6), round(float(p["tie"]), 6)) == (
        0.458597,
        0.446247,
        0.095156,
    )


@pytest.mark.parametrize(("decks", "banker", "player", "tie"), [(1, 1.01, 1.29, 15.75), (6, 1.06, 1.24, 14.44)])
def test_other_shoe_sizes_match_the_published_figures(decks, banker, player, tie):
    bets = house_edge(HouseEdgeOptions(overrides={"decks": decks}))["bets"]
    assert (round(bets["banker"] * 100, 2), round(bets["player"] * 100, 2), round(bets["tie"] * 100, 2)) == (
        banker,
        player,
        tie,
    )


def test_monte_carlo_through_the_engine_agrees_with_the_exact_edges():
    result = house_edge(HouseEdgeOptions(method="monte-carlo", rounds=20_000, seed=7, progress=False))
    assert result["method"] == "monte-carlo" and result["rounds"] == 20_000
    exact = house_edge(HouseEdgeOptions())["bets"]
    for bet in ("banker", "player", "tie"):
        assert abs(result["bets"][bet] - exact[bet]) < 4 * result["std_errors"][bet]
