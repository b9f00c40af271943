"""``systemctl stop`` sends SIGTERM: the table stops as on Ctrl-C (exit 0, journal closed and
intact, ``online = 0`` retained), and under ``Type=notify`` it tells systemd READY=1 once it
takes inputs, then WATCHDOG=1 from its loop. systemd's side is a unix datagram socket here."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.verify import verify_file
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.restart.processes import (
    Lines,
    closed_rounds,
    croupier,
    feed_url,
    retained,
    run_table,
    wait_until,
    write_config,
)
from tests.integration.table_stress.harness import round_entries


@pytest.fixture
def notify_socket() -> Iterator[tuple[socket.socket, str]]:
    """systemd's notification socket, as a short path (AF_UNIX paths are at most 107 bytes)."""
    where = tempfile.mkdtemp(prefix="sdn")
    path = os.path.join(where, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(60)
    try:
        yield sock, path
    finally:
        sock.close()
        shutil.rmtree(where, ignore_errors=True)


def test_sigterm_stops_the_table_cleanly(mosquitto: MosquittoBroker, tmp_path: Path, notify_socket):
    sock, path = notify_socket
    config = write_config(tmp_path, broker=feed_url(mosquitto))
    journal = tmp_path / "table.journal"
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "300000"}
    table = run_table(config, "--new-journal", log=tmp_path / "table.log", env=env)
    try:
        said: list[str] = []
        while "WATCHDOG=1" not in said:  # READY=1 first, then the pings
            said += sock.recv(4096).decode().splitlines()
        assert said.index("READY=1") < said.index("WATCHDOG=1")
        wait_until(lambda: closed_rounds(journal) >= 1, "a round", process=table, within=90)
        assert retained(mosquitto, "online") == b"1"
        table.send_signal(signal.SIGTERM)
        assert table.wait(60) == 0, (tmp_path / "table.log").read_text()
    finally:
        if table.poll() is None:
            table.kill()
    log = (tmp_path / "table.log").read_text()
    assert "Traceback" not in log, log
    sock.settimeout(0)
    tail: list[str] = []
    while True:
        try:
            tail += sock.recv(4096).decode().splitlines()
        except BlockingIOError:
            break
    assert "STOPPING=1" in tail
    assert retained(mosquitto, "online") == b"0"  # said on the way out, not left to the will
    verdict = verify_file(journal)
    assert verdict.ok, verdict.lines()
    assert not journal.with_name("table.journal-wal").exists() or journal.with_name("table.journal-wal").stat().st_size == 0


def test_a_round_stopped_by_sigterm_resumes_on_the_next_start(mosquitto: MosquittoBroker, tmp_path: Path):
    """Stopped in the middle of play: the next start resumes the round that stood, and no
    round id is closed twice."""
    config = write_config(tmp_path, broker=feed_url(mosquitto))
    journal = tmp_path / "table.journal"
    table = run_table(config, "--new-journal", log=tmp_path / "table.log")
    wait_until(lambda: closed_rounds(journal) >= 2, "two rounds", process=table, within=90)
    table.send_signal(signal.SIGTERM)  # at pace 0.01 s a round is under way
    assert table.wait(60) == 0, (tmp_path / "table.log").read_text()
    before = closed_rounds(journal)
    again = croupier("run", "--config", str(config), "--rounds", "2", "--quiet")
    assert again.returncode == 0, again.stderr
    ids = [r["round"] for _, r in round_entries(journal)]
    assert len(ids) == len(set(ids)) and len(ids) >= before + 1
    assert verify_file(journal).ok


def test_sigterm_stops_the_pit_dashboard_cleanly(mosquitto: MosquittoBroker):
    pit = Lines("pit", "--broker", mosquitto.tcp_url(mosquitto.pit), "--insecure", "--port", "0")
    try:
        pit.until("pit: http")
        code, stderr = pit.stop(signal.SIGTERM)
    finally:
        pit.kill()
    assert code == 0 and "Traceback" not in stderr, stderr


def test_sigterm_stops_the_demo_and_removes_its_directory():
    demo = Lines("demo")
    try:
        where = Path(demo.until("journals: ").removeprefix("journals: "))
        demo.until("pit: http")  # every table and console up
        assert any(where.glob("*.journal"))
        code, stderr = demo.stop(signal.SIGTERM)
    finally:
        demo.kill()
    assert code == 0 and "Traceback" not in stderr, stderr
    assert not where.exists()
