"""A deeply nested pit command over a real mosquitto: refused with an alert, and the next
command still reaches the table (issue defect 5: it raised ``RecursionError``, no alert)."""

from __future__ import annotations

import logging

import pytest

from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import Commands, make_feed
from tests.integration.feed.test_commands import TOPIC, client, command
from tests.support.waiting import until


async def test_nested_json_is_refused_with_an_alert_and_the_pit_goes_on(
        mosquitto: MosquittoBroker, journal: Journal, caplog: pytest.LogCaptureFixture) -> None:
    table = Commands()
    caplog.set_level(logging.WARNING)

    def alerts() -> list[dict[str, object]]:
        return [e.payload for e in journal.entries() if e.kind == "alert"]

    async with client(mosquitto, mosquitto.pit) as boss, make_feed(mosquitto, journal, table) as feed:
        await feed.link.wait_connected()
        await boss.publish(TOPIC, b"[" * 4096, qos=1)
        await boss.publish(TOPIC, b"[" * 1500 + b"]" * 1500, qos=1)
        await boss.publish(TOPIC, command("after", "close_after_round"), qos=1)
        await until(lambda: len(alerts()) == 2 and len(table.received) == 1,
                    "two refusals and the command after them", within=10)
    assert [a["code"] for a in alerts()] == ["command_refused"] * 2
    assert "nested 4096 deep" in str(alerts()[0]["message"])
    assert [c.id for c in table.received] == ["after"]
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text
