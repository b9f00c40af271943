"""Issue 17, items 18 and 11 (the table's side): a dead or misconfigured broker, and a session
another client took over, are loud. A refused port warns at the default level within a few
seconds and again, rate-limited, while it lasts; a certificate mismatch and a takeover warn at
the first attempt. Each is told once to ``on_alarm`` (the table journals it as the feed link
going offline) and shows in ``health()``. Real mosquitto, real sockets."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from drivers.mqtt import MqttLink
from drivers.mqtt.alarm import TAKEOVER_BACKOFF, is_misconfiguration
from drivers.reconnect import LinkState
from tests.fixtures.mosquitto import MosquittoBroker, free_port, tls_files
from tests.integration.table.conftest import write_config
from tests.support.waiting import until


class Warnings(logging.Handler):
    """WARNING records of the link's logger, with a wait on wall time (no fixed sleeps)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []
        self._arrived = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self._arrived.set()

    async def until(self, predicate: Callable[[], bool], what: str = "the awaited warnings", timeout: float = 15.0) -> None:
        await until(predicate, what, within=timeout, arrived=self._arrived,
                    describe=lambda: f"warnings: {[r.getMessage() for r in self.records]}")


@pytest.fixture
def warnings() -> Iterator[Warnings]:
    handler = Warnings()
    logger = logging.getLogger("drivers.mqtt.link")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


async def test_a_refused_port_warns_within_seconds_and_again_while_it_lasts(warnings: Warnings) -> None:
    port = free_port()  # nothing listens there
    alarms: list[str | None] = []
    link = MqttLink(f"mqtt://127.0.0.1:{port}", "croupier-T1-feed", warn_every=1.0)
    link.on_alarm.append(alarms.append)
    started = time.monotonic()
    await link.start()
    try:
        await warnings.until(lambda: bool(warnings.records))
        assert time.monotonic() - started < 8.0  # "within a few seconds", at the default level
        assert "refused" in warnings.records[0].getMessage().lower()
        assert len(alarms) == 1 and "refused" in (alarms[0] or "").lower()
        health = link.health()
        assert not health.online and "refused" in (health.fault or "").lower()
        assert link.state is LinkState.WAITING or link.state is LinkState.CONNECTING

        await warnings.until(lambda: len(warnings.records) >= 2)  # it keeps saying so ...
        assert len(alarms) == 1  # ... but the table is told once per outage
        assert len(warnings.records) < link.reconnect.attempts  # rate-limited, not one per attempt
    finally:
        await link.close()


async def test_a_certificate_mismatch_warns_at_the_first_attempt(tmp_path: Path, warnings: Warnings) -> None:
    broker = MosquittoBroker(tls=tls_files(tmp_path / "ca"))
    other_ca = tls_files(tmp_path / "other", "Some other CA")
    broker.start()
    alarms: list[str | None] = []
    try:
        link = MqttLink(broker.tls_url(cafile=other_ca.ca), "croupier-T1-feed")
        link.on_alarm.append(alarms.append)
        await link.start()
        try:
            await warnings.until(lambda: bool(alarms), timeout=10)
            assert link.reconnect.failures <= 2  # not after the seconds a refused port waits
            assert "certificate" in (alarms[0] or "").lower()
            assert "certificate" in (link.health().fault or "").lower()
            assert warnings.records and "certificate" in warnings.records[0].getMessage().lower()
        finally:
            await link.close()
    finally:
        broker.close()


async def test_a_session_taken_over_by_another_client_is_noticed_and_does_not_flap(
        mosquitto: MosquittoBroker, warnings: Warnings) -> None:
    """Issue 17, item 11: another client (one that reconnects by itself, as paho does) connected
    under the table's client id. The two throw each other off; the table notices, warns, alerts
    (``on_alarm``) and waits longer before each new attempt instead of flapping in a tight loop;
    once the other client is gone the link stays up and the alarm ends."""
    alarms: list[tuple[float, str | None]] = []
    link = MqttLink(mosquitto.tcp_url(), "croupier-T1-feed")
    link.on_alarm.append(lambda reason: alarms.append((time.monotonic(), reason)))
    await link.start()
    intruder = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="croupier-T1-feed", clean_session=False)
    intruder.username_pw_set(mosquitto.controller.username, mosquitto.controller.password)
    intruder.reconnect_delay_set(0.05, 0.1)
    try:
        await asyncio.wait_for(link.wait_connected(), 10)
        intruder.connect("127.0.0.1", mosquitto.port)
        intruder.loop_start()
        await warnings.until(lambda: any(reason for _, reason in alarms), timeout=20)
        taken_at, reason = next((t, r) for t, r in alarms if r)
        assert "session taken over" in (reason or "") and "croupier-T1-feed" in (reason or "")
        assert link.takeovers >= 1
        assert any("session taken over" in r.getMessage() for r in warnings.records)
        attempts = link.reconnect.attempts
        await warnings.until(lambda: link.takeovers >= 2, timeout=TAKEOVER_BACKOFF.initial + 20)
        assert link.reconnect.attempts - attempts <= 3  # a wait between rounds, not a tight loop
    finally:
        intruder.loop_stop()
        intruder.disconnect()
    try:
        await warnings.until(lambda: link.connected and alarms[-1][1] is None, timeout=TAKEOVER_BACKOFF.maximum + 10)
        assert alarms[-1][0] - taken_at >= TAKEOVER_BACKOFF.initial * 0.9  # it waited before each try
    finally:
        await link.close()


