"""The pit's commands at the table, and the dealer's correction requests they answer (docs/pit.md).

``close_after_round`` closes the table once the round is over and ``reopen`` opens it again
(journaled, so it survives restarts); ``void_round`` voids the open round; ``approve_correction``
applies a correction the dealer asked for (``corrections``); ``acknowledge_alert`` closes an
error alert (``alerts``); ``dismiss`` releases a hold that offers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.table import inputs
from controller.table.effects import Record
from controller.table.holds import INFO, WARNING
from controller.table.refusal import Refusal

if TYPE_CHECKING:
    from controller.table.core import TableCore


def pit_command(core: TableCore, payload: dict[str, Any]) -> None:
    """Apply one journaled pit command (the feed validated its shape)."""
    kind, sender = payload.get("command"), str(payload.get("sender", ""))
    if kind == "close_after_round":
        core.closing = True
        core.changed()
    elif kind == "reopen":
        if not core.closing:
            raise Refusal("pit.reopen.not_closed", "the table is not closed")
        core.closing = False
        core.changed()
        core.alert(INFO, "pit.reopened", f"the table was reopened by {sender}", by=sender)
    elif kind == "dismiss":
        core.release("dismiss")
    elif kind == "void_round":
        if payload.get("round") != core.round_id or core.engine is None:
            raise Refusal("pit.void_round.not_open", f"round {payload.get('round')} is not the open round")
        core.void(f"voided by the pit ({payload.get('sender')})")
    elif kind == "approve_correction":
        _approve(core, payload.get("correction", ""), sender)
    elif kind == "acknowledge_alert":
        seq = payload.get("alert")
        core.alert_book.acknowledge(seq, sender)
        core.pit_serial += 1
        core.alert(INFO, "pit.alert_acknowledged", f"alert {seq} acknowledged by {sender}", alert=seq, by=sender)


def _approve(core: TableCore, ident: Any, sender: str) -> None:
    before, corrected = core.book.approve(ident, sender, seq=core.cause(), ts=core.ts())
    core.pit_serial += 1
    seq, round_id = corrected["corrections"][-1]["seq"], corrected["round"]
    core.emit(Record(inputs.ROUND_CLOSED, corrected, round_id))
    core.alert(INFO, "round.correction_applied",
               f"correction {seq} of round {round_id} approved by {sender}: "
               f"payout {before['payout_total']} -> {corrected['payout_total']}",
               correction=seq, corrected_round=round_id)


def request_correction(core: TableCore, round_id: Any, changes: Any, reason: Any) -> None:
    """The dealer's ``correct``: pending until the pit approves it."""
    request = core.book.request(round_id, changes, reason, seq=core.cause(), source=core.source(), ts=core.ts())
    core.pit_serial += 1
    rows = request["changes"]
    said = ", ".join(f"box {r['box']}.{r['hand']} {r['kind']} {r['before']}->{r['after']}" for r in rows)
    core.alert(WARNING, "round.correction_pending",
               f"correction {request['correction']} of round {request['round']} waits for the pit's approval: "
               f"{said} ({request['reason']})", correction=request["correction"],
               corrected_round=request["round"], changes=[{k: v for k, v in r.items() if k != "index"} for r in rows])
