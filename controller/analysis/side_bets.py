"""Exact house edges of the blackjack side bets with a table's paytables (docs/rules.md §1.2).

Every figure is an exact fraction over the finite shoe, from the same line functions the engine
settles with:

* Perfect Pairs, Suit'em Up: every ordered pair of cards of the full shoe;
* 21+3, Lucky Lucky, Hot 3: every ordered triple (two player cards and the up card);
* Crazy 7: the box's first three cards in order, a third card always taken after 7-7 (basic
  strategy never stands on 14) and no hole card (so no peeked blackjack stops the third card);
* Bust It: the dealer's hand played out from the full shoe, by recursion over the multiset of
  cards he has drawn (rank level: suits do not matter), split by the number of cards in a bust;
  a first-two-card 21 is a blackjack and loses the bet.

The cards dealt between (other boxes, the up card for Crazy 7) are unseen and drop out by
symmetry. ``croupier house-edge side-bets --decks N [--set key=value] --json`` prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.cards import BJ_POINTS, DECK
from controller.games.blackjack.paytables import SIDE_BETS
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.games.blackjack.sidebets import (
    best_ratio,
    bust_it_line,
    crazy_7_lines,
    hot_3_lines,
    lucky_lucky_lines,
    perfect_pairs_lines,
    suit_em_up_lines,
    twenty_one_plus_three_lines,
)
from controller.money import format_ratio

DEFAULT_PRESET = "ru6"
Lines = Callable[..., tuple[str, ...]]
_BJ, _STAND = "blackjack", "stands"


def shoe_cards(decks: int, removed_ranks: str = "") -> dict[str, int]:
    """Copies of every card in a full shoe."""
    return {c: (0 if c[0] in removed_ranks else decks) for c in DECK}


def line_probabilities(cards: Mapping[str, int], ncards: int, lines: Lines) -> dict[tuple[str, ...], Fraction]:
    """Exact probability of every line set made by ``ncards`` (2 or 3) cards drawn in order."""
    weights: dict[tuple[str, ...], int] = {}
    items = [(c, n) for c, n in cards.items() if n]
    for c1, n1 in items:
        for c2, n2 in items:
            w2 = n1 * (n2 - (c2 == c1))
            if not w2:
                continue
            if ncards == 2:
                key = lines(c1, c2)
                weights[key] = weights.get(key, 0) + w2
                continue
            for c3, n3 in items:
                w3 = w2 * (n3 - (c3 == c1) - (c3 == c2))
                if w3:
                    key = lines(c1, c2, c3)
                    weights[key] = weights.get(key, 0) + w3
    total = sum(cards.values())
    ways = total * (total - 1) * (total - 2 if ncards == 3 else 1)
    return {k: Fraction(w, ways) for k, w in weights.items()}


def bust_distribution(cards: Mapping[str, int], hits_soft_17: bool) -> dict[str, Fraction]:
    """The dealer's final hand played out from ``cards``: probability of a bust in ``n`` cards
    (keys ``"3"``..), of a blackjack and of standing."""
    counts = [0] * 11
    for c, n in cards.items():
        counts[BJ_POINTS[c[0]]] += n
    left = sum(counts)
    memo: dict[tuple[int, ...], dict[str, Fraction]] = {}

    def draw(hard: int, ace: bool, drawn: int, key: tuple[int, ...], remaining: int) -> dict[str, Fraction]:
        found = memo.get(key)
        if found is not None:
            return found
        out: dict[str, Fraction] = {}
        for v in range(1, 11):
            n = counts[v]
            if not n:
                continue
            p = Fraction(n, remaining)
            h, a, k = hard + v, ace or v == 1, drawn + 1
            total = h + 10 if a and h <= 11 else h
            if k == 2 and total == 21:
                outcome: dict[str, Fraction] = {_BJ: Fraction(1)}
            elif h > 21:
                outcome = {str(k): Fraction(1)}
            elif total > 17 or (total == 17 and not (hits_soft_17 and a and h == 7)):
                outcome = {_STAND: Fraction(1)}
            else:
                counts[v] -= 1
                sub_key = tuple(sorted((*key, v)))
                outcome = draw(h, a, k, sub_key, remaining - 1)
                counts[v] += 1
            for name, q in outcome.items():
                out[name] = out.get(name, Fraction(0)) + p * q
        memo[key] = out
        return out

    return draw(0, False, 0, (), left)


def _edge(probabilities: Mapping[tuple[str, ...], Fraction], paytable: Mapping[str, Fraction]) -> dict[str, Any]:
    """House edge (percent of the stake) and each paying line's probability."""
    ev = Fraction(0)
    by_line: dict[str, Fraction] = {}
    for lines, p in probabilities.items():
        best, ratio = best_ratio(lines, paytable)
        if best is None or ratio is None:
            ev -= p
        else:
            ev += p * ratio
            by_line[best] = by_line.get(best, Fraction(0)) + p
    return {
        "house_edge": float(-ev * 100),
        "house_edge_exact": str(-ev),
        "lines": {
            line: {"pays": format_ratio(ratio), "probability": float(by_line.get(line, 0))}
            for line, ratio in sorted(paytable.items(), key=lambda kv: -kv[1])
        },
    }


def _crazy_7(first: str, second: str, third: str) -> tuple[str, ...]:
    """Crazy 7 lines when the box always takes a third card after 7-7."""
    if first[0] == second[0] == "7":
        return crazy_7_lines((first, second, third))
    return crazy_7_lines((first, second))


def side_bet_edges(rules: BlackjackRules) -> dict[str, dict[str, Any]]:
    """Exact house edge of every side bet with ``rules``' paytables, keyed by bet kind."""
    cards = shoe_cards(rules.decks, rules.removed_ranks)
    two: dict[str, Lines] = {"perfect_pairs": perfect_pairs_lines, "suit_em_up": suit_em_up_lines}
    three: dict[str, Lines] = {
        "21+3": twenty_one_plus_three_lines,
        "lucky_lucky": lucky_lucky_lines,
        "hot_3": hot_3_lines,
        "crazy_7": _crazy_7,
    }
    out: dict[str, dict[str, Any]] = {}
    probs: dict[tuple[str, ...], Fraction]
    for kind in SIDE_BETS:
        if kind == "bust_it":
            probs = {}
            for name, p in bust_distribution(cards, rules.dealer_hits_soft_17).items():
                key = _bust_lines(name)
                probs[key] = probs.get(key, Fraction(0)) + p
        else:
            ncards, fn = (2, two[kind]) if kind in two else (3, three[kind])
            probs = line_probabilities(cards, ncards, fn)
        out[kind] = _edge(probs, rules.paytable(kind))
    return out


def _bust_lines(outcome: str) -> tuple[str, ...]:
    """The Bust It line of a ``bust_distribution`` outcome (a bust in n cards, or none)."""
    return (bust_it_line(int(outcome)),) if outcome.isdigit() else ()


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    overrides = dict(options.overrides)
    if options.decks is not None:
        overrides["decks"] = options.decks
    rules = blackjack_rules(options.preset or DEFAULT_PRESET, overrides)
    return {"decks": rules.decks, "bets": side_bet_edges(rules)}


def format_text(result: Mapping[str, Any]) -> list[str]:
    """The figures as lines for a terminal: one bet a line, then its paying lines."""
    out = [f"side bets, {result['decks']} decks: exact house edges"]
    for kind, bet in result["bets"].items():
        out.append(f"{kind:>14}: {bet['house_edge']:8.4f} %")
        for line, info in bet["lines"].items():
            out.append(f"{'':>16}{line:<16} {info['pays']:>7}  p = {info['probability']:.8f}")
    return out
