"""House edges settled through the engine, against figures worked by hand as Fractions."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.games.roulette import roulette_rules
from controller.games.roulette.analysis import exact_edges, monte_carlo, theoretical_straight_edge

F = Fraction


def test_european_every_bet_is_one_in_37():
    edges, spins = exact_edges(roulette_rules("european"))
    assert spins == 37
    assert set(edges.values()) == {F(1, 37)}  # 2.7027 %
    assert {
        "straight",
        "split",
        "street",
        "corner",
        "six_line",
        "column",
        "dozen",
        "red",
        "black",
        "odd",
        "even",
        "low",
        "high",
        "neighbours",
        "voisins",
        "tiers",
        "orphelins",
        "jeu_zero",
    } == set(edges)
    assert exact_edges(roulette_rules("european", {"first_four": True}))[0]["first_four"] == F(
        1, 37
    )  # 1 - 4*9/37


def test_american_edges_and_the_five_bet():
    edges, spins = exact_edges(roulette_rules("american"))
    assert spins == 38
    five = edges.pop("five")
    assert five == F(3, 38)  # 1 - 5*7/38 = 3/38 = 7.8947 %
    assert set(edges.values()) == {F(1, 19)}  # 2/38 = 5.2632 %


def test_la_partage_halves_the_even_money_edge():
    edges, _ = exact_edges(roulette_rules("la-partage"))
    # red: 18/37 * 2 + 1/37 * 1/2 = 72.5/74 back: edge 1.5/74... = 1/74 = 1.3514 %
    for name in ("red", "black", "odd", "even", "low", "high"):
        assert edges[name] == F(1, 74)
    assert edges["straight"] == edges["dozen"] == F(1, 37)


@pytest.mark.slow  # the exact double-ball enumeration: make test runs it, make test-fast does not
def test_double_ball_edges():
    edges, spins = exact_edges(roulette_rules("double-ball"))
    assert spins == 37 * 37
    n2 = 37 * 37
    # straight 17:1: one ball in 72 of 1369 pairs returns 18, both balls in 1 pair returns 35
    assert edges["straight"] == 1 - F(72 * 18 + 35, n2) == F(38, n2)
    # split 8:1: one ball 2*2*35 = 140 pairs returns 9, both 4 pairs return 17
    assert edges["split"] == 1 - F(140 * 9 + 4 * 17, n2) == F(41, n2)
    # red 3:1 needs both balls: 18*18 pairs return 4
    assert edges["red"] == 1 - F(324 * 4, n2) == F(73, n2)
    # dozen 8:1: 12*12 pairs return 9
    assert edges["dozen"] == 1 - F(144 * 9, n2) == F(73, n2)
    # both on any same number 34:1: 37 pairs return 35; chosen number 1300:1: 1 pair returns 1301
    assert edges["both_any"] == 1 - F(37 * 35, n2) == F(2, 37)
    assert edges["both_on"] == 1 - F(1301, n2) == F(68, n2)


def test_double_ball_on_a_double_zero_wheel_matches_the_published_figure():
    rules = roulette_rules("double-ball", {"wheel": "american"})
    # 17:1 a ball: (74 * 18 + 35) / 1444 back = edge 77/1444 = 5.33 %, the figure published
    # for double-zero double ball inside bets
    assert theoretical_straight_edge(rules) == F(77, 1444)
    assert round(float(F(77, 1444)) * 100, 2) == 5.33


def test_lightning_draw_model_keeps_the_straight_at_one_in_37():
    rules = roulette_rules("lightning")
    edges, _ = exact_edges(rules)
    # mean multiplier (50*53 + 100*23 + 150*10 + 200*6 + 250*3 + 300*2 + 400*2 + 500) / 100 = 103;
    # 1 to 5 numbers: 3 of 37 drawn on average; return = (3/37 * 104 + 34/37 * 30) / 37 = 36/37
    assert theoretical_straight_edge(rules) == F(1, 37)
    assert edges["straight"] == edges["neighbours"] == edges["red"] == F(1, 37)
    richer = roulette_rules("lightning", {"multipliers": {"numbers": [5, 5], "values": {500: 1}}})
    # 5/37 * 501 + 32/37 * 30 = (2505 + 960) / 37 = 3465/37 back per 37 staked
    assert exact_edges(richer)[0]["straight"] == 1 - F(3465, 37 * 37)


@pytest.mark.slow  # a statistical check: make test runs it, make test-fast does not
def test_monte_carlo_agrees_with_exact():
    rules = roulette_rules("la-partage")
    est, _ = monte_carlo(rules, 4000, seed=7, progress=False)
    exact, _ = exact_edges(rules)
    for name, e in est.items():
        assert abs(e["edge"] - float(exact[name])) < 4.5 * e["std_error"], name


@pytest.mark.parametrize(
    ("preset", "edge"), [("european", 0.027027), ("american", 0.052632), ("la-partage", 0.027027)]
)
def test_cli_house_edge(preset, edge):
    out = CliRunner().invoke(app, ["house-edge", "roulette", "--preset", preset, "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["method"] == "exact" and got["std_error"] == 0
    assert round(got["house_edge"], 6) == edge == round(got["theoretical_edge"], 6)
    if preset == "american":
        assert round(got["bets"]["five"], 6) == 0.078947
    if preset == "la-partage":
        assert round(got["bets"]["red"], 6) == 0.013514
