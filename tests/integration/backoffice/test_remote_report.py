"""The back office counts the remote players' drop and win beside the felt's: each round's latest
``remote_settled`` once (a re-settlement after a correction replaces the first), in the gaming
day its round closed in; shown in the report's JSON, CSV and page."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from pathlib import Path

from typer.testing import CliRunner

from controller.backoffice.migrate import migrate
from controller.cli import app
from tests.integration.backoffice.feed import event, round_record
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_report import DAY_START, config, report, state

runner = CliRunner()


def settled(table: str, n: int, seq: int, stake: int, paid: int, refunded: int = 0) -> tuple[str, dict[str, object]]:
    payload = {"round": f"{table}-{n:06d}", "id": f"s{seq}", "count": 2, "stake": stake, "paid": paid,
               "refunded": refunded, "drop": stake - refunded, "win": stake - paid, "cause": seq - 1}
    return f"croupier/{table}/event", event(table, seq, "remote_settled", payload, DAY_START + timedelta(hours=2),
                                            source="table")


def test_remote_drop_and_win_are_counted_once_per_round_beside_the_felts(database: str, tmp_path: Path) -> None:
    migrate(database)
    at = DAY_START + timedelta(hours=1)
    seed(database, [
        state("rl1", "roulette", "european"),
        ("croupier/rl1/round", round_record("rl1", 1, seq=10, stake=1000, payout=0, game="roulette", at=at, kind="red")),
        ("croupier/rl1/round", round_record("rl1", 2, seq=20, stake=500, payout=1000, game="roulette", at=at, kind="red")),
        settled("rl1", 1, 12, stake=4000, paid=1000),
        settled("rl1", 2, 22, stake=3000, paid=0, refunded=3000),  # the seal was missing: every remote bet returned
        settled("rl1", 1, 30, stake=4000, paid=2000),  # re-settled after a correction: replaces, never adds
        settled("rl1", 1, 12, stake=4000, paid=1000),  # a redelivery of the first: older, kept out
    ])
    day = report(database, tmp_path)
    assert day["remote"]["tables"]["rl1"] == {"rounds": 2, "bets": 4, "drop": 4000, "win": 2000 + 3000}
    assert day["remote"]["floor"]["drop"] == 4000
    assert (day["tables"]["rl1"]["drop"], day["tables"]["rl1"]["win"]) == (1500, 500)  # the felt's, apart
    result = runner.invoke(app, ["backoffice", "report", "--database", database, "--config", str(config(tmp_path)),
                                 "--day", "2026-12-01", "--csv"])
    assert result.exit_code == 0, result.output
    rows = [r for r in csv.reader(io.StringIO(result.stdout)) if len(r) > 3 and r[2] == "remote"]
    assert [(r[3], r[7], r[10], r[12]) for r in rows] == [("rl1", "2", "4000", "5000")]
    page = runner.invoke(app, ["backoffice", "report", "--database", database, "--config", str(config(tmp_path)),
                               "--day", "2026-12-01", "--html"])
    assert page.exit_code == 0 and "Remote players" in page.stdout and "40.00 EUR" in page.stdout
    assert json.loads(json.dumps(day["remote"])) == day["remote"]
