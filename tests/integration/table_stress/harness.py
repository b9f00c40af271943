"""Whole `croupier run` processes for the stress tests: a config with the pit feed on the real
mosquitto, the process started as an operator would (batch mode, simulated shoe on a pty), and
the journal read from outside, read-only, exactly as a second process sees it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE
from tests.support.configs import simulated_shoe, write_table_config
from tests.support.waiting import wait_until


def write_config(directory: Path, *, broker: str, seed: int = 3, **options: Any) -> Path:
    """A 6-deck ru6 blackjack table (id ``TABLE``) whose shoe is simulated on a pty; ``broker``:
    plaintext mosquitto on loopback, the password in the URL (or ``none``); ``options``: more
    of ``table_config``'s sections."""
    return write_table_config(directory, "blackjack", table_id=TABLE, limits={"main": {"min": 100, "max": 100000}},
                              devices={"shoe": simulated_shoe(gap_timeout=2.0, seed=seed)},
                              mqtt={"broker": broker, "insecure": True}, **options)


def feed_url(broker: MosquittoBroker) -> str:
    """The controller's credentials on the broker's TCP listener."""
    return broker.tcp_url(broker.controller)


def start(config: Path, rounds: int, *, pace: float = 0.0, log: Path) -> subprocess.Popen[bytes]:
    """``croupier run --config X --rounds N --quiet``, output to ``log`` (a pipe nobody reads
    would stall a long run)."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "controller.table_cli", "run", "--config", str(config), "--rounds", str(rounds),
             "--pace", str(pace), "--quiet", "--new-journal"],
            stdout=out, stderr=subprocess.STDOUT, cwd=os.getcwd(),
        )


def rows(journal: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """A read-only query; empty while the journal or its schema does not exist yet. Any other
    error (a file caught between a crash and the next open) is retried, never read as empty."""
    found: list[tuple[Any, ...]] = []
    errors: list[sqlite3.OperationalError] = []

    def read() -> bool:
        nonlocal found
        if not journal.exists():
            return True
        try:
            db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)
            try:
                found = db.execute(sql, args).fetchall()
            finally:
                db.close()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return True
            errors.append(exc)
            return False
        return True

    wait_until(read, f"a readable journal at {journal}", within=10, describe=lambda: f"last error: {errors[-1]}")
    return found


def closed_rounds(journal: Path) -> int:
    found = rows(journal, "SELECT COUNT(*) FROM events WHERE kind = 'round_closed'")
    return int(found[0][0]) if found else 0


def round_entries(journal: Path) -> list[tuple[int, dict[str, Any]]]:
    """``(seq, record)`` of every ``round_closed`` entry, in journal order."""
    found = rows(journal, "SELECT seq, payload FROM events WHERE kind = 'round_closed' ORDER BY seq")
    return [(seq, json.loads(p)) for seq, p in found]


def money(record: dict[str, Any]) -> tuple[Any, ...]:
    """What a crash must not change: everything but wall-clock times."""
    return (record["round"], record["status"], record["outcome"], record["bets"], record["stake_total"],
            record["payout_total"])
