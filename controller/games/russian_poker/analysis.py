"""Russian poker house edge: Monte Carlo through the engine with a simple, stated strategy.

One box plays every round from a freshly shuffled deck, Ante ``STAKE`` and, where the table
offers it, a Bonus of the largest share allowed. Strategies (``--strategy``):

* ``simple`` (default): raise with a pair or better; with Ace-King high raise only when one of
  the box's cards has the rank of the dealer's up card; otherwise fold. With card exchange on,
  a hand below a pair holding four cards of one suit first exchanges the odd card.
* ``pair``: raise with a pair or better, fold everything else.
* ``ak``: raise with Ace-King or better, fold everything else.

The Ante edge counts the whole box (Ante, Raise, exchange fee) per unit of Ante. The Bonus has an
exact figure from the five-card class counts (2,598,960 hands), reported under ``exact_bets``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.analysis.montecarlo import run_monte_carlo
from controller.cards import DECK
from controller.games.base import CloseBetting, ExpectKind, RulesConfigError
from controller.games.poker_hands import AK_HIGH, HandClass, evaluate, hand_class
from controller.games.russian_poker import Phase, RussianPokerRound, RussianPokerRules, russian_poker_rules
from controller.money import scale

DEFAULT_ROUNDS = 1_000_000
STAKE = 10_000
ALL_HANDS = comb(52, 5)
#: Five-card class counts from combinatorics (independent of the evaluator).
CLASS_COUNTS: dict[HandClass, int] = {
    HandClass.ROYAL_FLUSH: 4,
    HandClass.STRAIGHT_FLUSH: 10 * 4 - 4,
    HandClass.QUADS: 13 * 48,
    HandClass.FULL_HOUSE: 13 * 4 * 12 * 6,
    HandClass.FLUSH: (comb(13, 5) - 10) * 4,
}

#: (box cards, dealer up card, exchange offered) -> ("fold" | "raise" | "exchange", discard or None)
Strategy = Callable[[Sequence[str], str, bool], tuple[str, str | None]]


def _has_pair(key: int) -> bool:
    return hand_class(key) >= HandClass.PAIR


def simple(cards: Sequence[str], up: str, exchange: bool = False) -> tuple[str, str | None]:
    key = evaluate(cards)
    if _has_pair(key):
        return "raise", None
    if exchange:
        suits = Counter(c[1] for c in cards)
        suit, n = suits.most_common(1)[0]
        if n == 4:
            return "exchange", next(c for c in cards if c[1] != suit)
    if key >= AK_HIGH and any(c[0] == up[0] for c in cards):
        return "raise", None
    return "fold", None


def pair_only(cards: Sequence[str], up: str, exchange: bool = False) -> tuple[str, str | None]:
    return ("raise" if _has_pair(evaluate(cards)) else "fold"), None


def ak_or_better(cards: Sequence[str], up: str, exchange: bool = False) -> tuple[str, str | None]:
    return ("raise" if evaluate(cards) >= AK_HIGH else "fold"), None


STRATEGIES: dict[str, Strategy] = {"simple": simple, "pair": pair_only, "ak": ak_or_better}


def bonus_exact(rules: RussianPokerRules) -> float:
    """House edge of the Bonus (no exchange): exact over all five-card hands."""
    ret = Fraction(0)
    for cls, count in CLASS_COUNTS.items():
        ratio = rules.bonus_pays.get(cls.label)
        if ratio is not None:
            ret += Fraction(count, ALL_HANDS) * (1 + ratio)
    return float(1 - ret)


def play_round(rules: RussianPokerRules, rng: random.Random, strategy: Strategy) -> list[float | None]:
    """One box through one engine round: [Ante result per Ante, Bonus result per Bonus or None]."""
    bonus = scale(STAKE, rules.bonus_max) if rules.bonus else 0
    deck = rng.sample(DECK, 11)
    game = RussianPokerRound(rules)
    game.place_bet(1, "ante", STAKE)
    if bonus:
        game.place_bet(1, "bonus", bonus)
    game.apply(CloseBetting())
    cards = iter(deck)
    while game.phase is Phase.DEAL:
        game.deal(next(cards))
    while True:
        expect = game.expects()
        if expect.kind is ExpectKind.DECISION:
            action, discard = strategy(game.box_cards(1), game.dealer_up_card or "", "exchange" in expect.options)
            if action == "exchange":
                game.exchange(1, discard or "")
            else:
                game.decide(1, action)
        elif expect.kind is ExpectKind.DONE:
            break
        else:
            game.deal(next(cards))
    ante_net = 0
    bonus_net = None
    for s in game.settlements:
        if s.kind == "bonus":
            bonus_net = (s.payout - s.stake) / s.stake
        else:
            ante_net += s.payout - s.stake
    return [ante_net / STAKE, bonus_net]


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    if options.method == "exact":
        raise RulesConfigError("Russian poker has no exact method here; use monte-carlo")
    rules = russian_poker_rules(options.preset or "standard", options.overrides)
    name = options.strategy or "simple"
    if name not in STRATEGIES:
        raise RulesConfigError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
    strategy = STRATEGIES[name]
    rng = random.Random(options.seed)
    rounds = options.rounds or DEFAULT_ROUNDS
    names = ("ante", "bonus") if rules.bonus else ("ante",)
    result = run_monte_carlo(
        lambda: play_round(rules, rng, strategy), names, rounds, options.progress, label="russian poker"
    )
    out: dict[str, Any] = {
        "house_edge": result.bets["ante"].edge,
        "std_error": result.bets["ante"].std_error,
        "theoretical_edge": None,
        "rounds": rounds,
        "rounds_per_s": result.rounds_per_s,
        "method": "monte-carlo",
        "strategy": name,
        "bets": {k: result.bets[k].edge for k in names},
        "std_errors": {k: result.bets[k].std_error for k in names},
    }
    if rules.bonus and not rules.exchange:
        out["exact_bets"] = {"bonus": bonus_exact(rules)}
    return out
