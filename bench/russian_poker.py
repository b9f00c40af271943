"""Russian poker engine speed: rounds/s of one box through ``RussianPokerRound`` (the analysis's
own round, simple strategy) against a baseline in the same process that samples the same ten
cards and only evaluates and compares the two hands.

    .venv/bin/python bench/russian_poker.py [--rounds 50000] [--seed 1] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cards import DECK
from controller.games.poker_hands import evaluate
from controller.games.russian_poker import russian_poker_rules
from controller.games.russian_poker.analysis import play_round, simple


def bare_round(rng: random.Random) -> int:
    """Baseline: deal ten cards and compare the hands, nothing else."""
    cards = rng.sample(DECK, 11)
    box, dealer = evaluate(cards[:5]), evaluate(cards[5:10])
    return (box > dealer) - (box < dealer)


def measure(rounds: int, seed: int, one) -> float:
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(rounds):
        one(rng)
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N alternating runs (shared CPUs)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    rules = russian_poker_rules()
    base = engine = 0.0
    for _ in range(args.repeat):
        base = max(base, measure(args.rounds, args.seed, bare_round))
        engine = max(engine, measure(args.rounds, args.seed, lambda rng: play_round(rules, rng, simple)))
    if args.json:
        print(json.dumps({"clock": "wall", "rounds": args.rounds, "repeat": args.repeat,
                          "engine_rounds_per_s": round(engine), "baseline_rounds_per_s": round(base)}))
        return
    print(f"baseline (deal + evaluate):    {base:>10,.0f} rounds/s")
    print(f"engine (ante + bonus, settled): {engine:>9,.0f} rounds/s   ({engine / base:.2f} x baseline)")


if __name__ == "__main__":
    main()
