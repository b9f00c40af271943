"""The seat messages the table has not taken yet, kept in the studio's book (docs/studio.md,
"Seats"; ``studio_seat_messages``), with two studios' seats on one real PostgreSQL as two studio
processes (or a process and the same one restarted) share it: a message is written before it is
sent and read back at a start, every process sends the box's last message whoever wrote it (never
an older one of its own), a row is deleted by its id only (twice is nothing; a newer one of the
box stays), a leave goes with its owner's Bet Behind switch in one transaction, and a seat the
book did not take is neither sent nor kept."""

from __future__ import annotations

from typing import Any

import pytest
from psycopg_pool import AsyncConnectionPool, PoolClosed

from controller.studio.config import TableSection
from controller.studio.hub import Hub
from controller.studio.rules import TableRules
from controller.studio.seat_sync import SeatView
from controller.studio.seats import StudioSeats
from tests.unit.studio.test_studio_seats import ANNA, BEN, Sent

RULES = TableRules(TableSection(game="blackjack", preset="am8"))
NOBODY: dict[str, Any] = {"round": None}
ANNA_AT_3: dict[str, Any] = {"round": None, "seats": {"3": {"player": "casino-a/anna", "name": "Anna"}}}


async def studio_seats(pool: AsyncConnectionPool[Any]) -> tuple[StudioSeats, Sent]:
    """One studio process's seats, started (what the book holds read back)."""
    sent = Sent()
    seats = StudioSeats({"bj1": RULES}, Hub(), lambda: sent, pool)
    await seats.load()
    return seats, sent


async def rows(pool: AsyncConnectionPool[Any], query: str = "SELECT box, id FROM studio_seat_messages "
                                                             "ORDER BY box") -> list[tuple[Any, ...]]:
    async with pool.connection() as conn:
        cur = await conn.execute(query)
        return list(await cur.fetchall())


async def leaf(seats: StudioSeats, body: dict[str, Any]) -> None:
    """The table's ``betting`` leaf reaches the studio (service.on_betting)."""
    seats.on_leaf("bj1", body)
    await seats.resend("bj1")


async def test_a_seat_outlives_its_studio_and_is_sent_until_the_leaf_shows_it_then_deleted_once(
        pool: AsyncConnectionPool[Any]) -> None:
    first, sent = await studio_seats(pool)
    assert (await first.sit("bj1", ANNA, 3))["type"] == "seated"
    anna_sat = sent.messages[-1][1]
    assert await rows(pool) == [(3, anna_sat["id"])]  # written before it went

    again, resent = await studio_seats(pool)  # restarted (the first is gone)
    other, other_sent = await studio_seats(pool)  # and a second process on the same book
    for seats in (again, other):
        assert (await seats.sit("bj1", BEN, 3))["reason"] == "seat_taken"  # her claim holds
    await leaf(again, NOBODY)  # the table back without her
    await leaf(other, NOBODY)
    assert [m for _, m in resent.messages] == [m for _, m in other_sent.messages] == [anna_sat]  # one id
    await leaf(again, ANNA_AT_3)
    await leaf(other, ANNA_AT_3)  # its delete finds nothing left: nothing happens
    assert await rows(pool) == []
    await leaf(again, ANNA_AT_3)
    assert len(resent.messages) == len(other_sent.messages) == 1


async def test_every_process_sends_the_boxs_last_message_and_deletes_only_its_own(
        pool: AsyncConnectionPool[Any]) -> None:
    a, a_sent = await studio_seats(pool)
    await a.sit("bj1", ANNA, 3)
    sat = a_sent.messages[-1][1]
    b, b_sent = await studio_seats(pool)  # started while Anna's seat waits for the table
    await a.behind_allowed("bj1", ANNA, 3, False)
    assert await rows(pool, "SELECT box, player, allowed FROM studio_behind") == [(3, "casino-a/anna", False)]
    assert (await a.leave("bj1", ANNA, 3))["type"] == "left"
    left = a_sent.messages[-1][1]
    assert await rows(pool) == [(3, left["id"])]  # the box's last message, with her switch gone
    assert await rows(pool, "SELECT box FROM studio_behind") == []

    # the table has her seat (the broker held it), not the leave yet: b's sit is taken (its delete
    # leaves the leave's row), b does not send the leave it never knew, a sends it until it is taken
    await leaf(b, ANNA_AT_3)
    await leaf(a, ANNA_AT_3)
    assert b_sent.messages == [] and a_sent.messages[-1][1] == left
    assert await rows(pool) == [(3, left["id"])]
    await leaf(a, NOBODY)
    assert await rows(pool) == []
    assert sat["id"] != left["id"]


async def test_a_process_that_read_an_older_message_sends_the_newer_one_instead(
        pool: AsyncConnectionPool[Any]) -> None:
    """Anna sits and leaves through one process while the table is down; another read her seat at
    its start: sending it after the leave would seat her again at a table that never had her."""
    a, _ = await studio_seats(pool)
    await a.sit("bj1", ANNA, 3)
    b, b_sent = await studio_seats(pool)
    await a.leave("bj1", ANNA, 3)
    old_leaf = {"round": None, "seats": {"1": {"player": "casino-a/cleo", "name": "Cleo"}}}
    await leaf(b, old_leaf)  # the table's retained leaf: nobody at box 3
    assert b_sent.messages == [] and 3 not in b.state["bj1"].seats  # the leave is what it has, and it has it
    await leaf(a, old_leaf)
    assert await rows(pool) == []


async def test_a_seat_taken_through_a_process_that_died_is_sent_by_the_one_its_player_joins(
        pool: AsyncConnectionPool[Any]) -> None:
    b, b_sent = await studio_seats(pool)  # running already
    a, _ = await studio_seats(pool)
    await a.sit("bj1", ANNA, 3)
    sat = a.state["bj1"].unsent.messages[3]
    del a  # killed before the table was back
    await b.reconnected("bj1", ANNA)  # her page joins the table through b
    assert b.state["bj1"].seats == {3: SeatView("casino-a/anna", "Anna")}
    await leaf(b, NOBODY)
    assert [m for _, m in b_sent.messages] == [sat]


async def test_a_seat_the_book_did_not_take_is_not_sent_and_the_box_is_free(database: str) -> None:
    out_of_reach: AsyncConnectionPool[Any] = AsyncConnectionPool(database, min_size=1, open=False)
    sent = Sent()
    seats = StudioSeats({"bj1": RULES}, Hub(), lambda: sent, out_of_reach)
    with pytest.raises(PoolClosed):  # the player is told ``unavailable`` (api.py)
        await seats.sit("bj1", ANNA, 3)
    assert sent.messages == [] and seats.state["bj1"].seats == {} and seats.state["bj1"].unsent.messages == {}
