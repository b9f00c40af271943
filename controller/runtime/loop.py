"""The table task: one queue of inputs; each is journaled (committed), stepped, then acted on.

Device events, dealer and player commands and pit commands all enter through ``submit``,
which commits the input to the journal at once and queues the entry: a shoe's card is durable
before the driver's callback returns, i.e. before the driver acknowledges the frame, and the
queue's order is the journal's. The one task that drains the queue is the only writer of the
table's state, so inputs are applied in journal order whatever their source. Effects are carried out in the order the core gave
them: output entries to the journal, the shoe gate, a new shoe. Listeners (the console
printer, the pit feed, simulated actors) see each entry, each new prompt, and every quiet
moment (queue empty, all effects done).

A betting time's end (a ``Deadline`` effect, and after a restart the replayed state's) is a
timer on the injected clock that journals ``close_betting`` from source ``timer`` (or
``timer:seal``, the studio's seal not in within its grace) when it passes, if the round still
waits for it and the table does not hold: the deadline is the journaled open's ``ts`` plus the
betting time, so a restart re-arms it where it was, and one already past closes at once.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from controller.commands.models import Command, Correct
from controller.commands.parse import PitCommand, parse_order, parse_pit
from controller.commands.studio import STUDIO_MODELS, StudioInput, parse_studio
from controller.journal import Entry, Journal, JournalFull
from controller.runtime.admission import RATE_LIMITED, Admission
from controller.runtime.deadlines import DeadlineTimers
from controller.runtime.outage import DISK_FULL, OutputWriter
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Deadline, DeviceCommand, Draw, Effect, Gate, LoadShoe, Record
from controller.table.holds import ERROR, alert
from controller.table.pit import check_correction
from controller.table.refusal import Refusal
from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.device import Device
from drivers.errors import DeviceUnavailable, DriverError
from drivers.events import DeviceEvent

log = logging.getLogger(__name__)
TABLE_SOURCE = "table"
#: device events kept in memory while the journal's disk is full (a few minutes of a busy table)
HELD_EVENTS = 10_000


class Listener(Protocol):
    def on_entry(self, entry: Entry) -> None:
        """Every journal entry the table wrote (inputs and outputs), in journal order."""

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        """The dealer's instruction changed."""


class OutcomeListener(Protocol):
    def on_outcome(self, outcome: dict[str, Any]) -> None:
        """What became of an input just applied (controller/table/outcome.py), once its effects
        are carried out: accepted, or refused with the code and the sentence."""


