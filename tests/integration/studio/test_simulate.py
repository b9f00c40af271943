"""``croupier studio simulate`` plays rounds through the real service and prints one JSON object
whose books agree: the studio's drop and payouts are what the table heard, every round had its
seal, and every accepted bet was settled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.studio.conftest import operator_secret

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("game", "preset"), [("roulette", "european"), ("baccarat", "standard")])
def test_simulate_prints_books_that_agree(tmp_path: Path, database: str, game: str, preset: str) -> None:
    operator_secret(tmp_path)
    config = tmp_path / "studio.toml"
    config.write_text(f'[studio]\n[studio.tables.t1]\ngame = "{game}"\npreset = "{preset}"\n'
                      '[studio.operators.casino-a]\nalgorithm = "HS256"\nsecret_file = "casino-a.secret"\nissuer = "casino-a"\n')
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "studio", "simulate", "--config", str(config), "--players", "12",
         "--rounds", "3", "--seed", "7", "--database", database, "--json"],
        capture_output=True, text=True, timeout=240, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out) == {"rounds", "players", "bets_accepted", "bets_refused", "settled", "refunded",
                        "seals_journaled", "drop", "paid", "table_drop", "table_paid", "accept_ms"}
    assert out["rounds"] == 3 and out["players"] == 12 and out["seals_journaled"] == 3
    assert out["bets_accepted"] > 0 and out["bets_accepted"] == out["settled"] + out["refunded"]
    assert out["drop"] == out["table_drop"] and out["paid"] == out["table_paid"]
    assert out["accept_ms"]["p50"] > 0 and out["accept_ms"]["p99"] >= out["accept_ms"]["p50"]
    assert set(out["bets_refused"]) <= {"late", "limits", "funds", "already_bet"}
