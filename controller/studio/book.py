"""The bet book in PostgreSQL, and the cut-off as a row lock.

A request is written ``pending`` before any money moves, debited, then accepted in a transaction
that holds its round's row ``FOR SHARE`` and finds it ``open``. Sealing sets the round ``sealed``
with an ``UPDATE``, which waits for every accept holding that share lock, and reads the accepted
bets in the same transaction: an accept either committed before the seal (and is in its count and
digest) or finds the round sealed and is refused ``late`` (its debit cancelled). A request left
``pending`` by a crash is refused and its debit cancelled at start (``recover``).

Requests arriving together are decided together (group commit, ``batches.py``): written pending
in one statement, debited in one wallet call when the wallet takes a batch (the house wallet),
accepted with their refusals in one transaction, and only then answered, each as if alone.

Several studio processes may share the book: a request names the process deciding it
(``studio``), and each process holds an advisory lock on its name while it runs (``server.py``),
so a pending request is decided again (a retry) or refused (``recover``) only by the process that
owns it or by one that found its owner gone, which first takes it over (compare-and-set).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.batches import Batches
from controller.studio.book_rounds import BookRounds, RoundInfo
from controller.studio.operators.interface import WalletResult, WalletStatus, WalletTx
from controller.studio.operators.tablefeed import TableFeed
from controller.studio.wallet import DebitsInBatch, DebitsInTransaction, Wallet


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


def refusal(request: str, reason: str, message: str) -> dict[str, Any]:
    return {"type": "refused", "request": request, "reason": reason, "message": message}


#: batches of bet requests decided at once, and requests in one at most; the rest wait their turn
#: here, not in the pool's queue, so the seal and the settlement (which do not wait here) find a
#: connection at once however many bets are waiting (at 10,000 players on one process the seal
#: queued behind thousands of them and came after the table's grace: the round's bets were all returned)
BATCHES_AT_ONCE = 2
MOST_IN_BATCH = 500
#: how long a bet request waits for others to be decided with (a transaction's commit is shared
#: by the batch: at 2,000 players a request arrives every few milliseconds)
BATCH_WINDOW_S = 0.01
#: debits at once to a wallet that takes them one by one (an operator's HTTP wallet)
DECIDING_AT_ONCE = 16


def owner_key(studio: str) -> str:
    """The advisory lock a running studio process holds on its name (``hashtext`` of this)."""
    return f"croupier-studio:{studio}"


class Book(BookRounds):
    """The bet book: its rounds (``BookRounds``) and the players' requests, each decided once."""

    def __init__(self, pool: AsyncConnectionPool[Any], wallet: Wallet, studio: str = "croupier-studio") -> None:
        self.pool = pool
        self.wallet = wallet
        #: the operators' feed: a round's start and seal written in their own transaction
        self.feed: TableFeed | None = None
        #: this process's name (its MQTT client_id): the owner of the requests it decides
        self.studio = studio
        #: requests being decided by this process now (a retry of one of them waits its answer)
        self._deciding: set[str] = set()
        self._admit = asyncio.Semaphore(DECIDING_AT_ONCE)
        self._batches: Batches[Ask, dict[str, Any]] = Batches(self._place_all, at_once=BATCHES_AT_ONCE,
                                                              most=MOST_IN_BATCH, window_s=BATCH_WINDOW_S)

    # ------------------------------------------------------------------ bets
    async def place(self, who: Player, req: BetRequest, check: Any) -> dict[str, Any]:
        """Accept or refuse one request (the same request again: the same answer). ``check`` is the
        table's rule check: ``check(bets) -> None | why``. Requests arriving together are decided
        together (``batches.py``): each is still written pending, debited, and accepted in a
        committed transaction before its answer."""
        return await self._batches.submit(Ask(who, req, check))

    async def _place_all(self, asks: list[Ask]) -> list[dict[str, Any]]:
        if isinstance(self.wallet, DebitsInTransaction):
            mine, decided = await self._decide_in_one(asks, self.wallet)
            again = await self._retries(asks, mine)
        else:
            fresh, infos = await self._write_pending(asks)
            mine = _firsts(asks, fresh)
            self._deciding.update(mine)
            try:
                again = await self._retries(asks, mine)
                decided = await self._decide(list(mine.values()), infos) if mine else {}
            finally:
                self._deciding.difference_update(mine)
        return [decided[a.req.request] if mine.get(a.req.request) is a else again[id(a)] for a in asks]

    async def _retries(self, asks: list[Ask], mine: dict[str, Ask]) -> dict[int, dict[str, Any]]:
        """The answers of the requests not written fresh (by ``id`` of their ask)."""
        seen = [ask for ask in asks if mine.get(ask.req.request) is not ask]
        return dict(zip(map(id, seen), await asyncio.gather(*(self._again(a) for a in seen)), strict=True))

    async def _write_pending(self, asks: list[Ask]) -> tuple[set[str], dict[tuple[str, str], RoundInfo]]:
        """Write the requests ``pending`` (one statement, one commit); the ones written (the others
        were seen before, or their player has a live request on the round), and their rounds."""
        async with self.pool.connection() as conn:
            async with conn.pipeline(), conn.transaction():
                written = await self._insert_pending(conn, asks)
                infos = await _round_infos(conn, {(a.req.table, a.req.round) for a in asks})
            return {r[0] for r in await written.fetchall()}, infos

    async def _insert_pending(self, conn: Any, asks: list[Ask]) -> Any:
        """The requests written ``pending`` in ``conn``'s transaction; its cursor gives those written."""
        cols = [[a.req.request for a in asks], [a.who.operator for a in asks], [a.who.player for a in asks],
                [a.req.table for a in asks], [a.req.round for a in asks], [dumps(bets_json(a.req)) for a in asks]]
        return await conn.execute(
            "INSERT INTO studio_requests (request, operator, player, table_id, round, bets, status, studio) "
            "SELECT r, o, p, t, n, b::jsonb, 'pending', %s FROM unnest(%s::text[], %s::text[], %s::text[], "
            "%s::text[], %s::text[], %s::text[]) AS x (r, o, p, t, n, b) ON CONFLICT DO NOTHING RETURNING request",
            (self.studio, *cols))

    async def _decide_in_one(self, asks: list[Ask], wallet: DebitsInTransaction
                             ) -> tuple[dict[str, Ask], dict[str, dict[str, Any]]]:
        """A wallet in the book's own database (the house wallet): the requests written, their
        rounds' rows taken FOR SHARE and found open, the debits, the bets and the refusals in one
        transaction (pipelined: three round trips). It commits whole or not at all, so no request
        is left pending and no debit made without its request; a seal waits for it. Returns the
        requests decided here (the first of each request id written fresh) and their answers."""
        async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
            written = await self._insert_pending(conn, asks)
            infos = await _round_infos(conn, {(a.req.table, a.req.round) for a in asks}, share=True)
            mine = _firsts(asks, {r[0] for r in await written.fetchall()})
            refused, debits = _checked(list(mine.values()), infos)
            paid = await wallet.debit_in(conn, [tx for _, tx in debits])
            accepting = []
            for (ask, _), result in zip(debits, paid, strict=True):
                if result.status is WalletStatus.OK:
                    accepting.append((ask, _accepted(ask, result.balance)))
                else:  # nothing was taken
                    refused[ask.req.request] = refusal(ask.req.request, *_wallet_refusal(result.status))
            if refused:
                await _write_refusals(conn, refused)
            if accepting:
                won = await self._write_accepted(conn, accepting)
                if {r[0] for r in await won.fetchall()} != {a.req.request for a, _ in accepting}:
                    raise RuntimeError("the book changed requests this transaction wrote")  # rolls back
        return mine, {**refused, **{a.req.request: answer for a, answer in accepting}}

    async def _again(self, ask: Ask) -> dict[str, Any]:
        """A request not written fresh: a retry (its answer, or decided again when its first try
        failed half-way), a request id reused, or a second live request of the player's on the round."""
        who, req = ask.who, ask.req
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT operator, player, table_id, round, bets, answer, studio "
                                     "FROM studio_requests WHERE request = %s", (req.request,))
            row = await cur.fetchone()
        if row is None:
            return refusal(req.request, "already_bet", "this round already has your bets: one request per round")
        if (row[0], row[1], row[2], row[3]) != (who.operator, who.player, req.table, req.round) \
                or row[4] != bets_json(req):
            return refusal(req.request, "request_reused", "this request id was already used for other bets; "
                                                          "a new request needs a new id")
        if row[5] is None:
            if req.request in self._deciding or not await self._take_over(req.request, row[6]):
                return refusal(req.request, "in_progress", "this request is still being decided; ask again")
            # an attempt that failed half-way (the book or the wallet out of reach, or its studio
            # process gone): decide it again; the debit is idempotent on the request, so no money
            # moves twice
            self._deciding.add(req.request)
            try:
                return (await self._decide([ask]))[req.request]
            finally:
                self._deciding.discard(req.request)
        return dict(row[5])

    async def _decide(self, asks: list[Ask], infos: dict[tuple[str, str], RoundInfo] | None = None
                      ) -> dict[str, dict[str, Any]]:
        """Decide pending requests of this process: the checks (on ``infos``, their rounds as read
        with the requests, read now when not given), the debits, then one transaction accepting
        those whose round is still open and writing the refusals."""
        if infos is None:
            async with self.pool.connection() as conn:
                infos = await _round_infos(conn, {(a.req.table, a.req.round) for a in asks})
        refused, debits = _checked(asks, infos)
        paid = await self._debit([tx for _, tx in debits])
        failed = [(ask, tx, result) for (ask, tx), result in zip(debits, paid, strict=True)
                  if result.status is not WalletStatus.OK]
        await asyncio.gather(*(self._cancel(tx) for _, tx, _ in failed))
        for ask, _, result in failed:
            refused[ask.req.request] = refusal(ask.req.request, *_wallet_refusal(result.status))
        accepting = {ask.req.request: (ask, tx, _accepted(ask, result.balance))
                     for (ask, tx), result in zip(debits, paid, strict=True) if result.status is WalletStatus.OK}
        won, late = await self._accept(list(accepting.values()), refused)
        answers = {**refused, **{r: accepting[r][2] for r in won}}
        if late:  # the round closed while they were debited: the debits are returned, then refused
            await asyncio.gather(*(self._cancel(accepting[r][1]) for r in late))
            answers.update(await self._refuse({r: refusal(r, "late", "betting closed while your bets were on their "
                                                                  "way") for r in late}))
        taken = [a.req.request for a in asks if a.req.request not in answers]
        if taken:  # refused meanwhile by a process that found this one gone: its answer stands
            answers.update(await self._answers(taken))
        return answers

    async def _debit(self, txs: list[WalletTx]) -> list[WalletResult]:
        """The debits' answers, in their order: in one call for a wallet that takes them in a batch,
        else ``DECIDING_AT_ONCE`` calls at a time."""
        if not txs:
            return []
        if isinstance(self.wallet, DebitsInBatch):
            return await self.wallet.debit_many(txs)

        async def one(tx: WalletTx) -> WalletResult:
            async with self._admit:
                return await self.wallet.debit(tx)

        return list(await asyncio.gather(*(one(tx) for tx in txs)))

    async def _accept(self, accepting: list[tuple[Ask, WalletTx, dict[str, Any]]],
                      refused: dict[str, dict[str, Any]]) -> tuple[set[str], list[str]]:
        """In one transaction: the refusals, and the bets of the requests whose round is open,
        under the rounds' rows FOR SHARE (a seal waits for it). Returns the requests accepted, and
        those whose round was closed (left pending: their debits are returned first)."""
        won: set[str] = set()
        late: list[str] = []
        # pipelined: the statements go out together, a round trip or two for the whole batch
        async with self.pool.connection() as conn:
            async with conn.pipeline(), conn.transaction():
                if refused:
                    await _write_refusals(conn, refused)
                if not accepting:
                    return won, late
                rounds = sorted({(a.req.table, a.req.round) for a, _, _ in accepting})
                cur = await conn.execute(
                    "SELECT table_id, round, status FROM studio_rounds WHERE (table_id, round) IN "
                    "(SELECT * FROM unnest(%s::text[], %s::text[])) ORDER BY table_id, round FOR SHARE",
                    ([t for t, _ in rounds], [r for _, r in rounds]))
                open_ = {(r[0], r[1]) for r in await cur.fetchall() if r[2] == "open"}
                going = [x for x in accepting if (x[0].req.table, x[0].req.round) in open_]
                late = [a.req.request for a, _, _ in accepting if (a.req.table, a.req.round) not in open_]
                if not going:
                    return won, late
                accepted = await self._write_accepted(conn, [(a, answer) for a, _, answer in going])
            won = {r[0] for r in await accepted.fetchall()}
        return won, late

    async def _write_accepted(self, conn: Any, going: list[tuple[Ask, dict[str, Any]]]) -> Any:
        """In ``conn``'s transaction, one statement: the requests still pending and this process's
        (one refused meanwhile by a process that found this one gone is not) accepted, and their
        bets written; its cursor gives the requests accepted."""
        rows = [(b["id"], a.req.request, a.req.table, a.req.round, a.who.operator, a.who.player, b["kind"],
                 b["amount"], a.who.currency) for a, answer in going for b in answer["bets"]]
        return await conn.execute(
            "WITH won AS (UPDATE studio_requests SET status = 'accepted', answer = d.answer::jsonb "
            "FROM unnest(%s::text[], %s::text[]) AS d (request, answer) "
            "WHERE studio_requests.request = d.request AND studio_requests.status = 'pending' "
            "AND studio_requests.studio = %s RETURNING studio_requests.request), "
            "bets AS (INSERT INTO studio_bets (id, request, table_id, round, operator, player, kind, amount, "
            "currency, status) SELECT b.id, request, b.table_id, b.round, b.operator, b.player, b.kind, "
            "b.amount, b.currency, 'accepted' FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], "
            "%s::text[], %s::text[], %s::text[], %s::bigint[], %s::text[]) "
            "AS b (id, request, table_id, round, operator, player, kind, amount, currency) "
            "JOIN won USING (request)) SELECT request FROM won",
            ([a.req.request for a, _ in going], [dumps(answer) for _, answer in going], self.studio,
             *[list(c) for c in zip(*rows, strict=True)]))

    async def _answers(self, requests: list[str]) -> dict[str, dict[str, Any]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT request, answer FROM studio_requests WHERE request = ANY(%s)", (requests,))
            found = {r[0]: dict(r[1]) for r in await cur.fetchall() if r[1]}
        return {r: found.get(r) or refusal(r, "unavailable", "the studio could not decide this request just now; "
                                              "send it again") for r in requests}

    async def _take_over(self, request: str, owner: str | None) -> bool:
        """Make this process the owner of a pending request: it is ours already, or its owner is gone."""
        if owner != self.studio and owner is not None and await self.alive(owner):
            return False
        async with self.pool.connection() as conn:
            cur = await conn.execute("UPDATE studio_requests SET studio = %s WHERE request = %s AND status = 'pending' "
                                     "AND studio IS NOT DISTINCT FROM %s", (self.studio, request, owner))
            return bool(cur.rowcount == 1)

    async def alive(self, studio: str) -> bool:
        """Whether the studio process named ``studio`` runs (holds its advisory lock)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT CASE WHEN pg_try_advisory_lock(hashtext(%s)) "
                                     "THEN NOT pg_advisory_unlock(hashtext(%s)) ELSE true END",
                                     (owner_key(studio), owner_key(studio)))
            row = await cur.fetchone()
        return bool(row and row[0])

    async def _cancel(self, debit: WalletTx) -> None:
        await self.wallet.cancel(WalletTx(f"cancel:{debit.ref}", debit.ref, debit.operator, debit.player,
                                          debit.currency, debit.amount))

    async def _refuse(self, answers: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        async with self.pool.connection() as conn:
            await _write_refusals(conn, answers)
        return answers

    async def recover(self) -> int:
        """Refuse every request a crash left undecided (this process's, or a gone process's),
        cancelling its debit; returns how many."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT DISTINCT studio FROM studio_requests WHERE status = 'pending'")
            owners = [r[0] for r in await cur.fetchall()]
        gone = [o for o in owners if o == self.studio or o is None or not await self.alive(o)]
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE studio_requests SET studio = %s WHERE status = 'pending' AND coalesce(studio, '') = ANY(%s) "
                "AND NOT (request = ANY(%s)) RETURNING request, operator, player, table_id, round, bets",
                (self.studio, [o or "" for o in gone], list(self._deciding)))
            rows = await cur.fetchall()
        for request, operator, player, table, round_id, bets in rows:
            currency = await self._currency(table, round_id)
            total = sum(int(b["amount"]) for b in bets)
            await self._cancel(WalletTx(f"debit:{request}", request, operator, player, currency, total))
            await self._refuse({request: refusal(request, "late", "the studio restarted before your bets were "
                                                                  "accepted; nothing was taken")})
        return len(rows)

    async def _currency(self, table: str, round_id: str) -> str:
        info = await self.round_info(table, round_id)
        return info.currency if info else ""


