"""The bet book on a real PostgreSQL: reasons, idempotent retries, the cut-off against the seal,
and a crash between the debit and the acceptance."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from controller.studio.book import BetRequest, Book
from controller.studio.config import TableSection
from controller.studio.operators.interface import WalletResult, WalletTx
from controller.studio.rules import TableRules
from controller.studio.seal import BookBet, digest
from controller.studio.wallet import HouseWallet
from tests.integration.studio.conftest import ROULETTE_LIMITS, player

ROULETTE = TableRules(TableSection(game="roulette", preset="european"))


def check(bets: list[tuple[str, int]]) -> str | None:
    return ROULETTE.check(bets, "remote")


async def opened(book: Book, wallet: HouseWallet, players: int = 1, money: int = 100_000) -> None:
    await book.open_round("rl-eu", "rl-eu-000001", None, "EUR", 2, ROULETTE_LIMITS)
    for n in range(1, players + 1):
        await wallet.fund("casino-a", f"p{n}", "EUR", money)


def bet(request: str, *bets: tuple[str, int], round_id: str = "rl-eu-000001") -> BetRequest:
    return BetRequest(request, "rl-eu", round_id, tuple(bets))


async def test_accepted_bets_are_in_the_book_and_debited(book: Book, wallet: HouseWallet) -> None:
    await opened(book, wallet)
    answer = await book.place(player(), bet("r1", ("red", 500), ("straight:17", 100)), check)
    assert answer["type"] == "accepted" and answer["balance"] == 100_000 - 600
    assert await wallet.balance("casino-a", "p1", "EUR") == 99_400
    seal = await book.seal("rl-eu", "rl-eu-000001")
    assert seal is not None and seal["count"] == 2 and seal["stake"] == 600
    assert seal["kinds"] == {"red": 500, "straight:17": 100} and seal["players"] == 1
    assert seal["digest"] == digest([BookBet("r1:0", "p1", "red", 500), BookBet("r1:1", "p1", "straight:17", 100)])


async def test_each_refusal_has_its_reason_and_takes_no_money(book: Book, wallet: HouseWallet) -> None:
    await opened(book, wallet, players=3, money=1000)
    reasons = {
        "limits": await book.place(player(1), bet("a", ("straight:5", 20000)), check),
        "kind": await book.place(player(1), bet("b", ("purple", 500)), check),
        "funds": await book.place(player(2), bet("c", ("red", 5000)), check),
        "operator_limit": await book.place(player(3, max_bet=400), bet("d", ("red", 500)), check),
        "table_closed": await book.place(player(1), bet("e", ("red", 500), round_id="rl-eu-000099"), check),
    }
    assert {k: v["reason"] for k, v in reasons.items()} == {
        "limits": "limits", "kind": "limits", "funds": "funds", "operator_limit": "operator_limit",
        "table_closed": "table_closed"}
    assert all(v["type"] == "refused" and v["message"] for v in reasons.values())
    for n in (1, 2, 3):
        assert await wallet.balance("casino-a", f"p{n}", "EUR") == 1000
    await book.seal("rl-eu", "rl-eu-000001")
    late = await book.place(player(1), bet("f", ("red", 500)), check)
    assert late["reason"] == "late"
    assert await wallet.balance("casino-a", "p1", "EUR") == 1000


async def test_a_retry_is_the_same_request_and_a_reused_id_is_refused(book: Book, wallet: HouseWallet) -> None:
    await opened(book, wallet, players=2)
    first = await book.place(player(1), bet("r1", ("red", 500)), check)
    again = await book.place(player(1), bet("r1", ("red", 500)), check)
    assert again == first and await wallet.balance("casino-a", "p1", "EUR") == 99_500
    other = await book.place(player(1), bet("r1", ("black", 500)), check)
    assert other["reason"] == "request_reused"
    stolen = await book.place(player(2), bet("r1", ("red", 500)), check)
    assert stolen["reason"] == "request_reused"
    second = await book.place(player(1), bet("r2", ("black", 500)), check)
    assert second["reason"] == "already_bet"
    seal = await book.seal("rl-eu", "rl-eu-000001")
    assert seal is not None and seal["count"] == 1 and seal["stake"] == 500


async def test_no_bet_enters_the_book_after_the_seal(book: Book, wallet: HouseWallet) -> None:
    """Many requests race the seal: every accepted one is in the seal, every other one is late and
    its money is back."""
    players = 60
    await opened(book, wallet, players=players, money=10_000)

    async def one(n: int) -> dict[str, object]:
        return await book.place(player(n), bet(f"q{n}", ("red", 500), ("straight:7", 100)), check)

    first = [asyncio.create_task(one(n)) for n in range(1, players // 2 + 1)]
    while sum(t.done() for t in first) < 5:  # seal while requests are in flight
        await asyncio.sleep(0)
    sealing = asyncio.create_task(book.seal("rl-eu", "rl-eu-000001"))
    await asyncio.sleep(0)  # the seal asks the pool for a connection before the second wave does
    second = [asyncio.create_task(one(n)) for n in range(players // 2 + 1, players + 1)]
    seal = await sealing
    answers = await asyncio.gather(*first, *second)
    accepted = [a for a in answers if a["type"] == "accepted"]
    refused = [a for a in answers if a["type"] == "refused"]
    assert seal is not None and accepted and refused, (len(accepted), len(refused))
    assert {a["reason"] for a in refused} == {"late"}
    assert seal["count"] == 2 * len(accepted) and seal["stake"] == 600 * len(accepted)
    ids = sorted(b["id"] for a in accepted for b in a["bets"])  # type: ignore[attr-defined]
    by_id = {b["id"]: b for a in accepted for b in a["bets"]}  # type: ignore[attr-defined]
    players_of = {b["id"]: a["request"] for a in accepted for b in a["bets"]}  # type: ignore[attr-defined]
    book_bets = [BookBet(i, f"p{str(players_of[i])[1:]}", by_id[i]["kind"], by_id[i]["amount"]) for i in ids]
    assert seal["digest"] == digest(book_bets)
    for n in range(1, players + 1):
        expected = 10_000 - (600 if any(a["request"] == f"q{n}" for a in accepted) else 0)
        assert await wallet.balance("casino-a", f"p{n}", "EUR") == expected
    assert await book.seal("rl-eu", "rl-eu-000001") == seal  # sealing again sends the same seal


async def test_a_request_a_crash_left_pending_is_refused_and_its_debit_returned(
        book: Book, wallet: HouseWallet) -> None:
    await opened(book, wallet)
    async with book.pool.connection() as conn:  # what a kill between the debit and the accept leaves
        await conn.execute("INSERT INTO studio_requests (request, operator, player, table_id, round, bets, status) "
                           "VALUES ('r9', 'casino-a', 'p1', 'rl-eu', 'rl-eu-000001', "
                           "'[{\"kind\": \"red\", \"amount\": 500}]', 'pending')")
    await wallet.debit(WalletTx("debit:r9", "r9", "casino-a", "p1", "EUR", 500))
    assert await wallet.balance("casino-a", "p1", "EUR") == 99_500
    assert await book.recover() == 1
    assert await wallet.balance("casino-a", "p1", "EUR") == 100_000
    again = await book.place(player(), bet("r9", ("red", 500)), check)
    assert again["reason"] == "late"
    fresh = await book.place(player(), bet("r10", ("red", 500)), check)
    assert fresh["type"] == "accepted"


class FailingOnce:
    """A wallet outside the book's database (an operator's: its debits are made one by one, between
    the request written pending and its accept) whose answer to the first debit is lost after the
    money moved (a timeout)."""

    def __init__(self, house: HouseWallet) -> None:
        self.house = house
        self.failed = False

    async def debit(self, tx: WalletTx) -> WalletResult:
        result = await self.house.debit(tx)
        if not self.failed:
            self.failed = True
            raise ConnectionError("the wallet's answer was lost")
        return result

    async def credit(self, tx: WalletTx) -> WalletResult:
        return await self.house.credit(tx)

    async def cancel(self, tx: WalletTx) -> WalletResult:
        return await self.house.cancel(tx)

    async def balance(self, operator: str, player: str, currency: str) -> int | None:
        return await self.house.balance(operator, player, currency)


async def test_a_retry_finishes_a_request_whose_first_attempt_failed_half_way(book: Book, wallet: HouseWallet) -> None:
    flaky = Book(book.pool, FailingOnce(wallet))
    await opened(flaky, wallet)
    with pytest.raises(ConnectionError):
        await flaky.place(player(), bet("r1", ("red", 500)), check)
    again = await flaky.place(player(), bet("r1", ("red", 500)), check)
    assert again["type"] == "accepted" and again["balance"] == 99_500
    assert await wallet.balance("casino-a", "p1", "EUR") == 99_500  # debited once


async def test_a_restart_leaves_a_live_studio_processs_request_and_takes_a_gone_ones(
        book: Book, wallet: HouseWallet, database: str) -> None:
    """Two processes share the book: ``a`` restarting refuses no request ``b`` is deciding while ``b``
    runs (holds its lock); once ``b`` is gone, ``a`` refuses it and returns its debit, once."""
    import psycopg

    from controller.studio.book import owner_key

    await opened(book, wallet)
    here = Book(book.pool, wallet, "studio-a")
    async with book.pool.connection() as conn:
        await conn.execute("INSERT INTO studio_requests (request, operator, player, table_id, round, bets, status, studio) "
                           "VALUES ('r7', 'casino-a', 'p1', 'rl-eu', 'rl-eu-000001', "
                           "'[{\"kind\": \"red\", \"amount\": 500}]', 'pending', 'studio-b')")
    await wallet.debit(WalletTx("debit:r7", "r7", "casino-a", "p1", "EUR", 500))
    with psycopg.connect(database, autocommit=True) as b:  # studio b runs
        b.execute("SELECT pg_advisory_lock(hashtext(%s))", (owner_key("studio-b"),))
        assert await here.recover() == 0
        retry = await here.place(player(), bet("r7", ("red", 500)), check)
        assert retry["reason"] == "in_progress"  # b is still deciding it
    assert await here.recover() == 1  # b is gone: its lock went with its connection
    assert await here.recover() == 0
    assert await wallet.balance("casino-a", "p1", "EUR") == 100_000
    assert (await here.place(player(), bet("r7", ("red", 500)), check))["reason"] == "late"


class LosesItsAnswer(HouseWallet):
    """The house wallet, whose first batch of debits fails after they were made in the book's
    transaction (the book out of reach at that moment)."""

    failed = False

    async def debit_in(self, conn: Any, txs: list[WalletTx]) -> list[WalletResult]:
        results = await super().debit_in(conn, txs)
        if not self.failed:
            self.failed = True
            raise ConnectionError("the book's connection was lost")
        return results


async def test_a_house_wallet_batch_commits_whole_or_not_at_all(book: Book) -> None:
    """With the house wallet the request, its debit and its bets are one transaction: a failure
    leaves no request pending and no money taken, and the retry is decided afresh, debited once."""
    house = LosesItsAnswer(book.pool)
    one = Book(book.pool, house)
    await opened(one, house)
    with pytest.raises(ConnectionError):
        await one.place(player(), bet("r1", ("red", 500)), check)
    async with book.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) FROM studio_requests")
        assert await cur.fetchone() == (0,)
    assert await house.balance("casino-a", "p1", "EUR") == 100_000
    again = await one.place(player(), bet("r1", ("red", 500)), check)
    assert again["type"] == "accepted" and again["balance"] == 99_500
    assert await house.balance("casino-a", "p1", "EUR") == 99_500
