"""Strategy-driven rounds through the real engine agree with the computed edge."""

import random

import pytest

from controller.analysis import HouseEdgeOptions
from controller.games.base import ExpectKind
from controller.games.blackjack.analysis import ShoeRounds, house_edge
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.games.blackjack.strategy_player import StrategyPlayer
from controller.shoe import Composition


@pytest.mark.slow  # a statistical check over 100,000 rounds: make test runs it, make test-fast does not
def test_monte_carlo_agrees_with_theory_within_four_standard_errors() -> None:
    result = house_edge(
        HouseEdgeOptions(preset="ru6", overrides={"surrender": "none"}, rounds=100_000, seed=7, progress=False)
    )
    assert result["rounds"] == 100_000
    assert result["method"] == "monte-carlo"
    assert result["preset"] == "ru6"
    assert result["settings"] == {"surrender": "none"}
    assert 0 < result["std_error"] < 0.01
    assert abs(result["house_edge"] - result["theoretical_edge"]) < 4 * result["std_error"]


def test_player_declines_insurance_then_plays_the_chart() -> None:
    rules = blackjack_rules("ru6", {"surrender": "none"})
    rnd = BlackjackRound(rules)
    rnd.place_bet(1, "main", 1000)
    rnd.close_betting()
    for card in ("6S", "AH", "5D"):  # box, dealer up, box: 11 against an ace
        rnd.deal(card)
    player = StrategyPlayer.for_rules(rules)
    first = player.decision(rnd, rnd.expects())
    assert first.action == "no_insurance"
    rnd.decide(first.box, first.hand, first.action)
    second = player.decision(rnd, rnd.expects())
    assert (second.box, second.hand, second.action) == (1, 1, "hit")  # ENHC: 11 against an ace hits


def test_runner_reshuffles_after_the_round_that_brought_the_cut_card_out() -> None:
    rules = blackjack_rules("ru6", {"surrender": "none", "cut_card": [0.5, 0.5]})  # cut after 26 cards
    runner = ShoeRounds(rules, random.Random(3))
    reshuffles = 0
    for _ in range(20):
        shoe, cut_out = runner.shoe, runner.shoe.cut_reached
        assert runner.play().expects().kind is ExpectKind.DONE
        assert (runner.shoe is not shoe) == cut_out
        reshuffles += cut_out
    assert reshuffles >= 3  # 20 rounds take well over 3 x 26 cards


def test_a_cut_card_before_the_first_card_is_a_continuous_shuffler() -> None:
    # a cut card at 0 reshuffles before every round: the runner draws from a continuous shoe
    rules = blackjack_rules("ru6", {"surrender": "none", "cut_card": (0, 0)})
    runner = ShoeRounds(rules, random.Random(3))
    assert runner.continuous is not None
    shoe = runner.continuous
    full = sorted(Composition(6).cards())
    for _ in range(2):  # a round may draw the whole shoe, each card once; the next starts full
        shoe.new_round()
        assert sorted(shoe.draw() for _ in range(312)) == full
    # first cards of 13000 rounds: a ten-value 4/13 of the time (mean 4000, sd 53)
    tens = 0
    for _ in range(13_000):
        shoe.new_round()
        tens += shoe.draw()[0] in "TJQK"
    assert abs(tens - 4000) < 4 * 53


def test_soft_13_of_three_aces_hits() -> None:
    # A-A-A (no split allowed) is a soft 13: always a hit, never the "not in the table" stand
    strategy = StrategyPlayer.for_rules(blackjack_rules("ru6", {"max_splits": 0})).strategy
    assert strategy.decide(["AS", "AH", "AD"], "TC", ("hit", "stand")) == "hit"
