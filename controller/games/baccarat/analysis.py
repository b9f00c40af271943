"""Baccarat house edges: exact by enumeration over the shoe, or Monte Carlo through the engine.

The exact method walks every Player/Banker card sequence by baccarat value (ten value classes,
each with its count left in the shoe), without replacement, using the engine's own drawing rules
(``player_draws``/``banker_draws``). Weights are integers scaled to six cards drawn, so the
probabilities are exact fractions. Tie pushes Player and Banker; each edge is per unit wagered.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.analysis.montecarlo import run_monte_carlo
from controller.games.baccarat import (
    BET_KINDS,
    BaccaratRound,
    BaccaratRules,
    baccarat_rules,
    banker_draws,
    player_draws,
)
from controller.games.base import CloseBetting, ExpectKind
from controller.shoe import Shoe

DEFAULT_ROUNDS = 200_000
STAKE = 10_000  # large enough that the commission never rounds in Monte Carlo


def outcome_probabilities(decks: int) -> dict[str, Fraction]:
    """Exact P(player wins), P(banker wins), P(tie) off the top of a full shoe of ``decks``."""
    counts = [16 * decks] + [4 * decks] * 9  # value 0: T J Q K; values 1-9: one rank each
    n = sum(counts)
    tail4, tail5 = (n - 4) * (n - 5), n - 5  # complete 4- and 5-card paths to 6 draws
    wins = [0, 0, 0]  # player, banker, tie

    def record(pt: int, bt: int, weight: int) -> None:
        wins[0 if pt > bt else 1 if bt > pt else 2] += weight

    c = counts
    for p1 in range(10):
        w1 = c[p1]
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if not w4:
                        continue
                    c[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:
                        record(pt, bt, w4 * tail4)
                    elif player_draws(pt):
                        for p3 in range(10):
                            w5 = w4 * c[p3]
                            if not w5:
                                continue
                            c[p3] -= 1
                            pt3 = (pt + p3) % 10
                            if banker_draws(bt, p3):
                                for b3 in range(10):
                                    record(pt3, (bt + b3) % 10, w5 * c[b3])
                            else:
                                record(pt3, bt, w5 * tail5)
                            c[p3] += 1
                    elif banker_draws(bt, None):
                        for b3 in range(10):
                            record(pt, (bt + b3) % 10, w4 * c[b3] * tail5)
                    else:
                        record(pt, bt, w4 * tail4)
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    total = sum(wins)
    return {"player": Fraction(wins[0], total), "banker": Fraction(wins[1], total), "tie": Fraction(wins[2], total)}


def exact_edges(rules: BaccaratRules) -> dict[str, float]:
    """House edge of each bet (fraction of the stake), ties pushing Player and Banker."""
    p = outcome_probabilities(rules.decks)
    pw, bw, tie = p["player"], p["banker"], p["tie"]
    return {
        "banker": float(pw - bw * rules.banker_pays),
        "player": float(bw - pw * rules.player_pays),
        "tie": float((1 - tie) - tie * rules.tie_pays),
    }


def _monte_carlo(rules: BaccaratRules, rounds: int, seed: int, progress: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    cut_after = round(rules.cut_card * 52)
    shoe = Shoe(rules.decks, rng, cut_after)

    def play() -> list[float]:
        nonlocal shoe
        if shoe.cut_reached:
            shoe = Shoe(rules.decks, rng, cut_after)
        coup = BaccaratRound(rules)
        for kind in BET_KINDS:
            coup.place_bet(1, kind, STAKE)
        coup.apply(CloseBetting())
        while coup.expects().kind is ExpectKind.CARD:
            coup.deal(shoe.draw())
        return [(s.payout - s.stake) / s.stake for s in coup.settlements]

    result = run_monte_carlo(play, BET_KINDS, rounds, progress, label="baccarat")
    edges = {k: result.bets[k].edge for k in BET_KINDS}
    return {
        "house_edge": edges["banker"],
        "std_error": result.bets["banker"].std_error,
        "theoretical_edge": exact_edges(rules)["banker"],
        "rounds": rounds,
        "rounds_per_s": result.rounds_per_s,
        "method": "monte-carlo",
        "bets": edges,
        "std_errors": {k: result.bets[k].std_error for k in BET_KINDS},
    }


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    rules = baccarat_rules(options.preset or "standard", options.overrides)
    if options.method == "monte-carlo":
        return _monte_carlo(rules, options.rounds or DEFAULT_ROUNDS, options.seed, options.progress)
    edges = exact_edges(rules)
    return {
        "house_edge": edges["banker"],
        "std_error": 0.0,
        "theoretical_edge": edges["banker"],
        "rounds": None,
        "rounds_per_s": None,
        "method": "exact",
        "bets": edges,
    }
