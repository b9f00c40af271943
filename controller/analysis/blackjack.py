"""Blackjack house edge: rounds played through the real engine, decisions by basic strategy.

Each round is one box with one main bet, dealt from a shuffled shoe with its cut card; a new
shoe is shuffled once a round has brought the cut card out, as at the table. The computed
(theoretical) edge of the same strategy is reported beside the estimate.
"""

from __future__ import annotations

import random
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.analysis.montecarlo import run_monte_carlo
from controller.games.base import ExpectKind
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy
from controller.games.blackjack.strategy_player import StrategyPlayer
from controller.shoe import Shoe

DEFAULT_PRESET = "ru6"
DEFAULT_ROUNDS = 1_000_000
STAKE = 1000  # minor units: large enough that 3:2 and halves stay whole

_CARD, _DEALER_CARD, _DECISION, _DONE = ExpectKind.CARD, ExpectKind.DEALER_CARD, ExpectKind.DECISION, ExpectKind.DONE


class ShoeRounds:
    """Plays strategy-driven one-box rounds from a shuffled shoe, reshuffling at the cut card."""

    def __init__(self, rules: BlackjackRules, rng: random.Random, stake: int = STAKE) -> None:
        self.rules = rules
        self.rng = rng
        self.stake = stake
        self.player = StrategyPlayer.for_rules(rules)
        self.shoe = self._new_shoe()

    def _new_shoe(self) -> Shoe:
        r = self.rules
        return Shoe.with_penetration(r.decks, self.rng, *r.cut_card, removed_ranks=r.removed_ranks)

    def play(self) -> BlackjackRound:
        """Play one round to the end and return it."""
        if self.shoe.cut_reached:
            self.shoe = self._new_shoe()
        rnd = BlackjackRound(self.rules)
        rnd.place_bet(1, "main", self.stake)
        rnd.close_betting()
        draw, deal, decide, expects = self.shoe.draw, rnd.deal, rnd.decide, rnd.expects
        action = self.player.action
        while True:
            expect = expects()
            kind = expect.kind
            if kind is _CARD or kind is _DEALER_CARD:
                deal(draw())
            elif kind is _DECISION:
                decide(expect.box, expect.hand, action(rnd, expect))
            elif kind is _DONE:
                return rnd
            else:
                raise RuntimeError(f"blackjack round expects {kind.value} in a strategy run")

    def net(self) -> tuple[float]:
        """One round's net result per unit of the initial stake (the Monte Carlo sample)."""
        net = 0
        for s in self.play().settlements:
            net += s.payout - s.stake
        return (net / self.stake,)


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    preset = options.preset or DEFAULT_PRESET
    rules = blackjack_rules(preset, options.overrides)
    rounds = options.rounds or DEFAULT_ROUNDS
    theory = BasicStrategy.for_rules(rules).theoretical_edge
    runner = ShoeRounds(rules, random.Random(options.seed))
    result = run_monte_carlo(runner.net, ["main"], rounds, options.progress, "blackjack rounds")
    main = result.bets["main"]
    return {
        "house_edge": main.edge,
        "std_error": main.std_error,
        "theoretical_edge": theory,
        "rounds": result.rounds,
        "rounds_per_s": result.rounds_per_s,
        "seconds": result.seconds,
        "method": "monte-carlo",
        "preset": preset,
        "settings": dict(options.overrides),
        "seed": options.seed,
    }
