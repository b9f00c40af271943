"""Dealer performance by shift from stored rounds and alerts: pace against the table's target,
holds raised, procedure errors (cards out of turn, wrong cards keyed, result mismatches),
corrections and voids."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from controller.cli import app
from tests.integration.backoffice.feed import event, round_record, ts
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_report import DAY_START, config, report, state

runner = CliRunner()
A = DAY_START + timedelta(hours=1)  # 07:00 local: shift A


def alert(seq: int, code: str, at: Any, *, round_id: str | None = None, hold: bool = False,
          **detail: Any) -> tuple[str, dict[str, Any]]:
    return "croupier/bj1/alert", {"v": 1, "table": "bj1", "round": round_id, "ts": ts(at), "seq": seq,
                                  "severity": "error", "code": code, "message": code, "hold": hold, **detail}


def test_dealers_pace_holds_and_procedure_errors_by_shift(migrated: str, tmp_path: Path) -> None:
    paced = state("bj1", "blackjack", "ru6")
    paced[1]["pace"] = {"rounds_per_hour": None, "target": 60, "window_s": 900}
    rounds = [round_record("bj1", n, seq=n, dealer="maria", at=A) for n in range(1, 11)]  # 10 rounds a minute apart
    seed(migrated, [
        paced,
        ("croupier/bj1/event", event("bj1", 100, "command", {"command": "sign_in", "dealer": "olga"},
                                     at=A + timedelta(minutes=30))),
        *[("croupier/bj1/round", r) for r in rounds],
        alert(201, "blackjack.card.decision_pending", A + timedelta(minutes=2), round_id=rounds[1]["round"], hold=True),
        alert(202, "table.card_during_hold", A + timedelta(minutes=2, seconds=5), round_id=rounds[1]["round"]),
        alert(203, "table.key_card.not_a_card", A + timedelta(minutes=40)),  # olga signed in by then
        alert(204, "protection.result_mismatch", A + timedelta(minutes=3), round_id=rounds[2]["round"], hold=True,
              device="wheel", dealer="olga"),  # the mismatch names its dealer
        alert(205, "shoe.noread", A + timedelta(minutes=4)),  # a card to key in: no one's error
    ])
    dealers = {d["dealer"]: d for d in report(migrated, tmp_path)["dealers"]}
    maria, olga = dealers["maria"], dealers["olga"]
    assert (maria["rounds"], maria["holds"], maria["cards_out_of_turn"], maria["wrong_cards_keyed"]) == (10, 1, 2, 0)
    assert maria["result_mismatches"] == 0 and maria["procedure_errors"] == 2
    assert maria["pace_target"] == 60
    assert maria["pace_pct"] == round(100 * maria["rounds_per_hour"] / 60, 1) and maria["pace_pct"] > 100
    assert (olga["rounds"], olga["holds"], olga["wrong_cards_keyed"], olga["result_mismatches"]) == (0, 1, 1, 1)
    assert olga["procedure_errors"] == 2 and olga["pace_pct"] is None
    base = ["backoffice", "report", "--database", migrated, "--config", str(config(tmp_path)), "--day", "2026-12-01"]
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, [*base, "--csv", "--level", "dealers"]).stdout)))
    assert {r["dealer"]: r["procedure_errors"] for r in rows} == {"maria": "2", "olga": "2"}
    page = runner.invoke(app, [*base, "--html"]).stdout
    assert "Cards out of turn" in page and "of 60/h" in page and "None" not in page
