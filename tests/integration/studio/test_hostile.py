"""Hostile players against the real service: each bad input gets a clear refusal or a closed
connection, the other players play on, and nothing accepted is lost."""

from __future__ import annotations

import asyncio
import json
import resource
from pathlib import Path

import jwt
import pytest
import websockets

from controller.backoffice.cluster import Cluster
from controller.studio.server import StudioServer
from tests.integration.studio.conftest import SECRET, Client, StudioBroker, Table, studio_config, token

ROUND = "rl-eu-000001"


async def open_round(studio: StudioServer, broker: StudioBroker, table: Table) -> None:
    await table.betting("open", ROUND, deadline_s=120)
    while studio.studio.hub.betting.get("rl-eu", {}).get("round") != ROUND:
        await asyncio.sleep(0.02)


@pytest.mark.parametrize(("bad", "reason"), [
    ("not json", "malformed"),
    ("[" * 50 + "]" * 50, "too_deep"),
    (json.dumps({"v": 1, "type": "dance"}), "invalid"),
    (json.dumps({"v": 2, "type": "history"}), "invalid"),
    (json.dumps({"v": 1, "type": "bet", "request": "r", "round": ROUND, "bets": [{"kind": "red", "amount": 5.5}]}),
     "invalid"),
    (json.dumps({"v": 1, "type": "bet", "request": "r", "round": ROUND, "bets": [{"kind": "red", "amount": 500}]}),
     "not_joined"),
])
async def test_a_bad_message_is_refused_with_its_reason(studio: StudioServer, bad: str, reason: str) -> None:
    async with Client(studio.url) as c:
        await c.send(bad)
        answer = await c.next("refused")
        assert answer["reason"] == reason and answer["message"]
        await c.send({"v": 1, "type": "history"})  # the connection still answers
        assert (await c.next("refused"))["reason"] == "not_joined"


async def test_an_oversized_message_closes_its_connection_only(studio: StudioServer) -> None:
    async with Client(studio.url) as big, Client(studio.url) as other:
        await big.send("x" * 5000)  # over [studio] message_bytes: the server closes at the frame
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await big.next("never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        await other.send({"v": 1, "type": "history"})
        assert (await other.next("refused"))["reason"] == "not_joined"


async def test_forged_expired_replayed_and_foreign_tokens_are_refused(studio: StudioServer) -> None:
    good = token("p1")
    cases = {
        "forged": token("p1", secret="f" * 48),
        "expired": token("p1", expires_in=-60),
        "unknown issuer": token("p1", issuer="nobody"),
        "alg none": jwt.encode({"iss": "casino-a", "aud": "croupier-studio", "sub": "p1", "exp": 2**40, "jti": "x" * 9,
                                "name": "n", "currency": "EUR"}, None, algorithm="none"),
        "not a token": "hello",
        "no currency": token("p1", currency="euro"),
        "not yet": token("p1", nbf=2**40),
    }
    answers = {}
    for name, tok in cases.items():
        async with Client(studio.url) as c:
            answers[name] = (await c.join(tok))["reason"]
    assert answers == {"forged": "token_invalid", "expired": "token_expired", "unknown issuer": "token_invalid",
                       "alg none": "token_invalid", "not a token": "token_invalid", "no currency": "token_invalid",
                       "not yet": "token_invalid"}
    async with Client(studio.url) as c:
        assert (await c.join(good))["type"] == "joined"
    async with Client(studio.url) as c:
        assert (await c.join(good))["reason"] == "token_replayed"


async def test_a_flood_closes_the_flooder_and_others_play_on(studio: StudioServer, broker: StudioBroker) -> None:
    await studio.wallet.fund("casino-a", "p2", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as flooder, Client(studio.url) as honest:
        await honest.join(token("p2"))
        await open_round(studio, broker, table)
        await flooder.join(token("p1"))
        history = json.dumps({"v": 1, "type": "history"})
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(2000):
                await flooder.send(history)
                await asyncio.sleep(0)
            while True:
                await flooder.next("never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert (await honest.bet("h1", ROUND, ("red", 500)))["type"] == "accepted"


async def test_a_silent_or_unjoined_connection_is_closed_and_the_limit_holds(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    cfg = studio_config(tmp_path, broker, join_s=0.5, idle_s=60, max_connections=3)
    async with StudioServer(cfg, database) as server:
        silent = await websockets.connect(server.url)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(silent.recv(), 20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
        held = [await websockets.connect(server.url) for _ in range(3)]
        extra = await websockets.connect(server.url)
        with pytest.raises(websockets.ConnectionClosed) as full:
            await asyncio.wait_for(extra.recv(), 20)
        assert full.value.rcvd is not None and full.value.rcvd.code == 1013
        for ws in held:
            await ws.close()


async def test_thousands_of_idle_connections_do_not_stop_a_bet(tmp_path: Path, broker: StudioBroker,
                                                                database: str) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # both ends of 1,000 sockets live in this process
    if soft < 4096 and (hard == resource.RLIM_INFINITY or hard >= 4096):
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
    cfg = studio_config(tmp_path, broker, join_s=120, max_connections=1200, per_client=1200)
    async with StudioServer(cfg, database) as server, Table(broker) as table:
        await server.wallet.fund("casino-a", "p1", "EUR", 10_000)
        idle = []
        for _ in range(1000):
            idle.append(await websockets.connect(server.url))
        await table.betting("open", ROUND, deadline_s=120)
        async with Client(server.url) as c:
            await c.join(token("p1"))
            await c.next("betting", status="open")
            assert (await c.bet("r1", ROUND, ("red", 500)))["type"] == "accepted"
        await asyncio.gather(*(ws.close() for ws in idle))


async def test_a_reused_request_id_with_other_bets_is_refused(studio: StudioServer, broker: StudioBroker) -> None:
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    await studio.wallet.fund("casino-a", "p2", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as one, Client(studio.url) as two:
        await one.join(token("p1"))
        await two.join(token("p2"))
        await open_round(studio, broker, table)
        assert (await one.bet("same", ROUND, ("red", 500)))["type"] == "accepted"
        assert (await one.bet("same", ROUND, ("red", 5000)))["reason"] == "request_reused"
        assert (await two.bet("same", ROUND, ("red", 500)))["reason"] == "request_reused"
        await table.betting("sealing", ROUND)
        seal = await table.wait_for("seal", ROUND)
        assert seal["count"] == 1 and seal["stake"] == 500
    assert SECRET  # the operator's secret is the one the tokens above were signed with


async def test_the_book_out_of_reach_is_a_refusal_and_the_same_request_later_goes_through(
        studio: StudioServer, broker: StudioBroker, postgres: Cluster) -> None:
    await studio.wallet.fund("casino-a", "p1", "EUR", 10_000)
    async with Table(broker) as table, Client(studio.url) as one:
        await one.join(token("p1"))
        await open_round(studio, broker, table)
        await asyncio.to_thread(postgres.stop)
        down = await one.bet("r1", ROUND, ("red", 500))
        assert down["reason"] == "unavailable" and "again" in str(down["message"])
        await asyncio.to_thread(postgres.start)
        again = None
        for _ in range(50):  # the pool replaces its dead connections as they are found
            again = await one.bet("r1", ROUND, ("red", 500))
            if again["reason" if again["type"] == "refused" else "type"] != "unavailable":
                break
        assert again is not None and again["type"] == "accepted", again
