"""Catch a Wave engine throughput: one seed-strategy box a round from an 8-deck shoe with a cut card.

The engine figure is the Monte Carlo loop of ``croupier house-edge catch-a-wave`` itself. The
baseline, run in the same process, draws the same number of cards from the same kind of shoe
with no engine and no strategy, so the figure reads as engine (plus strategy) cost per round
rather than as a property of whichever machine ran it.

    .venv/bin/python bench/catch_a_wave.py [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.games.catch_a_wave import SeedStrategy, catch_a_wave_rules
from controller.games.catch_a_wave.analysis import round_player
from controller.shoe import Shoe


class CountingShoe(Shoe):
    """A shoe that counts every card drawn (to give the baseline the same work)."""

    drawn = 0

    def draw(self) -> str:
        CountingShoe.drawn += 1
        return super().draw()


def engine_rounds(rounds: int, seed: int) -> tuple[float, float, int]:
    """Rounds per second of wall time and of this process's CPU time, and the cards drawn."""
    play_round = round_player(catch_a_wave_rules(), SeedStrategy(), random.Random(seed), CountingShoe)
    CountingShoe.drawn = 0
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        play_round()
    return rounds / (time.perf_counter() - started), rounds / (time.process_time() - cpu), CountingShoe.drawn


def baseline_rounds(rounds: int, seed: int, cards: int) -> float:
    rules = catch_a_wave_rules()
    rng = random.Random(seed)
    lo, hi = rules.cut_card
    per_round, extra = divmod(cards, rounds)
    shoe = Shoe.with_penetration(rules.decks, rng, lo, hi)
    started = time.perf_counter()
    for i in range(rounds):
        if shoe.cut_reached:
            shoe = Shoe.with_penetration(rules.decks, rng, lo, hi)
        for _ in range(per_round + (i < extra)):
            shoe.draw()
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    engine, engine_cpu, cards = engine_rounds(args.rounds, args.seed)
    base = baseline_rounds(args.rounds, args.seed, cards)
    if args.json:
        print(json.dumps({"clock": "wall", "rounds": args.rounds, "cards_per_round": round(cards / args.rounds, 2),
                          "engine_rounds_per_s": round(engine), "engine_rounds_per_cpu_s": round(engine_cpu),
                          "baseline_rounds_per_s": round(base)}))
        return
    print(f"engine   : {engine:>12,.0f} rounds/s  ({cards / args.rounds:.2f} cards a round)")
    print(f"baseline : {base:>12,.0f} rounds/s  (the same cards drawn from the same shoe, no engine)")
    print(f"overhead : {base / engine:>12.1f} x baseline")
    print(f"engine   : {engine_cpu:>12,.0f} rounds per CPU second (one core, whatever else the machine runs)")
    print(f"20,000,000 rounds: {20_000_000 / engine / 60:.1f} min at the wall rate, "
          f"{20_000_000 / engine_cpu / 60:.1f} min of one core")


if __name__ == "__main__":
    main()
