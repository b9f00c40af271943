"""The open round's course, one job of the table's state machine: open it, apply the engine's
actions and the cards dealt to it, ask for its random draw, void it, close it with its record.

``TableCore`` takes these steps from ``RoundCourse``; each step sees the table through
``CourseTable``, the protocol of what it uses (the core's parts and its few shared helpers), so
this module imports no core. Pure: no I/O, no clock (docs/architecture.md).
"""

from __future__ import annotations

from typing import Any, Protocol

from controller.games.base import Deal, GameRules, RuleError
from controller.shoe import ImpossibleCard
from controller.table import inputs, remote, seats
from controller.table.betting import SEALING
from controller.table.dealers import DealerDesk
from controller.table.effects import LOCK, DeviceCommand, Draw, Effect, Record
from controller.table.games.base import Engine
from controller.table.holds import WARNING, HoldDesk
from controller.table.opening import OpeningTable, check_can_open
from controller.table.phases import BETTING, PLAYING, SETTLING
from controller.table.record import round_record, void_said, void_settlements
from controller.table.refusal import Refusal
from controller.table.shoe_device import ShoeDevice, ShoeState


class CourseTable(OpeningTable, remote.RemoteTable, Protocol):
    """What the round's course needs of the table."""

    table_id: str
    rules: GameRules
    serial: int
    _out: list[Effect]

    @property
    def engine(self) -> Engine | None: ...

    @property
    def holds(self) -> HoldDesk: ...

    @property
    def dealers(self) -> DealerDesk: ...

    @property
    def shoe_device(self) -> ShoeDevice: ...

    @property
    def shoe(self) -> ShoeState: ...

    @property
    def dealer(self) -> str | None: ...

    @property
    def opened(self) -> str: ...

    @property
    def burned(self) -> list[str]: ...

    @property
    def round_dealer(self) -> str | None: ...

    @property
    def shoe_round(self) -> int: ...

    def hold_on(self, code: str, message: str, cards: list[tuple[str, int | None]]) -> None: ...

    def advanced(self) -> None: ...

    def close(self, status: str, settlements: list[Any], **more: Any) -> None: ...


#: a ``Deal`` is a frozen value: one per card, not one built per card dealt
_DEALS: dict[str, Deal] = {}


class RoundCourse:
    """The steps of the open round (``TableCore``'s; see the module)."""

    def deal(self: CourseTable, card: str, n: int | None) -> None:
        """A card checked against the shoe goes to the round (a card it cannot take holds)."""
        engine = self.engine
        if engine is None or self.phase not in (BETTING, PLAYING, SETTLING):
            self.hold_on("table.card.no_round", f"{card}: no round is being dealt", [(card, n)])
            return
        action = _DEALS.get(card)
        if action is None:  # a card the shoe's check took: at most one per card of the deck
            action = _DEALS[card] = Deal(card)
        try:
            engine.apply(action)
        except (RuleError, ImpossibleCard) as exc:
            code = exc.rule if isinstance(exc, RuleError) else "shoe.impossible_card"
            message = exc.message if isinstance(exc, RuleError) else str(exc)
            self.hold_on(code, message, [(card, n)])
            return
        self.advanced()

    def open_round(self: CourseTable) -> None:
        check_can_open(self)
        shoe_round = self.shoe_device.round_opened()
        self.round.open(self.table_id, self.adapter.new_round(self.rules), self.ts(), self.dealer, shoe_round)
        self.seats.round_opened()
        self.changed()
        self._out += [LOCK, *self.betting.opened_round(self.round.round_id or "", self.ts(), self.cause())]
        own = self.adapter.device
        if own is not None:
            self._out += [DeviceCommand(own, name) for name in self.adapter.open_commands(self.rules)]

    def engine_action(self: CourseTable, action: Any) -> None:
        engine = self.engine
        if engine is None:
            raise Refusal("table.round.none", "no round is open")
        try:
            engine.apply(action)
        except RuleError as exc:
            raise Refusal(exc.rule, exc.message, exc.said) from None
        self.advanced()

    def void(self: CourseTable, reason: str) -> None:
        if self.engine is None:
            raise Refusal("table.round.none", "no round is open to void")
        self.round.burn(self.holds.void())  # the held cards go with the void round
        self.shoe_device.cancel_keyin()
        bets, summary = void_settlements(self.adapter.void_round(self.engine, reason))
        self.alert(WARNING, "table.round.void", f"round {self.round_id} void: {reason}: {void_said(summary, *self.currency)}",
                   returned=summary["returned_total"], stands=summary["stands_payout_total"])
        self.close("void", bets, void=summary)

    def advanced(self: CourseTable) -> None:
        self.round.progressed()
        self.serial += 1  # ``changed()``, without its call: this runs after every card, bet and decision
        # the remote side only where it has something to follow (each checks again for itself):
        # a betting time or a seal under way, a player seated or a turn waiting
        if self.betting.status in remote.FOLLOWED:
            remote.progressed(self)
        if self.seats.seats or self.seats.turn is not None:
            seats.follow(self)
        # a game without draws is never due one (and ``draw_requested`` stays False): not asked
        if self.adapter.draws and self.round.draw(self.draw_due()):
            self.emit(Draw(self.round_id))

    def draw_due(self: CourseTable) -> bool:
        """The open round needs its random draw (made by the loop, journaled as a ``draw`` input)."""
        return (self.engine is not None and self.hold is None and self.betting.status != SEALING
                and self.adapter.draw_due(self.engine))

    def _draw(self: CourseTable, payload: dict[str, Any]) -> None:
        if not self.draw_due():
            raise Refusal("table.draw.unexpected", "no draw is due in this round")
        self.engine_action(self.adapter.draw_action(payload))

    def close(self: CourseTable, status: str, settlements: list[Any], **more: Any) -> None:
        """Close the open round; ``more`` joins its outcome (a void's summary)."""
        assert self.engine is not None and self.round_id is not None
        outcome = {**self.engine.outcome_record(), "burned": list(self.burned), **more}  # checked, not dumped
        record = round_record(
            table=self.table_id, round_id=self.round_id, game=self.adapter.game, opened=self.opened,
            closed=self.ts(), status=status, outcome=outcome, settlements=settlements,
            dealer=self.round_dealer, shoe=self.shoe.shoe_id, shoe_round=self.shoe_round,
            remote=seats.remote_part(self.betting, self.seats),
        )
        self.betting.round_closed(self.cause())
        self.seats.round_opened()  # no turn waits on a closed round
        self.emit(Record(inputs.ROUND_CLOSED, record, self.round_id))
        self.emit(LOCK)
        self.book.closed(record)
        self.round.closed(record["closed"])
        self.changed()
        self.shoe_device.round_closed(self.adapter.new_shoe_every_round)
