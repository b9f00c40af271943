"""The players' WebSocket API, ``/v1/play`` (docs/studio.md, schemas in docs/schemas/studio-*.json).

Every message is bounded before it is parsed (``controller/jsonbound.py``), read into its model
(``protocol.py``) and answered: a bad one gets a ``refused`` naming why, never a traceback. Each
connection has a token bucket (``admission.Bucket``); one that keeps flooding past it, that does
not join within ``join_s`` or is silent for ``idle_s``, or whose outbox overflows, is closed.
The other players play on: nothing here waits on one player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.jsonbound import InputRefused, check_json
from controller.runtime.admission import Bucket, Policy
from controller.studio.behind import place_bets
from controller.studio.book import BetRequest, dumps, player_id
from controller.studio.hub import Encoded, Seat
from controller.studio.page import page_app
from controller.studio.protocol import CLIENT, Bet, History, Join
from controller.studio.seat_messages import seat_answer
from controller.studio.service import Studio
from controller.studio.tokens import TokenRefused
from controller.web.frames import frame_write

log = logging.getLogger(__name__)

#: WebSocket close codes (RFC 6455 and the 4000s the application may use)
POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013
IDLE = 4408
#: messages over the rate limit in a row before the connection is closed
FLOOD_CLOSE = 50
MAX_DEPTH = 4


def refused(reason: str, message: str, request: str | None = None) -> dict[str, Any]:
    return {"v": 1, "type": "refused", "request": request, "reason": reason, "message": message}


class Connection:
    """One player's connection: reads, answers, and writes its outbox."""

    def __init__(self, studio: Studio, ws: WebSocket) -> None:
        self.studio = studio
        self.ws = ws
        self.seat = Seat(write=frame_write(ws.scope))
        section = studio.config.studio
        self.policy = Policy(rate=section.rate, burst=section.burst)
        self.bucket = Bucket(section.burst, time.monotonic())
        self.over = 0

    async def serve(self) -> None:
        writer = asyncio.create_task(self._write(), name="studio-writer")
        try:
            await self._read()
        finally:
            self.studio.hub.leave(self.seat)
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)
            await self._gone()

    async def _gone(self) -> None:
        """The connection closed: a player seated at the table with no other connection to it is
        disconnected there (the table decides at the box's turn)."""
        who, table = self.seat.player, self.seat.table
        if who is not None and table is not None and not self.studio.hub.connected(table, who.operator, who.player):
            with contextlib.suppress(Exception):  # the broker out of reach: the turn's deadline decides anyway
                await self.studio.seats.disconnected(table, who)

    async def _read(self) -> None:
        section = self.studio.config.studio
        while not self.seat.overflowed:
            wait = section.idle_s if self.seat.player is not None else section.join_s
            try:
                message = await asyncio.wait_for(self.ws.receive(), wait)
            except TimeoutError:
                await self._close(IDLE, "silent too long" if self.seat.player else "no join in time")
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text") if message.get("text") is not None else message.get("bytes")
            if not self.bucket.take(self.policy, time.monotonic()):
                self.over += 1
                if self.over >= FLOOD_CLOSE:
                    await self._close(POLICY_VIOLATION, "too many messages")
                    return
                self.seat.send(refused("rate_limited", f"more than {self.policy.rate:g} messages a second"))
                continue
            self.over = 0
            try:
                answer: dict[str, Any] | None = await self._answer(raw or b"")
            except (psycopg.Error, PoolTimeout, OSError) as exc:  # the book or wallet out of reach: say so, keep the player
                log.warning("studio: the book or the wallet is out of reach: %s", exc)
                answer = refused("unavailable", "the studio cannot reach its book just now; send the same request "
                                                "again (a retry is safe)")
            if answer is not None:  # a decision is answered by the table's ``decided``
                self.seat.send(answer)
        await self._close(POLICY_VIOLATION, "not reading its messages")

    async def _answer(self, raw: str | bytes) -> dict[str, Any] | None:
        try:
            data = check_json(raw, max_bytes=self.studio.config.studio.message_bytes, max_depth=MAX_DEPTH)
        except InputRefused as exc:
            return refused(exc.code.removeprefix("input."), exc.message)
        try:
            msg = CLIENT.validate_python(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "message"
            return refused("invalid", f"{where}: {first['msg']}")
        if isinstance(msg, Join):
            return await self._join(msg)
        who = self.seat.player
        if who is None or self.seat.table is None:
            return refused("not_joined", "join with a launch token first")
        if isinstance(msg, Bet):
            request = BetRequest(msg.request, self.seat.table, msg.round, tuple((b.kind, b.amount) for b in msg.bets))
            return await place_bets(self.studio, who, request)
        if isinstance(msg, History):
            return {"v": 1, "type": "history", "rounds": await self.studio.history(who, msg.limit)}
        return await seat_answer(self.studio, self.seat.table, who, msg)

    async def _join(self, msg: Join) -> dict[str, Any] | None:
        """Seat the connection at the table. Everything that waits (the token, the switches, the
        balance) comes first; then the table's ``betting`` is read, the connection seated and its
        first messages queued with no wait in between, so a ``betting`` the table publishes
        meanwhile is neither missed nor overtaken by an older one."""
        if self.seat.player is not None:
            return refused("joined_already", "this connection has joined already")
        if msg.table not in self.studio.tables:
            return refused("unknown_table", "no such table at this studio")
        try:
            who = await self.studio.tokens.join(msg.token)
        except TokenRefused as exc:
            return refused(exc.reason, exc.message)
        await self.studio.seats.reload_switches(msg.table)  # another studio process may have turned one
        balance = await self.studio.wallet.balance(who.operator, who.player, who.currency)
        betting = self.studio.hub.betting.get(msg.table)
        if betting is not None and betting["currency"] != who.currency:
            return refused("currency", f"this table plays in {betting['currency']}, your account is in {who.currency}")
        self.studio.hub.seat(self.seat, msg.table, who)
        self.seat.send({"v": 1, "type": "joined", "player": who.player, "name": who.name, "table": msg.table,
                        "currency": who.currency, "balance": balance})
        self.seat.send(self.studio.seats.seats_message(msg.table, player_id(who)))
        self.seat.send(betting if betting is not None else {
            "v": 1, "type": "betting", "table": msg.table, "round": None, "status": "none", "deadline": None,
            "countdown_ms": None, "currency": who.currency, "digits": 2, "limits": {}})
        await self.studio.seats.reconnected(msg.table, who)
        return None

    async def _write(self) -> None:
        while True:
            message = await self.seat.outbox.get()
            if message is None:  # the outbox overflowed
                await self._close(POLICY_VIOLATION, "not reading its messages")
                return
            self.seat.busy = True
            try:
                await self.ws.send_text(message.text if isinstance(message, Encoded) else dumps(message))
            except (WebSocketDisconnect, RuntimeError, OSError):
                return
            finally:
                self.seat.busy = False

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self.ws.close(code, reason)


def build_app(studio: Studio, routes: Sequence[BaseRoute] = ()) -> Starlette:
    open_connections = 0

    async def play(ws: WebSocket) -> None:
        nonlocal open_connections
        await ws.accept()
        if open_connections >= studio.config.studio.max_connections:
            await ws.close(TRY_AGAIN_LATER, "the studio is full")
            return
        open_connections += 1
        try:
            await Connection(studio, ws).serve()
        finally:
            open_connections -= 1

    # the player's page beside the API (controller/studio/page/), behind the pages' guard; it mounts
    # at the root, so whatever else the port serves (``routes``: the operators' endpoint) comes first
    return Starlette(routes=[WebSocketRoute("/v1/play", play), *routes, Mount("", app=page_app(studio.tables))])