class TableLoop:
    def __init__(self, core: TableCore, journal: Journal, shoe: Device | None = None, *,
                 clock: Clock = SYSTEM_CLOCK, wall: Callable[[], float] = time.time) -> None:
        """``clock`` waits the betting time's deadlines; ``wall`` (seconds since the epoch) is
        what a deadline's ``ts`` is measured against."""
        self.core = core
        self.clock = clock
        self.wall = wall
        self.journal = journal
        #: the table's open devices by name ("shoe", "wheel"): every effect that needs a device
        #: is one ``await device.command(name, **arguments)`` (docs/devices.md)
        self.devices: dict[str, Device] = {}
        if shoe is not None:
            self.devices["shoe"] = shoe
        self.listeners: list[Listener] = []
        #: told what became of each input (the console's pages, the feed's ``outcome``)
        self.outcome_listeners: list[OutcomeListener] = []
        #: called after each input is applied and its effects carried out (snapshots, metrics)
        self.applied_hooks: list[Callable[[TableCore, Entry], None]] = []
        self.quiet_hooks: list[Callable[[], None]] = []
        self._queue: asyncio.Queue[Entry] = asyncio.Queue()
        #: input entries' seq -> the model the edge validated (the driver's own event, the
        #: command), until the entry is stepped: the core gets the model, not the dict again
        self._events: dict[int, DeviceEvent | Command | StudioInput] = {}
        self._changed = asyncio.Condition()
        self._prompt = ""
        self._pit_serial = -1
        self.steps = 0
        self._busy = False
        #: rate limits and counted refusals per input source (controller/runtime/admission.py)
        self.admission = Admission(self._refusal_alert)
        #: output writes, and the hold while the journal's disk is full (controller/runtime/outage.py)
        self.writer = OutputWriter(journal, core, self._wrote, self._resumed, flush_inputs=self._journal_held_events)
        #: device events that came while the disk was full: a number really spun, a card really
        #: drawn cannot be refused, so they wait here in order and are journaled first when space
        #: returns (bounded; a crash meanwhile loses them, and the shoe's count gap then holds)
        self._held_events: deque[tuple[DeviceEvent, str]] = deque(maxlen=HELD_EVENTS)
        self._background: set[asyncio.Task[None]] = set()
        #: the betting time's deadlines (controller/runtime/deadlines.py)
        self.deadlines = DeadlineTimers(self, self._changed, clock, wall, lambda: self.writer.full)

    # ------------------------------------------------------------------ inputs
    def submit(self, kind: str, payload: dict[str, Any] | Command | PitCommand | StudioInput, source: str) -> Entry:
        """Journal one input (committed when this returns) and queue it to be applied; the
        entry (its ``seq`` is the ``cause`` of any alert it raises).

        A command is admitted (its source's rate limit) and, unless it comes as its model
        (checked by the caller's edge already), read into its model (controller/commands/): a
        refused one raises ``InputRefused`` to the caller and is journaled at most as a counted
        refusal alert, never as an input (admission.py). The core is handed the model. A studio
        message (``studio``) is read into its model the same way (controller/commands/studio.py).
        """
        if kind not in inputs.INPUT_KINDS:
            raise ValueError(f"not an input kind: {kind!r}")
        if self.writer.full:
            raise inputs.InputRefused(DISK_FULL, self.writer.refuse())
        order: Command | StudioInput | None = None
        if kind == inputs.STUDIO:
            order = payload if isinstance(payload, STUDIO_MODELS) else parse_studio(payload)
            payload = order.journal_form()
        elif kind == inputs.COMMAND:
            if not self.admission.admit(source):
                raise inputs.InputRefused(RATE_LIMITED, f"too many commands from {source}: wait a moment")
            try:
                order = payload if isinstance(payload, Command) else parse_order(payload)
                if isinstance(order, Correct):
                    self._check_correction(order)
            except inputs.InputRefused as refused:
                self.admission.refused(source, refused.code, refused.message)
                raise
            payload = order.journal_form()
        elif kind == inputs.PIT_COMMAND:
            wire, order = (payload, payload.order()) if isinstance(payload, PitCommand) else parse_pit(payload)
            payload = wire.journal_payload()
        assert isinstance(payload, dict)
        try:
            entry = self.journal.append(kind, payload, source=source, round_id=self.core.round_id)
        except JournalFull as exc:
            self.writer.disk_full(exc)
            raise inputs.InputRefused(DISK_FULL, self.writer.refuse()) from None
        if order is not None:
            self._events[entry.seq] = order
        self._queue.put_nowait(entry)
        return entry

    def _check_correction(self, order: Correct) -> None:
        """A correction paying more than its bet can return is refused here, never journaled."""
        try:
            check_correction(self.core, order)
        except Refusal as refusal:
            raise inputs.InputRefused(refusal.code, refusal.text(*self.core.currency)) from None

    def command(self, name: str, source: str = "dealer", **arguments: Any) -> Entry:
        """A command given in code (simulated people, tests): ``InputRefused`` as ``submit``."""
        return self.submit(inputs.COMMAND, inputs.command(name, **arguments), source)

    def _refusal_alert(self, payload: dict[str, Any]) -> None:
        """The admission's aggregated refusal alert, written and shown like any output."""
        self.writer.write(inputs.ALERT, payload, self.core.round_id)  # held in order while the disk is full

    def device_event(self, event: Any, source: str | None = None) -> None:
        """A driver's ``on_event`` callback: the event as the driver typed it, journaled under
        ``source`` (by default the device it names; the spots give ``spot:<n>``)."""
        payload = event.model_dump(mode="json")
        source = source or str(payload.get("device", "device"))
        if self.writer.full or self._held_events:  # behind what already waits, in order
            self._hold_event(event, source)
            return
        try:
            entry = self.submit(inputs.DEVICE, payload, source)
        except inputs.InputRefused as refused:  # a driver callback must not raise into the driver
            if refused.code == DISK_FULL:
                self._hold_event(event, source)
            else:
                log.warning("%s event %s not taken: %s", payload.get("device"), payload.get("type"), refused.message)
            return
        self._events[entry.seq] = event  # the core gets the driver's model, not the dict again

    def _hold_event(self, event: DeviceEvent, source: str) -> None:
        if len(self._held_events) == self._held_events.maxlen:
            log.error("%d device events wait for the journal's disk: the oldest is dropped", HELD_EVENTS)
        self._held_events.append((event, source))

    def _journal_held_events(self) -> None:
        """Journal and queue the device events held while the disk was full (``JournalFull``
        again leaves the rest held, in order)."""
        while self._held_events:
            event, source = self._held_events[0]
            entry = self.journal.append(inputs.DEVICE, event.model_dump(mode="json"), source=source,
                                        round_id=self.core.round_id)
            self._held_events.popleft()
            self._events[entry.seq] = event
            self._queue.put_nowait(entry)

    @property
    def pending(self) -> int:
        return self._queue.qsize()

    @property
    def busy(self) -> bool:
        """An input is being applied (its step or its effects are under way)."""
        return self._busy

    # ------------------------------------------------------------------ running
    async def run(self) -> None:
        """Drain the queue until cancelled."""
        self.announce()
        self.deadlines.rearm()  # a restart: the replayed state's deadline, where it was
        try:
            while True:
                entry = await self._queue.get()
                self._busy = True
                self._tell(entry)
                effects = self.core.step(entry, self._events.pop(entry.seq, None))
                await self.carry_out(effects)
                if self.outcome_listeners:
                    said = self.core.outcome(entry)
                    for listener in list(self.outcome_listeners):
                        listener.on_outcome(said)
                for hook in self.applied_hooks:
                    hook(self.core, entry)
                self.steps += 1
                self._busy = False
                self.deadlines.rearm()
                await self._after_change()
        finally:
            self.deadlines.cancel()

    async def _after_change(self) -> None:
        """Tell listeners and waiters what changed; wake the quiet hooks once nothing is queued."""
        self.announce()
        if self._queue.empty():
            for hook in list(self.quiet_hooks):
                hook()
        async with self._changed:
            self._changed.notify_all()

    def _resumed(self) -> None:
        """The journal hold began or ended (outside any step): everyone looks again."""
        task = asyncio.get_running_loop().create_task(self._after_change())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def carry_out(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Record):
                self.writer.write(effect.kind, effect.payload, effect.round_id)
            elif isinstance(effect, Draw):
                self.draw(effect)
            elif isinstance(effect, Deadline):
                self.deadlines.arm(effect)
            elif isinstance(effect, DeviceCommand):
                await self._device_command(effect.device, effect.name)
            elif "shoe" in self.devices:  # a table without a shoe (a wheel game) has no gate
                if isinstance(effect, Gate):
                    await self._device_command("shoe", "lock" if effect.locked else "unlock")
                elif isinstance(effect, LoadShoe):
                    await self._device_command("shoe", "new_shoe", shoe_id=effect.shoe_id, decks=effect.decks)

    def draw(self, effect: Draw) -> None:
        """Make the draw from ``secrets`` and journal it at once, ahead of anything still to come
        (the wheel's result included): replay applies this entry and never draws again."""
        core = self.core
        if effect.round_id != core.round_id or not core.draw_due():
            return
        payload = core.adapter.draw(core.engine, secrets.token_bytes(32))
        self.submit(inputs.DRAW, {**payload, "round": effect.round_id}, "rng:secrets")

    async def _device_command(self, name: str, command: str, **arguments: Any) -> None:
        """``command`` to the device ``name``; a driver failure (a timeout, a dropped line, a
        port that cannot be opened) is an alert with the driver's own words, never a crash."""
        device = self.devices.get(name)
        try:
            if device is None:
                raise DeviceUnavailable(f"no {name} is open")
            await device.command(command, **arguments)
        except DriverError as exc:
            log.warning("%s command %s failed: %s", name, command, exc)
            payload = alert(ERROR, f"{name}.command_failed", f"{command}: {exc}", 0)
            self.writer.write(inputs.ALERT, payload, self.core.round_id)  # held in order while the disk is full

    @property
    def shoe(self) -> Device | None:
        """The table's shoe, if it has one (``devices["shoe"]``)."""
        return self.devices.get("shoe")

    @shoe.setter
    def shoe(self, device: Device | None) -> None:
        if device is None:
            self.devices.pop("shoe", None)
        else:
            self.devices["shoe"] = device

    def _wrote(self, entry: Entry) -> None:
        """An output entry written: the core learns its seq (alerts), then the listeners see it."""
        self.core.written(entry)
        self._tell(entry)

    def announce(self) -> None:
        """Tell listeners the prompt if it changed; those with ``on_state`` also when only the
        pit's view changed (an alert acknowledged, a correction requested or applied)."""
        prompt = self.core.prompt()
        if prompt != self._prompt:
            self._prompt = prompt
            self._pit_serial = self.core.pit_serial
            for listener in self.listeners:
                listener.on_prompt(prompt, self.core)
        elif self.core.pit_serial != self._pit_serial:
            self._pit_serial = self.core.pit_serial
            for listener in self.listeners:
                on_state = getattr(listener, "on_state", None)
                if on_state is not None:
                    on_state(self.core)

    def _tell(self, entry: Entry) -> None:
        for listener in self.listeners:
            listener.on_entry(entry)

    async def until(self, predicate: Callable[[TableCore], bool], timeout: float = 10.0) -> None:
        """Wait until ``predicate(core)`` holds after some step (tests and batch mode)."""

        async def wait() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: predicate(self.core))

        await asyncio.wait_for(wait(), timeout)

    async def settled(self, timeout: float = 10.0) -> None:
        """Wait until every queued input has been applied."""
        await self.until(lambda _: self._queue.empty() and not self._busy, timeout)
