"""Whole ``croupier run`` processes for the lifecycle tests (one writer, new journals, SIGTERM):
the stress harness's table config on the real mosquitto, the journal read from outside."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import aiomqtt

from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE
from tests.integration.table_stress.harness import closed_rounds, feed_url, write_config
from tests.support.waiting import wait_until

__all__ = ["TABLE", "Lines", "closed_rounds", "croupier", "feed_url", "retained", "run_table", "wait_until", "write_config"]


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


class Lines:
    """A long-running ``croupier`` command, its standard output read line by line in a thread
    (a selector would miss lines already in the pipe's read buffer)."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        import queue
        import threading

        self.process = subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                                        cwd=cwd or os.getcwd())
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def until(self, prefix: str, timeout: float = 120.0) -> str:
        """The next line that starts with ``prefix``."""
        import queue

        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} line within {timeout} s") from None
            if line is None:
                raise AssertionError(f"exited ({self.process.wait()}) before printing {prefix!r}")
            if line.startswith(prefix):
                return line

    def stop(self, sig: int) -> tuple[int, str]:
        """Send ``sig``; the exit code and standard error (killed if it does not end in 60 s)."""
        self.process.send_signal(sig)
        try:
            code = self.process.wait(60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        assert self.process.stderr is not None
        return code, self.process.stderr.read()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
