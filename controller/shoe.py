"""Shoes: what a shoe of N decks holds, and a shuffled shoe with its cut card.

``Composition`` is the truth the table checks every physical card against: a card the shoe cannot
contain any more (a 7th ace of spades from 6 decks) is ``ImpossibleCard``, never a card.
``Shoe`` deals from a shuffle made by an injected random source, for simulators and analysis.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from controller.cards import DECK, RANKS, parse_card


class ImpossibleCard(ValueError):
    """A card the shoe cannot hold: its copies are all dealt, or its rank was removed."""

    def __init__(self, card: str, reason: str) -> None:
        super().__init__(f"impossible card {card}: {reason}")
        self.card = card
        self.reason = reason


class ShoeEmpty(RuntimeError):
    """Every card of the shoe has been dealt."""


class Composition:
    """The multiset of cards still in a shoe of ``decks`` decks, less ``removed_ranks``."""

    __slots__ = ("_left", "_total", "decks", "removed_ranks")

    def __init__(self, decks: int, removed_ranks: Iterable[str] = ()) -> None:
        if decks < 1:
            raise ValueError(f"a shoe holds at least one deck, not {decks}")
        removed = frozenset(removed_ranks)
        unknown = removed - set(RANKS)
        if unknown:
            raise ValueError(f"unknown ranks to remove: {sorted(unknown)}")
        self.decks = decks
        self.removed_ranks = removed
        self._left = {c: (0 if c[0] in removed else decks) for c in DECK}
        self._total = sum(self._left.values())

    def take(self, card: str) -> None:
        """Record that ``card`` left the shoe; ImpossibleCard if the shoe cannot hold it."""
        left = self._left.get(card)
        if left is None:
            card = parse_card(card)
            left = self._left[card]
        if left == 0:
            if card[0] in self.removed_ranks:
                raise ImpossibleCard(card, f"rank {card[0]} is removed from this shoe")
            raise ImpossibleCard(card, f"all {self.decks} copies already dealt")
        self._left[card] = left - 1
        self._total -= 1

    def put_back(self, card: str) -> None:
        """Undo a ``take`` (a correction that un-deals a card); refuses to exceed the full shoe."""
        full = 0 if card[0] in self.removed_ranks else self.decks
        if self._left[card] >= full:
            raise ImpossibleCard(card, "the shoe already holds every copy")
        self._left[card] += 1
        self._total += 1

    def left(self, card: str) -> int:
        return self._left[card]

    def rank_left(self, rank: str) -> int:
        return sum(self._left[rank + s] for s in "SHDC")

    def __len__(self) -> int:
        return self._total

    def cards(self) -> list[str]:
        """Every card still in the shoe, in deck order (one entry per copy)."""
        return [c for c in DECK for _ in range(self._left[c])]

    def copy(self) -> Composition:
        new = Composition.__new__(Composition)
        new.decks, new.removed_ranks = self.decks, self.removed_ranks
        new._left, new._total = dict(self._left), self._total
        return new


_FULL_SHOES: dict[tuple[int, frozenset[str]], tuple[Composition, tuple[str, ...]]] = {}


def _full_shoe(decks: int, removed_ranks: Iterable[str]) -> tuple[Composition, tuple[str, ...]]:
    """A full shoe's composition and its cards in deck order, built once per kind of shoe
    (a simulation shuffles a new shoe every few dozen rounds). Copy the composition to use it."""
    key = (decks, frozenset(removed_ranks))
    full = _FULL_SHOES.get(key)
    if full is None:
        composition = Composition(decks, key[1])
        full = _FULL_SHOES[key] = (composition, tuple(composition.cards()))
    return full


class Shoe:
    """A shuffled shoe with a cut card; ``cut_reached`` turns true once the cut card came out.

    ``cut_after`` is the number of cards dealt before the cut card (None: no cut card, deal
    to the end). The shuffle comes from the injected ``rng`` so a seed replays the same shoe.
    """

    def __init__(
        self,
        decks: int,
        rng: random.Random,
        cut_after: int | None = None,
        removed_ranks: Iterable[str] = (),
        stacked: Iterable[str] | None = None,
    ) -> None:
        full, cards = _full_shoe(decks, removed_ranks)
        self.composition = full.copy()
        if stacked is not None:
            order = [parse_card(c) for c in stacked]
            probe = full.copy()
            for c in order:
                probe.take(c)
        else:
            order = list(cards)
            rng.shuffle(order)
        order.reverse()  # deal by pop() from the end
        self._order = order
        self.size = len(order)
        self.cut_after = cut_after

    @classmethod
    def with_penetration(
        cls,
        decks: int,
        rng: random.Random,
        min_decks: float,
        max_decks: float,
        removed_ranks: Iterable[str] = (),
    ) -> Shoe:
        """Shuffle, then place the cut card after a uniform 'min..max decks' playing part."""
        shoe = cls(decks, rng, None, removed_ranks)
        per_deck = shoe.size / decks
        lo, hi = round(min_decks * per_deck), round(max_decks * per_deck)
        shoe.cut_after = min(rng.randint(min(lo, hi), max(lo, hi)), shoe.size)
        return shoe

    @property
    def dealt(self) -> int:
        return self.size - len(self._order)

    @property
    def cut_reached(self) -> bool:
        return self.cut_after is not None and self.size - len(self._order) >= self.cut_after

    @property
    def remaining(self) -> int:
        return len(self._order)

    def draw(self) -> str:
        try:
            card = self._order.pop()
        except IndexError:
            raise ShoeEmpty(f"all {self.size} cards dealt") from None
        # the card comes from this shoe's own shuffle of its composition: counted out unchecked
        composition = self.composition
        composition._left[card] -= 1
        composition._total -= 1
        return card

    def put_on_top(self, card: str) -> bool:
        """Move one copy of ``card`` still in the shoe to be dealt next (a simulated dealer's
        chosen card); False when no copy is left."""
        card = parse_card(card)
        for i in range(len(self._order) - 1, -1, -1):
            if self._order[i] == card:
                self._order.append(self._order.pop(i))
                return True
        return False

    def __iter__(self) -> Iterator[str]:
        while self._order:
            yield self.draw()
