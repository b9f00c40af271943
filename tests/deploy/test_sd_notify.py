"""The systemd notification side of the table: the socket systemd names (a path or an abstract
``@name``), the watchdog interval it asks for, and pings that stop when the table's loop stops
making progress (so systemd restarts a hung table)."""

from __future__ import annotations

import asyncio
import os
import socket
from types import SimpleNamespace

import pytest

from controller.process import _progressing
from controller.sd_notify import Notifier
from tests.support.waiting import until


def test_from_env_reads_the_socket_and_the_watchdog_meant_for_this_process(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert Notifier.from_env() is None  # not under systemd: nothing is sent
    monkeypatch.setenv("NOTIFY_SOCKET", "@croupier-test")
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier.from_env()
    assert notifier is not None and notifier.address == "\0croupier-test" and notifier.watchdog_usec == 30_000_000
    notifier.close()
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))  # the watchdog is another process's
    other = Notifier.from_env()
    assert other is not None and other.watchdog_usec is None
    other.close()


async def test_pings_stop_while_the_loop_is_not_alive():
    name = f"\0croupier-watchdog-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(name)
    sock.setblocking(False)
    alive = [True]
    looks = [0]

    def is_alive() -> bool:
        looks[0] += 1
        return alive[0]

    notifier = Notifier("@" + name[1:], watchdog_usec=30_000)  # a ping every 10 ms
    task = asyncio.create_task(notifier.watchdog(is_alive))
    try:
        loop = asyncio.get_running_loop()
        assert await asyncio.wait_for(loop.sock_recv(sock, 64), 5) == b"WATCHDOG=1"
        alive[0] = False
        since = looks[0]
        await until(lambda: looks[0] > since, "the watchdog's next look")  # any ping before it is in the socket
        while True:  # drain what was sent before
            try:
                sock.recv(64)
            except BlockingIOError:
                break
        since = looks[0]
        await until(lambda: looks[0] >= since + 3, "three more looks at a loop that is not alive")
        with pytest.raises(BlockingIOError):
            sock.recv(64)  # hung: no ping, systemd's WatchdogSec runs out
    finally:
        task.cancel()
        notifier.close()
        sock.close()


async def test_progress_is_an_idle_loop_or_a_step_since_the_last_look():
    table = asyncio.create_task(asyncio.Event().wait())  # a table task still running
    loop = SimpleNamespace(steps=0, pending=0, busy=False)
    alive = _progressing(loop, table)  # type: ignore[arg-type]
    assert alive()  # idle
    loop.pending, loop.busy = 3, True
    assert alive() is False  # inputs wait and no step ended since the last look: hung
    loop.steps = 1
    assert alive()  # a step ended
    table.cancel()
    await asyncio.gather(table, return_exceptions=True)
    loop.pending, loop.busy = 0, False
    assert alive() is False  # the table task is gone
