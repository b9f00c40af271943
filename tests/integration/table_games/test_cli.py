"""`croupier run --rounds 3` and `croupier recall` for each shoe game's example config, as a user
runs them: the config as it is (copied beside a private journal), simulated shoe, embedded
broker, simulated players and dealer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.integration.table.test_cli import CONFIG_DIR, croupier

GAMES = {
    # config: (table id, game, a prompt the run must show, bet kinds the simulated players use)
    "baccarat.toml": ("baccarat", "baccarat", "> Card to Banker", {"banker", "player", "tie"}),
    "three-card-blackjack.toml": ("tcb", "three-card-blackjack", "> Shuffle: load a new deck", {"ante", "ace_plus"}),
    "catch-a-wave.toml": ("caw", "catch-a-wave", "> Card to dealer", {"main"}),
    "russian-poker.toml": ("russian", "russian-poker", "> Shuffle: load a new deck", {"ante", "bonus"}),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_run_rounds_then_recall(tmp_path: Path, name: str) -> None:
    table, game, prompt, kinds = GAMES[name]
    (tmp_path / "config").mkdir()
    cfg = Path(shutil.copy(CONFIG_DIR / name, tmp_path / "config" / name))

    run = croupier("run", "--config", str(cfg), "--rounds", "3", "--new-journal")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "> Open betting" in lines and prompt in lines
    assert sum(line.startswith(f"ROUND {table}-") for line in lines) == 3
    assert not [line for line in lines if line.startswith("ALERT error")]

    recall = croupier("recall", "--config", str(cfg), "--json", "--all")
    assert recall.returncode == 0, recall.stderr
    records = json.loads(recall.stdout)
    assert [r["round"] for r in records] == [f"{table}-{i:06d}" for i in (1, 2, 3)]
    for r in records:
        assert r["game"] == game and r["status"] == "settled"
        assert r["stake_total"] == sum(b["stake"] for b in r["bets"]) > 0
        assert r["payout_total"] == sum(b["payout"] for b in r["bets"])
        assert {b["player"] for b in r["bets"]} <= {"P1", "P2", "P3"}
    assert kinds <= {b["kind"] for r in records for b in r["bets"]}
    assert croupier("recall", "--config", str(cfg), "--round", f"{table}-000002").stdout.startswith(
        f"ROUND {table}-000002 settled")
