"""Who is connected to which table, and a bounded outbox per connection.

It holds the connections open now and nothing of those gone: a player's (or a table's) entry
goes with its last connection, so a day of players coming and going leaves no trace here.

A push never waits on a player: each connection has an outbox of ``OUTBOX`` messages; one that is
full (a client that stopped reading) is closed rather than buffered without bound, and the other
players are not held up. A message to a whole table is encoded once and the same text goes to
every outbox (not encoded again per connection: a table of 10,000 players is 10,000 encodings less).

Where the server offers it (``controller/web/frames.py``), a message to a connection with nothing
queued before it is written to its socket at once, its frame too encoded once for the whole table:
a result reaches 2,000 pages with no task woken per player, before the settlement that follows
takes the loop. A connection that cannot take it now (its socket's buffer full) gets it through its
outbox as before, in order: nothing is written past a message still queued or being sent.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.studio.book import Player, dumps
from controller.web.frames import text_frame

OUTBOX = 64


@dataclass(frozen=True, slots=True)
class Encoded:
    """A message encoded once: its JSON text, and its WebSocket frame."""

    text: str
    frame: bytes


def encoded(message: dict[str, Any]) -> Encoded:
    text = dumps(message)
    return Encoded(text, text_frame(text))


@dataclass(eq=False)
class Seat:
    """One connection: its player once joined, its table, its outbox."""

    #: messages, or encoded already (a push to the whole table)
    outbox: asyncio.Queue[dict[str, Any] | Encoded | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    player: Player | None = None
    table: str | None = None
    #: set when the outbox overflowed: the connection is closed
    overflowed: bool = False
    #: the connection's frame write, when its server offers one (False: the frame cannot go now)
    write: Callable[[bytes], bool] | None = None
    #: the writer holds a message taken from the outbox and not written yet
    busy: bool = False

    def send(self, message: dict[str, Any] | Encoded) -> None:
        if self.overflowed:
            return
        if self.write is not None and not self.busy and self.outbox.empty():
            message = message if isinstance(message, Encoded) else encoded(message)
            if self.write(message.frame):
                return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            while not self.outbox.empty():  # make room for the end marker
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)


class Hub:
    def __init__(self) -> None:
        self._by_table: dict[str, set[Seat]] = defaultdict(set)
        self._by_player: dict[tuple[str, str], set[Seat]] = defaultdict(set)
        #: the last ``betting`` message of each table, for players who join later
        self.betting: dict[str, dict[str, Any]] = {}

    def seat(self, seat: Seat, table: str, player: Player) -> None:
        seat.table, seat.player = table, player
        self._by_table[table].add(seat)
        self._by_player[(player.operator, player.player)].add(seat)

    def leave(self, seat: Seat) -> None:
        if seat.table is not None:
            _discard(self._by_table, seat.table, seat)
        if seat.player is not None:
            _discard(self._by_player, (seat.player.operator, seat.player.player), seat)

    def to_table(self, table: str, message: dict[str, Any]) -> None:
        once = encoded(message)
        for seat in list(self._by_table.get(table, ())):
            seat.send(once)

    def to_player(self, table: str, operator: str, player: str, message: dict[str, Any]) -> None:
        for seat in list(self._by_player.get((operator, player), ())):
            if seat.table == table:
                seat.send(message)

    def seats_at(self, table: str) -> list[Seat]:
        """The connections joined to ``table``."""
        return list(self._by_table.get(table, ()))

    def connected(self, table: str, operator: str, player: str) -> bool:
        """The player still has a connection to ``table``."""
        return any(seat.table == table for seat in self._by_player.get((operator, player), ()))

    @property
    def seated(self) -> int:
        return sum(len(s) for s in self._by_table.values())

    @property
    def players(self) -> int:
        """Players with a connection open now."""
        return len(self._by_player)


def _discard(index: dict[Any, set[Seat]], key: Any, seat: Seat) -> None:
    """``seat`` out of ``index[key]``, and the key with it once no connection is left under it."""
    seats = index.get(key)
    if seats is not None:
        seats.discard(seat)
        if not seats:
            del index[key]
