"""The pit's commands at the table, and the dealer's correction requests they answer (docs/pit.md).

``close_after_round`` closes the table once the round is over and ``reopen`` opens it again
(journaled, so it survives restarts); ``void_round`` voids the open round; ``approve_correction``
applies a correction the dealer asked for (``corrections``) and ``reject_correction`` turns it
down with a reason; ``acknowledge_alert`` closes an error alert (``alerts``); ``dismiss``
releases a hold that offers it (an integrity hold only this way, with a reason). Each command
is its model (controller/commands/models.py), validated once at the edge; ``PIT_HANDLERS`` maps
each model to what it does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from controller.commands.models import (
    AcknowledgeAlert,
    ApproveCorrection,
    CloseAfterRound,
    Command,
    Correct,
    Dismiss,
    RejectCorrection,
    Reopen,
    VoidRound,
)
from controller.games.base import GameRules
from controller.money import format_money
from controller.table import inputs
from controller.table.alerts import AlertBook
from controller.table.corrections import Bound, CorrectionBook
from controller.table.effects import Effect, Record
from controller.table.games.base import GameAdapter
from controller.table.holds import INFO, WARNING
from controller.table.refusal import Refusal


@dataclass(slots=True)
class PitDesk:
    #: the pit asked to close the table after this round (until it reopens it)
    closing: bool = False
    #: bumps when what the pit's ``state`` shows of closing, alerts or corrections changes
    serial: int = 0


class PitTable(Protocol):
    """What the pit's commands need of the table."""

    @property
    def round_id(self) -> str | None: ...

    @property
    def round_open(self) -> bool: ...

    @property
    def pit(self) -> PitDesk: ...

    @property
    def book(self) -> CorrectionBook: ...

    @property
    def alert_book(self) -> AlertBook: ...

    #: the table's currency and its minor-unit digits (alerts say money with them)
    currency: tuple[str, int]

    @property
    def adapter(self) -> GameAdapter:
        """The game (what a bet can return bounds a correction), with ``rules``."""

    @property
    def rules(self) -> GameRules: ...

    def changed(self) -> None: ...

    def pit_changed(self) -> None: ...

    def release(self, way: str, *, by_pit: bool = False, reason: str | None = None, by: str | None = None) -> None: ...

    def void(self, reason: str) -> None: ...

    def emit(self, effect: Effect) -> None: ...

    def alert(self, severity: str, code: str, message: str, **detail: Any) -> None: ...

    def cause(self) -> int: ...

    def source(self) -> str: ...

    def ts(self) -> str: ...


def pit_command(core: PitTable, order: Command, sender: str) -> None:
    """Apply one journaled pit command (validated at the edge: ``order`` is its model)."""
    handler = PIT_HANDLERS.get(type(order))
    if handler is None:
        raise Refusal("pit.command.unknown", f"{order.name()} is no pit command")
    handler(core, order, sender)


def _close_after_round(core: PitTable, order: Any, sender: str) -> None:
    core.pit.closing = True
    core.changed()
    core.pit_changed()  # mid-round the dealer's prompt stays the same: the pit's state must still go out


def _reopen(core: PitTable, order: Any, sender: str) -> None:
    if not core.pit.closing:
        raise Refusal("pit.reopen.not_closed", "the table is not closed")
    core.pit.closing = False
    core.changed()
    core.pit_changed()
    core.alert(INFO, "pit.reopened", f"the table was reopened by {sender}", by=sender)


def _dismiss(core: PitTable, order: Dismiss, sender: str) -> None:
    core.release("dismiss", by_pit=True, reason=order.reason, by=sender)


def _void_round(core: PitTable, order: VoidRound, sender: str) -> None:
    if order.round != core.round_id or not core.round_open:
        raise Refusal("pit.void_round.not_open", f"round {order.round} is not the open round")
    core.void(f"voided by the pit ({sender})" + (f": {order.reason}" if order.reason else ""))


def _approve(core: PitTable, order: ApproveCorrection, sender: str) -> None:
    before, corrected = core.book.approve(order.correction, sender, seq=core.cause(), ts=core.ts())
    core.pit_changed()
    seq, round_id = corrected["corrections"][-1]["seq"], corrected["round"]
    core.emit(Record(inputs.ROUND_CLOSED, corrected, round_id))
    core.alert(INFO, "round.correction_applied",
               f"correction {seq} of round {round_id} approved by {sender}: "
               f"payout {format_money(before['payout_total'], *core.currency)} -> "
               f"{format_money(corrected['payout_total'], *core.currency)}",
               correction=seq, corrected_round=round_id)


def _reject(core: PitTable, order: RejectCorrection, sender: str) -> None:
    request = core.book.reject(order.correction, sender, order.reason, ts=core.ts())
    core.pit_changed()
    seq, round_id = request["correction"], request["round"]
    core.alert(INFO, "round.correction_rejected",
               f"correction {seq} of round {round_id} rejected by {sender}: {order.reason}",
               correction=seq, corrected_round=round_id, by=sender, reason=order.reason)


def _acknowledge(core: PitTable, order: AcknowledgeAlert, sender: str) -> None:
    seq = order.alert
    core.alert_book.acknowledge(seq, sender)
    core.pit_changed()
    core.alert(INFO, "pit.alert_acknowledged", f"alert {seq} acknowledged by {sender}", alert=seq, by=sender)


#: what each pit command does (the model class is the key: no command is looked up by name)
PIT_HANDLERS: dict[type[Command], Callable[[PitTable, Any, str], None]] = {
    CloseAfterRound: _close_after_round,
    Reopen: _reopen,
    Dismiss: _dismiss,
    VoidRound: _void_round,
    ApproveCorrection: _approve,
    RejectCorrection: _reject,
    AcknowledgeAlert: _acknowledge,
}


def correction_bound(core: PitTable) -> Bound:
    """What a bet can return at this table, as the game's rules say (``GameAdapter.most_returned``)."""
    return lambda kind, stake: core.adapter.most_returned(core.rules, kind, stake)


def check_correction(core: PitTable, order: Correct) -> None:
    """The table's edge: Refusal for a ``correct`` whose payout is more than its bet can return,
    before it is journaled."""
    core.book.check_payouts(order.round, order.changes, correction_bound(core))


def request_correction(core: PitTable, order: Correct) -> None:
    """The dealer's ``correct``: pending until the pit approves it."""
    request = core.book.request(order.round, order.changes, order.reason, bound=correction_bound(core),
                                seq=core.cause(), source=core.source(), ts=core.ts())
    core.pit_changed()
    rows = request["changes"]
    said = ", ".join(f"box {r['box']}.{r['hand']} {r['kind']} {format_money(r['before'], *core.currency)} -> "
                     f"{format_money(r['after'], *core.currency)}" for r in rows)
    core.alert(WARNING, "round.correction_pending",
               f"correction {request['correction']} of round {request['round']} waits for the pit's approval: "
               f"{said} ({request['reason']})", correction=request["correction"],
               corrected_round=request["round"], changes=[{k: v for k, v in r.items() if k != "index"} for r in rows])
