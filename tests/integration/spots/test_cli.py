"""`croupier listen spots --json` as a process, fed by simulated spots through mosquitto."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from simulators.spots import SpotsSimulator
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.spots.conftest import TABLE

ROOT = Path(__file__).resolve().parents[3]


async def test_listen_prints_events_as_json_lines(mosquitto: MosquittoBroker, spots: SpotsSimulator) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "controller.cli", "listen", "spots", "--broker", mosquitto.tcp_url(),
        "--table", TABLE, "--spots", "3", "--json", cwd=ROOT, stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        lines: list[dict[str, object]] = []

        async def until(predicate) -> None:  # type: ignore[no-untyped-def]
            while not predicate():
                lines.append(json.loads(await process.stdout.readline()))  # type: ignore[union-attr]

        await asyncio.wait_for(until(lambda: sum(e["type"] == "spot_online" for e in lines) == 3), 20)
        await spots[2].press("bet", 500, "21+3")
        await spots[4].press("hit")  # spot 4 is not at a 3-spot table
        await asyncio.wait_for(until(lambda: any(e["type"] == "press" for e in lines)), 10)
        await asyncio.wait_for(until(lambda: any(e["type"] == "refused" and "seq" in str(e["raw"]) for e in lines)), 10)
    finally:
        process.terminate()
        await process.wait()
    shown = mosquitto.tcp_url().replace(mosquitto.controller.password, "***")
    assert {"type": "online", "device": "broker", "detail": shown} in lines
    assert {"type": "press", "spot": 2, "device": "spot-2", "button": "bet", "seq": 1, "amount": 500, "kind": "21+3"} in lines
    refused = [e for e in lines if e["type"] == "refused"]
    assert {(e["reason"], e["spot"], e["raw"]) for e in refused} >= {("unknown_spot", 4, "1")}  # its online flag
    assert all(e["reason"] == "unknown_spot" and e["spot"] == 4 for e in refused)