@dataclass(frozen=True, slots=True)
class Ask:
    """One bet request waiting for its batch: who asks, what, and the table's rule check."""

    who: Player
    req: BetRequest
    check: Any


def bets_json(req: BetRequest) -> list[dict[str, Any]]:
    """The request's bets as the book stores them (``studio_requests.bets``)."""
    return [{"kind": k, "amount": a} for k, a in req.bets]


def _refusal(ask: Ask, info: RoundInfo | None) -> tuple[str, str] | None:
    """Why the request is refused before any money moves (reason, message), or None."""
    who, req = ask.who, ask.req
    if info is None:
        return "table_closed", "no betting is open for this round"
    if info.status != "open":
        return "late", "betting on this round has closed"
    if info.currency != who.currency:
        return "currency", f"this table plays in {info.currency}, your account is in {who.currency}"
    why = ask.check(list(req.bets)) or _table_limits(req.bets, info.limits)
    if why:
        return "limits", why
    if (who.max_bet is not None and any(a > who.max_bet for _, a in req.bets)) or (
            who.max_round is not None and sum(a for _, a in req.bets) > who.max_round):
        return "operator_limit", "over the limits your operator set for your account"
    return None


_WALLET_REFUSALS = {WalletStatus.INSUFFICIENT_FUNDS: ("funds", "not enough money in your account"),
                    WalletStatus.OPERATOR_LIMIT: ("operator_limit", "your operator refused the stake"),
                    WalletStatus.TOKEN_REFUSED: ("token_refused", "your operator ended your session; launch the game "
                                                                  "again")}


