"""What the operators' feed reports of a table, written to the outbox in the transaction of the fact:
the studio's book calls ``TableFeed.fact`` inside its own transaction (a round opened, its bets
sealed, its result and settlement, its bets returned), and the table's journal stream (its MQTT
``event`` leaf: each card or number as dealt, the table opened or closed) is turned into events
here, the stream's journal seq kept in the same transaction so a redelivered entry is taken once.

The snapshot (``op_feed_state``) is kept beside: the round, its status, the cards or number so far.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators import outbox

log = logging.getLogger("croupier.studio.operators.feed")

#: the round's status a snapshot shows after each event type
STATUS = {"round_start": "open", "bets_closed": "sealed", "card": "dealing", "number": "dealing",
          "result": "result", "settled": "settled", "cancel": "returned", "corrected": "settled",
          "table_open": "idle", "table_closed": "closed"}


class TableFeed:
    def __init__(self, pool: AsyncConnectionPool[Any], games: Mapping[str, str]) -> None:
        self.pool = pool
        #: each served table's game (the feed's ``game`` field, the per-game queue)
        self.games = dict(games)

    async def fact(self, conn: Any, table: str, type: str, data: dict[str, Any], round: str = "") -> int:
        """One event in ``conn``'s open transaction (the fact's own); returns its seq."""
        seq = await outbox.append(conn, table, self.games.get(table, ""), type, data, round=round)
        await self._state(conn, table, seq, type, data, round)
        return seq

    async def _state(self, conn: Any, table: str, seq: int, type: str, data: dict[str, Any], round: str) -> None:
        fresh = type in ("round_start", "table_open", "table_closed")
        patch: dict[str, Any] = {"status": STATUS.get(type, type)}
        if round:
            patch["round"] = round
        if type == "round_start":
            patch.update(cards=[], number=None)
        if type == "number":
            patch["number"] = data.get("number")
        if type == "result":
            patch["outcome"] = data.get("outcome")
        card = [data["card"]] if type == "card" and "card" in data else []
        await conn.execute(
            "INSERT INTO op_feed_state (table_id, seq, game, state) VALUES (%s, %s, %s, %s) ON CONFLICT (table_id) "
            "DO UPDATE SET seq = excluded.seq, game = excluded.game, state = CASE WHEN %s THEN "
            "jsonb_build_object('journal_seq', op_feed_state.state -> 'journal_seq') || excluded.state "
            "ELSE op_feed_state.state || excluded.state || jsonb_build_object('cards', "
            "coalesce(op_feed_state.state -> 'cards', '[]'::jsonb) || %s::jsonb) END",
            (table, seq, self.games.get(table, ""), Jsonb({**patch, **({"cards": card} if card else {})}), fresh,
             Jsonb(card)))

    async def on_event(self, table: str, entry: Any) -> None:
        """A journal entry of the table's ``event`` leaf: a card or number as dealt, the table
        opened or closing, as a feed event (others are not the operators')."""
        if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int):
            return
        found = table_event(entry)
        if found is None:
            return
        type, data = found
        round_id = entry.get("round") if isinstance(entry.get("round"), str) else ""
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("SELECT (state ->> 'journal_seq')::bigint FROM op_feed_state WHERE table_id = %s "
                                     "FOR UPDATE", (table,))
            row = await cur.fetchone()
            if row is not None and row[0] is not None and int(row[0]) >= entry["seq"]:
                return  # heard before (a redelivery, a replay of the stream)
            await self.fact(conn, table, type, data, round_id or "")
            await conn.execute("UPDATE op_feed_state SET state = state || jsonb_build_object('journal_seq', %s::bigint) "
                               "WHERE table_id = %s", (entry["seq"], table))


def table_event(entry: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(type, data) of the feed event a journal entry is, or None when it is none of the operators'."""
    kind, payload = entry.get("kind"), entry.get("payload")
    if not isinstance(payload, dict):
        payload = {}
    at = {"journal_seq": entry["seq"], "ts": entry.get("ts")}
    if kind == "device" and payload.get("type") == "card" and isinstance(payload.get("card"), str):
        return "card", {"card": payload["card"], "source": "shoe", **at}
    if kind == "device" and payload.get("type") == "winning_number" and isinstance(payload.get("number"), str):
        return "number", {"number": payload["number"], "source": "wheel", **at}
    command = payload.get("command")
    if kind == "command" and command == "key_card" and isinstance(payload.get("card"), str):
        return "card", {"card": payload["card"], "source": "dealer", **at}
    if kind == "command" and command == "key_result" and payload.get("number") is not None:
        return "number", {"number": str(payload["number"]), "source": "dealer", **at}
    if kind == "table_started":
        return "table_open", at
    if kind == "pit_command" and command in ("close_after_round", "reopen"):
        closing = command == "close_after_round"
        return ("table_closed" if closing else "table_open"), {"by": "pit", "after_round": closing, **at}
    return None


async def round_facts(feed: TableFeed | None, conn: Any, table: str, record: dict[str, Any],
                      settled: dict[str, Any], corrected: bool) -> None:
    """A round's record settled by the studio (in its transaction): its result and settlement, or
    the return of its bets (a void round, or one closed without the seal); a correction's again."""
    if feed is None:
        return
    round_id = str(record.get("round"))
    result = {"status": record.get("status"), "outcome": record.get("outcome") or {}}
    if corrected:
        await feed.fact(conn, table, "corrected", {**result, "settled": settled,
                                                   "corrections": len(record.get("corrections") or [])}, round_id)
        return
    await feed.fact(conn, table, "result", result, round_id)
    if settled.get("refunded"):
        why = "void" if record.get("status") == "void" else "no_seal"
        await feed.fact(conn, table, "cancel", {"reason": why, **settled}, round_id)
    else:
        await feed.fact(conn, table, "settled", settled, round_id)