@pytest.mark.parametrize(("error", "loud"), [
    ("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer", True),
    ("[Errno -2] Name or service not known", True),
    ("[Errno -3] Temporary failure in name resolution", True),
    ("[code:135] Not authorized", True),
    ("[code:134] Bad user name or password", True),
    ("[Errno 111] Connection refused", False),
    ("[code:7] The connection was lost.", False),
])
def test_a_misconfiguration_is_told_from_an_outage(error: str, loud: bool) -> None:
    assert is_misconfiguration(error) is loud


async def test_a_table_whose_broker_refuses_journals_the_feed_offline_and_plays_on(tmp_path: Path) -> None:
    """The table's side of item 18: the feed link's outage becomes the ``feed`` device offline in
    the table's health (its ``state()`` and the device-online metric read it) with an alert."""
    from controller.config import load
    from controller.process import run_table

    port = free_port()
    config_path = write_config(tmp_path, stacked=None, mqtt={"broker": f"mqtt://127.0.0.1:{port}", "insecure": True})
    ready: asyncio.Future[object] = asyncio.get_running_loop().create_future()

    async def on_ready(loop: object, devices: object) -> None:
        ready.set_result(loop)

    with open(tmp_path / "out.txt", "w") as out:
        table = asyncio.create_task(run_table(load(config_path), None, out=out, on_ready=on_ready, keyboard=False))
        try:
            loop: Any = await asyncio.wait_for(ready, 20)
            await loop.until(lambda core: "feed" in core.health.devices, timeout=20)
            assert loop.core.health.devices["feed"]["online"] is False
            assert "feed" in {d for d, h in loop.core.health.devices.items() if not h["online"]}
            await loop.until(lambda core: core.health.online("shoe"), timeout=20)  # the table plays on
            loop.command("open_round", "test-dealer")
            await loop.until(lambda core: core.engine is not None, timeout=10)
        finally:
            table.cancel()
            await asyncio.gather(table, return_exceptions=True)
    from controller.journal import Journal

    journal = Journal(tmp_path / "table.journal")
    try:
        entries = list(journal.entries())
    finally:
        journal.close()
    offline = [e for e in entries if e.kind == "device" and e.payload.get("device") == "feed"]
    assert offline and offline[0].payload["type"] == "offline" and "refused" in offline[0].payload["reason"].lower()
    assert any(e.kind == "alert" and e.payload.get("code") == "device.offline" for e in entries)


async def test_croupier_pit_says_so_too() -> None:
    """``croupier pit`` on a broker port that refuses: its own link warns on stderr, at the
    default level, within seconds (the pit's link is the same ``MqttLink``)."""
    import sys

    port = free_port()
    pit = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "controller.cli", "pit", "--broker", f"mqtt://127.0.0.1:{port}", "--insecure",
        "--port", "0", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    seen: list[str] = []
    try:
        assert pit.stderr is not None

        async def warned() -> None:
            while True:
                line = (await pit.stderr.readline()).decode()  # type: ignore[union-attr]
                assert line, f"croupier pit ended: {seen}"
                seen.append(line)
                if "WARNING" in line and "cannot keep a link to the broker" in line:
                    return

        await asyncio.wait_for(warned(), 30)
        assert "refused" in seen[-1].lower()
    finally:
        if pit.returncode is None:
            pit.terminate()
            try:
                await asyncio.wait_for(pit.wait(), 20)
            except TimeoutError:
                pit.kill()
                await pit.wait()
