"""The tallies kept at insert (migration 0003) against a recomputation from the stored rounds:
after at-least-once duplicates, corrections arriving in any order (one turning a settled round
void, one moving its bet), rounds without a dealer, and a rebuild."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
from typer.testing import CliRunner

from controller.backoffice import tallies
from controller.cli import app
from tests.integration.backoffice.feed import correction, round_record
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_report import DAY_START, config, report, state
from tests.support import outcomes

runner = CliRunner()


def without_source(out: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in out.items() if k != "source"}


def floor_messages() -> list[tuple[str, dict[str, Any]]]:
    at = DAY_START + timedelta(hours=1)
    rounds = [round_record("bj1", n, seq=n, stake=1000 + n, payout=(n % 3) * 1000, dealer="maria" if n % 4 else None,
                           player=f"p{n % 3}", at=at + timedelta(minutes=7 * n)) for n in range(1, 30)]
    voided = {**round_record("bj1", 5, seq=105, stake=1005, payout=1005, status="void", dealer="maria",
                             at=at + timedelta(minutes=35)), "corrections": [correction(100)],
              "outcome": outcomes.blackjack(void={"reason": "misdeal", "returned": [0], "stands": [],
                                                  "returned_total": 1005, "stands_payout_total": 0})}
    repaid = {**round_record("bj1", 9, seq=109, stake=1009, payout=2018, dealer="olga", kind="perfect_pairs",
                             at=at + timedelta(minutes=63)), "corrections": [correction(100, after=2018)]}
    repaid_again = {**repaid, "seq": 110, "payout_total": 0, "bets": [{**repaid["bets"][0], "payout": 0}],
                    "corrections": [correction(100, after=2018), correction(108, before=2018)]}
    roulette = [round_record("rl1", n, seq=n, stake=3700, game="roulette", kind="straight:17", dealer="olga",
                             at=at + timedelta(minutes=11 * n)) for n in range(1, 12)]
    messages = [state("bj1", "blackjack", "ru6"), state("rl1", "roulette", "european")]
    messages += [("croupier/bj1/round", r) for r in rounds]
    messages += [("croupier/bj1/round", r) for r in rounds[:10]]  # redelivered
    messages += [("croupier/bj1/round", voided), ("croupier/bj1/round", repaid_again), ("croupier/bj1/round", repaid)]
    messages += [("croupier/rl1/round", r) for r in roulette + roulette[:3]]
    return messages


def test_a_report_from_the_tallies_equals_one_recomputed_from_the_rounds(migrated: str, tmp_path: Path) -> None:
    seed(migrated, floor_messages())
    kept = report(migrated, tmp_path)
    assert kept["source"] == "tallies"
    recomputed = report(migrated, tmp_path, "--recompute")
    assert recomputed["source"] == "rounds"
    assert without_source(kept) == without_source(recomputed)
    bj = kept["tables"]["bj1"]
    assert (bj["rounds"], bj["void"], bj["corrected"]) == (29, 1, 2)
    assert bj["paid"] == sum((n % 3) * 1000 for n in range(1, 30) if n not in (5, 9))
    for shift in ("A", "B"):
        assert without_source(report(migrated, tmp_path, "--shift", shift)) == without_source(
            report(migrated, tmp_path, "--shift", shift, "--recompute"))
    with psycopg.connect(migrated) as conn:
        kept_rows = tallies.dump(conn)
        assert tallies.rebuild(conn) > 0
        assert tallies.dump(conn) == kept_rows


def test_rebuild_tallies_restores_what_was_lost_and_a_period_off_the_grid_reads_the_rounds(
        migrated: str, tmp_path: Path) -> None:
    seed(migrated, floor_messages())
    before = report(migrated, tmp_path)
    with psycopg.connect(migrated) as conn:
        conn.execute("DELETE FROM round_tally WHERE table_id = 'bj1'")
        conn.execute("DELETE FROM stake_tally WHERE table_id = 'bj1'")
    assert "bj1" not in report(migrated, tmp_path)["tables"]
    result = runner.invoke(app, ["backoffice", "rebuild-tallies", "--database", migrated])
    assert result.exit_code == 0 and "tallies rebuilt" in result.output
    assert report(migrated, tmp_path) == before
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "backoffice.toml").write_text(config(tmp_path).read_text().replace('B = "14:00"', 'B = "14:10"'))
    off_grid = runner.invoke(app, ["backoffice", "report", "--database", migrated, "--config",
                                   str(odd / "backoffice.toml"), "--day", "2026-12-01", "--json", "--shift", "B"])
    assert off_grid.exit_code == 0, off_grid.output
    assert json.loads(off_grid.stdout)["source"] == "rounds"
