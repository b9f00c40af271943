"""``croupier recall --journal PATH``: a journal read by its path gives what ``--config`` gives
for the same journal; a missing path or both options are refused with one line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from controller.cli import app
from controller.journal import Journal
from tests.integration.backoffice.feed import round_record

runner = CliRunner()


def test_recall_by_journal_path_matches_recall_by_config(tmp_path: Path) -> None:
    journal = tmp_path / "bj1.journal"
    records = [round_record("bj1", n, seq=n) for n in (1, 2)]
    corrected = {**records[0], "payout_total": 0, "corrections": [{"seq": 3}]}
    with Journal(journal) as j:
        for record in (*records, corrected):
            j.append("round_closed", {k: v for k, v in record.items() if k not in ("seq", "ts")}, source="table",
                     round_id=record["round"])
    config = tmp_path / "bj1.toml"
    config.write_text('[table]\nid = "bj1"\ngame = "blackjack"\npreset = "ru6"\njournal = "bj1.journal"\n'
                      "[limits]\nmain = { min = 100, max = 100000 }\n")
    by_path = runner.invoke(app, ["recall", "--journal", str(journal), "--all", "--json"])
    by_config = runner.invoke(app, ["recall", "--config", str(config), "--all", "--json"])
    assert by_path.exit_code == 0, by_path.output
    assert json.loads(by_path.stdout) == json.loads(by_config.stdout)
    assert [r["round"] for r in json.loads(by_path.stdout)] == ["bj1-000001", "bj1-000002"]
    assert json.loads(by_path.stdout)[0]["corrections"] == [{"seq": 3}]


def test_a_missing_journal_or_two_sources_are_refused(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["recall", "--journal", str(tmp_path / "nope.journal"), "--all"])
    assert missing.exit_code == 2 and "no journal at" in missing.output
    assert not (tmp_path / "nope.journal").exists()  # a typo never creates a journal
    both = runner.invoke(app, ["recall", "--journal", "a", "--config", "b"])
    assert both.exit_code == 2 and "--config or --journal" in both.output
