"""The Hi-Lo count of the shoe, from the shoe's own cards as the journal holds them.

Running count: +1 for 2-6, 0 for 7-9, -1 for tens and aces, over every card out of the shoe since
it was loaded (burns included: a counter sees the burn only when it is shown, but the house
counts everything). True count: the running count divided by the decks not yet dealt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

HILO: Final = {**dict.fromkeys("23456", 1), **dict.fromkeys("789", 0), **dict.fromkeys("TJQKA", -1)}
#: the true count's divisor never drops below this many decks (the last cards of a shoe)
MIN_DECKS_LEFT: Final = 0.25


class ShoeCount:
    """Running and true count of one table's shoe, fed the table's journal entries in order."""

    def __init__(self, decks: int = 6) -> None:
        self.decks = decks
        self.shoe_id: str | None = None
        self.shoes = 0
        self.running = 0
        self.seen = 0
        self._numbers: set[int] = set()
        self._awaiting_id = False
        self._previous_id: str | None = None

    def new_shoe(self, shoe_id: str | None = None) -> None:
        self._previous_id, self.shoe_id = self.shoe_id, shoe_id
        self._awaiting_id = shoe_id is None
        self.shoes += 1
        self.running = 0
        self.seen = 0
        self._numbers.clear()

    def card(self, card: str, n: int | None = None) -> None:
        """One card out of the shoe; a card number already counted (a resent frame) is not."""
        if n is not None:
            if n in self._numbers:
                return
            self._numbers.add(n)
        value = HILO.get(card[:1].upper())
        if value is None:
            return
        self.running += value
        self.seen += 1

    @property
    def decks_left(self) -> float:
        return max(MIN_DECKS_LEFT, (self.decks * 52 - self.seen) / 52)

    @property
    def true_count(self) -> float:
        return self.running / self.decks_left

    def apply(self, kind: str, payload: dict[str, Any]) -> None:
        """Take one journal entry: a shoe's status with a new shoe id, a card, a keyed card, a
        ``new_shoe`` command, or a ``table_started`` that names the decks; others are ignored."""
        take = _TAKES.get(kind)
        if take is not None:
            take(self, payload)

    def _started(self, payload: dict[str, Any]) -> None:
        decks = (payload.get("rules") or {}).get("decks")
        if isinstance(decks, int) and decks > 0:
            self.decks = decks

    def _device(self, payload: dict[str, Any]) -> None:
        kind_of = payload.get("type")
        if kind_of == "shoe_status":
            self._status(payload.get("shoe_id"))
        elif kind_of == "card" and isinstance(payload.get("card"), str):
            n = payload.get("n")
            self.card(payload["card"], n if isinstance(n, int) else None)

    def _status(self, shoe_id: Any) -> None:
        """A shoe's status: its id counts once ``new_shoe`` is awaiting it (a late status of the
        old shoe does not); an id that changes otherwise is a new shoe."""
        if self._awaiting_id:
            if isinstance(shoe_id, str) and shoe_id != self._previous_id:
                self.shoe_id, self._awaiting_id = shoe_id, False
        elif isinstance(shoe_id, str) and shoe_id != self.shoe_id:
            self.new_shoe(shoe_id)

    def _command(self, payload: dict[str, Any]) -> None:
        command = payload.get("command")
        if command == "new_shoe":
            self.new_shoe(None)
        elif command == "key_card" and isinstance(payload.get("card"), str):
            self.card(payload["card"])


#: journal entry kind -> how a count takes it
_TAKES: Final[dict[str, Callable[[ShoeCount, dict[str, Any]], None]]] = {
    "table_started": ShoeCount._started,
    "device": ShoeCount._device,
    "command": ShoeCount._command,
}
