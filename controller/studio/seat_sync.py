"""The seat messages a table has not taken yet (docs/studio.md, "Seats").

A ``seat`` message (a player sits, leaves, loses or regains the connection) is QoS 1 but not
retained: sent while the table process is down, or while the studio's own link is, it may never
reach the table. So the studio keeps the last one per box until the table's ``betting`` leaf shows
it taken, and sends it again, under the same message id, on every leaf that does not: the leaf
the table publishes when it comes back, the retained one the broker hands a studio that
(re)connects. The table's inbox takes an id once (and remembers it across its restarts from its
journal), so a copy of a message it has is not journaled again. Until then the players see the
seat as the studio told it.

Each message is written to the book's database (``studio_seat_messages``, one row per box: the
last) before it is sent, and its row deleted by its id once the leaf shows it: a studio that
restarts while the table is down too reads them back and sends them when the table is back.
Studio processes sharing the book do not get in each other's way: one with messages waiting
reads the table's rows before it sends them again, and sends the box's last message whoever
wrote it, never an older one of its own (it would undo a leave written through another process);
two copies of one id are one message at the table; a delete of a row already gone is nothing,
and a row replaced since (a newer message of the box, another id) is not deleted.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

#: copies of one message at most: the table shows a seat it took in its next leaf, so one that is
#: never shown was refused there (or the table is not the seats' game): not sent for ever
RESENDS = 10


@dataclass(slots=True)
class SeatView:
    player: str  # <operator>/<player>
    name: str
    connected: bool = True


def told_seats(leaf: dict[str, Any]) -> dict[int, SeatView]:
    """The seats a table's ``betting`` leaf shows (none when it has no ``seats``: nobody sits)."""
    seats = leaf.get("seats")
    if not isinstance(seats, dict):
        return {}
    return {int(b): SeatView(str(s.get("player")), str(s.get("name")), bool(s.get("connected", True)))
            for b, s in seats.items() if str(b).isdigit() and isinstance(s, dict)}


def taken(seat: SeatView | None, message: dict[str, Any]) -> bool:
    """The leaf's seat of the box shows ``message`` taken, or the box is another player's (the table
    refused it, or another player sat first): either way nothing is left to send."""
    if seat is not None and seat.player != message["player"]:
        return True
    if message["seated"]:
        return seat is not None and seat.connected == message.get("connected", True)
    return seat is None or not seat.connected  # gone, or kept disconnected until the round closes


