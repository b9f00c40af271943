"""Presence: a table's retained ``online`` topic, set by its feed and by its MQTT last will.

A table killed with SIGKILL shows offline on the dashboard (the broker publishes the will when
the connection dies, at the latest after 1.5 keepalives); a table that stops cleanly says so itself.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.pit.conftest import until

TABLE_PROCESS = """
import asyncio, sys
from controller.feed import Feed
from controller.journal import Journal

async def main():
    feed = Feed.connect(sys.argv[1], Journal(sys.argv[2]), "doomed", keepalive=2)
    await feed.start()
    feed.set_state({"game": "baccarat", "preset": "standard", "phase": "idle", "dealer": None, "closing": False,
                    "limits": {}, "shoe": {"id": None, "cards_dealt": None, "cut_card_seen": False, "to_burn": 0},
                    "hold": None, "devices": {}, "alerts_open": [], "corrections_pending": [],
                    "journal": {"seq": 0, "hash": None}})
    await feed.link.wait_connected()
    await feed.wait_caught_up()
    print("up", flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def test_a_table_killed_outright_shows_offline(mosquitto: MosquittoBroker, pit: PitServer, tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", TABLE_PROCESS, mosquitto.tcp_url(), str(tmp_path / "j.sqlite")],
                               stdout=subprocess.PIPE, cwd=Path(__file__).parents[3])
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        assert line.strip() == b"up"
        tile = await until(lambda: pit.model.tables.get("doomed"))
        await until(lambda: tile.online is True and tile.state.get("phase") == "idle")
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        # keepalive 2 s: the will is due within 3 s of the last packet even if the socket stayed open
        await until(lambda: tile.online is False, timeout=15)
        assert pit.model.tables["doomed"].tile()["online"] is False
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_a_table_that_stops_cleanly_says_it_is_offline(pit: PitServer, tables: Any) -> None:
    bj = await tables("bj")
    bj.state(game="blackjack", preset="ru6")
    tile = await until(lambda: pit.model.tables.get("bj"))
    await until(lambda: tile.online is True)
    await bj.feed.close(drain_timeout=1.0)
    await until(lambda: tile.online is False)
