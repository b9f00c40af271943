"""The seat owner's Bet Behind switch (docs/studio.md, "Bet Behind"), kept in the book's
database (``studio_behind``) so that a studio restart, or another studio process sharing the book,
finds it where the owner left it. The table knows nothing of it: the studio refuses a Bet Behind
the owner does not allow before the book.

A switch belongs to the player who turned it: it counts only while that player sits at the box,
so a new owner of the box starts allowed. Without a pool (the seats' unit tests) it is kept in
memory only.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool


class BehindSwitches:
    def __init__(self, pool: AsyncConnectionPool[Any] | None = None) -> None:
        self.pool = pool
        #: table -> box -> (the owner who turned it, allowed)
        self._held: dict[str, dict[int, tuple[str, bool]]] = {}

    def allowed(self, table: str, box: int, owner: str) -> bool:
        """Whether ``owner``, seated at ``box``, lets others Bet Behind it (allowed unless turned off)."""
        held = self._held.get(table, {}).get(box)
        return held is None or held[0] != owner or held[1]

    async def turn(self, table: str, box: int, owner: str, allowed: bool) -> None:
        """The owner's switch, stored before it counts."""
        if self.pool is not None:
            async with self.pool.connection() as conn:
                await conn.execute(
                    "INSERT INTO studio_behind (table_id, box, player, allowed) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (table_id, box) DO UPDATE SET player = excluded.player, allowed = excluded.allowed, "
                    "changed = now()", (table, box, owner, allowed))
        self._held.setdefault(table, {})[box] = (owner, allowed)

    async def forget(self, table: str, box: int, owner: str, conn: AsyncConnection[Any] | None) -> None:
        """The owner left the box: the switch goes with them, in the transaction ``conn`` that writes
        the leave (none: kept in memory only)."""
        if conn is not None:
            await conn.execute("DELETE FROM studio_behind WHERE table_id = %s AND box = %s AND player = %s",
                               (table, box, owner))
        if self._held.get(table, {}).get(box, ("", True))[0] == owner:
            del self._held[table][box]

    async def load(self, table: str) -> bool:
        """Read the table's switches again (another process may have turned one); whether they changed."""
        if self.pool is None:
            return False
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT box, player, allowed FROM studio_behind WHERE table_id = %s", (table,))
            fresh = {int(box): (str(player), bool(allowed)) for box, player, allowed in await cur.fetchall()}
        changed = fresh != self._held.get(table, {})
        self._held[table] = fresh
        return changed
