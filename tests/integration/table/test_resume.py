"""Crash resume: `croupier run` is killed with SIGKILL in the middle of a round and started
again on the same journal; the round resumes where it stood and every round's settlements are
exactly those of the same rounds played without the crash."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.integration.table.conftest import write_config
from tests.support.waiting import wait_until


def _run(config: Path, rounds: int, pace: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.table_cli", "run", "--config", str(config), "--rounds", str(rounds),
         "--pace", str(pace), "--quiet", "--new-journal"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=os.getcwd(),
    )


def _rows(journal: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    if not journal.exists():
        return []
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        return db.execute(sql, args).fetchall()
    except sqlite3.OperationalError:  # the table is not created yet
        return []
    finally:
        db.close()


def _records(journal: Path) -> list[dict[str, Any]]:
    rows = _rows(journal, "SELECT payload FROM events WHERE kind = 'round_closed' ORDER BY seq")
    return [json.loads(p) for (p,) in rows]


def _money(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must not change across a crash: everything but the wall-clock times."""
    return [(r["round"], r["status"], r["outcome"], r["bets"], r["stake_total"], r["payout_total"]) for r in records]


@pytest.mark.parametrize("cards_before_kill", [3, 6])
def test_sigkill_mid_round_resumes_with_identical_settlements(tmp_path, cards_before_kill):
    reference_dir, crash_dir = tmp_path / "reference", tmp_path / "crash"
    reference_dir.mkdir()
    crash_dir.mkdir()
    reference_cfg = write_config(reference_dir, stacked=None)
    crash_cfg = write_config(crash_dir, stacked=None)

    reference = _run(reference_cfg, 3, 0.0)
    _, err = reference.communicate(timeout=120)
    assert reference.returncode == 0, err
    expected = _records(reference_dir / "table.journal")
    assert [r["round"] for r in expected] == ["t1-000001", "t1-000002", "t1-000003"]

    journal = crash_dir / "table.journal"
    first = _run(crash_cfg, 3, 0.05)
    try:
        def dealt() -> bool:
            cards = _rows(journal, "SELECT COUNT(*) FROM events WHERE kind = 'device' AND round_id = 't1-000002'"
                                   " AND json_extract(payload, '$.type') = 'card'")
            return bool(cards) and cards[0][0] >= cards_before_kill

        wait_until(dealt, f"{cards_before_kill} cards of round 2 dealt", within=90, process=first,
                   describe=lambda: first.stderr.read() if first.poll() is not None and first.stderr else "")
        os.kill(first.pid, signal.SIGKILL)
    finally:
        first.wait(10)
    assert first.returncode == -signal.SIGKILL
    assert [r["round"] for r in _records(journal)] == ["t1-000001"]

    second = _run(crash_cfg, 2, 0.0)  # the resumed round counts as one of the two
    _, err = second.communicate(timeout=120)
    assert second.returncode == 0, err

    records = _records(journal)
    assert _money(records) == _money(expected)
    started = _rows(journal, "SELECT payload FROM events WHERE kind = 'table_started' ORDER BY seq")
    assert [json.loads(p)["resumed_round"] for (p,) in started] == [None, "t1-000002"]
    for r in records:  # every round settled once, money conserved per the record
        assert r["stake_total"] == sum(b["stake"] for b in r["bets"])
        assert r["payout_total"] == sum(b["payout"] for b in r["bets"])
