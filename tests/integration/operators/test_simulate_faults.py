"""``croupier studio simulate --operator-faults all``: the real table, simulated remote players, the
studio and PostgreSQL, the reference operator over real HTTP showing every fault it has (slow,
HTTP 500, timeouts, an answer dropped after a committed debit, away, duplicated deliveries) and
its feed on a real RabbitMQ restarted mid-round. Every player's balance change at the operator is
what the studio settled and what the table's journal owes, no credit is applied twice, no debit
is left without its credit or cancel, and the operator's consumer holds every event once, in
order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.integration.studio.conftest import operator_secret

ROOT = Path(__file__).resolve().parents[3]


def test_every_fault_and_a_broker_restart_leave_both_books_and_the_feed_whole(tmp_path: Path, database: str) -> None:
    operator_secret(tmp_path)
    config = tmp_path / "studio.toml"
    config.write_text('[studio]\n[studio.tables.t1]\ngame = "roulette"\npreset = "european"\n'
                      '[studio.operators.casino-a]\nalgorithm = "HS256"\nsecret_file = "casino-a.secret"\n'
                      'issuer = "casino-a"\n')
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "studio", "simulate", "--config", str(config), "--players", "8",
         "--rounds", "12", "--seed", "3", "--database", database, "--operator-faults", "all", "--json"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    wallet, feed = out["wallet"], out["feed"]
    assert out["drained"] is True and out["rounds"] == 12 and out["differences"] == 0
    assert out["players_checked"] == 8
    assert wallet["mismatches"] == 0  # per player: operator == studio == journal, and both books agree
    assert wallet["returned_twice"] == 0 and wallet["debits_open"] == 0
    assert wallet["pending"] == 0 and wallet["flagged"] == 0
    assert wallet["debits"] > 0 and wallet["credits"] > 0 and wallet["retries"] > 0  # the faults were met
    assert feed["rabbitmq_restarts"] == 1 and feed["redelivered"] > 0
    assert feed["gaps"] == 0 and feed["duplicates_after_dedup"] == 0 and feed["bad_mac"] == 0
    assert feed["delivered"] == feed["published"] > 0
    assert out["drop"] == out["table_drop"] and out["paid"] == out["table_paid"]
