"""Catch a Wave house edge by Monte Carlo: one box played by a strategy through the engine.

The shoe is real: ``decks`` decks shuffled by a seeded ``random.Random``, a cut card placed per
``cut_card``; the round in which the cut card comes out is finished, then the shoe is reshuffled.
The player sees every card dealt since the shuffle (the shoe's composition is what is unseen).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from controller.analysis import HouseEdgeOptions
from controller.analysis.montecarlo import run_monte_carlo
from controller.games.base import RulesConfigError
from controller.games.catch_a_wave import CatchAWaveRound, CatchAWaveRules, Phase, SeedStrategy, catch_a_wave_rules
from controller.shoe import Shoe

DEFAULT_ROUNDS = 1_000_000
STAKE = 100
#: the published house edge of the seed strategy (docs/rules.md §3)
SEED_EDGE = 0.0050
STRATEGIES = {"seed": SeedStrategy}


def round_player(
    rules: CatchAWaveRules, strategy: SeedStrategy, rng: random.Random, shoe_class: type[Shoe] = Shoe
) -> Callable[[], tuple[float]]:
    """A ``play_round`` for the Monte Carlo runner: net result per unit staked of one round."""
    lo, hi = rules.cut_card

    def new_shoe() -> Shoe:
        return shoe_class.with_penetration(rules.decks, rng, lo, hi)

    shoe = new_shoe()
    play, dealer = Phase.PLAY, Phase.DEALER

    def play_round() -> tuple[float]:
        nonlocal shoe
        if shoe.cut_reached:
            shoe = new_shoe()
        draw, unseen = shoe.draw, shoe.composition
        rnd = CatchAWaveRound(rules)
        rnd.place_bet(1, "main", STAKE)
        rnd.close_betting()
        rnd.deal(draw())
        rnd.deal(draw())
        up, right, last = rnd.dealer_last, rnd.right, rnd.last
        while rnd.phase is play:
            move = strategy.decide(up, right[1], last[1], unseen)
            rnd.decide(1, move)
            if move != "stand":
                rnd.deal(draw())
        while rnd.phase is dealer:
            rnd.deal(draw())
        s = rnd.settlements[0]
        return ((s.payout - s.stake) / s.stake,)

    return play_round


def house_edge(options: HouseEdgeOptions) -> dict[str, object]:
    if options.method not in (None, "monte-carlo"):
        raise RulesConfigError("catch-a-wave is measured by Monte Carlo (method monte-carlo)")
    name = options.strategy or "seed"
    if name not in STRATEGIES:
        raise RulesConfigError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
    rules = catch_a_wave_rules(options.preset or "standard", options.overrides)
    rounds = options.rounds or DEFAULT_ROUNDS
    play_round = round_player(rules, STRATEGIES[name](), random.Random(options.seed))
    result = run_monte_carlo(play_round, ("main",), rounds, options.progress, label="catch-a-wave")
    main = result.bets["main"]
    return {
        "method": "monte-carlo",
        "preset": options.preset or "standard",
        "strategy": name,
        "house_edge": main.edge,
        "std_error": main.std_error,
        "theoretical_edge": SEED_EDGE,
        "rounds": result.rounds,
        "rounds_per_s": result.rounds_per_s,
        "seed": options.seed,
    }
