"""Dealer final-total probabilities by recursion over the cards left in the shoe.

The dealer's draws are forced, so what the player faces is a distribution over a handful of
outcomes. It is computed at rank level (A=1 .. ten=10) for a given remaining composition,
memoised on the multiset of cards the dealer has drawn (which fixes his total and the shoe),
so each composition costs a few hundred states, not every ordered draw sequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

#: Outcome indices: dealer stands on 17..21, busts (23+ or 22 when 22 is not special),
#: busts on exactly 22, has blackjack (his first two cards).
D17, D18, D19, D20, D21, BUST, BUST22, DEALER_BJ = range(8)
OUTCOMES: Final = 8
#: Multiset key weights: a rank-level card count never exceeds 31 in a player/dealer hand.
KEY_WEIGHTS: Final = tuple(32**v for v in range(11))


def dealer_outcomes(up: int, counts: Sequence[int], hits_soft_17: bool) -> tuple[float, ...]:
    """Probabilities of each outcome for dealer up card ``up`` (1..10) drawing from ``counts``.

    ``counts[v]`` is the number of cards of value ``v`` (1..10) left, the up card already
    removed. The second dealer card comes from the same shoe, so blackjack is an outcome.
    """
    c = list(counts)
    left = [sum(c[1:])]
    memo: dict[int, list[float]] = {}

    def draw(hard: int, ace: bool, ncards: int, key: int) -> list[float]:
        got = memo.get(key)
        if got is not None:
            return got
        acc = [0.0] * OUTCOMES
        n = left[0]
        for r in range(1, 11):
            cr = c[r]
            if not cr:
                continue
            p = cr / n
            h = hard + r
            a = ace or r == 1
            total = h + 10 if a and h <= 11 else h
            if ncards == 1 and total == 21:
                acc[DEALER_BJ] += p
            elif h > 21:
                acc[BUST22 if h == 22 else BUST] += p
            elif total > 17 or (total == 17 and not (hits_soft_17 and a and h == 7)):
                acc[total - 17] += p
            else:
                c[r] = cr - 1
                left[0] = n - 1
                sub = draw(h, a, ncards + 1, key + KEY_WEIGHTS[r])
                c[r] = cr
                left[0] = n
                for i in range(OUTCOMES):
                    acc[i] += p * sub[i]
        memo[key] = acc
        return acc

    return tuple(draw(up, up == 1, 1, 0))