def _wallet_refusal(status: WalletStatus) -> tuple[str, str]:
    """What a player is told of a debit the wallet did not make."""
    return _WALLET_REFUSALS.get(status, ("wallet", "your wallet did not answer; nothing was taken"))


def _accepted(ask: Ask, balance: int | None) -> dict[str, Any]:
    req = ask.req
    placed = [{"id": f"{req.request}:{i}", "kind": k, "amount": a} for i, (k, a) in enumerate(req.bets)]
    return {"type": "accepted", "request": req.request, "round": req.round, "bets": placed,
            "stake": sum(a for _, a in req.bets), "balance": balance, "currency": ask.who.currency}


def _firsts(asks: list[Ask], fresh: set[str]) -> dict[str, Ask]:
    """The asks decided now: the first of each request id written fresh (the same request twice in a
    batch: the second is a retry)."""
    mine: dict[str, Ask] = {}
    for ask in asks:
        if ask.req.request in fresh and ask.req.request not in mine:
            mine[ask.req.request] = ask
    return mine


def _checked(asks: list[Ask], infos: dict[tuple[str, str], RoundInfo]
             ) -> tuple[dict[str, dict[str, Any]], list[tuple[Ask, WalletTx]]]:
    """The refusals before any money moves, and the debits of the rest."""
    refused: dict[str, dict[str, Any]] = {}
    debits: list[tuple[Ask, WalletTx]] = []
    for ask in asks:
        why = _refusal(ask, infos.get((ask.req.table, ask.req.round)))
        if why is not None:
            refused[ask.req.request] = refusal(ask.req.request, *why)
            continue
        who, req = ask.who, ask.req
        debits.append((ask, WalletTx(f"debit:{req.request}", req.request, who.operator, who.player, who.currency,
                                     sum(a for _, a in req.bets), round=req.round, token=who.token)))
    return refused, debits


