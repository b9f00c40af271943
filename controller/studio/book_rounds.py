"""The bet book's rounds in PostgreSQL (docs/studio.md, "The cut-off and the seal"): a round is
recorded once as the table opens it, and sealed once, by the ``UPDATE`` that waits for every
accept holding the round's row ``FOR SHARE`` (``book.py``) and reads the accepted bets in the same
transaction: the seal's count and digest are exactly the bets accepted before the cut-off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.tablefeed import TableFeed
from controller.studio.seal import BookBet, seal_body


@dataclass(frozen=True, slots=True)
class RoundInfo:
    status: str
    currency: str
    digits: int
    limits: dict[str, list[int]]


class BookRounds:
    """The rounds of the book (``Book`` adds the players' requests)."""

    pool: AsyncConnectionPool[Any]
    #: the operators' feed: a round's start and seal written in their own transaction
    feed: TableFeed | None

    async def open_round(self, table: str, round_id: str, deadline: str | None, currency: str, digits: int,
                         limits: dict[str, list[int]]) -> bool:
        """Record a round the table opened (once: a retained message seen again changes nothing)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "INSERT INTO studio_rounds (table_id, round, status, deadline, currency, digits, limits) "
                "VALUES (%s, %s, 'open', %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (table, round_id, deadline, currency, digits, Jsonb(limits)))
            fresh = bool(cur.rowcount == 1)
            if fresh and self.feed is not None:
                await self.feed.fact(conn, table, "round_start", {"deadline": deadline, "currency": currency,
                                                                  "limits": limits}, round_id)
            return fresh

    async def round_info(self, table: str, round_id: str) -> RoundInfo | None:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT status, currency, digits, limits FROM studio_rounds "
                                     "WHERE table_id = %s AND round = %s", (table, round_id))
            row = await cur.fetchone()
        return None if row is None else RoundInfo(row[0], row[1], int(row[2]), dict(row[3]))

    async def open_rounds(self) -> list[tuple[str, str, Any]]:
        """(table, round, deadline) of every round still taking bets."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT table_id, round, deadline FROM studio_rounds WHERE status = 'open'")
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def seal(self, table: str, round_id: str) -> dict[str, Any] | None:
        """Close the round's book and return its seal (the one already made, if sealed before);
        None when the studio has no such round."""
        return (await self.seal_round(table, round_id))[0]

    async def seal_round(self, table: str, round_id: str) -> tuple[dict[str, Any] | None, bool]:
        """``seal``, and whether this call made the seal (False: sealed before, here or by another process)."""
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "UPDATE studio_rounds SET status = 'sealed' WHERE table_id = %s AND round = %s AND status = 'open' "
                "RETURNING 1", (table, round_id))
            if await cur.fetchone() is None:
                cur = await conn.execute("SELECT seal FROM studio_rounds WHERE table_id = %s AND round = %s",
                                         (table, round_id))
                row = await cur.fetchone()
                return (None if row is None else row[0]), False
            cur = await conn.execute("SELECT id, player, kind, amount FROM studio_bets WHERE table_id = %s "
                                     "AND round = %s AND status = 'accepted'", (table, round_id))
            bets = [BookBet(r[0], r[1], r[2], int(r[3])) for r in await cur.fetchall()]
            body = seal_body(round_id, bets)
            await conn.execute("UPDATE studio_rounds SET seal = %s WHERE table_id = %s AND round = %s",
                               (Jsonb(body), table, round_id))
            if self.feed is not None:
                await self.feed.fact(conn, table, "bets_closed", {k: body.get(k) for k in ("count", "stake", "players",
                                                                                         "digest")}, round_id)
        return body, True