@dataclass(slots=True)
class Unsent:
    """One table's seat messages not yet shown in its leaf: the last per box, and its copies sent;
    ``writing``: the ids of those whose rows are not written yet (not sent before they are);
    ``done``: those shown (or given up) whose rows are still to delete."""

    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    copies: dict[int, int] = field(default_factory=dict)
    writing: set[str] = field(default_factory=set)
    done: list[dict[str, Any]] = field(default_factory=list)

    def claim(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The box's message from now on (the players see it at once), its row being written; the
        one it replaces."""
        box = int(message["box"])
        previous = self.messages.get(box)
        self.messages[box], self.copies[box] = message, 0
        self.writing.add(message["id"])
        return previous

    def written(self, message: dict[str, Any]) -> None:
        self.writing.discard(message["id"])

    def withdraw(self, message: dict[str, Any], previous: dict[str, Any] | None) -> None:
        """``message`` was not written (the book out of reach): the box's previous one stands again."""
        self.writing.discard(message["id"])
        box = int(message["box"])
        if self.messages.get(box) is not message:
            return
        if previous is None:
            del self.messages[box], self.copies[box]
        else:
            self.messages[box], self.copies[box] = previous, 0

    def sent(self, message: dict[str, Any]) -> None:
        """A message whose row is written (read back from the book at the start)."""
        self.claim(message)
        self.written(message)

    def seen(self, told: dict[int, SeatView]) -> dict[int, SeatView]:
        """Forget what the leaf shows taken; the seats as the players see them: the leaf's, with the
        messages still on their way (one still being written stays: its row is yet to delete)."""
        for box, message in list(self.messages.items()):
            if message["id"] in self.writing:
                continue
            if taken(told.get(box), message) or self.copies[box] >= RESENDS:
                del self.messages[box], self.copies[box]
                self.done.append(message)
        return self.view(told)

    def view(self, told: dict[int, SeatView]) -> dict[int, SeatView]:
        """The seats ``told`` with the messages still on their way."""
        view = dict(told)
        for box, message in self.messages.items():
            if message["seated"]:
                view[box] = SeatView(message["player"], message["name"], message.get("connected", True))
            else:
                view.pop(box, None)
        return view

    def adopt(self, rows: dict[int, dict[str, Any]], before: dict[int, dict[str, Any]]) -> bool:
        """The book's rows of the table are the messages to send (another studio process may have
        replaced one, or deleted one the table took): a box whose message changed here since
        ``before`` (read before the rows were), or is being written, keeps its own. Whether any
        changed."""
        changed = False
        for box in set(rows) | set(self.messages):
            mine, row = self.messages.get(box), rows.get(box)
            if mine is not before.get(box) or (mine is not None and mine["id"] in self.writing):
                continue
            if row is None:
                del self.messages[box], self.copies[box]
            elif mine is None or mine["id"] != row["id"]:
                self.messages[box], self.copies[box] = row, 0
            else:
                continue
            changed = True
        return changed

    def again(self) -> list[dict[str, Any]]:
        """The messages to send again (the same ids), counted: those written."""
        out = [self.messages[box] for box in sorted(self.messages) if self.messages[box]["id"] not in self.writing]
        for message in out:
            self.copies[int(message["box"])] += 1
        return out


class PendingSeats:
    """The seat messages not taken yet in the book's database; without a pool (the seats' unit
    tests) nothing is kept beyond ``Unsent``."""

    def __init__(self, pool: AsyncConnectionPool[Any] | None = None) -> None:
        self.pool = pool

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection[Any] | None]:
        """One transaction of the book (None without a pool): a seat message and what the studio
        records with it commit together."""
        if self.pool is None:
            yield None
            return
        async with self.pool.connection() as conn:
            yield conn

    async def keep(self, conn: AsyncConnection[Any] | None, table: str, message: dict[str, Any]) -> None:
        """The box's message, replacing the one it follows (sent or not, the table needs the last)."""
        if conn is not None:
            await conn.execute(
                "INSERT INTO studio_seat_messages (table_id, box, id, message) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (table_id, box) DO UPDATE SET id = excluded.id, message = excluded.message, "
                "written = now()", (table, int(message["box"]), message["id"], Jsonb(message)))

    async def drop(self, table: str, messages: list[dict[str, Any]]) -> None:
        """Delete the rows of messages the table's leaf shows: each by its id, so a newer message of
        the box (this process's or another's) stays."""
        if self.pool is None or not messages:
            return
        async with self.pool.connection() as conn, conn.cursor() as cur:
            await cur.executemany("DELETE FROM studio_seat_messages WHERE table_id = %s AND box = %s AND id = %s",
                                  [(table, int(m["box"]), m["id"]) for m in messages])

    async def rows(self, table: str) -> dict[int, dict[str, Any]]:
        """The table's messages not taken yet, by box, whoever wrote them."""
        return {int(m["box"]): m for m in (await self.load([table])).get(table, [])}

    async def load(self, tables: list[str]) -> dict[str, list[dict[str, Any]]]:
        """The messages of ``tables`` not taken yet, whoever wrote them."""
        if self.pool is None:
            return {}
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT table_id, message FROM studio_seat_messages WHERE table_id = ANY(%s) "
                                     "ORDER BY table_id, box", (tables,))
            rows = await cur.fetchall()
        out: dict[str, list[dict[str, Any]]] = {}
        for table, message in rows:
            out.setdefault(str(table), []).append(dict(message))
        return out
