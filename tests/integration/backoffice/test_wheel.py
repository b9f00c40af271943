"""The wheel's chi-square bias flag over the back office's 7- and 30-day windows, per roulette
table, from the winning numbers of the stored rounds."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from controller.cli import app
from tests.integration.backoffice.feed import round_record
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_report import DAY_START, config, report, state
from tests.support import outcomes

runner = CliRunner()


def spin(table: str, n: int, number: str, days_back: int) -> tuple[str, dict[str, Any]]:
    record = round_record(table, n, seq=n, game="roulette", kind="straight:17",
                          at=DAY_START - timedelta(days=days_back) + timedelta(hours=2))
    record["opened"] = record["closed"] = record["ts"]  # many spins a day: keep them inside it
    record["outcome"] = outcomes.roulette(number)
    return f"croupier/{table}/round", record


def test_a_biased_wheel_is_flagged_in_the_window_that_holds_its_spins(migrated: str, tmp_path: Path) -> None:
    fair = [spin("rl1", n, str(n % 37), n % 7) for n in range(1, 371)]  # every pocket 10 times in the last week
    leaning = [spin("rl2", n, "17" if n % 2 else str(n % 37), 20) for n in range(1, 401)]  # 20 days ago
    leaning += [spin("rl2", 1000 + n, str(n % 37), 0) for n in range(1, 38)]  # today: one of each
    seed(migrated, [state("rl1", "roulette", "european"), state("rl2", "roulette", "european"), *fair, *leaning])
    tables = report(migrated, tmp_path)["tables"]
    rl1, rl2 = tables["rl1"]["wheel_bias"], tables["rl2"]["wheel_bias"]
    assert rl1["7"]["balls"] == 370 and rl1["7"]["chi_square"] == 0 and not rl1["7"]["flag"] and not rl1["30"]["flag"]
    assert rl2["7"]["balls"] == 37 and not rl2["7"]["enough"] and not rl2["7"]["flag"]
    assert rl2["30"]["balls"] == 437 and rl2["30"]["flag"] and rl2["30"]["p_value"] < 1e-6
    page = runner.invoke(app, ["backoffice", "report", "--database", migrated, "--config", str(config(tmp_path)),
                               "--day", "2026-12-01", "--html"]).stdout
    assert "biased (p below 1 %)" in page and "no sign of bias" in page