async def _round_infos(conn: Any, rounds: set[tuple[str, str]], share: bool = False
                       ) -> dict[tuple[str, str], RoundInfo]:
    """The rounds as the book has them (``share``: their rows FOR SHARE until ``conn`` commits)."""
    cur = await conn.execute(
        "SELECT table_id, round, status, currency, digits, limits FROM studio_rounds "
        "WHERE (table_id, round) IN (SELECT * FROM unnest(%s::text[], %s::text[]))"
        + (" ORDER BY table_id, round FOR SHARE" if share else ""),
        ([t for t, _ in rounds], [r for _, r in rounds]))
    return {(r[0], r[1]): RoundInfo(r[2], r[3], int(r[4]), dict(r[5])) for r in await cur.fetchall()}


async def _write_refusals(conn: Any, answers: dict[str, dict[str, Any]]) -> None:
    await conn.execute("UPDATE studio_requests SET status = 'refused', answer = d.answer::jsonb FROM "
                       "unnest(%s::text[], %s::text[]) AS d (request, answer) WHERE studio_requests.request = d.request",
                       (list(answers), [dumps(a) for a in answers.values()]))


def _table_limits(bets: tuple[tuple[str, int], ...], limits: dict[str, list[int]]) -> str | None:
    """The table's published ``[min, max]`` per bet kind (``straight:17`` is a ``straight``, ``21+3@3``
    a ``21+3``)."""
    for kind, amount in bets:
        bound = limits.get(kind) or limits.get(kind.partition(":")[0].partition("@")[0])
        if bound and not bound[0] <= amount <= bound[1]:
            return f"a {kind} bet is {bound[0]} to {bound[1]} minor units at this table, not {amount}"
    return None


def dumps(answer: dict[str, Any] | list[Any]) -> str:
    return json.dumps(answer, separators=(",", ":"))


def player_id(who: Player) -> str:
    """The player's name in the table's engine and journal: ``<operator>/<player>``."""
    return f"{who.operator}/{who.player}"
