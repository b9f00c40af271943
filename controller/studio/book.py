"""The bet book in PostgreSQL, and the cut-off as a row lock.

A request is written ``pending`` before any money moves, debited, then accepted in a transaction
that holds its round's row ``FOR SHARE`` and finds it ``open``. Sealing sets the round ``sealed``
with an ``UPDATE``, which waits for every accept holding that share lock, and reads the accepted
bets in the same transaction: an accept either committed before the seal (and is in its count and
digest) or finds the round sealed and is refused ``late`` (its debit cancelled). A request left
``pending`` by a crash is refused and its debit cancelled at start (``recover``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from psycopg.errors import UniqueViolation
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.interface import WalletStatus, WalletTx
from controller.studio.operators.tablefeed import TableFeed
from controller.studio.seal import BookBet, seal_body
from controller.studio.wallet import Wallet


@dataclass(frozen=True, slots=True)
class Player:
    """A joined player, as the operator's launch token says."""

    operator: str
    player: str
    name: str
    currency: str
    #: the operator's limits on this player: largest bet, largest request (minor units; None: none)
    max_bet: int | None = None
    max_round: int | None = None
    #: the launch token it joined with: sent with its debits to an operator that checks it, never stored
    token: str = field(default="", repr=False)


@dataclass(frozen=True, slots=True)
class BetRequest:
    request: str
    table: str
    round: str
    bets: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class RoundInfo:
    status: str
    currency: str
    digits: int
    limits: dict[str, list[int]]


def refusal(request: str, reason: str, message: str) -> dict[str, Any]:
    return {"type": "refused", "request": request, "reason": reason, "message": message}


