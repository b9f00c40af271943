"""Exact analysis of Three Card Blackjack: the reference figures and hand-checkable strategy facts."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from controller.analysis import HouseEdgeOptions
from controller.games.base import RulesConfigError
from controller.games.three_card_blackjack import three_card_blackjack_rules
from controller.games.three_card_blackjack.analysis import ace_plus_edge, ante_analysis, house_edge

RULES = three_card_blackjack_rules()


@pytest.fixture(scope="module")
def analysis():
    return ante_analysis(RULES)


def test_ante_house_edge_is_the_reference_3_415_percent(analysis):
    assert round(float(analysis.edge) * 100, 3) == 3.415


def test_ace_plus_edge_is_the_reference_2_751_percent():
    # by hand: of C(52,3) = 22100 hands, A-A-A 4, A-A-T 6*16 = 96, A-A-x 6*32 = 192,
    # A-T-T 4*120 = 480, A-T-x 4*16*32 = 2048, A-x-x 4*496 = 1984, no ace C(48,3) = 17296;
    # 4*100 + 96*25 + 192*15 + 480*6 + 2048*3 + 1984 - 17296 = -608 -> edge 608/22100
    assert ace_plus_edge(RULES) == Fraction(608, 22100)
    assert round(float(ace_plus_edge(RULES)) * 100, 3) == 2.751


def test_optimal_strategy_facts(analysis):
    s = analysis.strategy
    # a blackjack never loses when played (it beats every dealer hand): always play
    assert all(s["A" + x + "T", up][0] for x in "23456789" for up in "A23456789T")
    # 2-3-4 (9) against a ten: folding (-1) beats playing
    assert s["234", "T"][0] is False
    # 21 against a 2 up card: play with positive EV
    play, ev = s["777", "2"]
    assert play and ev > 0
    # C(12, 3) = 220 multisets of three of the ten rank classes, each against all 10 up cards
    # (every class has at least 4 cards, so one is always left for the up card)
    assert len(s) == 220 * 10


def test_house_edge_json_fields():
    result = house_edge(HouseEdgeOptions(progress=False))
    assert result["method"] == "exact" and result["std_error"] == 0.0
    assert result["rounds"] == comb(52, 3) * 49 * comb(48, 2)
    assert round(result["house_edge"] * 100, 3) == 3.415
    assert round(result["bets"]["ace_plus"] * 100, 3) == 2.751
    assert result["bets"]["ante"] == result["house_edge"]
    with pytest.raises(RulesConfigError):
        house_edge(HouseEdgeOptions(method="monte-carlo", progress=False))


def test_a_richer_blackjack_bonus_lowers_the_edge():
    richer = three_card_blackjack_rules(overrides={"non_qualifying_blackjack_pays": "2:1"})
    assert ante_analysis(richer).edge < Fraction(3415, 100_000)
