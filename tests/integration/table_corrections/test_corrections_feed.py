"""Corrections and acknowledged alerts end to end: the stacked shoe on its pty behind the CSP/1
driver, the pit feed and a pit-boss client on the real mosquitto. The dealer asks for a
correction of a closed round; nothing changes until the pit boss approves it on the command
topic; then the pit gets a second ``round`` record for the round, with its corrections, and the
ledger counts the round once with the corrected payout."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiomqtt

from controller.feed import Feed
from controller.journal import Journal
from controller.process import FeedListener, build_core
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.recall import recall
from tests.integration.feed.conftest import NODELAY, TABLE, Pit
from tests.integration.table.conftest import bets

R1 = ["AS", "TD", "9H", "KC", "8S", "9C"]  # box 1 A-K blackjack; box 2 T-8 vs dealer 9-9
R2 = ["TS", "7C", "8H", "QD", "5H"]  # box 1 T-8 stands; dealer 7-Q stands on 17, then draws a 5


async def test_correction_approved_by_the_pit_and_alert_acknowledged(burn_table, mosquitto, tmp_path):
    t = await burn_table(stacked=R1 + R2, table_id=TABLE)

    def on_command(command):
        t.loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    async def boss(body: dict[str, Any]) -> None:
        async with aiomqtt.Client("127.0.0.1", mosquitto.port, username=mosquitto.pit.username,
                                  password=mosquitto.pit.password, socket_options=NODELAY) as client:
            await client.publish(f"croupier/{TABLE}/command", json.dumps({"v": 1, "sender": "pitboss-ana", **body}),
                                 qos=1)

    def alerts(pit: Pit, code: str) -> list[dict[str, Any]]:
        return [a for a in pit.on("alert") if a.get("code") == code]

    async with Pit(mosquitto) as pit, Feed.connect(mosquitto.tcp_url(), t.journal, TABLE, on_command,
                                                   backoff_max=0.5) as feed:
        t.loop.listeners.append(FeedListener(feed))
        # round 1: box 1 (A, 1000) blackjack paid 3:2 = 2500; box 2 (B, 500) 18 pushes the dealer's 18 = 500
        await t.play((1, 1000, "A"), (2, 500, "B"))
        await t.deal("AS", "TD", "9H", "KC", "8S")
        await t.cmd("decide", box=2, action="stand", player="B")
        await t.deal("9C")
        await t.cmd("settle")
        (original,) = t.rounds()
        assert bets(original) == [(1, 1, "main", "A", 1000, 2500), (2, 1, "main", "B", 500, 500)]
        await pit.wait_for(lambda: pit.on("ledger") and pit.on("ledger")[-1]["payout_total"] == 3000)

        # the dealer: box 2 held 9S, read as 8S: 19 beats 18, paid even money = 1000
        await t.cmd("correct", round=f"{TABLE}-000001", reason="box 2 held 9S, read as 8S",
                    changes=[{"box": 2, "hand": 1, "kind": "main", "player": "B", "payout": 1000}])
        await pit.wait_for(lambda: bool(alerts(pit, "round.correction_pending")))
        (pending,) = alerts(pit, "round.correction_pending")
        correction = pending["correction"]
        assert correction == t.of_kind(inputs.COMMAND)[-1].seq and t.rounds() == [original]
        await pit.wait_for(lambda: pit.on("state")[-1]["corrections_pending"] != [])
        assert pit.on("state")[-1]["corrections_pending"] == [
            {"correction": correction, "round": f"{TABLE}-000001", "reason": "box 2 held 9S, read as 8S",
             "requested_by": "test-dealer", "changes": [{"box": 2, "hand": 1, "kind": "main", "player": "B",
                                                          "stake": 500, "before": 500, "after": 1000}]}]

        await boss({"id": "a1", "command": "approve_correction", "correction": str(correction)})
        await pit.wait_for(lambda: len(pit.on("round")) >= 2)
        first, corrected = pit.on("round")
        assert {k: v for k, v in first.items() if k not in ("seq", "ts")} == original
        assert corrected["round"] == f"{TABLE}-000001" and corrected["seq"] > first["seq"]
        assert bets(corrected) == [(1, 1, "main", "A", 1000, 2500), (2, 1, "main", "B", 500, 1000)]
        assert (corrected["stake_total"], corrected["payout_total"]) == (1500, 3500)
        (c,) = corrected["corrections"]
        assert (c["seq"], c["requested_by"], c["approved_by"]) == (correction, "test-dealer", "pitboss-ana")
        assert c["changes"] == [{"box": 2, "hand": 1, "kind": "main", "player": "B", "stake": 500,
                                 "before": 500, "after": 1000}]
        assert (c["payout_total_before"], c["payout_total_after"]) == (3000, 3500)
        await pit.wait_for(lambda: pit.on("ledger")[-1]["payout_total"] == 3500)
        ledger = pit.on("ledger")[-1]
        assert (ledger["rounds_settled"], ledger["stake_total"]) == (1, 1500)
        assert t.rounds()[0] == original  # the first record stays in the journal as it was
        (approval,) = t.of_kind(inputs.PIT_COMMAND)
        assert approval.source == "pit:pitboss-ana" and approval.payload["id"] == "a1"

        # approving it again, or a correction nobody asked for: refused with an alert
        await boss({"id": "a2", "command": "approve_correction", "correction": str(correction)})
        await boss({"id": "a3", "command": "approve_correction", "correction": "424242"})
        await pit.wait_for(lambda: alerts(pit, "pit.approve_correction.unknown") != [])
        assert len(alerts(pit, "pit.approve_correction.applied")) == 1 and len(t.rounds()) == 2

        # round 2: the dealer draws on 17: an error alert, open until the pit acknowledges it
        await t.play((1, 1000, "A"))
        await t.deal("TS", "7C", "8H")
        await t.cmd("decide", box=1, action="stand", player="A")
        await t.deal("QD", "5H")
        await pit.wait_for(lambda: alerts(pit, "blackjack.dealer.stands") != [])
        (held,) = alerts(pit, "blackjack.dealer.stands")
        await t.cmd("burn")
        await t.cmd("settle")
        assert bets(t.rounds()[-1]) == [(1, 1, "main", "A", 1000, 2000)]
        await pit.wait_for(lambda: [a["seq"] for a in pit.on("state")[-1]["alerts_open"]] == [held["seq"]])
        assert pit.on("state")[-1]["alerts_open"][0]["code"] == "blackjack.dealer.stands"

        await boss({"id": "k1", "command": "acknowledge_alert", "alert": 9999})
        await pit.wait_for(lambda: alerts(pit, "pit.acknowledge_alert.unknown") != [])
        await boss({"id": "k2", "command": "acknowledge_alert", "alert": held["seq"]})
        await pit.wait_for(lambda: pit.on("state")[-1]["alerts_open"] == [])
        await pit.wait_for(lambda: alerts(pit, "pit.alert_acknowledged") != [])
        assert t.core.acknowledged == {held["seq"]: "pitboss-ana"}

    # recall: the latest record of each round, with its corrections
    (r1,) = recall(t.config.journal_path, round_id=f"{TABLE}-000001")
    assert r1["payout_total"] == 3500 and r1["corrections"][0]["seq"] == correction
    out = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "controller.table_cli", "recall", "--config", str(tmp_path / "table.toml")],
        check=False, capture_output=True, text=True, timeout=60, cwd=os.getcwd())
    assert out.returncode == 0, out.stderr
    line1, line2 = out.stdout.splitlines()
    assert line1.startswith(f"ROUND {TABLE}-000001 settled: stake 15.00 EUR payout 35.00 EUR")
    assert f"corrected (#{correction} by test-dealer, approved by pitboss-ana: box 2 held 9S, read as 8S)" in line1
    assert "box 2.1 main 5.00 EUR->10.00 EUR" in line1 and "corrected" not in line2

    # replay rebuilds the same corrections, acknowledgements and open alerts, writing nothing
    with Journal(t.config.journal_path) as journal:
        fresh = build_core(t.config)
        last = journal.last_seq()
        assert replay(journal, fresh).written == 0 and journal.last_seq() == last
    assert fresh.corrections == t.core.corrections and fresh.records == t.core.records
    assert fresh.state() == t.core.state()


async def test_burn_on_new_shoe_through_the_shoe(burn_table):
    """``burn_on_new_shoe = 1``: the first card out of every new shoe is burned before a round."""
    t = await burn_table(burn=1, stacked=["5H", "TS", "7C", "8S", "QD"])
    assert t.prompt == "Burn 1 card" and not t.firmware.locked  # the burn card must come out
    await t.cmd("open_round")
    assert t.alerts()[-1]["code"] == "table.shoe.burn" and t.core.engine is None
    await t.draw("5H")
    burn = t.alerts()[-1]
    assert (burn["code"], burn["severity"], burn["card"], burn["n"]) == ("shoe.burn", "info", "5H", 1)
    assert t.firmware.locked and t.prompt == "Open betting"
    assert t.core.shoe.composition.left("5H") == 5 and t.core.shoe.burned == ["5H"]

    await t.play((1, 1000, "A"))  # box 1 T-8 stands; dealer 7-Q stands on 17: box 1 wins 2000
    await t.deal("TS", "7C", "8S")
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.deal("QD")
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "main", "A", 1000, 2000)] and r["outcome"]["burned"] == []

    from tests.integration.table_games.conftest import restack

    await t.cmd("new_shoe")
    assert t.firmware.applied[-2:] == ["SHOE", "UNLOCK"] and t.prompt == "Burn 1 card"
    restack(t, ["2C", "9D"])
    await t.draw("2C")
    assert t.firmware.locked and t.prompt == "Open betting" and t.core.shoe.burned == ["2C"]
    assert [a["card"] for a in t.alerts() if a["code"] == "shoe.burn"] == ["5H", "2C"]


async def test_no_burn_by_default(burn_table):
    t = await burn_table(stacked=["TS"])
    assert t.prompt == "Open betting" and t.firmware.locked


def test_batch_run_burns_each_new_shoe(tmp_path: Path):
    """``croupier run --rounds`` with the example config plus ``burn_on_new_shoe = 1``: the
    simulated dealer burns the first card before the first round; the start is journaled with it."""
    source = Path(__file__).resolve().parents[3] / "config" / "blackjack-ru6.toml"
    cfg = tmp_path / "config" / "bj.toml"
    cfg.parent.mkdir()
    cfg.write_text(source.read_text().replace('preset = "ru6"', 'preset = "ru6"\nburn_on_new_shoe = 1'))
    run = subprocess.run([sys.executable, "-m", "controller.table_cli", "run", "--config", str(cfg), "--rounds", "2",
                          "--new-journal"],
                         check=False, capture_output=True, text=True, timeout=120, cwd=os.getcwd())
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines.index("> Burn 1 card") < next(i for i, x in enumerate(lines) if x.startswith("ROUND "))
    assert sum(x.startswith("ALERT info shoe.burn:") for x in lines) == 1
    assert sum(x.startswith("ROUND ") for x in lines) == 2
    with Journal(tmp_path / "var" / "bj-ru6.journal") as journal:
        started = [e.payload for e in journal.entries() if e.kind == inputs.TABLE_STARTED]
    assert started[0]["burn_on_new_shoe"] == 1
