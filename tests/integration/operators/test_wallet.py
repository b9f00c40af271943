"""The HTTP wallet against the real reference operator and PostgreSQL: idempotent on our ids,
every request and answer logged before it is acted on, refusals mapped to the player's reason,
anomalies never trusted, credits retried until answered (across a restart of the worker)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.interface import Kind, WalletStatus, WalletTx
from controller.studio.operators.retry import RetryPolicy
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.operators.sim.wallet_app import wallet_app
from controller.studio.operators.wallets import OperatorWallets

from .conftest import Sim, eventually, make_operator, serve

FAST = RetryPolicy(base=timedelta(milliseconds=50), cap=timedelta(milliseconds=200), lease=timedelta(seconds=5),
                   poll_s=0.05)


def debit(n: int, amount: int = 500, **kw: Any) -> WalletTx:
    return WalletTx(tx=f"d{n}", ref=f"d{n}", operator="casino-a", player="p1", currency="EUR", amount=amount,
                    round="rl-eu-000001", **kw)


def credit(n: int, amount: int = 1000) -> WalletTx:
    return WalletTx(tx=f"c{n}", ref=f"d{n}", operator="casino-a", player="p1", currency="EUR", amount=amount,
                    round="rl-eu-000001")


async def exchanges(pool: AsyncConnectionPool[Any], tx: str) -> list[tuple[str, str]]:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT direction, note FROM op_wallet_exchange WHERE tx = %s ORDER BY id", (tx,))
        return [(str(d), str(n)) for d, n in await cur.fetchall()]


async def state(pool: AsyncConnectionPool[Any], tx: str) -> str:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT state FROM op_wallet_tx WHERE tx = %s", (tx,))
        row = await cur.fetchone()
        return str(row[0]) if row else "absent"


async def attempts(pool: AsyncConnectionPool[Any], tx: str) -> int:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT attempts FROM op_wallet_tx WHERE tx = %s", (tx,))
        row = await cur.fetchone()
        return int(row[0]) if row else 0


async def test_debit_answer_dropped_after_commit_is_asked_again_and_paid_once(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 10_000)
    sim.faults.drop_after_commit = 1
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    try:
        result = await wallets["casino-a"].debit(debit(1))
    finally:
        await wallets.close()
    assert (result.status, result.balance) == (WalletStatus.OK, 9_500)
    assert sim.store.count("debit") == 1
    assert sim.store.balance("p1", "EUR") == 9_500
    log = await exchanges(pool, "d1")
    assert [d for d, _ in log] == ["request", "failure", "request", "answer"]
    assert log[1][1].startswith("unreachable")


async def test_debit_never_answered_is_cancelled_not_guessed(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 10_000)
    sim.faults.drop_after_commit = 2  # both attempts of the debit: committed at the operator, no answer here
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    try:
        result = await wallets["casino-a"].debit(debit(1))
        assert result.status is WalletStatus.UNKNOWN and result.refusal == "wallet_unavailable"
        assert await state(pool, "d1") == "cancelled"
        assert await state(pool, "d1:cancel") == "answered"
    finally:
        await wallets.close()
    assert sim.store.count("debit") == 1 and sim.store.count("cancel", ref="d1") == 1
    assert sim.store.balance("p1", "EUR") == 10_000


async def test_refusals_reach_the_player_as_their_reason(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 300)
    sim.store.stake_limit = 5_000
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    try:
        wallet = wallets["casino-a"]
        funds = await wallet.debit(debit(1, amount=500))
        limit = await wallet.debit(debit(2, amount=6_000))
        token = await wallet.debit(debit(3, amount=100, token="refused-expired"))
        again = await wallet.debit(debit(1, amount=500))
    finally:
        await wallets.close()
    assert [r.refusal for r in (funds, limit, token)] == ["funds", "operator_limit", "token_refused"]
    assert again == funds and sim.store.count("debit") == 3  # asked again: the logged answer, the operator not asked
    assert sim.store.balance("p1", "EUR") == 300


async def test_contradicting_answer_is_kept_and_flagged(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 10_000)
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    try:
        wallet = wallets["casino-a"]
        first = await wallet.credit(credit(1))  # answered and logged...
        assert first.status is WalletStatus.OK
        async with pool.connection() as conn:  # ...and the studio died before acting on it
            await conn.execute("UPDATE op_wallet_tx SET state = 'pending', result = NULL WHERE tx = 'c1'")
        sim.faults.contradict = True
        second = await wallet.send(credit(1), Kind.CREDIT)
    finally:
        await wallets.close()
    assert second.status is WalletStatus.UNKNOWN
    assert await state(pool, "c1") == "flagged"
    assert [d for d, _ in await exchanges(pool, "c1")] == ["request", "answer", "request", "answer"]
    assert sim.store.count("credit") == 1


async def test_credit_retried_across_a_worker_restart_until_the_operator_is_back(
        sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 0)
    sim.faults.away_for(3600)
    first = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    first.start()
    try:
        assert (await first["casino-a"].credit(credit(7, amount=2_500))).status is WalletStatus.UNKNOWN
        await eventually(lambda: attempts(pool, "c7"), lambda n: n >= 3, "the worker asking again while the operator is away")
    finally:
        await first.close()  # the studio stops with the credit still pending
    assert await state(pool, "c7") == "pending" and sim.store.balance("p1", "EUR") == 0
    sim.faults.away_until = 0.0  # the operator is back
    second = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    second.start()
    try:
        await eventually(lambda: state(pool, "c7"), lambda s: s == "answered", "the credit answered after the restart")
    finally:
        await second.close()
    assert sim.store.balance("p1", "EUR") == 2_500 and sim.store.count("credit") == 1


async def test_credit_unanswered_for_24_hours_is_flagged(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    clock = [datetime(2026, 12, 5, 10, 0, tzinfo=UTC)]
    sim.faults.fail_500 = 10**6
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST, now=lambda: clock[0])
    try:
        wallet, worker = wallets["casino-a"], wallets.workers["casino-a"]
        assert (await wallet.credit(credit(9))).status is WalletStatus.UNKNOWN
        clock[0] += timedelta(hours=1)
        assert await worker.pass_once() == 1 and await state(pool, "c9") == "pending"
        clock[0] += timedelta(hours=23)
        assert await worker.pass_once() == 1
    finally:
        await wallets.close()
    assert await state(pool, "c9") == "flagged"


async def test_oversized_failing_and_unsigned_answers_are_kept_and_not_trusted(
        sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 10_000)
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    try:
        wallet = wallets["casino-a"]
        sim.faults.oversize = 10_000
        assert (await wallet.credit(credit(1))).status is WalletStatus.UNKNOWN
        sim.faults.oversize, sim.faults.fail_500 = 0, 1
        assert (await wallet.credit(credit(2))).status is WalletStatus.UNKNOWN
        wallet.operator = replace(sim.operator, wallet_secret=b"not-the-operator's-secret" * 2)
        assert (await wallet.credit(credit(3))).status is WalletStatus.UNKNOWN  # refused by the sim: 401
    finally:
        await wallets.close()
    notes = [n for tx in ("c1", "c2", "c3") for d, n in await exchanges(pool, tx) if d == "failure"]
    assert [n.split(":")[0] for n in notes] == ["oversized", "http_error", "http_error"]
    assert [await state(pool, tx) for tx in ("c1", "c2", "c3")] == ["pending"] * 3


async def test_a_slow_operator_does_not_hold_another(sim: Sim, pool: AsyncConnectionPool[Any], tmp_path: Path) -> None:
    other_store, other_faults = SimStore(tmp_path / "other.sqlite"), Faults()
    other_store.fund("p1", "EUR", 1_000)
    async with serve(wallet_app(other_store, b"s" * 64, other_faults)) as base:
        other = make_operator(tmp_path, "casino-z", f"{base}/wallet", timeout_s=1.0)
        other = replace(other, wallet_secret=b"s" * 64)
        sim.store.fund("p1", "EUR", 1_000)
        sim.faults.delay_s = 30.0  # casino-a answers after our deadline, every time
        wallets = OperatorWallets({"casino-a": sim.operator, "casino-z": other}, pool, policy=FAST)
        try:
            slow = asyncio.create_task(wallets["casino-a"].debit(debit(1)))
            fast = await wallets["casino-z"].debit(replace(debit(2), operator="casino-z"))
            assert fast.status is WalletStatus.OK and not slow.done()
            assert (await slow).status is WalletStatus.UNKNOWN
        finally:
            await wallets.close()


async def test_a_debit_cut_short_by_the_studio_is_cancelled_once_betting_closed(
        sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    clock = [datetime.now(UTC)]
    sim.store.fund("p1", "EUR", 1_000)
    sim.faults.delay_s = 30.0  # committed at the operator, then slow
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST, now=lambda: clock[0])
    try:
        call = asyncio.create_task(wallets["casino-a"].debit(debit(4, amount=400)))
        await eventually(lambda: asyncio.to_thread(sim.store.count, "debit"), lambda n: n == 1, "the debit at the operator")
        call.cancel()  # the studio stops waiting (its deadline, its stop) mid-call
        await asyncio.gather(call, return_exceptions=True)
        assert await state(pool, "d4") == "pending" and sim.store.balance("p1", "EUR") == 600
        sim.faults.delay_s = 0.0
        worker = wallets.workers["casino-a"]
        await worker.pass_once()
        assert await state(pool, "d4") == "pending"  # within the betting time: left alone
        clock[0] += FAST.debit_window
        await worker.pass_once()
    finally:
        await wallets.close()
    assert await state(pool, "d4") == "cancelled" and await state(pool, "d4:cancel") == "answered"
    assert sim.store.balance("p1", "EUR") == 1_000


async def test_the_players_token_is_sent_but_never_stored(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 1_000)
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=FAST)
    try:
        refused = await wallets["casino-a"].debit(debit(5, token="refused-eyJhbGciOi.secret-part"))
    finally:
        await wallets.close()
    assert refused.refusal == "token_refused"  # the operator had it
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) FROM op_wallet_exchange WHERE body LIKE '%secret-part%'")
        assert await cur.fetchone() == (0,)
