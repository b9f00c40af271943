"""A round from end to end through the real service: the table stand-in on mosquitto opens betting,
players bet over WebSockets, the table asks for the seal, the studio sends it (count and digest of
the book), the table's round record settles the bets, the studio sends the settled totals and the
players hear their result, their payouts and their history."""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.backoffice.cluster import Cluster
from controller.studio.seal import BookBet, digest
from controller.studio.server import StudioServer
from tests.integration.studio.conftest import Client, StudioBroker, Table, studio_config, token
from tests.support.waiting import until

ROUND = "rl-eu-000001"


async def test_a_round_from_open_to_settled(studio: StudioServer, broker: StudioBroker) -> None:
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    await studio.wallet.fund("casino-a", "p2", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as one, Client(studio.url) as two:
        assert (await one.join(token("p1")))["balance"] == 10_000
        assert (await two.join(token("p2")))["type"] == "joined"
        await table.betting("open", ROUND, deadline_s=60)
        betting = await one.next("betting", status="open")
        assert betting["round"] == ROUND and 0 < int(betting["countdown_ms"]) <= 60_000  # type: ignore[call-overload]
        first = await one.bet("a1", ROUND, ("straight:17", 100), ("red", 500))
        assert first["type"] == "accepted" and first["balance"] == 9_400 and first["currency"] == "EUR"
        assert await one.bet("a1", ROUND, ("straight:17", 100), ("red", 500)) == first  # a retry
        assert (await two.bet("b1", ROUND, ("black", 20000)))["reason"] == "funds"
        assert (await two.bet("b2", ROUND, ("black", 1000)))["type"] == "accepted"

        await table.betting("sealing", ROUND, seq=2)
        seal = await table.wait_for("seal", ROUND)
        assert seal["count"] == 3 and seal["stake"] == 1600 and seal["players"] == 2
        assert seal["kinds"] == {"black": 1000, "red": 500, "straight:17": 100}
        assert seal["digest"] == digest([BookBet("a1:0", "p1", "straight:17", 100), BookBet("a1:1", "p1", "red", 500),
                                         BookBet("b2:0", "p2", "black", 1000)])
        assert (await two.bet("b3", ROUND, ("red", 500)))["reason"] in ("late", "already_bet")
        await table.betting("closed", ROUND, sealed=True, seq=3)

        await table.record(ROUND, "17")
        settled = await table.wait_for("settled", ROUND)
        assert {k: settled[k] for k in ("count", "stake", "paid", "refunded")} == {
            "count": 3, "stake": 1600, "paid": 3600 + 2000, "refunded": 0}  # 17 is black
        result = await one.next("result", round=ROUND)
        assert result["outcome"]["numbers"] == ["17"]  # type: ignore[index]
        mine = await one.next("settled", round=ROUND)
        assert mine["paid"] == 3600 and mine["balance"] == 9_400 + 3600
        assert {b["id"]: b["paid"] for b in mine["bets"]} == {"a1:0": 3600, "a1:1": 0}  # type: ignore[attr-defined]
        theirs = await two.next("settled", round=ROUND)
        assert theirs["paid"] == 2000 and theirs["balance"] == 9_000 + 2000

        await one.send({"v": 1, "type": "history"})
        history = await one.next("history")
        (played,) = history["rounds"]  # type: ignore[misc]
        assert played["round"] == ROUND and played["paid"] == 3600 and played["balance"] == 13_000
        assert played["outcome"]["numbers"] == ["17"]


async def test_the_deadline_seals_unasked_and_an_unsealed_close_returns_every_bet(
        studio: StudioServer, broker: StudioBroker) -> None:
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as one:
        await one.join(token("p1"))
        await table.betting("open", ROUND, deadline_s=1.0)
        await one.next("betting", status="open")
        assert (await one.bet("a1", ROUND, ("red", 500)))["type"] == "accepted"
        seal = await table.wait_for("seal", ROUND)  # nobody asked: the deadline passed
        assert seal["count"] == 1
        assert (await one.bet("a2", ROUND, ("red", 500)))["reason"] in ("late", "already_bet")

        second = "rl-eu-000002"
        await table.betting("open", second, deadline_s=60)
        await one.next("betting", status="open", round=second)
        assert (await one.bet("c1", second, ("black", 700)))["type"] == "accepted"
        await table.betting("closed", second, sealed=False)  # the seal never reached the table
        await table.record(second, "2", sealed=False)
        settled = await table.wait_for("settled", second)
        assert settled["refunded"] == 700 and settled["paid"] == 0
        mine = await one.next("settled", round=second)
        assert mine["refunded"] is True and mine["balance"] == 9_500


async def test_a_round_whose_close_was_missed_takes_no_more_bets(studio: StudioServer, broker: StudioBroker) -> None:
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as one:
        await one.join(token("p1"))
        await table.betting("open", ROUND)  # no deadline: the dealer closes
        await one.next("betting", status="open", round=ROUND)
        await table.betting("open", "rl-eu-000002")  # its close never reached the studio
        await one.next("betting", status="open", round="rl-eu-000002")
        assert (await one.bet("x1", ROUND, ("red", 500)))["reason"] == "late"
        assert (await one.bet("x2", "rl-eu-000002", ("red", 500)))["type"] == "accepted"


async def test_a_record_published_while_the_studio_was_away_settles_when_it_is_back(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    config = studio_config(tmp_path, broker)
    async with Table(broker) as table:
        async with StudioServer(config, database) as first:
            assert first.link is not None
            await asyncio.wait_for(first.link.connected.wait(), 20)
            await first.wallet.fund("casino-a", "p1", "EUR", 10_000)
            async with Client(first.url) as one:
                await one.join(token("p1"))
                await table.betting("open", ROUND)
                await one.next("betting", status="open")
                assert (await one.bet("a1", ROUND, ("straight:17", 100)))["type"] == "accepted"
            await table.betting("sealing", ROUND)
            await table.wait_for("seal", ROUND)
        await table.betting("closed", ROUND, sealed=True)
        await table.record(ROUND, "17")  # nobody from the studio is connected
        async with StudioServer(config, database) as second:
            settled = await table.wait_for("settled", ROUND)
            assert settled["paid"] == 3600
            assert await second.wallet.balance("casino-a", "p1", "EUR") == 10_000 - 100 + 3600


async def test_a_record_that_arrives_while_the_book_is_down_settles_once_it_is_back(
        studio: StudioServer, broker: StudioBroker, postgres: Cluster) -> None:
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as one:
        await one.join(token("p1"))
        await table.betting("open", ROUND)
        await one.next("betting", status="open")
        assert (await one.bet("a1", ROUND, ("straight:17", 100)))["type"] == "accepted"
        await table.betting("sealing", ROUND)
        await table.wait_for("seal", ROUND)
        await asyncio.to_thread(postgres.stop)
        await table.record(ROUND, "17")
        assert not await table._wait(lambda: ROUND in table.settled, 1.0)
        await asyncio.to_thread(postgres.start)
        settled = await table.wait_for("settled", ROUND, within=60)
        assert settled["paid"] == 3600


async def test_a_betting_time_that_opens_while_a_player_joins_reaches_them(studio: StudioServer, broker: StudioBroker) -> None:
    """The table opens betting while a join waits on the book (the Bet Behind switches read
    again): the player is seated with the open betting time, never left with the table's state
    from before the join."""
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    seats = studio.studio.seats
    reload = seats.reload_switches

    async def reload_after_the_opening(table: str) -> None:
        await until(lambda: (studio.studio.hub.betting.get(table) or {}).get("status") == "open", "betting open")
        await reload(table)

    seats.reload_switches = reload_after_the_opening  # type: ignore[method-assign]
    async with Table(broker) as table, Client(studio.url) as one:
        joining = asyncio.create_task(one.join(token("p1")))
        await table.betting("open", ROUND, deadline_s=60)
        assert (await joining)["type"] == "joined"
        assert (await one.next("betting", status="open", within=10))["round"] == ROUND
