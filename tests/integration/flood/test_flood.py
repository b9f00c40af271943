"""Floods of 10,000 messages a second from one spot's and from the pit's credentials, on a real
mosquitto, while the dealer plays a round (issue defect 6).

Before: about 30,000 journal rows and as many alerts, play frozen for 10 to 15 s, the
controller's own broker link dropped. Now each source's excess is dropped before it is parsed or
journaled, and counted into one alert per source and window.

``CROUPIER_FLOOD_SECONDS`` (default 2 in the suite; the issue asks for 5) and ``CROUPIER_FLOOD_RATE`` (default 10000) scale it.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

from controller.feed import Feed, PitCommand
from controller.process import FeedListener
from controller.runtime.spots import TableSpots
from controller.table import inputs
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE
from tests.support.waiting import until

SECONDS = float(os.environ.get("CROUPIER_FLOOD_SECONDS", "2"))
RATE = int(os.environ.get("CROUPIER_FLOOD_RATE", "10000"))
FLOODER = Path(__file__).with_name("flooder.py")


class Stalls:
    """The longest the event loop went without running a 10 ms ticker (wall clock: a measure)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)  # the measure itself: a 10 ms ticker, late by as long as the loop stalls
            now = time.perf_counter()
            self.longest = max(self.longest, now - last - 0.01)
            last = now

    def __enter__(self) -> Stalls:
        self._task = asyncio.create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


def flood(url: str, user: str, password: str, topic: str, kind: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(FLOODER), url, user, password, topic, kind, str(RATE), str(SECONDS)],
                            stdout=subprocess.PIPE, text=True)


async def test_a_flood_from_a_spot_and_the_pit_leaves_play_going_and_the_journal_small(
        table_factory, mosquitto: MosquittoBroker) -> None:
    t = await table_factory(stacked=["TS", "9H", "6D", "6C", "2S", "TD", "TH", "4C"], table_id=TABLE)
    url = mosquitto.tcp_url()

    def on_command(command: PitCommand) -> None:
        t.loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    feed = Feed.connect(url, t.journal, TABLE, on_command, backoff_max=0.5)
    feed.admission = t.loop.admission
    async with feed, TableSpots(t.loop, t.journal, url, TABLE, 2) as table_spots:
        t.loop.listeners.append(FeedListener(feed))
        await feed.link.wait_connected()
        await table_spots.link.wait_connected()
        connections = (feed.link.connections, table_spots.link.connections)
        rows_before = len(list(t.journal.entries()))
        spot1 = mosquitto.spot(1)
        procs = [flood(url, spot1.username, spot1.password, f"croupier/{TABLE}/spot/1/press", "press"),
                 flood(url, mosquitto.pit.username, mosquitto.pit.password, f"croupier/{TABLE}/command", "pit")]
        with Stalls() as stalls:
            # the flood is on before the dealer starts: the table is already refusing its excess
            await until(lambda: sum(t.loop.admission.dropped.values()) > 0, "the flood reaching the table",
                        within=30)
            await t.play((2, 1000, "A"))
            await t.deal("TS", "9H", "6D")
            assert t.core.engine is not None
            # play goes on for as long as the floods last
            await until(lambda: all(p.poll() is not None for p in procs), "the floods ended", within=SECONDS + 60)
            sent = [int((await asyncio.to_thread(p.communicate, None, 30))[0]) for p in procs]
            # messages the broker still forwards once the flooders are gone: let them arrive so
            # that they count against the journal's bound (waiting longer can only make it stricter)
            await asyncio.sleep(0.5)
            await t.loop.settled()
        t.loop.admission.flush(everything=True)
        await t.loop.settled()
        rows = list(t.journal.entries())[rows_before:]
        assert (feed.link.connections, table_spots.link.connections) == connections, "a broker link dropped"

    flood_rows = [e for e in rows if e.source in ("spot:1", "spots") or e.source.startswith("pit")
                  or (e.kind == inputs.ALERT and e.payload.get("code") in ("input.refused", "device.refused",
                                                                            "pit.acknowledge_alert.unknown"))]
    counted = sum(e.payload.get("count", 0) for e in rows if e.payload.get("code") == "input.refused")
    print(f"\nflood: sent {sent} messages in {SECONDS:g} s ({RATE}/s per source); journal +{len(rows)} rows "
          f"({len(flood_rows)} from the flood); {counted} refusals counted in "
          f"{sum(1 for e in rows if e.payload.get('code') == 'input.refused')} alerts; "
          f"longest stall {stalls.longest * 1000:.0f} ms; spots queue dropped {table_spots.session.dropped}")
    assert min(sent) >= RATE * SECONDS * 0.5, "the flooders did not flood"
    assert stalls.longest < 1.0
    assert len(rows) <= 400
    assert t.core.engine is not None and t.core.hold is None  # the round the dealer plays goes on
    assert counted > 0
