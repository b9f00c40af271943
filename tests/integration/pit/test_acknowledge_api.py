"""Acknowledging many alerts at once and paging the rounds, over the dashboard's API: a dealer
is refused, a bad list or table is refused with the reason before anything is sent, and a good
list reaches the table one command per alert."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiomqtt

from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.pit.conftest import signed_in
from tests.support.waiting import until


async def test_acknowledge_many_is_checked_then_sent_one_by_one(pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    rl.state()
    seqs = [rl.append("alert", {"severity": "warning", "code": "input.refused", "message": f"slip {n}"}) for n in range(3)]
    async with signed_in(pit, "dee") as dealer:
        refused = await dealer.post("/api/acknowledge", json={"table": "rl", "alerts": seqs})
        assert refused.status_code == 403 and "pit boss" in refused.json()["message"]
    async with signed_in(pit, "pat") as boss:
        for body, why in (({"table": "rl", "alerts": []}, "alerts: a list of 1 to 500"),
                          ({"table": "rl", "alerts": [1, True]}, "alerts: a list"),
                          ({"table": "rl", "alerts": list(range(1, 502))}, "alerts: a list"),
                          ({"table": "a/b", "alerts": [1]}, "table: a table id")):
            answer = await boss.post("/api/acknowledge", json=body)
            assert answer.status_code == 400 and answer.json()["message"].startswith(why), answer.text
        sent = await boss.post("/api/acknowledge", json={"table": "rl", "alerts": seqs})
        assert sent.status_code == 200 and sent.json()["queued"] == 3
        await until(lambda: len(rl.commands) == 3, "three acknowledgements reach the table")
        assert [(c.command, c.alert, c.sender) for c in rl.commands] == [("acknowledge_alert", s, "pat") for s in seqs]
        bad = await boss.get("/api/table/rl/rounds", params={"page": "two"})
        assert bad.status_code == 400
        empty = (await boss.get("/api/table/rl/rounds", params={"q": "nothing"})).json()
        assert (empty["rows"], empty["total"], empty["pages"]) == ([], 0, 1)


async def test_the_studios_alert_is_acknowledged_to_the_studio_and_the_tables_to_the_table(
        pit: PitServer, tables: Any, mosquitto: MosquittoBroker) -> None:
    rl = await tables("rl")
    rl.state()
    own = rl.append("alert", {"severity": "warning", "code": "input.refused", "message": "slip"})
    studio_seq = 1_733_390_000_000  # the studio's own seq: the time it raised the alert
    flagged = {"v": 1, "table": "rl", "round": None, "ts": "2026-12-05T10:00:00.000Z", "seq": studio_seq,
               "severity": "error", "code": "studio.wallet_flagged", "origin": "studio", "count": 1,
               "message": "1 wallet movement(s) of remote players flagged for manual reconciliation"}
    async with aiomqtt.Client("127.0.0.1", mosquitto.port, username=mosquitto.controller.username,
                              password=mosquitto.controller.password) as studio:
        await studio.subscribe("croupier/rl/studio_command", qos=1)
        await studio.publish("croupier/rl/alert", json.dumps(flagged), qos=1, retain=True)
        await until(lambda: "rl" in pit.model.tables and pit.model.tables["rl"].from_studio(studio_seq),
                    "the pit shows the studio's alert")
        async with signed_in(pit, "pat") as boss:
            sent = await boss.post("/api/command", json={"table": "rl", "command": "acknowledge_alert",
                                                          "alert": studio_seq})
            assert sent.status_code == 200 and sent.json()["topic"] == "croupier/rl/studio_command", sent.text
            async with asyncio.timeout(10):
                message = await anext(aiter(studio.messages))
            body = json.loads(bytes(message.payload))
            assert (body["command"], body["alert"], body["sender"]) == ("acknowledge_alert", studio_seq, "pat")
            await boss.post("/api/command", json={"table": "rl", "command": "acknowledge_alert", "alert": own})
            await until(lambda: len(rl.commands) == 1, "the table's own alert acknowledged to the table")
        assert rl.commands[0].alert == own
        await studio.publish("croupier/rl/alert", b"", qos=1, retain=True)
