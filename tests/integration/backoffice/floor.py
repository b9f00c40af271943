"""A small real floor for the back office's end-to-end tests: tables as ``croupier run
--rounds N`` processes with simulated devices, the back office as ``croupier backoffice run``,
both on the real mosquitto, and what each table's journal says through ``croupier recall``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.support import waiting
from tests.support.configs import simulated_shoe, write_table_config

CLI = [sys.executable, "-m", "controller.cli"]

#: each floor table's game and limits (minor units)
BLACKJACK = ("blackjack", {"main": {"min": 100, "max": 100000}})
BACCARAT = ("baccarat", {"player": {"min": 500, "max": 1000000}, "banker": {"min": 500, "max": 1000000},
                         "tie": {"min": 100, "max": 100000}})


def table_config(directory: Path, table_id: str, table: tuple[str, dict[str, Any]], broker: str, seed: int) -> Path:
    """A floor table on the simulated shoe, its feed on ``broker`` (the suite's one config builder)."""
    game, limits = table
    path = write_table_config(directory, game, name=f"{table_id}.toml", table_id=table_id,
                              journal=f"{table_id}.journal", limits=limits, table={"currency": "EUR"},
                              devices={"shoe": simulated_shoe(gap_timeout=2.0, seed=seed)},
                              mqtt={"broker": broker, "insecure": True})
    with Journal(directory / f"{table_id}.journal"):
        pass  # an operator's `croupier init`: the journal exists before the first run
    return path


def start_table(config: Path, rounds: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen([*CLI, "run", "--config", str(config), "--rounds", str(rounds), "--quiet"],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def office_config(directory: Path) -> Path:
    """UTC gaming days starting 12 hours from now: the test's rounds all fall in today's."""
    hour = (datetime.now(UTC).hour + 12) % 24
    path = directory / "backoffice.toml"
    path.write_text(f'[backoffice]\ngaming_day_starts = "{hour:02d}:00"\ntimezone = "UTC"\n'
                    'client_id = "croupier-backoffice-test"\n')
    return path


def gaming_day_today(config: Path) -> str:
    from datetime import time as clock

    from controller.backoffice.config import load
    from controller.floor.gaming_day import day_of

    b = load(config).backoffice
    hour, minute = map(int, b.gaming_day_starts.split(":"))
    from zoneinfo import ZoneInfo

    return day_of(datetime.now(UTC), clock(hour, minute), ZoneInfo(b.timezone)).isoformat()


CONNECTED = b"backoffice: connected to "


def start_office(config: Path, database: str, broker: MosquittoBroker, log: Path) -> subprocess.Popen[bytes]:
    """The back office as its own process, returned once its MQTT session is subscribed: a round
    published before its first session exists is not the broker's to keep for it."""
    before = log.read_bytes().count(CONNECTED) if log.exists() else 0
    with log.open("ab") as out:
        process = subprocess.Popen([*CLI, "backoffice", "run", "--config", str(config), "--database", database,
                                    "--broker", broker.tcp_url(broker.pit), "--insecure", "--log-level", "info"],
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    wait_until(lambda: log.read_bytes().count(CONNECTED) > before or process.poll() is not None, 60,
               "the back office's session on the broker")
    return process


def kill_hard(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            kill_hard(process)


def recall_all(journal: Path) -> list[dict[str, Any]]:
    result = subprocess.run([*CLI, "recall", "--journal", str(journal), "--all", "--json"], capture_output=True,
                            check=True, stdin=subprocess.DEVNULL)
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def journal_round_entries(journal: Path) -> int:
    """``round_closed`` entries in the journal: every version of every round."""
    with Journal(journal) as j:
        return sum(1 for e in j.entries() if e.kind == "round_closed")


def stored(database: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    try:
        with psycopg.connect(database, connect_timeout=5) as conn:
            return conn.execute(sql, args).fetchall()
    except psycopg.OperationalError:
        return []


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Until ``condition`` (a cheap read of a database or journal) holds: the shared helper."""
    waiting.wait_until(condition, what, within=timeout)


def office_report(config: Path, database: str, day: str, *extra: str) -> dict[str, Any]:
    result = subprocess.run([*CLI, "backoffice", "report", "--config", str(config), "--database", database,
                             "--day", day, "--json", *extra], capture_output=True, check=True, stdin=subprocess.DEVNULL,
                            env={**os.environ})
    return json.loads(result.stdout)  # type: ignore[no-any-return]
