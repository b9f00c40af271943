"""Roulette engine throughput: full rounds of 20 assorted bets (place, close, result, settle).

The baseline, run in the same process, settles the same 20 bets by bare set membership and the
paytable (no parsing, validation or state), so the figure is read as engine overhead per round
rather than as a property of whichever machine ran it.

    .venv/bin/python bench/roulette.py [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.games.roulette import RouletteRound, roulette_rules
from controller.games.roulette.bets import parse_bet
from controller.games.roulette.layout import EUROPEAN_ORDER

BETS: tuple[tuple[int, str, int], ...] = (
    (1, "straight:17", 500),
    (1, "straight:0", 200),
    (1, "split:17-20", 400),
    (1, "split:0-3", 300),
    (2, "street:13-14-15", 600),
    (2, "street:0-2-3", 300),
    (2, "corner:17-18-20-21", 800),
    (2, "six_line:31-32-33-34-35-36", 1200),
    (3, "column:2", 2000),
    (3, "dozen:3", 2000),
    (3, "red", 5000),
    (3, "black", 5000),
    (4, "odd", 1000),
    (4, "even", 1000),
    (4, "low", 1500),
    (4, "high", 1500),
    (5, "voisins", 900),
    (5, "tiers", 600),
    (5, "orphelins", 500),
    (5, "neighbours:26:2", 500),
)


def engine_rounds(rounds: int, seed: int) -> float:
    rules = roulette_rules("european")
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(rounds):
        rnd = RouletteRound(rules)
        for box, kind, amount in BETS:
            rnd.place_bet(box, kind, amount)
        rnd.close_betting()
        rnd.wheel_result((rng.choice(EUROPEAN_ORDER),))
    return rounds / (time.perf_counter() - started)


def baseline_rounds(rounds: int, seed: int) -> float:
    rules = roulette_rules("european")
    flat = [
        (chip.numbers, rules.paytable[chip.paytable_key], amount * units // parse_bet(kind, rules).units)
        for _, kind, amount in BETS
        for chip, units in parse_bet(kind, rules).chips
    ]
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(rounds):
        ball = rng.choice(EUROPEAN_ORDER)
        total = 0
        for numbers, pay, stake in flat:
            if ball in numbers:
                total += stake + stake * pay.numerator // pay.denominator
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    engine = engine_rounds(args.rounds, args.seed)
    base = baseline_rounds(args.rounds, args.seed)
    if args.json:
        print(json.dumps({"clock": "wall", "rounds": args.rounds, "bets_per_round": len(BETS),
                          "engine_rounds_per_s": round(engine), "baseline_rounds_per_s": round(base)}))
        return
    print(
        f"engine   : {engine:>12,.0f} rounds/s  ({len(BETS)} bets a round, {engine * len(BETS):,.0f} bets/s)"
    )
    print(f"baseline : {base:>12,.0f} rounds/s  (bare settlement of the same bets)")
    print(f"overhead : {base / engine:>12.1f} x baseline")


if __name__ == "__main__":
    main()
