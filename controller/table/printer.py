"""The table as text on a terminal: prompts, alerts and closed rounds as they happen."""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller.journal import Entry
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.registry import ADAPTERS


def round_line(record: dict[str, Any]) -> str:
    """One line per closed round: status, money, and every hand's cards."""
    out = record["outcome"]
    adapter = ADAPTERS.get(record["game"])  # a game of another version: the generic wording
    parts = [
        f"ROUND {record['round']} {record['status']}: stake {record['stake_total']} payout {record['payout_total']}",
        *(adapter.outcome_lines(out) if adapter is not None else _dealer_and_hands(out)),
    ]
    if out.get("burned"):
        parts.append(f"burned {' '.join(out['burned'])}")
    for c in record.get("corrections") or []:
        changed = " ".join(f"box {x['box']}.{x['hand']} {x['kind']} {x['before']}->{x['after']}" for x in c["changes"])
        parts.append(f"corrected (#{c['seq']} by {c['requested_by']}, approved by {c['approved_by']}: "
                     f"{c['reason']}) {changed}")
    return " | ".join(parts)


def _dealer_and_hands(out: dict[str, Any]) -> list[str]:
    """Blackjack's dealer and hands (roulette's numbers)."""
    hands = []
    for box in out.get("boxes", []):
        for h in box["hands"]:
            hands.append(f"box {box['box']}.{h['hand']} {' '.join(h['cards'])} ({h['status']})")
    dealer = out.get("dealer", {})
    return [
        f"numbers {' '.join(out['numbers']) or '-'}" if "numbers" in out else f"dealer {' '.join(dealer.get('cards', []))}",
        *hands,
    ]


class Printer:
    def __init__(self, stream: TextIO, as_json: bool = False, prompts: bool = True) -> None:
        self.stream = stream
        self.as_json = as_json
        self.prompts = prompts

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
            self._write(json.dumps(entry.payload) if self.as_json else round_line(entry.payload))

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        if self.prompts:
            self._write(json.dumps({"prompt": prompt, "round": core.round_id}) if self.as_json else f"> {prompt}")
