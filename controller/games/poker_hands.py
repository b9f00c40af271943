"""Five-card poker hands: one integer key per hand, larger is stronger, equal is an exact tie.

The key is ``class << 20`` plus the ranks that decide ties, packed four bits each in the order
they are compared (grouped ranks first by group size, then kickers high to low; a straight by its
top card, the A-2-3-4-5 wheel topped by the five). Two tables built once at import map the product
of the five ranks' primes to the key (one for flushes, one for the rest), so evaluating a hand is
five dictionary look-ups and a multiply: fast enough that Monte Carlo runs use the same code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations_with_replacement
from typing import Final

from controller.cards import DECK, RANK_INDEX


class HandClass(IntEnum):
    """Poker hand classes, weakest first; ``label`` is the paytable key."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        return self.name.lower()


CLASS_SHIFT: Final = 20
_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_ACE: Final = 12
_WHEEL: Final = frozenset((12, 0, 1, 2, 3))


def _pack(cls: HandClass, ranks: Sequence[int]) -> int:
    key = 0
    for r in ranks:
        key = (key << 4) | r
    key <<= 4 * (5 - len(ranks))
    return (int(cls) << CLASS_SHIFT) | key


def _straight_top(ranks: Sequence[int]) -> int | None:
    """Top rank of five distinct ranks forming a straight, else None (wheel tops at the five)."""
    if set(ranks) == _WHEEL:
        return 3
    hi, lo = max(ranks), min(ranks)
    return hi if hi - lo == 4 else None


def _keys(ranks: tuple[int, ...]) -> tuple[int, int | None]:
    """(key without a flush, key with a flush or None when five suited cards are impossible)."""
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = [r for r, _ in groups]
    shape = tuple(n for _, n in groups)
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(ranks)
        if top is None:
            return _pack(HandClass.HIGH_CARD, order), _pack(HandClass.FLUSH, order)
        suited = HandClass.ROYAL_FLUSH if top == _ACE else HandClass.STRAIGHT_FLUSH
        return _pack(HandClass.STRAIGHT, [top]), _pack(suited, [top])
    cls = {
        (2, 1, 1, 1): HandClass.PAIR,
        (2, 2, 1): HandClass.TWO_PAIR,
        (3, 1, 1): HandClass.TRIPS,
        (3, 2): HandClass.FULL_HOUSE,
        (4, 1): HandClass.QUADS,
    }[shape]
    return _pack(cls, order), None


@cache
def _tables() -> tuple[dict[int, int], dict[int, int]]:
    """Every five-rank product's key, plain and suited: built on the first hand evaluated, not at
    import (0.1-0.4 s a table of another game would pay on every start)."""
    plain: dict[int, int] = {}
    suited: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        product = 1
        for r in ranks:
            product *= _PRIMES[r]
        plain[product], flush = _keys(ranks)
        if flush is not None:
            suited[product] = flush
    return plain, suited


_PRIME_OF: Final = {c: _PRIMES[RANK_INDEX[c[0]]] for c in DECK}

#: The weakest hand that qualifies a Russian poker dealer: Ace-King high (A K 4 3 2).
AK_HIGH: Final = _pack(HandClass.HIGH_CARD, (12, 11, 2, 1, 0))


def evaluate(cards: Sequence[str]) -> int:
    """Key of five distinct cards (``("AS", "KS", ...)``); larger keys are stronger hands."""
    a, b, c, d, e = cards
    p = _PRIME_OF
    product = p[a] * p[b] * p[c] * p[d] * p[e]
    s = a[1]
    plain, suited = _tables()
    if b[1] == s and c[1] == s and d[1] == s and e[1] == s:
        return suited[product]
    return plain[product]


def hand_class(key: int) -> HandClass:
    return HandClass(key >> CLASS_SHIFT)


def classify(cards: Sequence[str]) -> HandClass:
    """The class of five cards (for paytables and prompts)."""
    return HandClass(evaluate(cards) >> CLASS_SHIFT)
