"""The alerts the table wrote: which errors are open, who acknowledged what.

The *alert book* is rebuilt from the journal: every ``alert`` entry the table wrote
reaches it through ``written`` (live as the loop writes it, on replay in journal order), and
the pit acknowledges an alert by its journal seq (docs/pit.md), so the open error alerts the
pit sees after a restart are exactly those it saw before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.journal import Entry
from controller.table import inputs
from controller.table.holds import ERROR
from controller.table.refusal import Refusal

TABLE_SOURCE = "table"  # the source of the output entries the table writes


@dataclass(slots=True)
class AlertBook:
    #: every alert seq the table wrote
    seqs: set[int] = field(default_factory=set)
    #: the open (unacknowledged) error alerts by seq, as the pit's ``state`` lists them
    open: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: alert seq -> who acknowledged it
    acknowledged: dict[int, str] = field(default_factory=dict)
    #: open alert seq -> when it was raised (its journal ``ts``): the console shows it
    raised: dict[int, str] = field(default_factory=dict)

    def written(self, entry: Entry) -> bool:
        """Take note of an output entry; True when the open alerts changed."""
        if entry.kind != inputs.ALERT or entry.source != TABLE_SOURCE:
            return False
        self.seqs.add(entry.seq)
        if entry.payload.get("severity") != ERROR or entry.seq in self.acknowledged:
            return False
        p = entry.payload
        self.open[entry.seq] = {"seq": entry.seq, "code": p.get("code"), "message": p.get("message"),
                                "round": entry.round_id}
        self.raised[entry.seq] = entry.ts
        return True

    def acknowledge(self, seq: Any, sender: str) -> None:
        """The pit acknowledged alert ``seq`` (Refusal when there is no such alert or it was)."""
        if not isinstance(seq, int) or isinstance(seq, bool) or seq not in self.seqs:
            raise Refusal("pit.acknowledge_alert.unknown", f"no alert {seq} was raised by this table")
        if seq in self.acknowledged:
            raise Refusal("pit.acknowledge_alert.already",
                          f"alert {seq} was acknowledged already by {self.acknowledged[seq]}")
        self.acknowledged[seq] = sender
        self.open.pop(seq, None)
        self.raised.pop(seq, None)
