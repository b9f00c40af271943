"""A table imports its own game only (controller/table/registry.py): a controller restarted by
the HIL soak about 100 times in 1,000 rounds paid for every game's engine, views and tables at
each start. Checked in a fresh interpreter, on ``sys.modules``: starting a blackjack table
(what ``croupier run`` imports, its config, its core, its replay with the snapshot's
fingerprint, and reading its own round record as the live protection does) imports no other
game's package, while listing every game still finds them all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RECORDS = ROOT / "tests" / "unit" / "records" / "journaled.jsonl"

SCRIPT = """
import json, sys
import controller.process, controller.table_cli
from controller import records
from controller.config import load
from controller.journal import Journal
from controller.runtime.recovery import replay
from controller.table import registry
from controller.table_runtime import build_core

def games():
    return sorted({m.split(".")[2] for m in sys.modules if m.startswith("controller.games.") and m.count(".") >= 3})

core = build_core(load(sys.argv[1]))
replay(Journal(":memory:"), core)
assert type(records.parse_record(json.loads(sys.argv[2])).outcome).__name__ == "BlackjackRoundOutcome"
started = games()
listed = sorted(game.name for game in registry.GAMES.values())
print(json.dumps({"started": started, "listed": listed, "after": games()}))
"""


def test_starting_a_blackjack_table_imports_no_other_games_package() -> None:
    record = next(row["payload"] for row in map(json.loads, RECORDS.read_text().splitlines())
                  if row["kind"] == "round_closed" and json.loads(row["payload"])["game"] == "blackjack")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "config" / "blackjack-ru6.toml"), record],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.splitlines()[-1])
    assert seen["started"] == ["blackjack"]
    every = ["baccarat", "blackjack", "catch-a-wave", "roulette", "russian-poker", "three-card-blackjack"]
    assert seen["listed"] == every
    assert seen["after"] == sorted(name.replace("-", "_") for name in every)
