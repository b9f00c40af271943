"""One table publishing what no response can carry (NaN, Infinity, a lone surrogate, naive
times) through a real mosquitto: the dashboard refuses it at the edge with one alert, every
JSON response and broadcast goes on working, and the other tables' tiles are untouched."""

from __future__ import annotations

import asyncio
import json

import websockets

from controller.pit.model import REFUSED_CODE
from controller.pit.server import PitServer
from drivers.mqtt import MqttLink
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.pit.conftest import signed_in, until
from tests.unit.pit import feed_messages as msg

HOSTILE = [
    ("ledger", b'{"v": 1, "table": "bad", "round": null, "ts": "2026-12-01T10:00:00.000Z", "rounds_settled": NaN}'),
    ("state", json.dumps(msg.state("bad", dealer="\ud800")).encode()),
    ("round", json.dumps(msg.round_record("bad", "bad-1", 5, opened="2026-12-01T10:00:00")).encode()),
    ("alert", b'{"v": 1, "table": "bad", "round": null, "ts": "2026-12-01T10:00:00.000Z", "seq": 6, '
              b'"severity": "error", "code": "x", "message": "m", "n": Infinity}'),
    ("prompt", json.dumps(msg.prompt("bad", ts="2026-12-01T10:00:00")).encode()),
]


async def test_a_table_publishing_garbage_breaks_no_response_and_no_other_tile(pit: PitServer, tables: object,
                                                                               mosquitto: MosquittoBroker) -> None:
    good = await tables("good")  # type: ignore[operator]
    good.state(dealer="dee")
    await until(lambda: "good" in pit.model.tables and pit.model.tables["good"].state.get("dealer") == "dee")
    async with signed_in(pit, "pat") as client:
        cookie = client.cookies.get("pit_session")
        async with websockets.connect(f"ws://127.0.0.1:{pit.port}/ws",
                                      additional_headers={"Cookie": f"pit_session={cookie}"}) as ws:
            assert json.loads(await ws.recv())["type"] == "floor"
            async with MqttLink(mosquitto.tcp_url(), "bad-table") as bad:
                await bad.wait_connected()
                bad.publish("croupier/bad/state", json.dumps(msg.state("bad", dealer="ok")).encode(), retain=True)
                for leaf, payload in HOSTILE:
                    bad.publish(f"croupier/bad/{leaf}", payload, retain=leaf in ("state", "ledger", "prompt"))
                await until(lambda: "bad" in pit.model.tables and len(pit.model.tables["bad"].refused) == len(HOSTILE))
            floor = await client.get("/api/floor")
            assert floor.status_code == 200, floor.text
            tiles = {t["table"]: t for t in floor.json()["tables"]}
            assert tiles["good"]["dealer"] == "dee" and tiles["bad"]["dealer"] == "ok"  # the last good state
            refused = {a["source"] for a in floor.json()["alerts"] if a["code"] == REFUSED_CODE}
            assert refused == {leaf for leaf, _ in HOSTILE}
            for table in ("bad", "good"):
                view = await client.get(f"/api/table/{table}")
                assert view.status_code == 200, view.text
            # every broadcast since still parses as JSON
            async with asyncio.timeout(10):
                while True:
                    message = json.loads(await ws.recv())
                    if any(t["table"] == "bad" and t["alerts_count"] >= len(HOSTILE) for t in message.get("tiles", [])):
                        break
