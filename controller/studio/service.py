"""The studio's work between the tables and the players: a table's ``betting`` leaf opens and
seals rounds in the book, its ``round`` leaf settles them; what the table must hear goes back on
``croupier/<table>/studio`` (``publish``), what the players must hear goes through the hub."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from psycopg_pool import AsyncConnectionPool
from pydantic import ValidationError

from controller import records
from controller.records import BettingMessage, RoundMessage
from controller.studio.book import Book, Player
from controller.studio.config import StudioConfig
from controller.studio.hub import Hub
from controller.studio.rules import TableRules, UnsettleableRecord
from controller.studio.seal import seal_id
from controller.studio.seats import StudioSeats
from controller.studio.settlement import Settler
from controller.studio.tokens import Tokens
from controller.studio.wallet import Wallet
from controller.table import registry  # noqa: F401 (the registered games' outcome models, for round records)

log = logging.getLogger(__name__)
Publish = Callable[[str, dict[str, Any]], Awaitable[None]]


def _when(stamp: str | None) -> datetime | None:
    return None if stamp is None else datetime.fromisoformat(stamp).astimezone(UTC)


def _stamp(when: datetime | None) -> str | None:
    return None if when is None else when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Studio:
    def __init__(self, config: StudioConfig, pool: AsyncConnectionPool[Any], wallet: Wallet,
                 publish: Publish | None = None) -> None:
        self.config = config
        self.pool = pool
        self.wallet = wallet
        self.book = Book(pool, wallet, config.studio.client_id)
        self.settler = Settler(pool, wallet)
        self.tokens = Tokens(pool, config.studio.operators, config.keys())
        self.tables = {name: TableRules(section) for name, section in config.studio.tables.items()}
        self.hub = Hub()
        self.publish: Publish = publish or _nowhere
        self.seats = StudioSeats(self.tables, self.hub, lambda: self.publish, pool)  # docs/studio.md, "Seats"
        self._deadlines: dict[tuple[str, str], asyncio.Task[None]] = {}
        #: counts for tests and metrics
        self.seals_sent = 0
        self.settled_sent = 0

    async def start(self) -> None:
        """After a restart: refuse what a crash left undecided, pay what settlement still owes,
        and keep the deadlines of the rounds still open."""
        recovered = await self.book.recover()
        paid = await self.settler.pay_due()
        for table, round_id, deadline in await self.book.open_rounds():
            if deadline is not None:
                self._watch_deadline(table, round_id, deadline)
        await self.seats.load()  # the owners' Bet Behind switches, the seat messages no table has taken yet
        if recovered or paid:
            log.info("studio: %d undecided requests refused, %d wallet calls made after restart", recovered, paid)

    async def close(self) -> None:
        for task in self._deadlines.values():
            task.cancel()
        await asyncio.gather(*self._deadlines.values(), return_exceptions=True)

    # ------------------------------------------------------------------ from the tables
    async def on_betting(self, table: str, data: Any) -> None:
        try:
            msg: BettingMessage = records.parse("betting", data)
        except ValidationError as exc:
            log.warning("studio: %s/betting refused: %s", table, exc.errors()[0]["msg"])
            return
        if msg.table != table:
            log.warning("studio: %s/betting names table %r; refused", table, msg.table)
            return
        limits = {k: list(v) for k, v in msg.limits.items()}
        deadline = _when(msg.deadline)
        await self._close_stale(table, msg.round)
        if msg.round is not None and msg.remote:
            if msg.status == "open":
                await self.book.open_round(table, msg.round, _stamp(deadline), msg.currency, msg.digits, limits)
                if deadline is not None and (table, msg.round) not in self._deadlines:
                    # every studio process keeps the deadline: the first to seal sends the seal
                    self._watch_deadline(table, msg.round, deadline)
            elif msg.status == "sealing":
                await self.book.open_round(table, msg.round, None, msg.currency, msg.digits, limits)
                await self.send_seal(table, msg.round)
            elif msg.status == "closed":
                await self.book.seal(table, msg.round)  # no bet after the table's close, sealed or not
        now = datetime.now(UTC)
        countdown = None if deadline is None else max(0, int((deadline - now).total_seconds() * 1000))
        betting = {"v": 1, "type": "betting", "table": table, "round": msg.round, "status": msg.status,
                   "deadline": _stamp(deadline), "countdown_ms": countdown, "currency": msg.currency,
                   "digits": msg.digits, "limits": limits}
        self.hub.betting[table] = betting
        self.hub.to_table(table, betting)
        if isinstance(data, dict):
            self.seats.on_leaf(table, data)
            await self.seats.resend(table)  # what the table came back (or the studio reconnected) without

    async def send_seal(self, table: str, round_id: str, asked: bool = True) -> None:
        """Seal the round's book (or find its seal) and send it to the table: always when the
        table asked, only if this process made the seal when its deadline passed."""
        task = self._deadlines.pop((table, round_id), None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        body, made = await self.book.seal_round(table, round_id)
        if body is None or not (made or asked):
            return
        await self.publish(table, {"v": 1, "id": seal_id(table, body), "type": "seal", **body})
        self.seals_sent += 1

    async def _close_stale(self, table: str, current: str | None) -> None:
        """A table is on one round at a time: a round of its still open here when it speaks of
        another (or of none) missed its close (the studio was away), and takes no more bets."""
        for other, round_id, _ in await self.book.open_rounds():
            if other == table and round_id != current:
                task = self._deadlines.pop((table, round_id), None)
                if task is not None:
                    task.cancel()
                await self.book.seal(table, round_id)

    def _watch_deadline(self, table: str, round_id: str, deadline: datetime) -> None:
        async def at_deadline() -> None:
            await asyncio.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()))
            await self.send_seal(table, round_id, asked=False)  # the deadline passed

        old = self._deadlines.pop((table, round_id), None)
        if old is not None:
            old.cancel()
        self._deadlines[(table, round_id)] = asyncio.create_task(at_deadline(), name=f"seal-{round_id}")

    async def on_round(self, table: str, data: Any) -> None:
        try:
            record: RoundMessage = records.parse_message(data)
        except ValidationError as exc:
            log.warning("studio: %s/round refused: %s", table, exc.errors()[0]["msg"])
            return
        rules = self.tables.get(table)
        if rules is None:
            return
        # the number (or the cards) reaches the page at once; the money follows once settled
        self.hub.to_table(table, {"v": 1, "type": "result", "table": table, "round": record.round,
                                  "status": record.status, "outcome": data["outcome"]})
        try:
            settled = await self.settler.settle(table, data, rules)
        except UnsettleableRecord as exc:
            log.error("studio: %s round %s not settled: %s", table, record.round, exc)
            return
        if settled is not None:
            # paid here, or by another process that claimed the calls first: wait for them either way
            await self.settler.paid(table, record.round)
            await self.publish(table, {"v": 1, "id": str(uuid.uuid4()), "type": "settled", **settled})
            self.settled_sent += 1
        elif not await self.settler.paid(table, record.round):
            return  # not a round of the book's
        # settled here or by another studio process: this one's players hear it all the same
        for (operator, player), message in (await self.settled_messages(table, record.round)).items():
            self.hub.to_player(table, operator, player, message)

    # ------------------------------------------------------------------ for the players
    async def settled_messages(self, table: str, round_id: str) -> dict[tuple[str, str], dict[str, Any]]:
        """Each player's ``settled`` message of a round: per bet paid, balance after.

        Two reads, each by the round's index, joined here: the same join in SQL, planned on the
        statistics of tables whose round rows had just been written, came out a nested loop
        over the round's bets and payments (5,000 players: 3 to 4 s; 10,000: four times that)."""
        async with self.pool.connection() as conn, conn.pipeline():
            paid = await conn.execute("SELECT operator, player, max(balance) FROM studio_payments "
                                      "WHERE table_id = %s AND round = %s GROUP BY operator, player", (table, round_id))
            bets = await conn.execute("SELECT operator, player, id, kind, amount, payout, status, currency "
                                      "FROM studio_bets WHERE table_id = %s AND round = %s ORDER BY id", (table, round_id))
            balances = {(operator, player): balance for operator, player, balance in await paid.fetchall()}
            rows = await bets.fetchall()
        out: dict[tuple[str, str], dict[str, Any]] = {}
        for operator, player, bet_id, kind, amount, payout, status, currency in rows:
            msg = out.get((operator, player))
            if msg is None:
                msg = out[(operator, player)] = {
                    "v": 1, "type": "settled", "round": round_id, "bets": [], "paid": 0,
                    "refunded": status == "refunded", "balance": balances.get((operator, player)), "currency": currency}
            msg["bets"].append({"id": bet_id, "kind": kind, "amount": int(amount), "paid": int(payout or 0)})
            msg["paid"] += int(payout or 0)
        return out

    async def history(self, who: Player, limit: int) -> list[dict[str, Any]]:
        """The player's last ``limit`` rounds: bets, result, paid, balance after."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT r.table_id, r.round, r.status, r.record -> 'outcome', r.currency, "
                "json_agg(json_build_object('id', b.id, 'kind', b.kind, 'amount', b.amount, 'paid', b.payout) "
                "ORDER BY b.id), sum(b.amount), sum(b.payout), "
                "(SELECT max(p.balance) FROM studio_payments p WHERE p.table_id = r.table_id AND p.round = r.round "
                " AND p.operator = %s AND p.player = %s) "
                "FROM studio_bets b JOIN studio_rounds r ON (r.table_id, r.round) = (b.table_id, b.round) "
                "WHERE b.operator = %s AND b.player = %s GROUP BY r.table_id, r.round ORDER BY max(r.opened) DESC "
                "LIMIT %s", (who.operator, who.player, who.operator, who.player, limit))
            rows = await cur.fetchall()
        rounds = []
        for table, round_id, status, outcome, currency, bets, stake, paid, balance in rows:
            done = status in ("settled", "refunded")
            rounds.append({"table": table, "round": round_id, "status": status, "outcome": outcome,
                           "bets": [b if done else {k: v for k, v in b.items() if k != "paid"} for b in bets],
                           "stake": int(stake), "paid": int(paid) if done and paid is not None else None,
                           "balance": balance, "currency": currency})
        return rounds


async def _nowhere(table: str, message: dict[str, Any]) -> None:
    log.warning("studio: no broker link; %s for %s not sent", message.get("type"), table)

