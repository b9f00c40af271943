"""What each dealer command does at the table: a mapping from the command's model
(controller/commands/models.py) to its handler, so no command is looked up by name. A command
without a handler here is the game's own (``GameAdapter.game_action``: Russian poker's exchange
and misdeal). Handlers see the table through ``CommandTable`` only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from controller.commands import models as cmd
from controller.commands.models import Command
from controller.commands.parse import from_journal
from controller.games.base import ClearBets, GameRules, place_bet
from controller.jsonbound import InputRefused
from controller.table.dealers import DealerDesk
from controller.table.games.base import Engine, GameAdapter
from controller.table.holds import INFO
from controller.table.phases import SETTLING
from controller.table.pit import PitTable, request_correction
from controller.table.refusal import Refusal, game_action
from controller.table.remote import close_betting
from controller.table.result_check import CheckedTable, second_card, second_source
from controller.table.seats import dealer_decide as seat_decide
from controller.table.shoe_device import ShoeDevice, ShoeTable


class UnreadableCommand(ValueError):
    """A journaled command that is no command of the model (controller/commands/)."""


def journaled(payload: dict[str, Any], giver: str) -> Command:
    """A journaled command's model. The edge journals only what it read into a model, so one
    this code cannot read was written by something else (a disk editor, a bug, a version before
    the model): like any entry that cannot be applied, it holds the table (never guessed at)."""
    try:
        return from_journal(payload, giver)
    except InputRefused as exc:
        raise UnreadableCommand(exc.message) from None


class CommandTable(PitTable, ShoeTable, CheckedTable, Protocol):
    """What the dealer's commands need of the table."""

    @property
    def engine(self) -> Engine | None: ...

    @property
    def phase(self) -> str: ...

    @property
    def adapter(self) -> GameAdapter: ...

    @property
    def rules(self) -> GameRules: ...

    @property
    def dealers(self) -> DealerDesk: ...

    @property
    def shoe_device(self) -> ShoeDevice: ...

    def open_round(self) -> None: ...

    def engine_action(self, action: Any) -> None: ...

    def close(self, status: str, settlements: list[Any], **more: Any) -> None: ...


def _void_round(table: CommandTable, order: cmd.VoidRound) -> None:
    if order.round is not None and order.round != table.round_id:
        raise Refusal("table.void_round.not_open", f"round {order.round} is not the open round")
    table.void(order.reason or "voided by the dealer")


def _key_card(table: CommandTable, order: cmd.KeyCard) -> None:
    if not second_card(table, table.phase, table.shoe_device, order.card):  # else: checked against the shoe's
        table.shoe_device.key_card(table, order.card)


def _key_result(table: CommandTable, order: cmd.KeyResult) -> None:
    if second_source(table, str(order.number)):  # the wheel gave it: the dealer's key checks it
        return
    table.engine_action(game_action(lambda: table.adapter.keyed_result(str(order.number))))


def _settle(table: CommandTable, order: cmd.Settle) -> None:
    if table.phase != SETTLING or table.engine is None:
        raise Refusal("table.settle.early", "the round has bets still to settle")
    table.close("settled", list(table.engine.settlements))


def _new_shoe(table: CommandTable, order: cmd.NewShoe) -> None:
    if table.engine is not None:
        raise Refusal("table.round.open", f"finish round {table.round_id} before a new shoe")
    table.shoe_device.new_shoe(table)


def _sign_in(table: CommandTable, order: cmd.SignIn) -> None:
    said = table.dealers.sign_in(order.dealer)
    table.changed()
    table.alert(INFO, "table.dealer", said, dealer=order.dealer)


def _sign_out(table: CommandTable, order: cmd.SignOut) -> None:
    before, said = table.dealers.sign_out()
    table.changed()
    table.alert(INFO, "table.dealer", said, dealer=before)


DEALER_HANDLERS: dict[type[Command], Callable[[Any, Any], None]] = {
    cmd.OpenRound: lambda t, o: t.open_round(),
    cmd.Bet: lambda t, o: t.engine_action(place_bet(o.box, o.kind or "main", o.amount, o.player or "")),
    cmd.ClearBets: lambda t, o: t.engine_action(ClearBets(o.box, o.player)),
    cmd.CloseBetting: lambda t, o: close_betting(t),
    cmd.Decide: seat_decide,  # a remote player's box is decided by the player, or by the table at its deadline
    cmd.Settle: _settle,
    cmd.KeyCard: _key_card,
    cmd.KeyResult: _key_result,
    cmd.SignIn: _sign_in,
    cmd.SignOut: _sign_out,
    cmd.Burn: lambda t, o: t.release("burn"),
    cmd.Resume: lambda t, o: t.release("resume"),
    cmd.Dismiss: lambda t, o: t.release("dismiss"),
    cmd.VoidRound: _void_round,
    cmd.NewShoe: _new_shoe,
    cmd.Correct: request_correction,
}
