"""Three Card Blackjack engine throughput: full five-box rounds (Ante + Ace Plus, deal, decisions).

Decisions follow the exact analysis' play/fold floor per dealer up card. The baseline, run in
the same process, shuffles the same deck and values the same six hands with the bare
``hand_value`` function (no bets, validation, state or settlement), so the figure reads as engine
overhead per round rather than as a property of whichever machine ran it.

    .venv/bin/python bench/three_card_blackjack.py [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cards import DECK, TEN_VALUES
from controller.games.three_card_blackjack import (
    ThreeCardBlackjackRound,
    hand_value,
    three_card_blackjack_rules,
)
from controller.games.three_card_blackjack.analysis import ante_analysis, strategy_summary

BOXES = (1, 2, 3, 4, 5)


def engine_rounds(rounds: int, seed: int, play_from: dict[str, int]) -> float:
    rules = three_card_blackjack_rules()
    rng = random.Random(seed)
    deck = list(DECK)
    started = time.perf_counter()
    for _ in range(rounds):
        rng.shuffle(deck)
        rnd = ThreeCardBlackjackRound(rules)
        for box in BOXES:
            rnd.place_bet(box, "ante", 1000)
            rnd.place_bet(box, "ace_plus", 500)
        rnd.close_betting()
        for card in deck[:18]:
            rnd.deal(card)
        up = rnd.dealer_cards[2][0]
        floor = play_from["T" if up in TEN_VALUES else up]
        for box in BOXES:
            value = hand_value([c[0] for c in rnd.cards[box]])
            rnd.decide(box, "play" if value >= floor else "fold")
    return rounds / (time.perf_counter() - started)


def baseline_rounds(rounds: int, seed: int) -> float:
    rng = random.Random(seed)
    deck = list(DECK)
    started = time.perf_counter()
    for _ in range(rounds):
        rng.shuffle(deck)
        for i in range(6):
            hand_value([deck[i][0], deck[i + 6][0], deck[i + 12][0]])
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    summary = strategy_summary(ante_analysis(three_card_blackjack_rules()).strategy)
    play_from = {up: row["play_from"] for up, row in summary.items()}
    engine = engine_rounds(args.rounds, args.seed, play_from)
    base = baseline_rounds(args.rounds, args.seed)
    if args.json:
        print(json.dumps({"clock": "wall", "rounds": args.rounds, "boxes": len(BOXES),
                          "engine_rounds_per_s": round(engine), "baseline_rounds_per_s": round(base)}))
        return
    print(f"engine   : {engine:>12,.0f} rounds/s  ({len(BOXES)} boxes with Ante + Ace Plus a round)")
    print(f"baseline : {base:>12,.0f} rounds/s  (shuffle and bare hand values of the same six hands)")
    print(f"overhead : {base / engine:>12.1f} x baseline")


if __name__ == "__main__":
    main()
