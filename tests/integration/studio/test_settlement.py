"""Settlement from the table's round record on a real PostgreSQL: the engines' payouts credited
once per player, a void or unsealed round returned whole, and owed calls made again after a crash."""

from __future__ import annotations

from typing import Any

from controller.studio.book import Book
from controller.studio.settlement import Settler
from controller.studio.wallet import HouseWallet
from tests.integration.studio.conftest import player
from tests.integration.studio.test_book import ROULETTE, bet, check, opened


def record(number: str, *, status: str = "settled", sealed: bool = True) -> dict[str, Any]:
    return {"v": 1, "table": "rl-eu", "round": "rl-eu-000001", "status": status, "game": "roulette",
            "outcome": {"wheel": "european", "numbers": [number], "colours": ["black"], "multipliers": {},
                        "voids": []},
            "remote": {"sealed": sealed, "seal": None, "settled": None}}


async def two_players_bet(book: Book, wallet: HouseWallet) -> None:
    await opened(book, wallet, players=2, money=10_000)
    assert (await book.place(player(1), bet("a", ("straight:17", 100), ("red", 500)), check))["type"] == "accepted"
    assert (await book.place(player(2), bet("b", ("black", 1000)), check))["type"] == "accepted"
    await book.seal("rl-eu", "rl-eu-000001")


async def test_a_settled_round_pays_what_the_engine_says(book: Book, wallet: HouseWallet) -> None:
    await two_players_bet(book, wallet)
    settler = Settler(book.pool, wallet)
    settled = await settler.settle("rl-eu", record("17"), ROULETTE)
    assert settled == {"round": "rl-eu-000001", "count": 3, "stake": 1600, "paid": 3600 + 2000, "refunded": 0}
    assert await settler.settle("rl-eu", record("17"), ROULETTE) is None  # once
    assert await settler.pay_due() == 2
    assert await settler.pay_due() == 0
    assert await wallet.balance("casino-a", "p1", "EUR") == 10_000 - 600 + 3600
    assert await wallet.balance("casino-a", "p2", "EUR") == 10_000 - 1000 + 2000


async def test_a_void_or_unsealed_round_returns_every_remote_bet(book: Book, wallet: HouseWallet) -> None:
    for rec in (record("17", status="void"), record("17", sealed=False)):
        async with book.pool.connection() as conn:
            for t in ("studio_payments", "studio_bets", "studio_requests", "studio_rounds"):
                await conn.execute(f"DELETE FROM {t}")
        await two_players_bet(book, wallet)
        settler = Settler(book.pool, wallet)
        settled = await settler.settle("rl-eu", rec, ROULETTE)
        assert settled is not None and settled["paid"] == 0 and settled["refunded"] == 1600
        await settler.pay_due()
        assert await wallet.balance("casino-a", "p1", "EUR") == 10_000
        assert await wallet.balance("casino-a", "p2", "EUR") == 10_000


async def test_owed_calls_survive_a_crash_and_are_made_once(book: Book, wallet: HouseWallet) -> None:
    await two_players_bet(book, wallet)
    await Settler(book.pool, wallet).settle("rl-eu", record("17"), ROULETTE)  # then the process dies
    after_restart = Settler(book.pool, wallet)
    assert await after_restart.pay_due() == 2
    async with book.pool.connection() as conn:  # a crash after the wallet call, before it was marked done
        await conn.execute("UPDATE studio_payments SET done = false")
    assert await after_restart.pay_due() == 2
    assert await wallet.balance("casino-a", "p1", "EUR") == 10_000 - 600 + 3600


async def test_a_corrected_record_settles_again_and_moves_only_the_difference(book: Book, wallet: HouseWallet) -> None:
    await two_players_bet(book, wallet)
    settler = Settler(book.pool, wallet)
    await settler.settle("rl-eu", record("17"), ROULETTE)
    await settler.pay_due()
    same = {**record("17"), "corrections": [{"seq": 9}]}  # a felt bet corrected: the remote bets owe the same
    assert await settler.settle("rl-eu", same, ROULETTE) is None
    corrected = {**record("2"), "corrections": [{"seq": 9}, {"seq": 12}]}  # the number itself was wrong
    again = await settler.settle("rl-eu", corrected, ROULETTE)
    assert again == {"round": "rl-eu-000001", "count": 3, "stake": 1600, "paid": 2000, "refunded": 0}
    assert await settler.settle("rl-eu", corrected, ROULETTE) is None  # once per correction
    assert await settler.pay_due() == 1  # p1's 3600 back; p2's black pays the same on 2
    assert await wallet.balance("casino-a", "p1", "EUR") == 10_000 - 600
    assert await wallet.balance("casino-a", "p2", "EUR") == 10_000 - 1000 + 2000
    void = {**record("2", status="void"), "corrections": [{"seq": 9}, {"seq": 12}, {"seq": 20}]}
    assert (await settler.settle("rl-eu", void, ROULETTE))["refunded"] == 1600  # type: ignore[index]
    await settler.pay_due()
    assert await wallet.balance("casino-a", "p1", "EUR") == 10_000
    assert await wallet.balance("casino-a", "p2", "EUR") == 10_000


