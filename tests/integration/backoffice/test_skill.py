"""Blackjack players rated on their decisions against basic strategy, from the rounds stored
in a real PostgreSQL: ``ratings --json``, ``--csv`` and ``--html``."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from controller.backoffice import records
from controller.cli import app
from controller.games.blackjack.rules import blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy
from tests.integration.backoffice.feed import round_record
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_report import DAY_START, config, state

runner = CliRunner()


def dealt(n: int, player: str, up: str, cards: list[str], status: str, *, multiplier: int = 1,
          insurance: int = 0, stake: int = 1000) -> tuple[str, dict[str, Any]]:
    record = round_record("bj1", n, seq=n, stake=stake, player=player, at=DAY_START + timedelta(hours=2))
    record["outcome"] = {"phase": "settled", "dealer": {"cards": [up, "9D"], "face_down": [], "total": 19,
                                                        "blackjack": False},
                         "boxes": [{"box": 1, "owner": player, "insurance": insurance,
                                    "hands": [{"hand": 1, "cards": cards, "total": 0, "status": status,
                                               "multiplier": multiplier, "face_down": []}]}]}
    return "croupier/bj1/round", record


def ratings(database: str, tmp_path: Path, fmt: str) -> str:
    result = runner.invoke(app, ["backoffice", "ratings", "--database", database, "--config", str(config(tmp_path)),
                                 "--day", "2026-12-01", fmt])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_blackjack_decisions_against_basic_strategy_and_their_cost(migrated: str, tmp_path: Path) -> None:
    values = BasicStrategy.for_rules(blackjack_rules("ru6")).values
    seed(migrated, [
        state("bj1", "blackjack", "ru6"),
        dealt(1, "p7", "7C", ["TS", "6H"], "live"),  # stood on 16 against a 7: basic strategy hits
        dealt(2, "p7", "6C", ["5S", "6H", "9D"], "live"),  # hit 11 against a 6 (doubles), then stood on 20
        dealt(3, "p8", "9C", ["TS", "7H"], "live"),  # stood on 17: right
        dealt(4, "p8", "AS", ["TS", "9H"], "live", insurance=500),  # insured: basic strategy never does
        dealt(5, "p8", "6C", ["5S", "6H", "4D"], "live", multiplier=2),  # doubled 11 against a 6: right
    ])
    players = json.loads(ratings(migrated, tmp_path, "--json"))["players"]
    p7, p8 = players["p7"]["blackjack"], players["p8"]["blackjack"]
    sixteen, eleven = values[(("H2", 16), 7)], values[(("H2", 11), 6)]
    expected = 1000 * (max(sixteen.values()) - sixteen["stand"]) + 1000 * (max(eleven.values()) - eleven["hit"])
    assert (p7["decisions"], p7["deviations"]) == (3, 2)
    assert p7["ev_cost"] == round(expected) > 0
    assert {d["action"] for d in p7["costliest"]} == {"stand", "hit"}
    assert sum(d["ev_cost"] for d in p7["costliest"]) in (p7["ev_cost"] - 1, p7["ev_cost"], p7["ev_cost"] + 1)
    assert (p8["decisions"], p8["deviations"], p8["insurance_taken"]) == (4, 1, 1)
    assert p8["ev_cost"] == round(500 * (1 - 3 * 96 / 311))  # six decks less the ace shown
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(ratings(migrated, tmp_path, "--csv")))}
    assert rows["p7"]["blackjack_deviations"] == "2" and rows["p8"]["blackjack_ev_cost"] == str(p8["ev_cost"])
    page = ratings(migrated, tmp_path, "--html")
    assert "Against basic strategy" in page and "Costliest blackjack decisions" in page
    assert "(insurance)" in page and "None" not in page
    assert "<td>10♠ 6♥</td><td>7♣</td>" in page and "TS 6H" not in page  # cards as everywhere else, not codes


def test_a_round_without_a_readable_blackjack_outcome_rates_nothing(migrated: str, tmp_path: Path) -> None:
    odd = {**round_record("bj1", 1, seq=1, player="p9"), "outcome": {"dealer": ["TS", "7H"]}}  # a bare card list
    [refused] = records.parse("croupier/bj1/round", json.dumps(odd).encode())  # the contract keeps it out
    assert isinstance(refused, records.Rejected) and "outcome" in refused.reason
    broken = dealt(2, "p9", "XX", ["TS", "6H"], "live")
    seed(migrated, [state("bj1", "blackjack", "ru6"), broken])
    p9 = json.loads(ratings(migrated, tmp_path, "--json"))["players"]["p9"]
    assert p9["rounds"] == 1 and p9["blackjack"] is None
