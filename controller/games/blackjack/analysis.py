"""Blackjack house edge: rounds played through the real engine, decisions by basic strategy.

Each round is one box with one main bet, dealt from a shuffled shoe with its cut card; a new
shoe is shuffled once a round has brought the cut card out, as at the table. The computed
(theoretical) edge of the same strategy is reported beside the estimate.

A cut card before the first card (``--set cut_card=[0,0]``) reshuffles before every round: a
continuous shuffler. Every round then starts from the full shoe, which is what the theoretical
edge assumes, so the difference between the two runs measures the cut-card effect. Such rounds
draw each card uniformly from the cards not yet dealt this round (the same distribution as a
fresh shuffle, without shuffling 300 cards per round).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.analysis.montecarlo import run_monte_carlo
from controller.games.base import ExpectKind
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy
from controller.games.blackjack.strategy_player import StrategyPlayer
from controller.shoe import Shoe, ShoeEmpty

DEFAULT_PRESET = "ru6"
DEFAULT_ROUNDS = 1_000_000
STAKE = 1000  # minor units: large enough that 3:2 and halves stay whole

_CARD, _DEALER_CARD, _DECISION, _DONE = ExpectKind.CARD, ExpectKind.DEALER_CARD, ExpectKind.DECISION, ExpectKind.DONE


class ContinuousShoe:
    """A shoe every round starts full: each card is drawn uniformly from those not yet dealt in
    the round (a partial Fisher-Yates shuffle over one array, reset by ``new_round``)."""

    __slots__ = ("_cards", "_left", "_rng")

    def __init__(self, cards: Sequence[str], rng: random.Random) -> None:
        self._cards = list(cards)
        self._rng = rng
        self._left = len(self._cards)

    def new_round(self) -> None:
        self._left = len(self._cards)

    def draw(self) -> str:
        left = self._left
        if not left:
            raise ShoeEmpty(f"all {len(self._cards)} cards dealt in one round")
        cards = self._cards
        i = int(self._rng.random() * left)
        left -= 1
        card = cards[i]
        cards[i], cards[left] = cards[left], card
        self._left = left
        return card


class ShoeRounds:
    """Plays strategy-driven one-box rounds from a shuffled shoe, reshuffling at the cut card."""

    def __init__(self, rules: BlackjackRules, rng: random.Random, stake: int = STAKE) -> None:
        self.rules = rules
        self.rng = rng
        self.stake = stake
        self.player = StrategyPlayer.for_rules(rules)
        self.shoe = self._new_shoe()
        #: a cut card before the first card: a continuous shuffler
        self.continuous = (
            ContinuousShoe(self.shoe.composition.cards(), rng) if max(rules.cut_card) <= 0 else None
        )

    def _new_shoe(self) -> Shoe:
        r = self.rules
        return Shoe.with_penetration(r.decks, self.rng, *r.cut_card, removed_ranks=r.removed_ranks)

    def play(self) -> BlackjackRound:
        """Play one round to the end and return it."""
        draw: Callable[[], str]
        if self.continuous is not None:
            self.continuous.new_round()
            draw = self.continuous.draw
        else:
            if self.shoe.cut_reached:
                self.shoe = self._new_shoe()
            draw = self.shoe.draw
        rnd = BlackjackRound(self.rules)
        rnd.place_bet(1, "main", self.stake)
        rnd.close_betting()
        deal, decide, expects = rnd.deal, rnd.decide, rnd.expects
        action = self.player.action
        while True:
            expect = expects()
            kind = expect.kind
            if kind is _CARD or kind is _DEALER_CARD:
                deal(draw())
            elif kind is _DECISION:
                decide(expect.box or 1, expect.hand or 1, action(rnd, expect))
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
    overrides = dict(options.overrides)
    if options.decks is not None:
        overrides["decks"] = options.decks
    rules = blackjack_rules(preset, overrides)
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
        "shuffle": "continuous" if runner.continuous is not None else "cut card",
        "preset": preset,
        "settings": overrides,
        "seed": options.seed,
    }
