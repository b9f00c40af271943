"""The per-player report of the advantage-play watch from the ``protection.advantage_play``
alerts the back office stored: evidence, index plays, edge per hour, a chart (SVG, escaped,
no script) and a print stylesheet."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from controller.cli import app
from tests.integration.backoffice.feed import round_record, ts
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_report import DAY_START, config, state

runner = CliRunner()


def flag(table: str, seq: int, player: str, days_back: int, **evidence: Any) -> tuple[str, dict[str, Any]]:
    at = DAY_START - timedelta(days=days_back) + timedelta(hours=3)
    body = {"box": 2, "rounds": 240, "flagged": True, "flagged_after": 240, "test": "bet_ramp", "statistic": 0.41,
            "p_value": 1.2e-9, "ci": [0.3, 0.51], "average_bet": 4200, "edge_per_hour": 3150,
            "index_plays": {"situations": 30, "with_count": 9, "against_count": 1, "missed": 2}, **evidence}
    return f"croupier/{table}/alert", {"v": 1, "table": table, "round": None, "ts": ts(at), "seq": seq,
                                       "severity": "warning", "code": "protection.advantage_play",
                                       "message": f"player {player} at box 2: bets follow the count", "hold": False,
                                       "player": player, "evidence": body}


def advantage(database: str, tmp_path: Path, *args: str) -> str:
    result = runner.invoke(app, ["backoffice", "advantage", "--database", database, "--config", str(config(tmp_path)),
                                 "--day", "2026-12-01", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_flags_are_reported_per_player_with_their_evidence(migrated: str, tmp_path: Path) -> None:
    seed(migrated, [
        state("bj1", "blackjack", "ru6"), state("bj2", "blackjack", "ru6"),
        ("croupier/bj1/round", round_record("bj1", 1, seq=1, stake=5000, player="p7", at=DAY_START + timedelta(hours=1))),
        flag("bj1", 10, "p7", 0),
        flag("bj2", 11, "p7", 3, edge_per_hour=5000, index_plays={"with_count": 4, "against_count": 0, "missed": 1}),
        flag("bj1", 12, "<script>alert(1)</script>", 1, bets_by_count=[[-2, 1000], [0, 1000], [3, 8000], ["x", 1]]),
        flag("bj1", 13, "p9", 40),  # before the 30 days
    ])
    out = json.loads(advantage(migrated, tmp_path, "--json"))
    p7 = out["players"]["p7"]
    assert [f["table"] for f in p7["flags"]] == ["bj2", "bj1"]  # oldest first
    assert p7["tables"] == ["bj2", "bj1"] and p7["edge_per_hour_max"] == 5000
    assert p7["index_plays"] == {"situations": 30, "with_count": 13, "against_count": 1, "missed": 3}
    assert p7["flags"][1]["ci"] == [0.3, 0.51] and p7["flags"][1]["p_value"] == 1.2e-9
    assert out["ratings"]["p7"]["drop"] == 5000 and "p9" not in out["players"]
    assert out["players"]["<script>alert(1)</script>"]["flags"][0]["bets_by_count"] == [[-2, 1000], [0, 1000], [3, 8000]]
    only = json.loads(advantage(migrated, tmp_path, "--json", "--player", "p7", "--days", "2"))
    assert list(only["players"]) == ["p7"] and len(only["players"]["p7"]["flags"]) == 1
    rows = list(csv.DictReader(io.StringIO(advantage(migrated, tmp_path, "--csv"))))
    assert [(r["player"], r["table"], r["index_with_count"]) for r in rows if r["player"] == "p7"] == [
        ("p7", "bj2", "4"), ("p7", "bj1", "9")]
    page = advantage(migrated, tmp_path, "--html")
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<svg") == 2 and page.count("<circle") == 3 + 2  # three points; two flags, r with its interval
    assert "bets follow the count" in page and "31.50 EUR" in page and "50.00 EUR" in page and "@media print" in page
    assert "minor units" not in page and "Tue 1 Dec 2026 09:00" in page and "(Europe/Riga time)" in page
    assert "None" not in page and "nan" not in page.lower().replace("nance", "")


def test_evidence_of_the_wrong_shape_prints_as_not_given(migrated: str, tmp_path: Path) -> None:
    """Issue 26: one flag whose index plays are not counts crashed every page of the report."""
    seed(migrated, [
        state("bj1", "blackjack", "ru6"),
        flag("bj1", 10, "p7", 0, index_plays={"with_count": "", "against_count": None, "missed": True}),
        flag("bj1", 11, "p8", 1, index_plays="lots", ci="wide", statistic="NaN", p_value=None, rounds=1.5,
             average_bet="4200", edge_per_hour=[1], test=7, bets_by_count={"x": 1}),
    ])
    page = advantage(migrated, tmp_path, "--html")
    assert "Player p7" in page and "Player p8" in page
    out = json.loads(advantage(migrated, tmp_path, "--json"))
    p8 = out["players"]["p8"]["flags"][0]
    assert p8["index_plays"] == {} and p8["ci"] == [None, None] and p8["statistic"] is None
    assert (p8["rounds"], p8["average_bet"], p8["edge_per_hour"], p8["test"]) == (None, None, None, None)
    assert out["players"]["p7"]["index_plays"] == {}


def test_advantage_csv_writes_text_a_sheet_would_run_as_text(migrated: str, tmp_path: Path) -> None:
    seed(migrated, [state("bj1", "blackjack", "ru6"), flag("bj1", 10, "-p7", 0, test="=1+1", edge_per_hour=-300)])
    rows = list(csv.DictReader(io.StringIO(advantage(migrated, tmp_path, "--csv"), newline="")))
    assert [(r["player"], r["test"], r["edge_per_hour"]) for r in rows] == [("'-p7", "'=1+1", "-300")]
