"""Seats and Bet Behind end to end (docs/studio.md, "Seats", "Bet Behind"): a real table
(``run_table``, a remote am8 blackjack table) and the real studio (its WebSocket API, its book in
PostgreSQL) over mosquitto. Anna sits at box 1 and doubles; Ben sits at box 2 and lets his time
run out (the table stands for him and, by the house sheet's policy, returns his bet); Dan sits at
box 3 and loses his connection (decided at once, returned); Cleo bets behind Anna's box, following
a double: every one is paid what the table's engine settled."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from controller.config import load
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.studio.server import StudioServer
from controller.table import inputs
from tests.integration.studio.conftest import Client, StudioBroker, studio_config, token
from tests.support.configs import simulated_shoe, write_table_config
from tests.support.waiting import until

FUNDS = 10_000


def seated_table(tmp_path: Path, broker: StudioBroker) -> Path:
    return write_table_config(tmp_path, "blackjack", table_id="bj1", preset="am8",
                              devices={"shoe": simulated_shoe(gap_timeout=2.0)},
                              mqtt={"broker": broker.tcp_url(), "insecure": True},
                              table={"remote": True, "seal_grace_s": 20, "decision_s": 3, "decision_policy": "refund"})


async def deal(loop: TableLoop, *cards: str) -> None:
    for card in cards:
        n = loop.core.shoe.last_n + 1
        loop.submit(inputs.DEVICE, {"type": "card", "device": "shoe", "card": card, "n": n}, "shoe")
        await loop.until(lambda core, n=n: core.shoe.last_n == n, timeout=20)


async def test_a_seated_player_decides_another_times_out_and_a_bet_behind_follows_a_double(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    config = studio_config(tmp_path, broker, tables={"bj1": {"game": "blackjack", "preset": "am8"}})
    async with StudioServer(config, database) as studio:
        assert studio.link is not None
        await asyncio.wait_for(studio.link.connected.wait(), 20)
        for who in ("anna", "ben", "cleo", "dan"):
            await studio.wallet.fund("casino-a", who, "EUR", FUNDS)
        async with Client(studio.url) as anna, Client(studio.url) as ben, Client(studio.url) as cleo:
            for client, who in ((anna, "anna"), (ben, "ben"), (cleo, "cleo")):
                assert (await client.join(token(who), "bj1"))["type"] == "joined"
            seen: dict[str, Any] = {}

            async def play(loop: TableLoop) -> None:
                await until(lambda: "bj1" in studio.studio.hub.betting, "the table's leaf at the studio", within=20)
                await anna.send({"v": 1, "type": "sit", "box": 1})
                assert (await anna.next_of("seated", "refused"))["type"] == "seated"
                await ben.send({"v": 1, "type": "sit", "box": 1})
                assert (await ben.next_of("seated", "refused"))["reason"] == "seat_taken"
                await ben.send({"v": 1, "type": "sit", "box": 2})
                assert (await ben.next_of("seated", "refused"))["type"] == "seated"
                await loop.until(lambda core: len(core.seats.seats) == 2, timeout=20)
                await cleo.next("seats", seats=[
                    {"box": 1, "name": "Player anna", "you": False, "connected": True, "behind_allowed": True},
                    {"box": 2, "name": "Player ben", "you": False, "connected": True, "behind_allowed": True}])

                await ben.send({"v": 1, "type": "behind_allowed", "box": 2, "allowed": False})
                await cleo.next("seats", seats=[
                    {"box": 1, "name": "Player anna", "you": False, "connected": True, "behind_allowed": True},
                    {"box": 2, "name": "Player ben", "you": False, "connected": True, "behind_allowed": False}])
                await cleo.send({"v": 1, "type": "behind_allowed", "box": 1, "allowed": False})
                assert (await cleo.next("refused"))["reason"] == "not_seated"  # only the owner's switch

                loop.command("open_round", "dealer")
                round_id = str((await anna.next("betting", status="open"))["round"])
                await cleo.send({"v": 1, "type": "behind", "request": "c0", "round": round_id, "box": 2, "amount": 1000})
                assert (await cleo.next_of("accepted", "refused"))["reason"] == "behind_not_allowed"
                await anna.send({"v": 1, "type": "behind", "request": "a0", "round": round_id, "box": 1, "amount": 1000})
                assert (await anna.next_of("accepted", "refused"))["reason"] == "behind_own_box"
                assert (await anna.bet("a1", round_id, ("main@2", 1000)))["reason"] == "not_seated"
                assert (await anna.bet("a2", round_id, ("main@1", 1000)))["type"] == "accepted"
                assert (await ben.bet("b1", round_id, ("main@2", 1000)))["type"] == "accepted"
                await cleo.send({"v": 1, "type": "behind", "request": "c1", "round": round_id, "box": 1,
                                 "amount": 1000, "presets": {"double": True, "split": False, "insurance": False}})
                accepted = await cleo.next_of("accepted", "refused")
                assert [b["kind"] for b in accepted["bets"]] == ["behind@1+double"]  # type: ignore[index]
                async with Client(studio.url) as dan:  # sits, bets, and loses the connection
                    assert (await dan.join(token("dan"), "bj1"))["type"] == "joined"
                    await dan.send({"v": 1, "type": "sit", "box": 3})
                    assert (await dan.next_of("seated", "refused"))["type"] == "seated"
                    assert (await dan.bet("x1", round_id, ("main@3", 1000)))["type"] == "accepted"
                await loop.until(lambda core: 3 in core.seats.seats and not core.seats.seats[3].connected, timeout=20)
                await loop.until(lambda core: sum(1 for e in loop.journal.latest(inputs.STUDIO)
                                                  if e.payload["type"] == "bets") == 4, timeout=20)
                loop.command("close_betting", "dealer")
                await loop.until(lambda core: core.betting.sealed, timeout=20)

                await anna.send({"v": 1, "type": "decide", "request": "d0", "round": round_id, "box": 1,
                                 "decision": "hit"})
                assert (await anna.next("refused"))["reason"] == "not_your_turn"  # no card dealt yet: no turn
                await deal(loop, "6S", "TS", "7C", "9H", "5D", "6D", "9C")  # Anna 11, Ben 16, Dan 16, the dealer's 9
                turn = await anna.next("turn", box=1, you=True)
                await ben.send({"v": 1, "type": "decide", "request": "b9", "round": round_id, "box": 1,
                                "decision": "stand"})
                assert (await ben.next("refused"))["reason"] == "not_seated"
                await anna.send({"v": 1, "type": "decide", "request": "d9", "round": round_id, "box": 1,
                                 "decision": "split"})
                assert (await anna.next("refused"))["reason"] == "decision_illegal"  # 6-5 is no pair
                assert "double" in turn["decisions"] and 0 < int(turn["decision_ms"]) <= 3000  # type: ignore[operator,call-overload]
                assert loop.core.prompt().startswith("Box 1: Player anna decides")
                await anna.send({"v": 1, "type": "decide", "request": "d1", "round": round_id, "box": 1,
                                 "decision": "double"})
                decided = await cleo.next("decided", box=1)
                assert (decided["decision"], decided["cause"], decided["request"]) == ("double", "player", "d1")
                await deal(loop, "TC")  # Anna's double: 21
                assert "double" in (await ben.next("turn", box=2, you=True))["decisions"]  # type: ignore[operator]
                await studio.wallet.fund("casino-a", "ben", "EUR", 500)  # less than his double would add
                await ben.send({"v": 1, "type": "decide", "request": "b2", "round": round_id, "box": 2,
                                "decision": "double"})
                assert (await ben.next("refused"))["reason"] == "funds"
                await studio.wallet.fund("casino-a", "ben", "EUR", FUNDS - 1000)
                timed_out = await ben.next("decided", box=2, within=30)  # Ben lets the time run out
                assert (timed_out["decision"], timed_out["cause"], timed_out["refunded"]) == ("stand", "timeout", True)
                gone = await cleo.next("decided", box=3, within=30)  # Dan's turn: decided at once
                assert (gone["decision"], gone["cause"], gone["refunded"]) == ("stand", "disconnect", True)
                await deal(loop, "8C")  # the dealer stands on 17
                dealt = [(await cleo.next("hands", round=round_id))["cards"] for _ in range(3)]  # as they came
                while dealt[-1]["dealer"]["cards"] != ["9H", "8C"]:  # type: ignore[index]
                    dealt.append((await cleo.next("hands", round=round_id))["cards"])
                assert dealt[0]["boxes"] == [] or dealt[0]["boxes"][0]["hands"][0]["cards"] == ["6S"]  # type: ignore[index]
                loop.command("settle", "dealer")
                seen["anna"] = await anna.next("settled", round=round_id, within=30)
                seen["ben"] = await ben.next("settled", round=round_id, within=30)
                seen["cleo"] = await cleo.next("settled", round=round_id, within=30)
                seen["dan"] = await studio.wallet.balance("casino-a", "dan", "EUR")
                await loop.until(lambda core: core.book.records[round_id]["remote"]["settled"] is not None, timeout=30)
                seen["record"] = loop.core.book.records[round_id]

            table = asyncio.create_task(run_table(load(seated_table(tmp_path, broker)), out=io.StringIO(),
                                                  prompts=False, on_ready=_ready(play), keyboard=False))
            try:
                await asyncio.wait_for(_until_done(table, seen), 120)
            finally:
                table.cancel()
                await asyncio.gather(table, return_exceptions=True)
    record = seen["record"]
    assert record["remote"]["seats"]["refunded"] == [2, 3]
    assert [(d["box"], d["cause"]) for d in record["remote"]["seats"]["decisions"]] == [
        (1, "player"), (2, "timeout"), (3, "disconnect")]
    behind = [b for b in record["bets"] if b["player"] == "casino-a/cleo"]
    assert [(b["kind"], b["stake"], b["payout"]) for b in behind] == [("behind", 2000, 4000)]  # it doubled with Anna
    # Anna doubled 1000 and won 1:1 on 2000; the double's 1000 was debited with the round
    assert (seen["anna"]["paid"], seen["anna"]["balance"]) == (4000, FUNDS - 2000 + 4000)
    assert (seen["ben"]["paid"], seen["ben"]["balance"]) == (1000, FUNDS)  # returned at coefficient 1
    assert (seen["cleo"]["paid"], seen["cleo"]["balance"]) == (4000, FUNDS - 2000 + 4000)
    assert seen["dan"] == FUNDS  # his bet returned while he was away
    totals = record["remote"]["settled"]  # the studio's, journaled by the table: the doubles' stake counts
    assert (totals["stake"], totals["paid"], totals["win"]) == (4 * 1000 + 2 * 1000, 4000 + 1000 + 4000 + 1000, -4000)


def _ready(play: Any) -> Any:
    async def on_ready(loop: TableLoop, devices: Any) -> None:
        await loop.until(lambda core: core.prompt() == "Open betting", timeout=20)
        await play(loop)

    return on_ready


async def _until_done(table: asyncio.Task[None], seen: dict[str, Any]) -> None:
    while "record" not in seen:
        if table.done():
            table.result()  # the table's own error, if it stopped on one
            raise AssertionError("the table stopped before the play was done")
        await asyncio.sleep(0.1)
