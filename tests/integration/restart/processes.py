"""Whole ``croupier run`` processes for the lifecycle tests (one writer, new journals, SIGTERM):
the stress harness's table config on the real mosquitto, the journal read from outside."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiomqtt

from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE
from tests.integration.table_stress.harness import closed_rounds, feed_url, write_config

__all__ = ["TABLE", "closed_rounds", "croupier", "feed_url", "retained", "run_table", "wait_until", "write_config"]


def croupier(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=os.getcwd(), env=env, stdin=subprocess.DEVNULL)


def run_table(config: Path, *extra: str, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A table that plays until stopped (simulated people, a long ``--rounds``), output to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--rounds", "1000000",
             "--pace", "0.01", "--quiet", *extra],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=os.getcwd(), env=env)


def wait_until(predicate: Callable[[], bool], what: str, process: subprocess.Popen[bytes] | None = None,
               timeout: float = 90.0) -> None:
    """Poll ``predicate`` (a file another process writes: there is no event to wait on)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the table exited ({process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def retained(broker: MosquittoBroker, leaf: str, timeout: float = 10.0) -> bytes:
    """The retained message on ``croupier/<table>/<leaf>`` as a new subscriber gets it."""

    async def read() -> bytes:
        who = broker.pit
        async with aiomqtt.Client("127.0.0.1", broker.port, username=who.username, password=who.password) as client:
            await client.subscribe(f"croupier/{TABLE}/{leaf}", qos=1)
            async for message in client.messages:
                assert message.retain
                payload = message.payload
                return payload if isinstance(payload, bytes) else str(payload).encode()
        raise AssertionError("no message")

    return asyncio.run(asyncio.wait_for(read(), timeout))
