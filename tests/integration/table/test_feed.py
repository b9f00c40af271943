"""The table on the pit feed (real mosquitto): the closed round reaches the pit as the same
record the journal holds, holds reach it as alerts with their code, the retained prompt
follows the dealer's, and a pit-boss command goes through the journal into the table."""

from __future__ import annotations

import json

import aiomqtt

from controller.feed import Feed
from controller.process import FeedListener
from controller.table import inputs
from tests.integration.feed.conftest import NODELAY, TABLE, Pit
from tests.integration.table.conftest import bets


async def test_round_alert_prompt_and_pit_void_over_mosquitto(table_factory, mosquitto):
    t = await table_factory(stacked=["TS", "7C", "8S", "QD", "5H", "9D"], table_id=TABLE)

    def on_command(command):
        t.loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    async with Pit(mosquitto) as pit, Feed.connect(mosquitto.tcp_url(), t.journal, TABLE, on_command,
                                                   backoff_max=0.5) as feed:
        t.loop.listeners.append(FeedListener(feed))
        await t.play((1, 1000, "A"))
        await t.deal("TS", "7C", "8S")
        await t.cmd("decide", box=1, action="stand", player="A")
        await t.deal("QD", "5H")  # the dealer draws on 17
        await t.cmd("burn")
        await t.cmd("settle")
        (record,) = t.rounds()
        await pit.wait_for(lambda: len(pit.on("round")) >= 1)
        (message,) = pit.on("round")
        assert {k: v for k, v in message.items() if k not in ("seq", "ts")} == record  # the feed adds its envelope
        assert bets(message) == [(1, 1, "main", "A", 1000, 2000)]
        await pit.wait_for(lambda: any(a.get("code") == "blackjack.dealer.stands" for a in pit.on("alert")))
        held = next(a for a in pit.on("alert") if a["code"] == "blackjack.dealer.stands")
        assert held["hold"] and held["severity"] == "error" and held["options"] == ["burn", "void_round"]
        await pit.wait_for(lambda: pit.on("prompt") and pit.on("prompt")[-1]["text"] == "Open betting")

        # the pit boss voids the next round from the command topic
        await t.play((2, 300, "B"))
        async with aiomqtt.Client("127.0.0.1", mosquitto.port, username=mosquitto.pit.username,
                                  password=mosquitto.pit.password, socket_options=NODELAY) as boss:
            body = {"v": 1, "id": "v1", "sender": "pitboss-ana", "command": "void_round", "round": f"{TABLE}-000002"}
            await boss.publish(f"croupier/{TABLE}/command", json.dumps(body), qos=1)
        await t.loop.until(lambda core: core.closed_rounds == 2, timeout=10)
        r2 = t.rounds()[1]
        assert r2["status"] == "void" and bets(r2) == [(2, 1, "main", "B", 300, 300)]
        (cmd,) = t.of_kind(inputs.PIT_COMMAND)
        assert cmd.source == "pit:pitboss-ana" and cmd.payload["id"] == "v1"
        await pit.wait_for(lambda: len(pit.on("round")) >= 2)
