"""The dashboard against a real mosquitto: tables appear live, a pit boss's command reaches the
table named with that pit boss, a dealer's is refused, sessions expire."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx

from controller.pit.server import PitServer
from tests.integration.pit.conftest import accounts, signed_in, until
from tests.support import outcomes


def settled(round_id: str, number: str, stake: int, payout: int, dealer: str = "dee") -> dict[str, Any]:
    return {"v": 1, "table": "rl", "round": round_id, "game": "roulette", "opened": "2026-12-01T10:00:00.000Z",
            "closed": "2026-12-01T10:01:00.000Z", "status": "settled", "dealer": dealer, "shoe": None, "shoe_round": None,
            "outcome": outcomes.roulette(number),
            "bets": [{"box": 1, "hand": 1, "kind": "straight:17", "player": "P1", "stake": stake, "payout": payout}],
            "stake_total": stake, "payout_total": payout, "corrections": []}


async def test_two_tables_live_with_rounds_stats_and_ranked_alerts(pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    bj = await tables("bj")
    rl.state(dealer="dee")
    bj.state(game="blackjack", preset="ru6", phase="playing")
    rl.append("round_closed", settled("rl-1", "17", 1000, 36000), "rl-1")
    rl.append("round_closed", settled("rl-2", "3", 4000, 0), "rl-2")
    warn = rl.append("alert", {"severity": "warning", "code": "spot.refused", "message": "press out of turn"})
    err = bj.append("alert", {"severity": "error", "code": "shoe.gap", "message": "a card was lost"})
    bj.state(game="blackjack", preset="ru6", phase="hold",
             alerts_open=[{"seq": err, "code": "shoe.gap", "message": "a card was lost", "round": None}])
    async with signed_in(pit, "pat") as client:
        def floor() -> dict[str, Any] | None:
            tables_ = {t["table"]: t for t in pit.model.floor()}
            ok = (set(tables_) == {"rl", "bj"} and tables_["rl"]["online"] and tables_["bj"]["phase"] == "hold"
                  and len(pit.model.tables["rl"].rounds) == 2 and tables_["rl"]["alerts_count"] == 1)
            return tables_ if ok else None

        await until(floor)
        data = (await client.get("/api/floor")).json()
        assert [(a["table"], a["seq"]) for a in data["alerts"]] == [("bj", err), ("rl", warn)]
        view = (await client.get("/api/table/rl")).json()
        # by hand: drop 5000, paid 36000 -> win -31000, hold -620 %
        assert view["stats"]["drop"] == 5000 and view["stats"]["win"] == -31000
        assert view["stats"]["hold"] == -6.2
        assert abs(view["edge"]["edge"] - 1 / 37) < 1e-12
        assert view["bias"]["counts"]["17"] == 1 and view["bias"]["balls"] == 2
        assert [r["round"] for r in view["rounds"]] == ["rl-2", "rl-1"]
        detail = (await client.get("/api/table/rl/round/rl-1")).json()
        assert detail["record"]["outcome"]["numbers"] == ["17"] and detail["rows"][0]["payout"] == 36000


async def test_a_pit_boss_command_reaches_the_table_named_with_the_pit_boss(pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    rl.state()
    seq = rl.append("alert", {"severity": "error", "code": "wheel.fault", "message": "ball not sensed"})
    await until(lambda: "rl" in pit.model.tables)
    async with signed_in(pit, "pat") as client:
        response = await client.post("/api/command", json={"table": "rl", "command": "acknowledge_alert", "alert": seq})
        assert response.status_code == 200, response.text
        await until(lambda: rl.commands)
        command = rl.commands[0]
        assert (command.command, command.alert, command.sender) == ("acknowledge_alert", seq, "pat")
        bad = await client.post("/api/command", json={"table": "rl", "command": "void_round"})
        assert bad.status_code == 400 and "round" in bad.json()["error"]
        hostile = await client.post("/api/command", json={"table": "rl/#", "command": "close_after_round"})
        assert hostile.status_code == 400
        for body in (b"[" * 4000, b'{"table": "rl", "command": "close_after_round", "x": ' + b"[" * 3000 + b"]" * 3000
                     + b"}", b"{" + b" " * 5000 + b"}"):  # deep, deep inside a real command, too large
            refused = await client.post("/api/command", content=body, headers={"content-type": "application/json"})
            if len(body) > 4096:  # refused by its length, before a byte of it is read
                assert refused.status_code == 413 and "4096 bytes" in refused.json()["error"]
            else:
                assert refused.status_code == 400 and "4 kB" in refused.json()["error"]
        assert len(rl.commands) == 1  # none of them reached the table


async def test_a_dealer_is_refused_a_pit_command_and_nothing_is_sent(pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    rl.state()
    async with signed_in(pit, "dee") as client:
        assert (await client.get("/api/floor")).status_code == 200  # a dealer may look
        response = await client.post("/api/command", json={"table": "rl", "command": "close_after_round"})
        assert response.status_code == 403 and "pit boss" in response.json()["error"]
    async with signed_in(pit, "pat") as client:  # the same command from a pit boss does arrive
        assert (await client.post("/api/command", json={"table": "rl", "command": "close_after_round"})).status_code == 200
    await until(lambda: rl.commands)
    assert [c.sender for c in rl.commands] == ["pat"]


async def test_no_session_no_floor_and_a_wrong_password_is_refused(pit: PitServer) -> None:
    async with httpx.AsyncClient(base_url=pit.url) as client:
        assert (await client.get("/api/floor")).status_code == 401
        assert (await client.post("/api/command", json={"table": "rl", "command": "close_after_round"})).status_code == 401
        wrong = await client.post("/api/login", json={"user": "pat", "password": "nope"})
        assert wrong.status_code == 401
        json_type = {"content-type": "application/json"}
        assert (await client.post("/api/login", content=b"not json", headers=json_type)).status_code == 400
        assert (await client.post("/api/login", content=b"[" * 4000, headers=json_type)).status_code == 400
        # a form or text/plain body (what another site's page can send without asking) is not read
        assert (await client.post("/api/login", content=b'{"user": "pat"}')).status_code == 415
        page = await client.get("/")
        assert page.status_code == 200 and "Croupier pit" in page.text


async def test_sessions_expire(mosquitto: Any, hashes: dict[str, str]) -> None:
    now = [1000.0]
    pit = PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes, clock=lambda: now[0], ttl=60.0))
    async with pit, signed_in(pit, "pat") as client:
        assert (await client.get("/api/session")).json()["user"] == "pat"
        now[0] += 61.0
        assert (await client.get("/api/session")).status_code == 401


async def test_live_tiles_arrive_on_the_websocket(pit: PitServer, tables: Any) -> None:
    import websockets

    rl = await tables("rl")
    async with signed_in(pit, "pat") as client:
        cookie = client.cookies.get("pit_session")
    async with websockets.connect(f"ws://127.0.0.1:{pit.port}/ws", additional_headers={"Cookie": f"pit_session={cookie}"}) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "floor"
        rl.state(phase="playing")
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            phases = [t["phase"] for t in message.get("tiles", []) if t["table"] == "rl"]
            if "playing" in phases:
                break
    async with websockets.connect(f"ws://127.0.0.1:{pit.port}/ws") as ws:  # no session: closed at once
        try:
            await ws.recv()
            raise AssertionError("a socket without a session was served")
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4401


async def test_every_pit_command_of_the_table_view_arrives_as_the_table_parses_it(pit: PitServer, tables: Any) -> None:
    from controller.pit.commands import KINDS

    rl = await tables("rl")
    rl.state()
    await until(lambda: "rl" in pit.model.tables)
    asks: list[dict[str, Any]] = [{"command": "close_after_round"}, {"command": "void_round", "round": "rl-000007"},
            {"command": "approve_correction", "correction": 41}]
    if "reopen" in KINDS:
        asks.append({"command": "reopen"})
    async with signed_in(pit, "pat") as client:
        for ask in asks:
            response = await client.post("/api/command", json={"table": "rl", **ask})
            assert response.status_code == 200, response.text
    await until(lambda: len(rl.commands) == len(asks))
    got = [(c.command, c.round, c.correction, c.sender) for c in rl.commands]
    assert got[:3] == [("close_after_round", None, None, "pat"), ("void_round", "rl-000007", None, "pat"),
                       ("approve_correction", None, "41", "pat")]
    assert len({c.id for c in rl.commands}) == len(asks)  # each its own id: none is taken for a redelivery


async def test_a_command_without_the_session_csrf_token_is_refused(pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    rl.state()
    await until(lambda: "rl" in pit.model.tables)
    async with signed_in(pit, "pat") as client:
        token = client.headers.pop("X-CSRF-Token")
        missing = await client.post("/api/command", json={"table": "rl", "command": "close_after_round"})
        assert missing.status_code == 403 and "CSRF" in missing.json()["error"]
        wrong = await client.post("/api/command", json={"table": "rl", "command": "close_after_round"},
                                  headers={"X-CSRF-Token": token[::-1]})
        assert wrong.status_code == 403
        right = await client.post("/api/command", json={"table": "rl", "command": "close_after_round"},
                                  headers={"X-CSRF-Token": token})
        assert right.status_code == 200
    await until(lambda: rl.commands)
    assert len(rl.commands) == 1


async def test_a_sign_out_closes_that_sessions_live_pages_at_once(pit: PitServer) -> None:
    import websockets

    async with signed_in(pit, "pat") as client:
        cookie = client.cookies.get("pit_session")
        async with websockets.connect(f"ws://127.0.0.1:{pit.port}/ws",
                                      additional_headers={"Cookie": f"pit_session={cookie}"}) as ws:
            assert json.loads(await ws.recv())["type"] == "floor"
            assert (await client.post("/api/logout", json={})).status_code == 200
            async with asyncio.timeout(5):
                with contextlib.suppress(websockets.ConnectionClosed):
                    while True:
                        await ws.recv()
            assert ws.close_code == 4401
