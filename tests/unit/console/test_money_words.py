"""Money as money in what the table tells people: refusals, correction alerts, the printer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.config import load
from controller.games.base import BetRefused
from controller.journal import Entry
from controller.money import limits_said
from controller.process import build_core
from controller.table import inputs
from controller.table.effects import Record
from controller.terminal.printer import round_line

CONFIG = """
[table]
id = "t1"
game = "blackjack"
preset = "ru6"
journal = "t.journal"
currency = "{currency}"
currency_digits = {digits}

[limits]
main = {{ min = 500, max = 500000 }}
"""


def table(tmp_path: Path, currency: str = "EUR", digits: int = 2) -> Any:
    path = tmp_path / "t.toml"
    path.write_text(CONFIG.format(currency=currency, digits=digits))
    core = build_core(load(path))
    core.step(Entry(1, "2026-01-01T00:00:00Z", None, inputs.DEVICE, "shoe", {"device": "shoe", "type": "online"}))
    return core


def alerts(effects: list[Any]) -> list[dict[str, Any]]:
    return [e.payload for e in effects if isinstance(e, Record) and e.kind == inputs.ALERT]


def command(core: Any, seq: int, name: str, **args: Any) -> list[Any]:
    return core.step(Entry(seq, "2026-01-01T00:00:00Z", core.round_id, inputs.COMMAND, "test",
                           inputs.command(name, **args)))


def test_a_bet_outside_the_limits_is_refused_in_the_tables_money_with_its_rule_code(tmp_path: Path) -> None:
    core = table(tmp_path)
    command(core, 2, "open_round")
    (refused,) = alerts(command(core, 3, "bet", box=1, amount=100))
    assert refused["code"] == "blackjack.bet.limits"  # the rule's code is unchanged
    assert refused["message"] == "main bet 1.00 EUR outside table limits 5.00 EUR..5,000.00 EUR"


def test_a_currency_without_minor_units(tmp_path: Path) -> None:
    core = table(tmp_path, "JPY", 0)
    command(core, 2, "open_round")
    (refused,) = alerts(command(core, 3, "bet", box=1, amount=100))
    assert refused["message"] == "main bet 100 JPY outside table limits 500 JPY..500,000 JPY"


def test_the_plain_message_keeps_minor_units_for_logs() -> None:
    error = BetRefused("g.limits", limits_said("ante", 101, 10, 100))
    assert error.message == "ante bet 101 outside table limits 10..100"
    assert error.text("GBP", 2) == "ante bet 1.01 GBP outside table limits 0.10 GBP..1.00 GBP"


def test_the_printers_round_line_has_currency_and_separators() -> None:
    record = {"round": "t1-000001", "status": "settled", "stake_total": 400000, "payout_total": 825000,
              "game": "blackjack", "outcome": {}, "bets": []}
    line = round_line(record, currency="EUR", digits=2)
    assert line.startswith("ROUND t1-000001 settled: stake 4,000.00 EUR payout 8,250.00 EUR"), line