class Book:
    def __init__(self, pool: AsyncConnectionPool[Any], wallet: Wallet) -> None:
        self.pool = pool
        self.wallet = wallet
        #: the operators' feed: a round's start and seal written in their own transaction
        self.feed: TableFeed | None = None
        #: requests being decided by this process now (a retry of one of them waits its answer)
        self._deciding: set[str] = set()

    # ------------------------------------------------------------------ rounds
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
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "UPDATE studio_rounds SET status = 'sealed' WHERE table_id = %s AND round = %s AND status = 'open' "
                "RETURNING 1", (table, round_id))
            if await cur.fetchone() is None:
                cur = await conn.execute("SELECT seal FROM studio_rounds WHERE table_id = %s AND round = %s",
                                         (table, round_id))
                row = await cur.fetchone()
                return None if row is None else row[0]
            cur = await conn.execute("SELECT id, player, kind, amount FROM studio_bets WHERE table_id = %s "
                                     "AND round = %s AND status = 'accepted'", (table, round_id))
            bets = [BookBet(r[0], r[1], r[2], int(r[3])) for r in await cur.fetchall()]
            body = seal_body(round_id, bets)
            await conn.execute("UPDATE studio_rounds SET seal = %s WHERE table_id = %s AND round = %s",
                               (Jsonb(body), table, round_id))
            if self.feed is not None:
                await self.feed.fact(conn, table, "bets_closed", {k: body.get(k) for k in ("count", "stake", "players",
                                                                                         "digest")}, round_id)
        return body

    # ------------------------------------------------------------------ bets
    async def place(self, who: Player, req: BetRequest, check: Any) -> dict[str, Any]:
        """Accept or refuse one request (the same request again: the same answer). ``check`` is the
        table's rule check: ``check(bets) -> None | why``."""
        bets_json = [{"kind": k, "amount": a} for k, a in req.bets]
        try:
            async with self.pool.connection() as conn:
                cur = await conn.execute(
                    "INSERT INTO studio_requests (request, operator, player, table_id, round, bets, status) "
                    "VALUES (%s, %s, %s, %s, %s, %s, 'pending') ON CONFLICT (request) DO NOTHING RETURNING 1",
                    (req.request, who.operator, who.player, req.table, req.round, Jsonb(bets_json)))
                fresh = await cur.fetchone() is not None
        except UniqueViolation:
            return refusal(req.request, "already_bet", "this round already has your bets: one request per round")
        if not fresh:
            return await self._again(who, req, bets_json, check)
        return await self._deciding_now(who, req, check)

    async def _deciding_now(self, who: Player, req: BetRequest, check: Any) -> dict[str, Any]:
        self._deciding.add(req.request)
        try:
            return await self._decide(who, req, check)
        finally:
            self._deciding.discard(req.request)

    async def _again(self, who: Player, req: BetRequest, bets_json: list[dict[str, Any]], check: Any) -> dict[str, Any]:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT operator, player, table_id, round, bets, answer FROM studio_requests "
                                     "WHERE request = %s", (req.request,))
            row = await cur.fetchone()
        if row is None or (row[0], row[1], row[2], row[3]) != (who.operator, who.player, req.table, req.round) \
                or row[4] != bets_json:
            return refusal(req.request, "request_reused", "this request id was already used for other bets; "
                                                          "a new request needs a new id")
        if row[5] is None:
            if req.request in self._deciding:
                return refusal(req.request, "in_progress", "this request is still being decided; ask again")
            # an attempt that failed half-way (the book or the wallet out of reach): decide it again;
            # the debit is idempotent on the request, so no money moves twice
            return await self._deciding_now(who, req, check)
        return dict(row[5])

    async def _decide(self, who: Player, req: BetRequest, check: Any) -> dict[str, Any]:
        info = await self.round_info(req.table, req.round)
        total = sum(a for _, a in req.bets)
        if info is None:
            return await self._refuse(req, "table_closed", "no betting is open for this round")
        if info.status != "open":
            return await self._refuse(req, "late", "betting on this round has closed")
        if info.currency != who.currency:
            return await self._refuse(req, "currency", f"this table plays in {info.currency}, your account is "
                                                       f"in {who.currency}")
        why = check(list(req.bets)) or _table_limits(req.bets, info.limits)
        if why:
            return await self._refuse(req, "limits", why)
        if (who.max_bet is not None and any(a > who.max_bet for _, a in req.bets)) or (
                who.max_round is not None and total > who.max_round):
            return await self._refuse(req, "operator_limit", "over the limits your operator set for your account")
        tx = WalletTx(f"debit:{req.request}", req.request, who.operator, who.player, who.currency, total,
                      round=req.round, token=who.token)
        paid = await self.wallet.debit(tx)
        if paid.status is not WalletStatus.OK:
            await self._cancel(tx)
            reason = {WalletStatus.INSUFFICIENT_FUNDS: "funds", WalletStatus.OPERATOR_LIMIT: "operator_limit",
                      WalletStatus.TOKEN_REFUSED: "token_refused"}.get(paid.status, "wallet")
            return await self._refuse(req, reason, {"funds": "not enough money in your account",
                                                    "operator_limit": "your operator refused the stake",
                                                    "token_refused": "your operator ended your session; "
                                                                     "launch the game again"}.get(
                reason, "your wallet did not answer; nothing was taken"))
        placed = [{"id": f"{req.request}:{i}", "kind": k, "amount": a} for i, (k, a) in enumerate(req.bets)]
        answer = {"type": "accepted", "request": req.request, "round": req.round, "bets": placed,
                  "stake": total, "balance": paid.balance, "currency": who.currency}
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("SELECT status FROM studio_rounds WHERE table_id = %s AND round = %s FOR SHARE",
                                     (req.table, req.round))
            row = await cur.fetchone()
            if row is not None and row[0] == "open":
                async with conn.cursor() as many:
                    await many.executemany(
                        "INSERT INTO studio_bets (id, request, table_id, round, operator, player, kind, amount, "
                        "currency, status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, 'accepted')",
                        [(b["id"], req.request, req.table, req.round, who.operator, who.player, b["kind"], b["amount"],
                          who.currency) for b in placed])
                await conn.execute("UPDATE studio_requests SET status = 'accepted', answer = %s WHERE request = %s",
                                   (Jsonb(answer), req.request))
                return answer
        await self._cancel(tx)
        return await self._refuse(req, "late", "betting closed while your bets were on their way")

    async def _cancel(self, debit: WalletTx) -> None:
        await self.wallet.cancel(WalletTx(f"cancel:{debit.ref}", debit.ref, debit.operator, debit.player,
                                          debit.currency, debit.amount))

    async def _refuse(self, req: BetRequest, reason: str, message: str) -> dict[str, Any]:
        answer = refusal(req.request, reason, message)
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE studio_requests SET status = 'refused', answer = %s WHERE request = %s",
                               (Jsonb(answer), req.request))
        return answer

    async def recover(self) -> int:
        """Refuse every request a crash left undecided, cancelling its debit; returns how many."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT request, operator, player, table_id, round, bets FROM studio_requests "
                                     "WHERE status = 'pending'")
            rows = await cur.fetchall()
        for request, operator, player, table, round_id, bets in rows:
            currency = await self._currency(table, round_id)
            total = sum(int(b["amount"]) for b in bets)
            await self._cancel(WalletTx(f"debit:{request}", request, operator, player, currency, total))
            await self._refuse(BetRequest(request, table, round_id, ()), "late",
                               "the studio restarted before your bets were accepted; nothing was taken")
        return len(rows)

    async def _currency(self, table: str, round_id: str) -> str:
        info = await self.round_info(table, round_id)
        return info.currency if info else ""


def _table_limits(bets: tuple[tuple[str, int], ...], limits: dict[str, list[int]]) -> str | None:
    """The table's published ``[min, max]`` per bet kind (``straight:17`` is a ``straight``, ``21+3@3``
    a ``21+3``)."""
    for kind, amount in bets:
        bound = limits.get(kind) or limits.get(kind.partition(":")[0].partition("@")[0])
        if bound and not bound[0] <= amount <= bound[1]:
            return f"a {kind} bet is {bound[0]} to {bound[1]} minor units at this table, not {amount}"
    return None


def dumps(answer: dict[str, Any]) -> str:
    return json.dumps(answer, separators=(",", ":"))


def player_id(who: Player) -> str:
    """The player's name in the table's engine and journal: ``<operator>/<player>``."""
    return f"{who.operator}/{who.player}"