async def test_a_rounds_credits_in_one_batch_move_money_once(book: Book, wallet: HouseWallet) -> None:
    """The house wallet's batch of a round's credits (one per player) is idempotent on each id, like
    one call each: a batch again, or a batch with some ids made before, moves only the new ones."""
    from controller.studio.operators.interface import WalletStatus, WalletTx

    await opened(book, wallet, players=3, money=1000)
    first = [WalletTx(f"credit:r1:p{n}", "r1", "casino-a", f"p{n}", "EUR", 100 * n) for n in (1, 2)]
    assert [r.balance for r in await wallet.credit_many(first)] == [1100, 1200]
    again = [*reversed(first), WalletTx("credit:r1:p3", "r1", "casino-a", "p3", "EUR", 0),
             WalletTx("credit:r1:p9", "r1", "casino-a", "p9", "EUR", 50)]  # a zero credit; a player new to the wallet
    answers = await wallet.credit_many(again)
    assert [(r.status, r.balance) for r in answers] == [(WalletStatus.OK, 1200), (WalletStatus.OK, 1100),
                                                         (WalletStatus.OK, 1000), (WalletStatus.OK, 50)]
    assert [await wallet.balance("casino-a", f"p{n}", "EUR") for n in (1, 2, 3, 9)] == [1100, 1200, 1000, 50]
    assert (await wallet.credit(first[0])).balance == 1100  # one call with a batched id: the same answer


async def test_a_round_is_paid_only_once_the_process_paying_it_is_done(book: Book, wallet: HouseWallet,
                                                                         database: str) -> None:
    """Another studio process claimed the round's wallet calls: ``paid`` makes none of them and
    returns once that process committed them; when it dies instead, ``paid`` makes them itself."""
    import asyncio

    import psycopg

    await two_players_bet(book, wallet)
    settler = Settler(book.pool, wallet)
    await settler.settle("rl-eu", record("17"), ROULETTE)
    for other_dies in (False, True):
        if other_dies:
            await settler.settle("rl-eu", record("20"), ROULETTE)  # a correction: new calls owed
        async with await psycopg.AsyncConnection.connect(database) as other:
            await other.execute("SELECT tx FROM studio_payments WHERE NOT done FOR UPDATE")
            waiting = asyncio.create_task(settler.paid("rl-eu", "rl-eu-000001"))
            await asyncio.sleep(0.3)  # not a timing under test: paid must still be waiting on the lock
            assert not waiting.done()
            if not other_dies:
                await other.execute("UPDATE studio_payments SET done = true, balance = 1 WHERE NOT done")
                await other.commit()
            else:
                await other.rollback()
        assert await asyncio.wait_for(waiting, 30) is True
    async with book.pool.connection() as conn:
        assert await (await conn.execute("SELECT count(*) FROM studio_payments WHERE NOT done")).fetchone() == (0,)
    # the first credits were the other process's (marked done, the wallet untouched here); the
    # correction's debit of p1's 3,600 was made here, once
    assert await wallet.balance("casino-a", "p1", "EUR") == 10_000 - 600 - 3600


async def test_a_wallet_that_refuses_the_credits_keeps_them_due_without_asking_again_in_a_loop(
        book: Book, wallet: HouseWallet) -> None:
    import asyncio

    from controller.studio.operators.interface import WalletResult, WalletStatus, WalletTx

    class Away(HouseWallet):
        calls = 0

        async def credit(self, tx: WalletTx) -> WalletResult:
            self.calls += 1
            return WalletResult(WalletStatus.UNKNOWN)

        credit_many = None  # type: ignore[assignment]  # one call each, like an operator's wallet

    await two_players_bet(book, wallet)
    away = Away(book.pool)
    settler = Settler(book.pool, away)
    await settler.settle("rl-eu", record("17"), ROULETTE)
    assert await asyncio.wait_for(settler.paid("rl-eu", "rl-eu-000001"), 30) is True
    assert away.calls == 2  # one credit per player, asked once
    assert await Settler(book.pool, wallet).pay_due() == 2  # still due: made at the next chance
