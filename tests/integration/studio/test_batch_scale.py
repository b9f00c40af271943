"""The book's statements on many players at once, on a real PostgreSQL: a batch's debits answered
each as if alone, and the cost of a batch (they grow with the load: at 10,000 players hundreds of
requests) and of a round's settled messages growing with the players, not with their square."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.config import StudioConfig
from controller.studio.operators.interface import WalletStatus, WalletTx
from controller.studio.service import Studio
from controller.studio.wallet import HouseWallet

#: a batch ten times larger may cost this many times more (linear: about 10; the quadratic
#: statement it replaces: over 50 at these sizes)
MOST_RATIO = 25.0


async def fund(pool: AsyncConnectionPool[Any], players: int, money: int) -> None:
    async with pool.connection() as conn, conn.cursor() as cur, \
            cur.copy("COPY studio_wallet (operator, player, currency, balance) FROM STDIN") as copy:
        for n in range(players):
            await copy.write_row(("casino-a", f"p{n}", "EUR", money))


def debit(tx: str, n: int, amount: int) -> WalletTx:
    return WalletTx(tx, tx.removeprefix("debit:"), "casino-a", f"p{n}", "EUR", amount)


async def test_a_batch_of_debits_answers_each_as_if_alone(pool: AsyncConnectionPool[Any], wallet: HouseWallet) -> None:
    """Covered, short, a player the wallet does not know, a debit made before (a retry), and a
    player's second debit in the same batch: each its own answer, only the covered ones taken."""
    await fund(pool, 3, 1000)
    assert (await wallet.debit_many([debit("debit:old", 2, 300)]))[0].balance == 700
    txs = [debit("debit:a", 0, 400), debit("debit:b", 1, 5000), debit("debit:c", 9, 100), debit("debit:old", 2, 300),
           debit("debit:d", 0, 500), debit("debit:e", 0, 200), debit("debit:f", 2, 700)]
    answers = [(r.status, r.balance) for r in await wallet.debit_many(txs)]
    short = (WalletStatus.INSUFFICIENT_FUNDS, None)
    assert answers == [(WalletStatus.OK, 600), short, short, (WalletStatus.OK, 700), (WalletStatus.OK, 100), short,
                       (WalletStatus.OK, 0)]
    assert [await wallet.balance("casino-a", f"p{n}", "EUR") for n in (0, 1, 2)] == [100, 1000, 0]
    assert await wallet.balance("casino-a", "p9", "EUR") is None
    again = await wallet.debit_many(txs)  # the same batch again: the same answers, nothing moves
    assert [(r.status, r.balance) for r in again] == answers
    assert [await wallet.balance("casino-a", f"p{n}", "EUR") for n in (0, 1, 2)] == [100, 1000, 0]


async def generic_plans(conn: Any) -> None:
    """Every statement prepared, on the plan PostgreSQL settles on after a few executions of it:
    the generic one, made without the parameters (a batch's arrays are taken for 10 rows)."""
    conn.prepare_threshold = 0
    await conn.execute("SET plan_cache_mode = force_generic_plan")
    await conn.commit()


async def test_a_batch_of_debits_costs_in_proportion_to_its_size(pool: AsyncConnectionPool[Any]) -> None:
    """On the generic plan the debits taken were matched against the batch in a nested loop over
    two CTEs: 3,000 debits were 4.5 million comparisons (a second), 300 were 45,000."""
    small, large = 300, 3000
    await fund(pool, large, 10_000)
    async with AsyncConnectionPool(pool.conninfo, min_size=1, max_size=1, open=False,
                                   configure=generic_plans) as generic:
        wallet = HouseWallet(generic)

        async def timed(first: int, count: int, tag: str) -> float:
            # half of them short of money: both kinds of answer in the batch
            txs = [debit(f"debit:{tag}{n}", n, 500 if n % 2 else 50_000) for n in range(first, first + count)]
            started = time.perf_counter()
            answers = await wallet.debit_many(txs)
            spent = time.perf_counter() - started
            assert sum(a.status is WalletStatus.OK for a in answers) == count // 2
            return spent

        small_s = min([await timed(0, small, "s1"), await timed(small, small, "s2")])
        large_s = await timed(0, large, "l")
    assert large_s < small_s * MOST_RATIO, f"{large} debits {large_s:.3f} s, {small}: {small_s:.3f} s"


async def settled_round(pool: AsyncConnectionPool[Any], round_id: str, players: int) -> None:
    """A round settled and paid, as settlement leaves it: a bet and a credit per player."""
    async with pool.connection() as conn:
        await conn.execute("INSERT INTO studio_rounds (table_id, round, status, currency, digits, limits) "
                           "VALUES ('rl-eu', %s, 'settled', 'EUR', 2, '{}')", (round_id,))
        async with conn.cursor() as cur:
            async with cur.copy("COPY studio_requests (request, operator, player, table_id, round, bets, status) "
                                "FROM STDIN") as copy:
                for n in range(players):
                    await copy.write_row((f"{round_id}-{n}", "casino-a", f"p{n}", "rl-eu", round_id, "[]", "accepted"))
            async with cur.copy("COPY studio_bets (id, request, table_id, round, operator, player, kind, amount, "
                                "currency, status, payout) FROM STDIN") as copy:
                for n in range(players):
                    await copy.write_row((f"{round_id}-{n}:0", f"{round_id}-{n}", "rl-eu", round_id, "casino-a", f"p{n}",
                                          "red", 500, "EUR", "settled", 1000 * (n % 2)))
            async with cur.copy("COPY studio_payments (tx, kind, ref, table_id, round, operator, player, currency, "
                                "amount, done, balance) FROM STDIN") as copy:
                for n in range(players):
                    await copy.write_row((f"credit:{round_id}:{n}", "credit", round_id, "rl-eu", round_id, "casino-a",
                                          f"p{n}", "EUR", 1000 * (n % 2), True, 5000 + n))


async def test_a_rounds_settled_messages_cost_in_proportion_to_its_players(pool: AsyncConnectionPool[Any],
                                                                           wallet: HouseWallet,
                                                                           tmp_path: Path) -> None:
    """Read just after settlement wrote the round (statistics not yet up to date), the players'
    bets joined to their credits in SQL were a nested loop: 3,000 players took seconds."""
    small, large = 300, 3000
    await settled_round(pool, "small", small)
    await settled_round(pool, "large", large)
    (tmp_path / "operator.secret").write_text("s" * 48)
    (tmp_path / "operator.secret").chmod(0o600)
    config = StudioConfig.model_validate({
        "studio": {"tables": {"rl-eu": {"game": "roulette", "preset": "european"}},
                   "operators": {"casino-a": {"algorithm": "HS256", "secret_file": "operator.secret",
                                              "issuer": "casino-a"}}},
        "mqtt": {"broker": "none"}, "base": tmp_path})
    studio = Studio(config, pool, wallet)
    started = time.perf_counter()
    few = await studio.settled_messages("rl-eu", "small")
    small_s = time.perf_counter() - started
    started = time.perf_counter()
    many = await studio.settled_messages("rl-eu", "large")
    large_s = time.perf_counter() - started
    assert len(few) == small and len(many) == large
    assert many[("casino-a", "p7")] == {"v": 1, "type": "settled", "round": "large", "paid": 1000, "refunded": False,
                                        "balance": 5007, "currency": "EUR",
                                        "bets": [{"id": "large-7:0", "kind": "red", "amount": 500, "paid": 1000}]}
    assert large_s < small_s * MOST_RATIO, f"{large} players {large_s:.3f} s, {small}: {small_s:.3f} s"
