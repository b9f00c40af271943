"""The table task: one queue of inputs; each is journaled (committed), stepped, then acted on.

Device events, dealer and player commands and pit commands all enter through ``submit``,
which commits the input to the journal at once and queues the entry: a shoe's card is durable
before the driver's callback returns, i.e. before the driver acknowledges the frame, and the
queue's order is the journal's. The one task that drains the queue is the only writer of the
table's state, so inputs are applied in journal order whatever their source. Effects are carried out in the order the core gave
them: output entries to the journal, the shoe gate, a new shoe. Listeners (the console
printer, the pit feed, simulated actors) see each entry, each new prompt, and every quiet
moment (queue empty, all effects done).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from controller.journal import Entry, Journal
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import DeviceCommand, Draw, Effect, Gate, LoadShoe, Record
from controller.table.holds import ERROR, alert

log = logging.getLogger(__name__)
TABLE_SOURCE = "table"


class ShoeControl(Protocol):
    """The shoe commands the table gives (a ``ShoeSession`` satisfies it)."""

    async def lock(self) -> None: ...

    async def unlock(self) -> None: ...

    async def new_shoe(self, shoe_id: str, decks: int) -> None: ...


class Listener(Protocol):
    def on_entry(self, entry: Entry) -> None:
        """Every journal entry the table wrote (inputs and outputs), in journal order."""

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        """The dealer's instruction changed."""


class TableLoop:
    def __init__(self, core: TableCore, journal: Journal, shoe: ShoeControl | None = None) -> None:
        self.core = core
        self.journal = journal
        self.shoe = shoe
        #: the game's own devices by name (the wheel): ``DeviceCommand`` effects call their methods
        self.devices: dict[str, Any] = {}
        self.listeners: list[Listener] = []
        self.quiet_hooks: list[Callable[[], None]] = []
        self._queue: asyncio.Queue[Entry] = asyncio.Queue()
        self._changed = asyncio.Condition()
        self._prompt = ""
        self._pit_serial = -1
        self.steps = 0
        self._busy = False

    # ------------------------------------------------------------------ inputs
    def submit(self, kind: str, payload: dict[str, Any], source: str) -> None:
        """Journal one input (committed when this returns) and queue it to be applied."""
        if kind not in inputs.INPUT_KINDS:
            raise ValueError(f"not an input kind: {kind!r}")
        entry = self.journal.append(kind, payload, source=source, round_id=self.core.round_id)
        self._queue.put_nowait(entry)

    def command(self, name: str, source: str = "dealer", **arguments: Any) -> None:
        self.submit(inputs.COMMAND, inputs.command(name, **arguments), source)

    def device_event(self, event: Any) -> None:
        """A driver's ``on_event`` callback: the event as the driver typed it."""
        payload = event.model_dump(mode="json")
        self.submit(inputs.DEVICE, payload, str(payload.get("device", "device")))

    @property
    def pending(self) -> int:
        return self._queue.qsize()

    # ------------------------------------------------------------------ running
    async def run(self) -> None:
        """Drain the queue until cancelled."""
        self.announce()
        while True:
            entry = await self._queue.get()
            self._busy = True
            self._tell(entry)
            effects = self.core.step(entry)
            await self.carry_out(effects)
            self.steps += 1
            self._busy = False
            self.announce()
            if self._queue.empty():
                for hook in list(self.quiet_hooks):
                    hook()
            async with self._changed:
                self._changed.notify_all()

    async def carry_out(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Record):
                self._wrote(self.journal.append(effect.kind, effect.payload, source=TABLE_SOURCE,
                                                round_id=effect.round_id))
            elif isinstance(effect, Draw):
                self.draw(effect)
            elif isinstance(effect, DeviceCommand):
                await self._device_command(effect)
            elif self.shoe is not None:
                try:
                    if isinstance(effect, Gate):
                        await (self.shoe.lock() if effect.locked else self.shoe.unlock())
                    elif isinstance(effect, LoadShoe):
                        await self.shoe.new_shoe(effect.shoe_id, effect.decks)
                except Exception as exc:  # CommandFailed, a dropped link: alert, never crash the table
                    log.warning("shoe command %s failed: %s", effect, exc)
                    payload = alert(ERROR, "shoe.command_failed", f"{type(effect).__name__}: {exc}", 0)
                    self._wrote(self.journal.append(inputs.ALERT, payload, source=TABLE_SOURCE,
                                                    round_id=self.core.round_id))

    def draw(self, effect: Draw) -> None:
        """Make the draw from ``secrets`` and journal it at once, ahead of anything still to come
        (the wheel's result included): replay applies this entry and never draws again."""
        core = self.core
        if effect.round_id != core.round_id or not core.draw_due():
            return
        payload = core.adapter.draw(core.engine, secrets.token_bytes(32))
        self.submit(inputs.DRAW, {**payload, "round": effect.round_id}, "rng:secrets")

    async def _device_command(self, effect: DeviceCommand) -> None:
        control = self.devices.get(effect.device)
        try:
            if control is None:
                raise ConnectionError(f"no {effect.device} is open")
            await getattr(control, effect.name)()
        except Exception as exc:  # a timeout, a dropped line: alert, never crash the table
            log.warning("%s command %s failed: %s", effect.device, effect.name, exc)
            payload = alert(ERROR, f"{effect.device}.command_failed", f"{effect.name}: {exc}", 0)
            self._wrote(self.journal.append(inputs.ALERT, payload, source=TABLE_SOURCE, round_id=self.core.round_id))

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
