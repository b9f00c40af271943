"""A roulette table on the pit feed (real mosquitto): the settled round reaches the pit as the
journal's record, and a wheel fault reaches it as an alert with its code and the hold."""

from __future__ import annotations

from controller.feed import Feed
from controller.process import FeedListener
from controller.table import inputs
from simulators.wheel import WheelFault
from tests.integration.feed.conftest import TABLE, Pit
from tests.integration.table.conftest import bets


async def test_round_and_wheel_fault_over_mosquitto(wheel_table, mosquitto):
    """17: straight 17 100 -> 3600; split 14-17 100 -> 1800; red 500 -> 0."""
    t = await wheel_table(table_id=TABLE)

    def on_command(command):
        t.loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    async with Pit(mosquitto) as pit, Feed.connect(mosquitto.tcp_url(), t.journal, TABLE, on_command,
                                                   backoff_max=0.5) as feed:
        t.loop.listeners.append(FeedListener(feed))
        await t.spin((1, "straight:17", 100, "A"), (1, "split:14-17", 100, "A"), (2, "red", 500, "B"), result="17")
        await t.cmd("settle")
        (record,) = t.rounds()
        await pit.wait_for(lambda: len(pit.on("round")) >= 1)
        (message,) = pit.on("round")
        assert {k: v for k, v in message.items() if k not in ("seq", "ts")} == record
        assert bets(message) == [(1, 1, "straight:17", "A", 100, 3600), (1, 1, "split:14-17", "A", 100, 1800),
                                 (2, 1, "red", "B", 500, 0)]
        assert message["outcome"]["numbers"] == ["17"]

        t.sim.inject(WheelFault("sensor_fault", at=0.5))
        await t.cmd("open_round")
        await t.bet(1, "black", 500, "A")
        await t.loop.until(lambda core: core.hold is not None, timeout=15)
        await pit.wait_for(lambda: any(a.get("code") == "wheel.fault.sensor_fault" for a in pit.on("alert")))
        held = next(a for a in pit.on("alert") if a["code"] == "wheel.fault.sensor_fault")
        assert held["hold"] and held["severity"] == "error" and held["options"] == ["void_round"]
        await pit.wait_for(lambda: pit.on("prompt") and pit.on("prompt")[-1]["text"].startswith("HOLD wheel.fault"))
