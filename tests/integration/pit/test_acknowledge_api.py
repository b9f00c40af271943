"""Acknowledging many alerts at once and paging the rounds, over the dashboard's API: a dealer
is refused, a bad list or table is refused with the reason before anything is sent, and a good
list reaches the table one command per alert."""

from __future__ import annotations

from typing import Any

from controller.pit.server import PitServer
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
