"""Cards in the rule book's notation: rank ``23456789TJQKA`` + suit ``SHDC`` (``AS``, ``TD``).

Cards are plain two-character strings: cheap to hash, print, journal and put on the wire.
``parse_card`` is the one gate through which outside text becomes a card.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "SHDC"
RED_SUITS: Final = frozenset("HD")
DECK: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
CARDS: Final = frozenset(DECK)

#: Rank order with 2 lowest and A highest (poker, Catch a Wave): 2 -> 0 ... A -> 12.
RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)}
#: Blackjack points of a rank (ace counted 1; soft totals add 10 where it does not bust).
BJ_POINTS: Final = {r: min(i + 2, 10) if r != "A" else 1 for i, r in enumerate(RANKS)}
#: Baccarat points of a rank (tens and faces 0, ace 1).
BACCARAT_POINTS: Final = {r: (BJ_POINTS[r] % 10) for r in RANKS}
TEN_VALUES: Final = frozenset("TJQK")


class CardError(ValueError):
    """Text that is not a card of the rule book's notation."""


def parse_card(text: str) -> str:
    """Validate and normalise (upper-case, ``10`` -> ``T``) a card, or raise CardError."""
    if text in CARDS:  # already a card as written (every card the shoe reads): nothing to normalise
        return text
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if t not in CARDS:
        raise CardError(f"not a card: {text!r} (expected rank of {RANKS} + suit of {SUITS})")
    return t


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: str | None) -> str:
    """A card as people read it: ``TD`` -> ``10♦``, ``KS`` -> ``K♠``; None (face down) -> ``??``.
    Anything that is not a card code is shown as it is."""
    if card is None:
        return "??"
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUIT_SYMBOLS:
        return str(card)
    return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]]


def cards_text(cards: Iterable[str | None]) -> str:
    """Cards as people read them, space-separated (``8♦ 10♦``); ``-`` for none."""
    return " ".join(card_text(c) for c in cards) or "-"
