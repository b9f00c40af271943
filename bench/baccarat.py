"""Baccarat engine speed: coups/s through ``BaccaratRound`` (three bets, settlement) against a
baseline in the same process that deals the same kind of coups with the bare drawing rules.

    .venv/bin/python bench/baccarat.py [--rounds 50000] [--seed 1] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cards import BACCARAT_POINTS
from controller.games.baccarat import BET_KINDS, BaccaratRound, baccarat_rules, banker_draws, player_draws
from controller.games.base import ExpectKind
from controller.shoe import Shoe


def bare_coup(shoe: Shoe) -> int:
    """Baseline: the drawing rules alone, no bets, no engine state."""
    v = BACCARAT_POINTS
    p1, b1, p2, b2 = shoe.draw(), shoe.draw(), shoe.draw(), shoe.draw()
    pt, bt = (v[p1[0]] + v[p2[0]]) % 10, (v[b1[0]] + v[b2[0]]) % 10
    if pt < 8 and bt < 8:
        if player_draws(pt):
            third = v[shoe.draw()[0]]
            pt = (pt + third) % 10
            if banker_draws(bt, third):
                bt = (bt + v[shoe.draw()[0]]) % 10
        elif banker_draws(bt, None):
            bt = (bt + v[shoe.draw()[0]]) % 10
    return (pt > bt) - (pt < bt)


def engine_coup(shoe: Shoe, rules) -> int:
    game = BaccaratRound(rules)
    for kind in BET_KINDS:
        game.place_bet(1, kind, 1000)
    game.close_betting()
    while game.expects().kind is ExpectKind.CARD:
        game.deal(shoe.draw())
    return len(game.settlements)


def measure(rounds: int, seed: int, coup) -> float:
    rng = random.Random(seed)
    shoe = Shoe(8, rng, 7 * 52)
    started = time.perf_counter()
    for _ in range(rounds):
        if shoe.cut_reached:
            shoe = Shoe(8, rng, 7 * 52)
        coup(shoe)
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N alternating runs (shared CPUs)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    rules = baccarat_rules()
    base = engine = 0.0
    for _ in range(args.repeat):
        base = max(base, measure(args.rounds, args.seed, bare_coup))
        engine = max(engine, measure(args.rounds, args.seed, lambda shoe: engine_coup(shoe, rules)))
    if args.json:
        print(json.dumps({"clock": "wall", "rounds": args.rounds, "repeat": args.repeat,
                          "engine_rounds_per_s": round(engine), "baseline_rounds_per_s": round(base)}))
        return
    print(f"baseline (drawing rules only): {base:>10,.0f} coups/s")
    print(f"engine (3 bets, settled):      {engine:>10,.0f} coups/s   ({engine / base:.2f} x baseline)")


if __name__ == "__main__":
    main()
