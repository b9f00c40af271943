"""The bet spots at the table: presses in as journaled inputs, lamps out from the table's state.

The spots are a ``Device`` built by the device registry from their broker's URL
(``drivers/spots/device.py``, ``docs/devices.md``), like the shoe and the wheel. Every event they
emit (press, presence, refusal, the broker link going up or down) goes to the table loop's
``device_event`` as the driver's own typed model, journaled with source ``spot:<n>`` before
anything acts on it; what a press means is decided in the core's step (``presses``), the same
way live and in replay. Each spot's messages pass its rate limit (``admission``) before they are
decoded. The driver applies each (device, seq) once; its watermarks are restored before it
opens from the presses already journaled (``last_presses``), so a press the broker redelivers
after a controller restart is still a duplicate.

Lamps are a rendering of the table's offer, published (retained) whenever what a spot should
show changes: ``open`` while the offer takes bets, ``turn`` with the legal options on the box to act, ``off``
otherwise (a hold, cards being dealt, another box's turn), and after the round ``win``, ``lose``
or ``push`` with the box's net until the next round opens. A refused press changes no state, so
no lamp moves for it. Lamps go out as the device's ``lamp`` command, in order, from one task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import Any, Self

from controller.commands.models import Bet, Decide
from controller.journal import Entry, Journal
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.presses import lamp_options
from drivers import registry
from drivers.device import Device
from drivers.errors import DriverError
from drivers.events import DeviceEvent
from drivers.mqtt import MqttLink
from drivers.spots import SpotsSession, codec
from drivers.spots.device import SpotsDevice, spots_address

log = logging.getLogger(__name__)
SPOTS = "spots"  # the device's name on the table, and the source of what names no spot
#: how long a closing table gives lamps still queued to go out
LAMP_DRAIN = 1.0

Lamp = tuple[str, str]  # (mode, text)
OFF: Lamp = ("off", "")


def round_lamps(record: dict[str, Any]) -> dict[int, Lamp]:
    """Each box's result lamp from a closed round's record (net over all its bets)."""
    stakes: dict[int, int] = {}
    payouts: dict[int, int] = {}
    for bet in record.get("bets", []):
        stakes[bet["box"]] = stakes.get(bet["box"], 0) + bet["stake"]
        payouts[bet["box"]] = payouts.get(bet["box"], 0) + bet["payout"]
    lamps: dict[int, Lamp] = {}
    for box, stake in stakes.items():
        net = payouts[box] - stake
        if record.get("status") == "void":
            lamps[box] = ("push", f"VOID: {stake} REFUNDED")
        elif net > 0:
            lamps[box] = ("win", f"WIN {net}")
        elif net < 0:
            lamps[box] = ("lose", f"LOSE {-net}")
        else:
            lamps[box] = ("push", "PUSH")
    return lamps


def table_lamps(core: TableCore, spots: Iterable[int], results: dict[int, Lamp]) -> dict[int, Lamp]:
    """What every spot's lamp should show now: a rendering of the table's offer (the bets it
    takes, the box whose decision it takes and that box's options); the last round's results
    between rounds."""
    if core.engine is None:
        return {n: results.get(n, OFF) for n in spots}
    lamps = dict.fromkeys(spots, OFF)
    offer = core.offer
    bet = offer.take(Bet.name())
    if bet is not None:
        return {n: ("open", "PLACE YOUR BETS") if n in (bet.constraints.boxes or ()) else OFF for n in lamps}
    decide = offer.take(Decide.name())
    if decide is not None and decide.constraints.box in lamps:
        lamps[decide.constraints.box] = ("turn", lamp_options(tuple(decide.constraints.options or ())))
    return lamps


def last_presses(journal: Journal, spots: Iterable[int]) -> tuple[dict[str, int], dict[str, Any] | None]:
    """The highest journaled press seq of each spot's device (``spot-<n>``), and the last closed
    round's record: index look-ups, so a start costs the same after weeks of journal."""
    seqs = {f"spot-{n}": journal.press_watermark(f"spot-{n}") for n in spots}
    last = next(journal.latest(inputs.ROUND_CLOSED), None)
    return {d: s for d, s in seqs.items() if s}, last.payload if last is not None else None


class TableSpots:
    """Run with ``async with``: opens the spots device (``DeviceUnavailable`` naming the broker
    when it does not answer), registers it as ``loop.devices["spots"]`` and itself as a listener
    of ``loop``."""

    def __init__(self, loop: TableLoop, journal: Journal, broker: str, table: str, count: int,
                 client_id: str | None = None) -> None:
        self.loop = loop
        self.table = table
        self.spots = tuple(range(1, count + 1))
        watermarks, last_round = last_presses(journal, self.spots)
        self.device: Device = registry.build(spots_address(broker, table, count, client_id), SPOTS, name=SPOTS,
                                             sink=self._on_event, gate=self._admit, watermarks=watermarks)
        self._results: dict[int, Lamp] = round_lamps(last_round) if last_round else {}
        self._shown: dict[int, Lamp] = {}
        self._lamps: asyncio.Queue[tuple[int, Lamp]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None

    @property
    def _mqtt(self) -> SpotsDevice:
        if not isinstance(self.device, SpotsDevice):
            raise TypeError(f"{type(self.device).__name__} is not a spots device on an MQTT link")
        return self.device

    @property
    def session(self) -> SpotsSession:
        """The driver's session: its refusal and drop counters, its watermarks."""
        return self._mqtt.session

    @property
    def link(self) -> MqttLink:
        """The spots' broker link (its connection count)."""
        return self._mqtt.link

    async def __aenter__(self) -> Self:
        await self.device.open()
        self.loop.devices[SPOTS] = self.device
        self.loop.listeners.append(self)
        self.loop.quiet_hooks.append(self._show)
        self._sender = asyncio.create_task(self._send_lamps(), name="spots-lamps")
        self._show()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self in self.loop.listeners:
            self.loop.listeners.remove(self)
        if self._show in self.loop.quiet_hooks:
            self.loop.quiet_hooks.remove(self._show)
        if self.loop.devices.get(SPOTS) is self.device:
            del self.loop.devices[SPOTS]
        if self._sender is not None:
            with contextlib.suppress(TimeoutError):  # the last lamps (a round's result) go out first
                await asyncio.wait_for(self._lamps.join(), LAMP_DRAIN)
            self._sender.cancel()
            await asyncio.gather(self._sender, return_exceptions=True)
        await self.device.close()

    def _admit(self, topic: str) -> bool:
        """The spot's rate limit, checked on the topic before the payload is even decoded."""
        try:
            spot, _ = codec.parse_topic(self.table, topic)
        except codec.SpotCodecError:
            return self.loop.admission.admit(SPOTS)
        return self.loop.admission.admit(f"spot:{spot}")

    def _on_event(self, event: DeviceEvent) -> None:
        """The device's sink: journaled (and queued) before the driver reads the next message."""
        spot = getattr(event, "spot", None)
        try:
            self.loop.device_event(event, f"spot:{spot}" if spot is not None else SPOTS)
        except Exception:  # one input the journal could not take must not stop the spots
            log.exception("spots: %s not submitted", event.type)

    # -- listener: lamps follow the table ---------------------------------------------------------
    def on_entry(self, entry: Entry) -> None:
        if entry.kind == inputs.ROUND_CLOSED:  # shown until the next round opens
            self._results = round_lamps(entry.payload)
            self._show()

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        self._show()

    def _show(self) -> None:
        for spot, lamp in table_lamps(self.loop.core, self.spots, self._results).items():
            if self._shown.get(spot) != lamp:
                self._shown[spot] = lamp
                self._lamps.put_nowait((spot, lamp))

    async def _send_lamps(self) -> None:
        """The queued lamps as ``lamp`` commands, one at a time, so they reach the spots in order."""
        while True:
            spot, (mode, text) = await self._lamps.get()
            try:
                await self.device.command("lamp", spot=spot, mode=mode, text=text)
            except DriverError as exc:  # a lamp that cannot go out is logged; the table plays on
                log.warning("spots: lamp %s for spot %d not sent: %s", mode, spot, exc)
            finally:
                self._lamps.task_done()
