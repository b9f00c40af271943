"""Strategy-driven rounds through the real engine agree with the computed edge."""

import random

from controller.analysis import HouseEdgeOptions
from controller.analysis.blackjack import ShoeRounds, house_edge
from controller.games.base import ExpectKind
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.games.blackjack.strategy_player import StrategyPlayer


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
