"""Blackjack rounds per second: the engine driven by basic strategy, beside a bare baseline.

Both loops run in this process on the same rules and shoes. Rates are per CPU second of this
process (``time.process_time``), i.e. one core's throughput; the rounds are timed in ``--repeat``
equal runs and the best run is reported (with the median), because on a shared machine other
processes still slow a CPU second down. The engine loop is the house-edge runner's own code path
(``ShoeRounds.net``); the baseline deals the same kind of round with shoe draws and strategy
lookups only (no engine, no money), so the gap is the engine's cost.

    python bench/blackjack.py [--rounds N] [--repeat K] [--preset ru6] [--set key=value ...] [--profile] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cli import parse_overrides
from controller.games.blackjack.analysis import ShoeRounds
from controller.games.blackjack.hand import hand_total
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy
from controller.shoe import Shoe

HIT_LIKE = ("hit",)


def baseline(rules: BlackjackRules, rounds: int, seed: int) -> float:
    """Rounds/s of dealing and deciding without the engine: draws, lookups, dealer to 17."""
    rng = random.Random(seed)
    strategy = BasicStrategy.for_rules(rules)
    decide = strategy.decide
    options = ("hit", "stand", "double")

    def new_shoe() -> Shoe:
        return Shoe.with_penetration(rules.decks, rng, *rules.cut_card, removed_ranks=rules.removed_ranks)

    shoe = new_shoe()
    started = time.process_time()
    for _ in range(rounds):
        if shoe.cut_reached:
            shoe = new_shoe()
        draw = shoe.draw
        hand = [draw()]
        up = draw()
        hand.append(draw())
        action = decide(hand, up, options)
        while action in HIT_LIKE or (action == "double" and len(hand) == 2):
            hand.append(draw())
            if action == "double" or hand_total(hand) >= 21:
                break
            action = decide(hand, up, ("hit", "stand"))
        dealer = [up, draw()]
        while hand_total(dealer) < 17:
            dealer.append(draw())
    return rounds / (time.process_time() - started)


def engine(rules: BlackjackRules, rounds: int, seed: int) -> float:
    """Rounds/s of the house-edge runner: real engine rounds, strategy decisions."""
    runner = ShoeRounds(rules, random.Random(seed))
    net = runner.net
    started = time.process_time()
    for _ in range(rounds):
        net()
    return rounds / (time.process_time() - started)


def best_of(
    run: Callable[[BlackjackRules, int, int], float], rules: BlackjackRules, rounds: int, repeat: int, seed: int
) -> tuple[float, float]:
    """Best and median rate of ``repeat`` runs sharing ``rounds`` between them (seeds differ)."""
    rates = [run(rules, max(rounds // repeat, 1), seed + i) for i in range(repeat)]
    return max(rates), statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs the rounds are split into")
    parser.add_argument("--preset", default="ru6")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print the engine loop's cProfile hot spots")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    rules = blackjack_rules(args.preset, parse_overrides(args.overrides))
    started = time.perf_counter()
    BasicStrategy.for_rules(rules)
    strategy_s = time.perf_counter() - started
    if not args.json:
        print(f"strategy computed in {strategy_s:.2f} s")
    repeat = max(args.repeat, 1)
    base, base_median = best_of(baseline, rules, args.rounds, repeat, args.seed)
    eng, eng_median = best_of(engine, rules, args.rounds, repeat, args.seed)
    if args.json:
        print(json.dumps({"clock": "cpu", "rounds": args.rounds, "repeat": repeat, "strategy_s": round(strategy_s, 2),
                          "engine_rounds_per_s": round(eng), "engine_median": round(eng_median),
                          "baseline_rounds_per_s": round(base), "baseline_median": round(base_median)}))
        return
    print(f"best of {repeat} runs of {args.rounds // repeat:,} rounds (median in brackets)")
    print(f"baseline (draws + strategy, no engine): {base:>10,.0f} rounds per CPU second ({base_median:,.0f})")
    print(f"engine + strategy (house-edge path):    {eng:>10,.0f} rounds per CPU second ({eng_median:,.0f})")
    print(f"engine share of a round:                {1 - eng / base:>10.0%}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(engine, rules, min(args.rounds, 100_000), args.seed)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
