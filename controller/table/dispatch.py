"""What each dealer command does at the table: a mapping from the command's model
(controller/commands/models.py) to its handler, so no command is looked up by name. A command
without a handler here is the game's own (``GameAdapter.game_action``: Russian poker's exchange
and misdeal). Handlers see the table through ``CommandTable`` only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from controller.commands import models as cmd
from controller.commands.models import Command
from controller.games.base import ClearBets, CloseBetting, Decide, PlaceBet
from controller.table.effects import Effect, Gate
from controller.table.refusal import Refusal


class CommandTable(Protocol):
    """What the dealer's commands need of the table."""

    @property
    def round_id(self) -> str | None: ...

    def open_round(self) -> None: ...

    def engine_action(self, action: Any) -> None: ...

    def game_action(self, make: Callable[[], Any]) -> Any: ...

    def settle(self) -> None: ...

    def void(self, reason: str) -> None: ...

    def new_shoe(self) -> None: ...

    def release(self, way: str) -> None: ...

    def key_card(self, card: str) -> None: ...

    def keyed_result(self, number: str) -> Any: ...

    def sign_in(self, dealer: str) -> None: ...

    def sign_out(self) -> None: ...

    def request_correction(self, order: cmd.Correct) -> None: ...

    def emit(self, effect: Effect) -> None: ...


def _close_betting(table: CommandTable, order: cmd.CloseBetting) -> None:
    table.engine_action(CloseBetting())
    table.emit(Gate(locked=False))


def _void_round(table: CommandTable, order: cmd.VoidRound) -> None:
    if order.round is not None and order.round != table.round_id:
        raise Refusal("table.void_round.not_open", f"round {order.round} is not the open round")
    table.void(order.reason or "voided by the dealer")


def _key_result(table: CommandTable, order: cmd.KeyResult) -> None:
    table.engine_action(table.game_action(lambda: table.keyed_result(str(order.number))))


DEALER_HANDLERS: dict[type[Command], Callable[[Any, Any], None]] = {
    cmd.OpenRound: lambda t, o: t.open_round(),
    cmd.Bet: lambda t, o: t.engine_action(PlaceBet(o.box, o.kind or "main", o.amount, o.player or "")),
    cmd.ClearBets: lambda t, o: t.engine_action(ClearBets(o.box, o.player)),
    cmd.CloseBetting: _close_betting,
    cmd.Decide: lambda t, o: t.engine_action(Decide(o.box, o.action, o.hand or 1, o.player or "", o.amount)),
    cmd.Settle: lambda t, o: t.settle(),
    cmd.KeyCard: lambda t, o: t.key_card(o.card),
    cmd.KeyResult: _key_result,
    cmd.SignIn: lambda t, o: t.sign_in(o.dealer),
    cmd.SignOut: lambda t, o: t.sign_out(),
    cmd.Burn: lambda t, o: t.release("burn"),
    cmd.Resume: lambda t, o: t.release("resume"),
    cmd.Dismiss: lambda t, o: t.release("dismiss"),
    cmd.VoidRound: _void_round,
    cmd.NewShoe: lambda t, o: t.new_shoe(),
    cmd.Correct: lambda t, o: t.request_correction(o),
}
