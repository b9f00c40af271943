"""`croupier sim wheel` and `croupier listen wheel --json` as separate processes on a real pty."""

from __future__ import annotations

import asyncio
import json
import signal
import sys

import pytest

pytestmark = pytest.mark.timeout(90)


async def _croupier(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "controller.cli", *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )


async def _stop(process: asyncio.subprocess.Process) -> None:
    """SIGTERM (as ``kill`` and systemd send), then a kill if it has not exited (generous: the CI
    machine may be loaded). Not SIGINT: a runner started with SIGINT ignored (``nohup``, ``cmd &``
    in a script) passes that on to its children, and the command would never hear it."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()


async def test_sim_and_listen_print_json_events() -> None:
    sim = await _croupier("sim", "wheel", "--pockets", "38", "--result", "27", "--result", "00", "--speed", "10")
    listen = None
    try:
        assert sim.stdout is not None
        path = (await asyncio.wait_for(sim.stdout.readline(), 30)).decode().strip()
        assert path.startswith("/dev/")
        listen = await _croupier("listen", "wheel", "--port", path, "--json", "--auto-start", "--speed", "10")
        assert listen.stdout is not None
        events = []
        while len([e for e in events if e["type"] == "winning_number"]) < 2:
            line = await asyncio.wait_for(listen.stdout.readline(), 30)
            assert line, "listen ended early"
            events.append(json.loads(line))
        assert events[0] == {"type": "online", "device": "wheel", "detail": path}
        numbers = [e["number"] for e in events if e["type"] == "winning_number"]
        assert numbers == ["27", "00"]
        assert all("type" in e for e in events)
    finally:
        if listen is not None:
            await _stop(listen)
        await _stop(sim)
    assert sim.returncode == 0, (await sim.stderr.read()).decode()[-2000:] if sim.stderr else ""
    assert listen.returncode == 0, (await listen.stderr.read()).decode()[-2000:] if listen.stderr else ""


async def test_listen_replays_a_trace_offline() -> None:
    trace = "tests/data/wheel/cammegh-ss2-six-games.log"
    listen = await _croupier("listen", "wheel", "--replay", trace, "--json")
    out, _ = await asyncio.wait_for(listen.communicate(), 60)
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["number"] for e in events if e["type"] == "winning_number"] == ["27", "16", "6", "3", "10", "0"]
    assert listen.returncode == 0
