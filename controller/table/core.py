"""The table's state machine: one journal entry in, effects out; no I/O, no clock, no randomness.

Live and replay run the very same ``step``, so replaying the journal rebuilds the table
exactly: the round, its bets and cards, the shoe's composition and card count, an open hold.
Timestamps come from the entries; round ids count rounds (``<table>-000001``). See
docs/architecture.md for the layers and docs/rules.md for the procedures.

Round lifecycle: ``open_round`` (gate locked) -> bets -> ``close_betting`` (gate unlocked) ->
cards and decisions as the engine expects them -> the engine has settled every bet: the dealer
is told to settle -> ``settle`` closes the round (``round_closed`` record, gate locked);
``void_round`` closes it void: every bet still riding is refunded, what was settled stands.

The core composes one component per job, each owning its state behind a narrow interface:
the open round (``rounds.RoundBook``; its course, open to close, in ``course.RoundCourse``), holds (``holds.HoldDesk``), who deals
(``dealers.DealerDesk``), the pit's closing (``pit.PitDesk``), the shoe's accounting
(``shoe_device``), device health (``health``), corrections of closed rounds (``corrections``),
the alerts the pit acknowledges (``alerts``); device events are routed by ``device_input``, the
game's own device (roulette's wheel) by ``game_device``, commands by ``dispatch`` and ``pit``
(a mapping from each command's model to its handler); what the table takes now, with the
dealer's prompt, is its ``offer`` (``offer``: built when read, at most once a step, the one place that
decides it), the pit's and the studio's view are read by ``view``, and each input's outcome
(accepted, or refused with the code) by ``outcome``. The core's public attributes of those
parts are read-only views.
A random draw (multipliers) is asked for with a ``Draw`` effect and comes back as a journaled
``draw`` input, so replay applies the draw that was made and never draws again.

A journaled entry never bricks the table: one the core cannot apply (whatever it raises) holds
the table with the ``table.entry_unapplicable`` alert naming its seq, and the table goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from controller.commands.models import DEALER, PIT, Command
from controller.commands.studio import STUDIO_MODELS, StudioInput
from controller.games.base import GameRules
from controller.journal import Entry
from controller.records.offer import Offer
from controller.table import device_input, inputs, remote, view
from controller.table.alerts import TABLE_SOURCE, AlertBook
from controller.table.betting import BettingDesk
from controller.table.corrections import CorrectionBook
from controller.table.course import RoundCourse
from controller.table.dealers import DealerDesk
from controller.table.dispatch import DEALER_HANDLERS, journaled
from controller.table.effects import Deadline, Effect, Record
from controller.table.events import parse_event
from controller.table.game_device import apply_device_step, resumption
from controller.table.games.base import Engine, GameAdapter
from controller.table.health import DeviceHealth
from controller.table.holds import ERROR, INFO, WARNING, Hold, HoldDesk, alert, refused_in_hold, released, unapplicable
from controller.table.inputs import COMMAND, DEVICE, DRAW, PIT_COMMAND, STUDIO
from controller.table.offer import build_offer
from controller.table.outcome import outcome
from controller.table.phases import BETTING, IDLE, PLAYING, SETTLING
from controller.table.pit import PitDesk, pit_command
from controller.table.refusal import Refusal, game_action
from controller.table.rounds import RoundBook
from controller.table.seats import SeatDesk
from controller.table.shoe_device import ShoeDevice, ShoeState
from drivers.events import DeviceEvent

__all__ = ["BETTING", "IDLE", "PLAYING", "SETTLING", "TABLE_SOURCE", "Refusal", "ShoeState", "TableCore"]


def _view(path: str) -> Any:
    """A read-only view of a component's field (``"round.engine"``): only the component changes
    it. A property over a C ``attrgetter``: reading it runs no Python code (a card reads several)."""
    return property(attrgetter(path), doc=f"the table's {path} (read only)")


class TableCore(RoundCourse):
    engine: Engine | None = _view("round.engine")
    round_id: str | None = _view("round.round_id")
    rounds: int = _view("round.rounds")
    closed_rounds: int = _view("round.closed_rounds")
    phase: str = _view("round.phase")
    opened: str = _view("round.opened")
    burned: list[str] = _view("round.burned")
    round_dealer: str | None = _view("round.dealer")
    shoe_round: int = _view("round.shoe_round")
    draw_requested: bool = _view("round.draw_requested")
    hold: Hold | None = _view("holds.hold")
    #: the journal cannot be written (disk full): a hold the loop sets and clears, never journaled
    outage: Hold | None = _view("holds.outage")
    dealer: str | None = _view("dealers.dealer")
    closing: bool = _view("pit.closing")
    pit_serial: int = _view("pit.serial")
    shoe: ShoeState = _view("shoe_device.shoe")
    #: n of an unread card waiting to be keyed in
    keyin: int | None = _view("shoe_device.keyin")
    burn_on_new_shoe: int = _view("shoe_device.burn_on_new_shoe")
    devices: dict[str, dict[str, Any]] = _view("health.devices")
    records: dict[str, dict[str, Any]] = _view("book.records")
    corrections: dict[int, dict[str, Any]] = _view("book.corrections")
    alerts_open: dict[int, dict[str, Any]] = _view("alert_book.open")
    acknowledged: dict[int, str] = _view("alert_book.acknowledged")
    #: the offer built since the last step, and the outage it was built under (None: build it again)
    _offer: tuple[Offer, Hold | None] | None = None

    def __init__(self, table_id: str, adapter: GameAdapter, rules: GameRules, preset: str | None = None,
                 burn_on_new_shoe: int = 0, currency: str = "EUR", currency_digits: int = 2) -> None:
        self.table_id = table_id
        #: what the table's minor units are (ISO 4217 code, digits after the point): for the pages
        self.currency = (currency, currency_digits)
        self.adapter = adapter
        self.rules = rules
        self.preset = preset
        self.round = RoundBook()
        self.holds = HoldDesk()
        self.dealers = DealerDesk()
        self.pit = PitDesk()
        self.serial = 0  # bumps on every change of state: simulated actors act once per value
        self.health = DeviceHealth()
        self.shoe_device = ShoeDevice(table_id, adapter.decks(rules), adapter.removed_ranks(rules),
                                      burn_on_new_shoe, adapter.uses_shoe)
        self.book = CorrectionBook()
        self.alert_book = AlertBook()
        self.betting = BettingDesk()  # the betting time and the studio's seal (docs/studio.md)
        self.seats = SeatDesk()  # remote players seated at boxes, the turn waiting (docs/studio.md, "Seats")
        self.pace_goal: tuple[int | None, int] = (None, 1800)  # [protection] pace_target (None: the game's), pace_window_s
        #: why the last bet-spot press was refused, shown with the prompt until the state changes
        self.notice: str | None = None
        #: the last step's refusal (code, sentence); None: it was accepted (``outcome``)
        self.refused: tuple[str, str] | None = None
        self._out: list[Effect] = []
        self._entry: Entry | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a snapshot) without what is this process's only: the outage, effects in flight."""
        return {**self.__dict__, "holds": HoldDesk(self.holds.hold), "_out": [], "_entry": None, "_offer": None}

    @property
    def round_open(self) -> bool:
        return self.round.engine is not None

    # ------------------------------------------------------------------ stepping
    def step(self, entry: Entry, given: DeviceEvent | Command | StudioInput | None = None) -> list[Effect]:
        """Apply one journaled input; the effects to carry out, in order. ``given`` is the
        entry's model as the edge validated it (a driver's event, a command); on replay it is
        read from the journaled payload."""
        self._out = []
        self._entry = entry
        self._offer = None
        self.refused = None
        serial = self.serial
        # ``given is not None`` first: a replayed entry has none, and a pydantic model's
        # isinstance goes through ABCMeta (0.1 µs for None, on every replayed input)
        kind = entry.kind
        try:
            if kind == DEVICE:
                device_input.route(self, given if given is not None and isinstance(given, DeviceEvent)
                                   else parse_event(entry.payload))
            elif kind == COMMAND:
                self.command(given if given is not None and isinstance(given, Command)
                             else journaled(entry.payload, DEALER))
            elif kind == PIT_COMMAND:
                order = given if given is not None and isinstance(given, Command) else journaled(entry.payload, PIT)
                pit_command(self, order, str(entry.payload.get("sender", "")))
            elif kind == DRAW:
                self._draw(entry.payload)
            elif kind == STUDIO:
                remote.studio_input(self, given if isinstance(given, STUDIO_MODELS) else remote.journaled(entry.payload))
        except Refusal as refusal:
            self.refused = (refusal.code, refusal.text(*self.currency))
            self.alert(WARNING, refusal.code, self.refused[1], refused=entry.payload,
                       dealer=self.round_dealer or self.dealer)
        except Exception as exc:  # noqa: BLE001 - whatever it is, this entry must not brick the table
            unapplicable(self, entry, exc)
            self.refused = ("table.entry_unapplicable", f"journal entry {entry.seq} cannot be applied: the table holds")
        if self.serial != serial:
            self.notice = None
        self._offer = None
        return self._out

    def deadlines(self) -> list[Deadline]:
        """What the loop must journal when: the betting time's close, a seated box's decision."""
        return [*self.betting.deadlines(), *self.seats.deadlines()]

    def restarted(self, hold_open_round: bool = True) -> None:
        """The process (re)started: devices are offline until they report, faults stay active
        until the device reports a healthy state (AGCO 6.1.8, 11.1.3). A round left open holds
        until the dealer has checked the layout: ``resume`` it or ``void_round`` it (not on the
        replay of a start journaled by a version without that hold: its journal means what it did)."""
        self.health.restarted()
        self.changed()
        self._offer = None
        if hold_open_round and self.engine is not None and self.hold is None:
            message = f"the table restarted with round {self.round_id} open: check the layout, then resume or void it"
            self.raise_hold("table.restart", message, ("resume", "void_round"), announce=False)

    def started_with(self, rules: GameRules) -> None:
        """The rules rounds opened from now on are played under (a ``table_started`` entry, the config)."""
        self.rules = rules
        self._offer = None

    def set_burn(self, count: int) -> None:
        """The ``burn_on_new_shoe`` the table runs under from now on (a ``table_started`` entry);
        a shoe nothing has left yet is burned by it too."""
        if self.shoe_device.set_burn(count, self.round_open):
            self.changed()
            self._offer = None

    def written(self, entry: Entry) -> None:
        """An output entry the table wrote (live: as the loop writes it; replay: in journal order)."""
        if self.alert_book.written(entry):
            self.pit_changed()

    # ------------------------------------------------------------------ what the parts use
    def changed(self) -> None:
        self.serial += 1

    def pit_changed(self) -> None:
        """What the pit's ``state`` shows of alerts or corrections changed."""
        self.pit.serial += 1

    def emit(self, effect: Effect) -> None:
        self._out.append(effect)

    def alert(self, severity: str, code: str, message: str, *, hold: Hold | None = None, **detail: Any) -> None:
        self._out.append(Record(inputs.ALERT, alert(severity, code, message, self.cause(), hold=hold, **detail),
                                self.round_id))

    def health_change(self, device: str, **change: Any) -> None:
        if self.health.change(device, **change):
            self.changed()

    def raise_hold(self, code: str, message: str, options: tuple[str, ...], *, cause: int | None = None,
                   cards: Sequence[tuple[str, int | None]] = (), pit_only: bool = False, severity: str = ERROR,
                   announce: bool = True, detail: dict[str, Any] | None = None, **more: Any) -> Hold:
        """The one way the table holds (docs/rules.md, procedures): a hold already open stays
        the one shown (a second fault only adds its alert). ``announce`` journals the alert;
        ``pit_only`` holds are released by the pit only, with a reason."""
        hold = self.holds.raise_(code, message, options, self.cause() if cause is None else cause, list(cards),
                                 pit_only)
        self.changed()
        if announce:
            self.alert(severity, code, message, hold=hold, **(detail or {}), **more)
        return hold

    def hold_on(self, code: str, message: str, cards: list[tuple[str, int | None]]) -> None:
        """Hold the round (cards that left the shoe set aside); while holding, the cards join."""
        if self.hold is not None:
            for text, n in cards:
                self.join_hold(text, n)
            return
        options = ("burn", "void_round") if self.engine is not None and self.phase != IDLE else ("burn",)
        self.raise_hold(code, message, options, cards=cards,
                        detail={"cards": [c for c, _ in cards], "dealer": self.round_dealer or self.dealer})

    def join_hold(self, text: str, n: int | None) -> None:
        hold = self.holds.join(text, n)
        self.changed()
        self.alert(ERROR, "table.card_during_hold", f"card {text} (n={n}) left the shoe while the table holds",
                   hold=hold, card=text)

    def game_device_step(self, device: str, event: DeviceEvent) -> None:
        apply_device_step(self, device, self.adapter.device_step(self.engine, self.rules, event))

    def press_refused(self, notice: str) -> None:
        """Why a bet-spot press was refused, shown with the prompt until the state changes."""
        self.notice = notice

    # ------------------------------------------------------------------ commands
    def command(self, order: Command) -> None:
        """Apply a dealer's command (the hold lets through only its ways out and shift changes)."""
        if self.hold is not None and not order.releases_hold and not order.during_hold:
            raise refused_in_hold(self.hold, order.name())
        handler = DEALER_HANDLERS.get(type(order))
        if handler is None:  # a game's own command (Russian poker: exchange, misdeal)
            name, args = order.name(), order.arguments()
            self.engine_action(game_action(lambda: self.adapter.game_action(name, args)))
        else:
            handler(self, order)

    def release(self, way: str, *, by_pit: bool = False, reason: str | None = None, by: str | None = None) -> None:
        """The dealer (or the pit, ``by_pit``) took the hold's way out ``way``; held cards are
        set aside. A hold only the pit may release (the journal's integrity) needs the pit and a
        ``reason``, which the release alert journals."""
        code, set_aside = self.holds.release(way, by_pit=by_pit, reason=reason)
        self.round.burn(set_aside)
        self.changed()
        said_code, said = released(way, code, set_aside, self.round_id, by or self.source())
        self.alert(INFO, said_code, said + (f" by {by}: {reason}" if reason else ""), cards=set_aside,
                   by=by if reason else None, reason=reason)
        if way == "resume":  # the round goes on where the restart left it
            self._out += resumption(self)
            self.round.draw(self.draw_due())  # asked for just now, if due
            self.shoe_device.hold_if_empty(self)  # only a shoe the game deals from is ever empty
        self.shoe_device.drain_waiting(self)

    # ------------------------------------------------------------------ helpers and views
    def source(self) -> str:
        return self._entry.source if self._entry else ""

    def cause(self) -> int:
        return self._entry.seq if self._entry else 0

    def entry_round(self) -> str | None:
        return self._entry.round_id if self._entry else None

    def ts(self) -> str:
        return self._entry.ts if self._entry else ""

    @property
    def offer(self) -> Offer:
        """What the table takes now (controller/table/offer.py): built when first read after a
        step (and again when the journal's disk fills or frees), never per read."""
        built = self._offer
        if built is None or built[1] is not self.holds.outage:
            built = self._offer = (build_offer(self), self.holds.outage)
        return built[0]

    def outcome(self, entry: Entry) -> dict[str, Any]:
        """What became of ``entry``, the input just stepped (controller/table/outcome.py)."""
        return outcome(entry, self.refused)

    def prompt(self) -> str:
        """The dealer's current instruction (with a refused press's reason until the state changes)."""
        return self.offer.prompt

    def state(self) -> dict[str, Any]:
        """The retained ``state`` snapshot of the pit feed (devices are added by the loop)."""
        return view.state(self)
