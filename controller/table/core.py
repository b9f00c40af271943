"""The table's state machine: one journal entry in, effects out; no I/O, no clock, no randomness.

Live and replay run the very same ``step``, so replaying the journal rebuilds the table
exactly: the round, its bets and cards, the shoe's composition and card count, an open hold.
Timestamps come from the entries; round ids count rounds (``<table>-000001``). See
docs/architecture.md for the layers and docs/rules.md for the procedures.

Round lifecycle: ``open_round`` (gate locked) -> bets -> ``close_betting`` (gate unlocked) ->
cards and decisions as the engine expects them -> the engine has settled every bet: the dealer
is told to settle -> ``settle`` closes the round (``round_closed`` record, gate locked);
``void_round`` closes it void: every bet still riding is refunded, what was settled stands.

The core composes one module per job: the shoe's accounting (``shoe_device``: the shoe's own
device adapter), the game's own device (the adapter's ``device_step``: roulette's wheel),
device health (``health``), holds (``holds``), corrections of closed rounds (``corrections``),
the alerts the pit acknowledges (``alerts``) and the dealer's prompt and the pit's view
(``view``). A random draw (multipliers) is asked for with a ``Draw`` effect and comes back as
a journaled ``draw`` input, so replay applies the draw that was made and never draws again.

A journaled entry never bricks the table: one the core cannot apply (whatever it raises) holds
the table with the ``table.entry_unapplicable`` alert naming its seq, and the table goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from controller import commands as cmd
from controller.commands.models import Command
from controller.commands.parse import from_journal, parse_order
from controller.games.base import Deal, ExpectKind, GameRules, RuleError
from controller.journal import Entry
from controller.shoe import ImpossibleCard
from controller.table import inputs, view
from controller.table.alerts import TABLE_SOURCE, AlertBook
from controller.table.corrections import CorrectionBook
from controller.table.dealers import sign_in, sign_out
from controller.table.dispatch import DEALER_HANDLERS
from controller.table.effects import DeviceCommand, Draw, Effect, Gate, Record
from controller.table.events import device_of, parse_event
from controller.table.game_device import apply_device_step, resume_round
from controller.table.games.base import Engine, GameAdapter
from controller.table.health import DeviceHealth
from controller.table.holds import ERROR, INFO, WARNING, Hold, alert, refused_in_hold, released
from controller.table.inputs import InputRefused
from controller.table.opening import check_can_open
from controller.table.phases import BETTING, IDLE, PLAYING, SETTLING
from controller.table.pit import pit_command, request_correction
from controller.table.presses import PressRefused, press_command
from controller.table.record import round_record, void_said, void_settlements
from controller.table.refusal import Refusal
from controller.table.shoe_device import SHOE, ShoeDevice, ShoeState
from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline, Refused
from drivers.spots.events import SpotPress

log = logging.getLogger(__name__)
__all__ = ["BETTING", "IDLE", "PLAYING", "SETTLING", "TABLE_SOURCE", "Refusal", "ShoeState", "TableCore"]


class UnreadableCommand(ValueError):
    """A journaled command that is no command of the model (controller/commands/)."""


class TableCore:
    def __init__(self, table_id: str, adapter: GameAdapter, rules: GameRules, preset: str | None = None,
                 burn_on_new_shoe: int = 0, currency: str = "EUR", currency_digits: int = 2) -> None:
        self.table_id = table_id
        #: what the table's minor units are (ISO 4217 code, digits after the point): for the pages
        self.currency = (currency, currency_digits)
        self.adapter = adapter
        self.rules = rules
        self.preset = preset
        self.engine: Engine | None = None
        self.round_id: str | None = None
        self.rounds = 0  # rounds opened since the journal began
        self.phase = IDLE
        self.opened = ""
        self.burned: list[str] = []
        self.hold: Hold | None = None
        self.closing = False  # the pit asked to close the table after this round (until it reopens it)
        self.dealer: str | None = None  # who signed in to deal (``sign_in``)
        self.round_dealer: str | None = None  # who dealt the open round (on its record)
        self.shoe_round = 0  # the open round's index in its shoe (on its record)
        self.serial = 0  # bumps on every change of state: simulated actors act once per value
        self.pit_serial = 0  # bumps when what the pit's ``state`` shows of alerts or corrections changes
        self.closed_rounds = 0
        self.health = DeviceHealth()
        self.shoe_device = ShoeDevice(table_id, adapter.decks(rules), adapter.removed_ranks(rules),
                                      burn_on_new_shoe, adapter.uses_shoe)
        self.book = CorrectionBook()
        self.alert_book = AlertBook()
        self.draw_requested = False  # a ``Draw`` effect is out and its ``draw`` input not yet in
        #: why the last bet-spot press was refused, shown with the prompt until the state changes
        self.notice: str | None = None
        #: the journal cannot be written (disk full): a hold the loop sets and clears, never journaled
        self.outage: Hold | None = None
        self._out: list[Effect] = []
        self._entry: Entry | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a snapshot) without what belongs to this process only: the outage, a step's
        effects in flight."""
        return {**self.__dict__, "outage": None, "_out": [], "_entry": None}

    # ------------------------------------------------------------------ the public names of the parts
    @property
    def shoe(self) -> ShoeState:
        return self.shoe_device.shoe

    @property
    def keyin(self) -> int | None:
        """n of an unread card waiting to be keyed in."""
        return self.shoe_device.keyin

    @property
    def burn_on_new_shoe(self) -> int:
        return self.shoe_device.burn_on_new_shoe

    @property
    def devices(self) -> dict[str, dict[str, Any]]:
        return self.health.devices

    @property
    def records(self) -> dict[str, dict[str, Any]]:
        return self.book.records

    @property
    def corrections(self) -> dict[int, dict[str, Any]]:
        return self.book.corrections

    @property
    def alerts_open(self) -> dict[int, dict[str, Any]]:
        return self.alert_book.open

    @property
    def acknowledged(self) -> dict[int, str]:
        return self.alert_book.acknowledged

    @property
    def round_open(self) -> bool:
        return self.engine is not None

    # ------------------------------------------------------------------ stepping
    def step(self, entry: Entry, given: DeviceEvent | Command | None = None) -> list[Effect]:
        """Apply one journaled input; the effects to carry out, in order. ``given`` is the
        entry's model as the edge validated it (a driver's event, a command); on replay it is
        read from the journaled payload."""
        self._out = []
        self._entry = entry
        serial = self.serial
        try:
            if entry.kind == inputs.DEVICE:
                self._device(given if isinstance(given, DeviceEvent) else parse_event(entry.payload))
            elif entry.kind == inputs.COMMAND:
                self._command(given if isinstance(given, Command) else self._journaled(entry.payload, cmd.DEALER))
            elif entry.kind == inputs.PIT_COMMAND:
                order = given if isinstance(given, Command) else self._journaled(entry.payload, cmd.PIT)
                pit_command(self, order, str(entry.payload.get("sender", "")))
            elif entry.kind == inputs.DRAW:
                self._draw(entry.payload)
        except Refusal as refusal:
            self.alert(WARNING, refusal.code, refusal.message, refused=entry.payload)
        except Exception as exc:  # noqa: BLE001 - whatever it is, this entry must not brick the table
            self._unapplicable(entry, exc)
        if self.serial != serial:
            self.notice = None
        return self._out

    def _unapplicable(self, entry: Entry, exc: Exception) -> None:
        log.error("journal entry %s (%s) cannot be applied: %r", entry.seq, entry.kind, exc)
        message = f"journal entry {entry.seq} ({entry.kind}) cannot be applied: {type(exc).__name__}: {exc}"[:300]
        options = ("void_round",) if self.engine is not None else ("dismiss",)
        self.raise_hold("table.entry_unapplicable", message, options, cause=entry.seq, entry=entry.seq)

    def restarted(self, hold_open_round: bool = True) -> None:
        """The process (re)started: devices are offline until they report, faults stay active
        until the device reports a healthy state (AGCO 6.1.8, 11.1.3). A round left open holds
        until the dealer has checked the layout: ``resume`` it or ``void_round`` it (not on the
        replay of a start journaled by a version without that hold: its journal means what it did)."""
        self.health.restarted()
        self.changed()
        if hold_open_round and self.engine is not None and self.hold is None:
            message = f"the table restarted with round {self.round_id} open: check the layout, then resume or void it"
            self.raise_hold("table.restart", message, ("resume", "void_round"), announce=False)

    def set_burn(self, count: int) -> None:
        """The ``burn_on_new_shoe`` the table runs under from now on (a ``table_started`` entry);
        a shoe nothing has left yet is burned by it too."""
        if self.shoe_device.set_burn(count, self.round_open):
            self.changed()

    def written(self, entry: Entry) -> None:
        """An output entry the table wrote (live: as the loop writes it; replay: in journal order)."""
        if self.alert_book.written(entry):
            self.pit_changed()

    # ------------------------------------------------------------------ what the parts use
    def changed(self) -> None:
        self.serial += 1

    def pit_changed(self) -> None:
        """What the pit's ``state`` shows of alerts or corrections changed."""
        self.pit_serial += 1

    def set_closing(self, closing: bool) -> None:
        """The pit closed the table after this round (True) or reopened it."""
        self.closing = closing
        self.changed()

    def emit(self, effect: Effect) -> None:
        self._out.append(effect)

    def alert(self, severity: str, code: str, message: str, *, hold: Hold | None = None, **detail: Any) -> None:
        cause = self._entry.seq if self._entry else 0
        self._out.append(Record(inputs.ALERT, alert(severity, code, message, cause, hold=hold, **detail),
                                self.round_id))

    def health_change(self, device: str, **change: Any) -> None:
        if self.health.change(device, **change):
            self.changed()

    def hold_on(self, code: str, message: str, cards: list[tuple[str, int | None]]) -> None:
        """Hold the round (cards that left the shoe set aside); while holding, the cards join."""
        if self.hold is not None:
            for text, n in cards:
                self.join_hold(text, n)
            return
        options = ("burn", "void_round") if self.engine is not None and self.phase != IDLE else ("burn",)
        self.raise_hold(code, message, options, cards=cards, detail={"cards": [c for c, _ in cards]})

    def raise_hold(self, code: str, message: str, options: tuple[str, ...], *, cause: int | None = None,
                   cards: Sequence[tuple[str, int | None]] = (), pit_only: bool = False, severity: str = ERROR,
                   announce: bool = True, detail: dict[str, Any] | None = None, **more: Any) -> Hold:
        """The one way the table holds (docs/rules.md, procedures): a hold already open stays
        the one shown (a second fault only adds its alert). ``announce`` journals the alert;
        ``pit_only`` holds are released by the pit only, with a reason."""
        if self.hold is None:
            self.hold = Hold(code, message, options, self.cause() if cause is None else cause, list(cards), pit_only)
        self.changed()
        if announce:
            self.alert(severity, code, message, hold=self.hold, **(detail or {}), **more)
        return self.hold

    def note_round_opened(self, number: int) -> None:
        """Round ``number`` was opened once (seen in a journal entry this table did not apply):
        a round id is never issued twice."""
        self.rounds = max(self.rounds, number)

    def join_hold(self, text: str, n: int | None) -> None:
        assert self.hold is not None
        self.hold.cards.append((text, n))
        self.changed()
        self.alert(ERROR, "table.card_during_hold", f"card {text} (n={n}) left the shoe while the table holds",
                   hold=self.hold, card=text)

    def deal(self, card: str, n: int | None) -> None:
        """A card checked against the shoe goes to the round (a card it cannot take holds)."""
        if self.engine is None or self.phase not in (BETTING, PLAYING, SETTLING):
            self.hold_on("table.card.no_round", f"{card}: no round is being dealt", [(card, n)])
            return
        try:
            self.engine.apply(Deal(card))
        except (RuleError, ImpossibleCard) as exc:
            code = exc.rule if isinstance(exc, RuleError) else "shoe.impossible_card"
            message = exc.message if isinstance(exc, RuleError) else str(exc)
            self.hold_on(code, message, [(card, n)])
            return
        self.advanced()

    # ------------------------------------------------------------------ device events
    def _device(self, event: DeviceEvent) -> None:
        device = device_of(event)
        match event:
            case DeviceOnline():
                self.health_change(device, online=True)
            case DeviceOffline(reason=reason):
                self.health_change(device, online=False)
                self.alert(ERROR, "device.offline", f"{device} offline: {reason}")
            case SpotPress():
                self._press(event)
            case _ if device == self.adapter.device:
                apply_device_step(self, device, self.adapter.device_step(self.engine, self.rules, event))
            case Refused(reason=reason, raw=raw) if device != SHOE:
                self.alert(WARNING, "device.refused", f"{device}: {reason}", raw=raw)
            case _:
                self.shoe_device.device_step(self, event)

    def _press(self, press: SpotPress) -> None:
        """A bet-spot press: the command it stands for now (``presses``), or refused with the
        reason left on the dealer's prompt."""
        try:
            self._command(parse_order(press_command(press.model_dump(mode="json"), self.engine)))
        except (PressRefused, Refusal, InputRefused) as exc:
            self.notice = f"spot {press.spot} {press.button} refused: {exc.message}"
            raise Refusal(exc.code, exc.message) from None

    # ------------------------------------------------------------------ commands
    @staticmethod
    def _journaled(payload: dict[str, Any], giver: str) -> Command:
        """A journaled command's model. The edge journals only what it read into a model, so one
        this code cannot read was written by something else (a disk editor, a bug, a version
        before the model): like any entry that cannot be applied, it holds the table (never
        guessed at, never a crash)."""
        try:
            return from_journal(payload, giver)
        except InputRefused as exc:
            raise UnreadableCommand(exc.message) from None

    def _command(self, order: Command) -> None:
        if self.hold is not None and not order.releases_hold and not order.during_hold:
            raise refused_in_hold(self.hold, order.name())
        handler = DEALER_HANDLERS.get(type(order))
        if handler is None:  # a game's own command (Russian poker: exchange, misdeal)
            name, args = order.name(), order.arguments()
            self.engine_action(self.game_action(lambda: self.adapter.game_action(name, args)))
        else:
            handler(self, order)

    @staticmethod
    def game_action(make: Any) -> Any:
        try:
            return make()
        except RuleError as exc:
            raise Refusal(exc.rule, exc.message) from None

    def open_round(self) -> None:
        check_can_open(self)
        shoe, own = self.shoe, self.adapter.device
        self.rounds += 1
        self.round_id = f"{self.table_id}-{self.rounds:06d}"
        shoe.rounds += 1
        self.shoe_round = shoe.rounds
        self.round_dealer = self.dealer
        self.engine = self.adapter.new_round(self.rules)
        self.opened = self.ts()
        self.burned = []
        self.phase = BETTING
        self.changed()
        self.emit(Gate(locked=True))
        if own is not None:
            self._out += [DeviceCommand(own, name) for name in self.adapter.open_commands(self.rules)]

    def engine_action(self, action: Any) -> None:
        if self.engine is None:
            raise Refusal("table.round.none", "no round is open")
        try:
            self.engine.apply(action)
        except RuleError as exc:
            raise Refusal(exc.rule, exc.message) from None
        self.advanced()

    def key_card(self, card: str) -> None:
        self.shoe_device.key_card(self, card)

    def keyed_result(self, number: str) -> Any:
        return self.adapter.keyed_result(number)

    def sign_in(self, dealer: str) -> None:
        sign_in(self, dealer)

    def sign_out(self) -> None:
        sign_out(self)

    def request_correction(self, order: cmd.models.Correct) -> None:
        request_correction(self, order)

    def settle(self) -> None:
        if self.phase != SETTLING or self.engine is None:
            raise Refusal("table.settle.early", "the round has bets still to settle")
        self._close("settled", list(self.engine.settlements))

    def release(self, way: str, *, by_pit: bool = False, reason: str | None = None, by: str | None = None) -> None:
        """The dealer (or the pit, ``by_pit``) took the hold's way out ``way``; held cards are
        set aside. A hold only the pit may release (the journal's integrity) needs the pit and a
        ``reason``, which the release alert journals."""
        if self.hold is None:
            raise Refusal(f"table.{way}.nothing", f"there is no hold to {way}")
        if self.hold.pit_only and not (by_pit and reason):
            raise Refusal("table.hold.pit_only", f"{self.hold.code}: only a pit boss may release this hold, "
                                                 "with a reason (the pit dashboard's dismiss)")
        set_aside = self.hold.release(way)
        code, self.hold = self.hold.code, None
        if self.engine is not None and self.phase != IDLE:
            self.burned += set_aside
        self.changed()
        said_code, said = released(way, code, set_aside, self.round_id, by or self.source())
        self.alert(INFO, said_code, said + (f" by {by}: {reason}" if reason else ""), cards=set_aside,
                   by=by if reason else None, reason=reason)
        if way == "resume":  # the round goes on where the restart left it
            resume_round(self)
        self.shoe_device.drain_waiting(self)

    def void(self, reason: str) -> None:
        if self.engine is None:
            raise Refusal("table.round.none", "no round is open to void")
        if self.hold is not None and self.hold.pit_only:
            raise Refusal("table.hold.pit_only", f"{self.hold.code}: the pit releases this hold first (dismiss, "
                                                 "with a reason)")
        if self.hold is not None:  # the held cards go with the void round
            self.burned += [c for c, _ in self.hold.cards]
            self.hold = None
        self.shoe_device.cancel_keyin()
        bets, summary = void_settlements(list(self.engine.settlements), self.adapter.open_bets(self.engine), reason)
        self.alert(WARNING, "table.round.void", f"round {self.round_id} void: {reason}: {void_said(summary)}",
                   returned=summary["returned_total"], stands=summary["stands_payout_total"])
        self._close("void", bets, void=summary)

    def new_shoe(self) -> None:
        if self.engine is not None:
            raise Refusal("table.round.open", f"finish round {self.round_id} before a new shoe")
        self.shoe_device.new_shoe(self)

    # ------------------------------------------------------------------ round progress
    def advanced(self) -> None:
        assert self.engine is not None
        self.changed()
        expect = self.engine.expects()
        if expect.kind is ExpectKind.DONE:
            self.phase = SETTLING
        elif expect.kind is ExpectKind.BETS:
            self.phase = BETTING
        else:
            self.phase = PLAYING
        due = self.draw_due()
        if due and not self.draw_requested:
            self.emit(Draw(self.round_id))
        self.draw_requested = due

    def draw_due(self) -> bool:
        """The open round needs its random draw (made by the loop, journaled as a ``draw`` input)."""
        return self.engine is not None and self.hold is None and self.adapter.draw_due(self.engine)

    def _draw(self, payload: dict[str, Any]) -> None:
        if not self.draw_due():
            raise Refusal("table.draw.unexpected", "no draw is due in this round")
        self.engine_action(self.adapter.draw_action(payload))

    def _close(self, status: str, settlements: list[Any], **more: Any) -> None:
        """Close the open round; ``more`` joins its outcome (a void's summary)."""
        assert self.engine is not None and self.round_id is not None
        outcome = {**self.engine.outcome(), "burned": list(self.burned), **more}
        record = round_record(
            table=self.table_id, round_id=self.round_id, game=self.adapter.game, opened=self.opened,
            closed=self.ts(), status=status, outcome=outcome, settlements=settlements,
            dealer=self.round_dealer, shoe=self.shoe.shoe_id, shoe_round=self.shoe_round,
        )
        self.emit(Record(inputs.ROUND_CLOSED, record, self.round_id))
        self.emit(Gate(locked=True))
        self.book.closed(record)
        self.engine = None
        self.round_id = None
        self.phase = IDLE
        self.burned = []
        self.draw_requested = False
        self.closed_rounds += 1
        self.changed()
        if self.shoe.cut_seen or self.adapter.new_shoe_every_round:
            self.shoe.needs_new = True

    # ------------------------------------------------------------------ helpers and views
    def source(self) -> str:
        return self._entry.source if self._entry else ""

    def cause(self) -> int:
        return self._entry.seq if self._entry else 0

    def ts(self) -> str:
        return self._entry.ts if self._entry else ""

    def prompt(self) -> str:
        """The dealer's current instruction (with a refused press's reason until the state changes)."""
        return view.prompt(self)

    def state(self) -> dict[str, Any]:
        """The retained ``state`` snapshot of the pit feed (devices are added by the loop)."""
        return view.state(self)

