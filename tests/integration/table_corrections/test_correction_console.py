"""Corrections through the console's real command edge (controller/console/hub.py) on a real
table loop with its stacked shoe on a pty: a pit boss signed in at the console cannot approve
the correction he asked for, and a corrected payout more than the bet can return is refused
before it is journaled, with the money said in the table's currency."""

from __future__ import annotations

import json
from typing import Any

from controller.auth import Session
from controller.console.hub import ConsoleHub, Page
from controller.table import inputs
from tests.integration.table.conftest import bets
from tests.support.waiting import until

R1 = ["AS", "TD", "9H", "KC", "8S", "9C"]  # box 1 A-K blackjack; box 2 T-8 vs dealer 9-9


def answers(page: Page) -> dict[int, dict[str, Any]]:
    sent = [json.loads(m) for m in page.outbox]
    return {m["cseq"]: m for m in sent if m.get("type") == "result"}


async def test_a_pit_boss_at_the_console_cannot_correct_and_approve_alone(burn_table):
    t = await burn_table(stacked=R1)
    hub = ConsoleHub(t.loop)
    page = Page(Session("token", "pit", "pit_boss", 1e18), "pit-page")
    hub.attach(page)
    try:
        await t.play((1, 1000, "A"), (2, 500, "B"))
        await t.deal("AS", "TD", "9H", "KC", "8S")
        await t.cmd("decide", box=2, action="stand", player="B")
        await t.deal("9C")
        await t.cmd("settle")
        (original,) = t.rounds()
        assert bets(original) == [(1, 1, "main", "A", 1000, 2500), (2, 1, "main", "B", 500, 500)]
        round_id = original["round"]

        def send(cseq: int, command: str, **args: Any) -> None:
            hub.handle(page, {"type": "command", "cseq": cseq, "round": None, "command": command, "args": args})

        # 10^12 on a 5.00 EUR main: refused at the edge, never journaled
        commands = len(t.of_kind(inputs.COMMAND))
        send(1, "correct", round=round_id, reason="misread",
             changes=[{"box": 2, "hand": 1, "kind": "main", "player": "B", "payout": 10**12}])
        refused = answers(page)[1]
        assert (refused["ok"], refused["code"]) == (False, "table.correct.too_much")
        assert (refused["outcome"]["seq"], refused["outcome"]["status"]) == (0, "refused")  # never journaled
        assert refused["message"] == ("box 2.1 main: a payout of 10,000,000,000.00 EUR is more than a bet of "
                                      "5.00 EUR can return at this table (at most 12.50 EUR)")
        assert len(t.of_kind(inputs.COMMAND)) == commands

        # within the bound it is journaled, pending; the same pit boss approving it is refused
        send(2, "correct", round=round_id, reason="box 2 held 9S",
             changes=[{"box": 2, "hand": 1, "kind": "main", "player": "B", "payout": 1000}])
        await until(lambda: 2 in answers(page), "the answer to the correction")
        assert answers(page)[2]["ok"] is True
        (request,) = [e for e in t.of_kind(inputs.COMMAND) if e.payload["command"] == "correct"]
        assert request.source == "console:pit"
        send(3, "approve_correction", correction=request.seq)
        await until(lambda: 3 in answers(page), "the answer to the approval")
        assert (answers(page)[3]["ok"], answers(page)[3]["code"]) == (False, "pit.approve_correction.same_person")
        # the answer is the table's outcome of that very input, not read off the alerts
        assert answers(page)[3]["outcome"] == {"seq": t.of_kind(inputs.PIT_COMMAND)[-1].seq, "status": "refused",
                                               "code": "pit.approve_correction.same_person",
                                               "reason": answers(page)[3]["message"]}
        assert t.rounds() == [original]

        # another person (the dashboard's pit boss) approves it
        t.loop.submit(inputs.PIT_COMMAND, {"v": 1, "id": "d1", "sender": "pitboss-ana",
                                           "command": "approve_correction", "correction": request.seq}, "pit")
        await t.loop.settled()
        first, corrected = t.rounds()
        assert first == original
        assert bets(corrected)[1] == (2, 1, "main", "B", 500, 1000)
        assert (corrected["corrections"][0]["requested_by"], corrected["corrections"][0]["approved_by"]) == \
            ("console:pit", "pitboss-ana")
    finally:
        hub.detach(page)
        await hub.close()
