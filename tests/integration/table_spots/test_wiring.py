"""``[devices.spots]`` in a table config: the spots come up with the table (`run_table`, batch
mode, shoe on a pty, real mosquitto), their lamps follow the rounds the simulated people play,
and a press from an empty box out of turn is journaled and refused."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from controller.config import ConfigError, load
from controller.journal import Journal
from controller.process import run_table
from simulators.spots import SpotsSimulator
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE
from tests.integration.table_stress.harness import write_config


def with_spots(path: Path, lines: str) -> Path:
    path.write_text(path.read_text() + "\n[devices.spots]\n" + lines + "\n")
    return path


async def test_spots_enabled_in_the_config_light_up_with_the_rounds(tmp_path: Path, mosquitto: MosquittoBroker) -> None:
    config = load(with_spots(write_config(tmp_path, broker=mosquitto.tcp_url()), "enabled = true\nspots = 7"))
    spots = SpotsSimulator.with_credentials(mosquitto.tcp_url(), TABLE, 7, lambda n: mosquitto.spot(n).password)
    async with spots:
        async def empty_box_presses() -> None:
            await spots[1].wait_lamp(lambda lamp: lamp.get("mode") == "turn", timeout=30)
            await spots[2].press("hit")  # box 2 has no bet: never its turn

        presser = asyncio.create_task(empty_box_presses())
        assert await run_table(config, 3, out=io.StringIO(), prompts=False) == 0
        await presser
        await spots[1].wait_lamp(lambda lamp: lamp.get("mode") in ("win", "lose", "push"), timeout=5)
    modes = {lamp.get("mode") for lamp in spots[1].lamps}
    assert {"open", "turn"} <= modes
    assert {lamp.get("mode") for lamp in spots[2].lamps} <= {"off", "open"}
    with Journal(config.journal_path) as journal:
        entries = list(journal.entries())
    (press,) = [e for e in entries if e.kind == "device" and e.payload.get("type") == "press"]
    assert press.source == "spot:2" and press.payload["button"] == "hit"
    refused = [e.payload for e in entries if e.kind == "alert" and e.payload.get("cause") == press.seq]
    assert [a["code"] for a in refused] in (["spot.out_of_turn"], ["spot.no_round"], ["spot.betting_closed"])


def test_a_bad_spots_broker_fails_at_load_naming_the_key(tmp_path: Path) -> None:
    path = with_spots(write_config(tmp_path, broker="none"), 'enabled = true\nbroker = "http://nowhere"')
    with pytest.raises(ConfigError, match="devices.spots"):
        load(path)
