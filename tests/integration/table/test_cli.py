"""`croupier run` and `croupier recall` as a user runs them: the example configs as they are
(copied beside a private journal), simulated shoe, embedded broker, simulated people."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFIG_DIR = Path(__file__).resolve().parents[3] / "config"


def croupier(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.table_cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=os.getcwd())


@pytest.fixture
def example(tmp_path):
    def copy(name: str) -> Path:
        (tmp_path / "config").mkdir(exist_ok=True)
        return Path(shutil.copy(CONFIG_DIR / name, tmp_path / "config" / name))

    return copy


@pytest.mark.parametrize("name", ["blackjack-ru6.toml", "blackjack-am8.toml"])
def test_run_rounds_then_recall(example, tmp_path, name):
    cfg = example(name)
    run = croupier("run", "--config", str(cfg), "--rounds", "3", "--new-journal")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "> Open betting" in lines and "> Card to dealer" in lines
    assert sum(line.startswith("ROUND ") for line in lines) == 3
    assert (tmp_path / "var").is_dir()  # the journal lives where the config says, relative to it

    recall = croupier("recall", "--config", str(cfg), "--json", "--all")
    assert recall.returncode == 0, recall.stderr
    records = json.loads(recall.stdout)
    table = "bj-ru6" if "ru6" in name else "bj-am8"
    assert [r["round"] for r in records] == [f"{table}-{i:06d}" for i in (1, 2, 3)]
    for r in records:
        assert r["status"] == "settled" and r["stake_total"] == sum(b["stake"] for b in r["bets"])
        assert {b["player"] for b in r["bets"]} == {"P1", "P2", "P3"}
        assert r["dealer"] == "sim-dealer"  # the simulated dealer signs in before the first round
    assert [r["shoe_round"] for r in records] == [1, 2, 3]

    last = json.loads(croupier("recall", "--config", str(cfg), "--json", "--last", "2").stdout)
    assert last == records[1:]
    one = json.loads(croupier("recall", "--config", str(cfg), "--json", "--round", f"{table}-000002").stdout)
    assert one == [records[1]]
    assert croupier("recall", "--config", str(cfg), "--json", "--round", "nope").returncode == 1
    assert croupier("recall", "--config", str(cfg), "--all", "--last", "2").returncode == 2

    # a second run continues the same journal: round ids go on, nothing is replayed twice
    again = croupier("run", "--config", str(cfg), "--rounds", "1", "--quiet")
    assert again.returncode == 0, again.stderr
    records = json.loads(croupier("recall", "--config", str(cfg), "--json", "--all").stdout)
    assert [r["round"] for r in records][-2:] == [f"{table}-000003", f"{table}-000004"]


def test_a_bad_config_fails_naming_the_key(example):
    cfg = example("blackjack-ru6.toml")
    cfg.write_text(cfg.read_text().replace('surrender = "not_vs_ace"', 'surender = "not_vs_ace"'))
    result = croupier("run", "--config", str(cfg), "--rounds", "1")
    assert result.returncode == 2 and "surender" in result.stderr
