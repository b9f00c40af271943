"""The table as text on a terminal: prompts, alerts and closed rounds as they happen."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, TextIO

from controller.cards import cards_text
from controller.journal import Entry
from controller.money import format_money
from controller.round_money import counted
from controller.round_money import returned as returned_stakes
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.games.describe import outcome_lines


def round_line(record: dict[str, Any], *, currency: str = "EUR", digits: int = 2) -> str:
    """One line per closed round: status, money (with the table's currency), and the round as
    its game's view tells it (cards with suits); a game this code does not know: generic."""
    out = record["outcome"]
    money = functools.partial(format_money, currency=currency, digits=digits)
    parts = [f"ROUND {record['round']} {record['status']}: {money_said(record, money)}", *outcome_lines(record)]
    if out.get("burned"):
        parts.append(f"burned {cards_text(out['burned'])}")
    for c in record.get("corrections") or []:
        changed = " ".join(f"box {x['box']}.{x['hand']} {x['kind']} {money(x['before'])}->{money(x['after'])}"
                           for x in c["changes"])
        parts.append(f"corrected (#{c['seq']} by {c['requested_by']}, approved by {c['approved_by']}: "
                     f"{c['reason']}) {changed}")
    return " | ".join(parts)


def money_said(record: dict[str, Any], money: Callable[[int], str]) -> str:
    """A settled round's stake and payout; a void round's money as it went: what stood (settled
    before the void, counted as played, controller/round_money.py) and what was returned, per bet."""
    void = (record.get("outcome") or {}).get("void")
    if record.get("status") != "void" or not isinstance(void, dict):
        return f"stake {money(record['stake_total'])} payout {money(record['payout_total'])}"
    drop, paid = counted(record)
    bets = record.get("bets") or []
    returned = set(void.get("returned") or [])
    rows = [f"box {b['box']}.{b['hand']} {b['kind']} {money(b['stake'])} "
            + (f"returned {money(b['payout'])}" if i in returned else f"stood, paid {money(b['payout'])}")
            for i, b in enumerate(bets)]
    return (f"stood: stake {money(drop)} payout {money(paid)}; returned {money(returned_stakes(record))}"
            + (f" ({', '.join(rows)})" if rows else ""))


class Printer:
    def __init__(self, stream: TextIO, as_json: bool = False, prompts: bool = True, *,
                 currency: str = "EUR", digits: int = 2) -> None:
        """``currency`` / ``digits``: the table's ``[table] currency`` and ``currency_digits``."""
        self.stream = stream
        self.as_json = as_json
        self.prompts = prompts
        self.currency, self.digits = currency, digits

    def _write(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()

    def on_entry(self, entry: Entry) -> None:
        if entry.kind == inputs.ALERT:
            p = entry.payload
            if self.as_json:
                self._write(json.dumps({"alert": p, "round": entry.round_id, "seq": entry.seq}))
            else:
                held = " [HOLD: " + " | ".join(p.get("options", [])) + "]" if p.get("hold") else ""
                self._write(f"ALERT {p['severity']} {p['code']}: {p['message']}{held}")
        elif entry.kind == inputs.ROUND_CLOSED:
            self._write(json.dumps(entry.payload) if self.as_json
                        else round_line(entry.payload, currency=self.currency, digits=self.digits))

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        if self.prompts:
            self._write(json.dumps({"prompt": prompt, "round": core.round_id}) if self.as_json else f"> {prompt}")
