"""Three Card Blackjack: exact house edges by enumeration over rank classes.

Suits never matter and the ten-value ranks are interchangeable, so a deal is a multiset over ten
rank classes (A, 2..9, T with 16 cards) weighted by how many card-level deals it stands for.
For every player hand and dealer up card the optimal choice maximises the Ante-unit EV over the
48 unseen cards (play EV vs -1 for a fold); the house edge is per Ante. Hand values and the
settlement rule are the engine's own (``hand_value``, ``resolve``, ``ace_plus_line``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.games.base import RulesConfigError
from controller.games.three_card_blackjack import (
    BLACKJACK,
    ThreeCardBlackjackRules,
    ace_plus_line,
    hand_value,
    resolve,
    three_card_blackjack_rules,
)

CLASSES = "A23456789T"
FULL_DECK = tuple(16 if c == "T" else 4 for c in CLASSES)
#: card-level deals: player's 3 cards, dealer's up card, dealer's 2 hole cards
DEALS = comb(52, 3) * 49 * comb(48, 2)


@dataclass(frozen=True)
class AnteAnalysis:
    edge: Fraction  # house edge per Ante under the optimal play/fold rule
    #: (player's three classes as sorted text e.g. "89T", dealer up class) -> (play?, play EV per Ante)
    strategy: dict[tuple[str, str], tuple[bool, Fraction]]
    deals: int


def _weight(counts: list[int] | tuple[int, ...], picks: tuple[int, ...]) -> int:
    """Card-level ways to draw the class multiset ``picks`` from ``counts``."""
    w = 1
    for c in set(picks):
        w *= comb(counts[c], picks.count(c))
    return w


def _value(classes: tuple[int, ...]) -> int:
    return hand_value([CLASSES[c] for c in classes])


def ante_analysis(rules: ThreeCardBlackjackRules) -> AnteAnalysis:
    qualifies, bj_pays = rules.dealer_qualifies, rules.non_qualifying_blackjack_pays
    values = range(BLACKJACK + 1)
    # net of Ante + Bet per Ante for every (player value, dealer value): the engine's rule
    play_net = {(p, d): sum(resolve(p, d, qualifies, bj_pays)) for p in values for d in values}
    dealer_value: dict[tuple[int, ...], int] = {h: _value(h) for h in combinations_with_replacement(range(10), 3)}
    pairs = list(combinations_with_replacement(range(10), 2))
    strategy: dict[tuple[str, str], tuple[bool, Fraction]] = {}
    total = Fraction(0)
    weight_sum = 0
    for hand in combinations_with_replacement(range(10), 3):
        w_hand = _weight(FULL_DECK, hand)
        left = list(FULL_DECK)
        for c in hand:
            left[c] -= 1
        p = _value(hand)
        for up in range(10):
            w_up = left[up]
            if not w_up:
                continue
            left[up] -= 1
            net: Fraction | int = 0
            ways = 0
            for pair in pairs:
                w = _weight(left, pair)
                if w:
                    net += w * play_net[p, dealer_value[tuple(sorted((up, *pair)))]]
                    ways += w
            left[up] += 1
            ev = Fraction(net) / ways
            play = ev > -1
            strategy["".join(CLASSES[c] for c in hand), CLASSES[up]] = (play, ev)
            total += w_hand * w_up * (ev if play else -1)
            weight_sum += w_hand * w_up
    return AnteAnalysis(edge=-total / weight_sum, strategy=strategy, deals=DEALS)


def ace_plus_edge(rules: ThreeCardBlackjackRules) -> Fraction:
    """House edge of Ace Plus: the paytable over every three-card hand of one deck."""
    ev = Fraction(0)
    for hand in combinations_with_replacement(range(10), 3):
        line = ace_plus_line([CLASSES[c] for c in hand])
        ratio = rules.ace_plus_pays.get(line) if line else None
        ev += _weight(FULL_DECK, hand) * (ratio if ratio is not None else -1)
    return -ev / comb(52, 3)


def strategy_summary(strategy: dict[tuple[str, str], tuple[bool, Fraction]]) -> dict[str, Any]:
    """Per up card: the value from which hands are played, and the hands that break that rule."""
    out: dict[str, Any] = {}
    for up in CLASSES:
        rows = [(hand_value(list(h)), h, play) for (h, u), (play, _) in strategy.items() if u == up]
        best: tuple[int, list[str]] | None = None
        for floor in range(BLACKJACK + 2):
            exceptions = sorted(h for v, h, play in rows if play != (v >= floor))
            if best is None or len(exceptions) < len(best[1]):
                best = (floor, exceptions)
        assert best is not None
        out[up] = {"play_from": best[0], "exceptions": best[1]}
    return out


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    if options.method not in (None, "exact"):
        raise RulesConfigError("three-card-blackjack is analysed exactly (method exact)")
    rules = three_card_blackjack_rules(options.preset or "standard", options.overrides)
    started = time.perf_counter()
    ante = ante_analysis(rules)
    ace_plus = ace_plus_edge(rules)
    seconds = time.perf_counter() - started
    return {
        "method": "exact",
        "preset": options.preset or "standard",
        "house_edge": float(ante.edge),
        "std_error": 0.0,
        "theoretical_edge": float(ante.edge),
        "rounds": ante.deals,
        "rounds_per_s": ante.deals / seconds if seconds > 0 else float("inf"),
        "bets": {"ante": float(ante.edge), "ace_plus": float(ace_plus)},
        "strategy": strategy_summary(ante.strategy),
    }
