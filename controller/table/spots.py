"""The bet spots at the table: presses in as journaled inputs, lamps out from the table's state.

Every event of the spots driver (press, presence, refusal, the broker link going up or down) is
submitted to the table loop as a ``device`` input with source ``spot:<n>``, so it is journaled
before anything acts on it; what a press means is decided in the core's step (``presses``), the
same way live and in replay. The driver's tracker applies each (device, seq) once; on start its
watermarks are restored from the presses already journaled, so a press the broker redelivers
after a controller restart is still a duplicate.

Lamps are a rendering of the table, published (retained) whenever what a spot should show
changes: ``open`` while bets are open, ``turn`` with the legal options on the box to act, ``off``
otherwise (a hold, cards being dealt, another box's turn), and after the round ``win``, ``lose``
or ``push`` with the box's net until the next round opens. A refused press changes no state, so
no lamp moves for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Self

from controller.games.base import ExpectKind
from controller.journal import Entry, Journal
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.loop import TableLoop
from controller.table.presses import lamp_options
from drivers.mqtt import MqttLink
from drivers.spots import SpotsSession

log = logging.getLogger(__name__)

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
    """What every spot's lamp should show now."""
    if core.engine is None:
        return {n: results.get(n, OFF) for n in spots}
    lamps = dict.fromkeys(spots, OFF)
    if core.hold is not None or core.keyin is not None:
        return lamps
    expect = core.engine.expects()
    if expect.kind is ExpectKind.BETS:
        return dict.fromkeys(lamps, ("open", "PLACE YOUR BETS"))
    if expect.kind is ExpectKind.DECISION and expect.box in lamps:
        lamps[expect.box] = ("turn", lamp_options(expect.options))
    return lamps


def last_presses(journal: Journal) -> tuple[dict[str, int], dict[str, Any] | None]:
    """The highest journaled press seq per device, and the last closed round's record."""
    seqs: dict[str, int] = {}
    last_round: dict[str, Any] | None = None
    for entry in journal.entries():
        if entry.kind == inputs.DEVICE and entry.payload.get("type") == "press":
            device, seq = str(entry.payload.get("device")), int(entry.payload.get("seq", 0))
            seqs[device] = max(seq, seqs.get(device, 0))
        elif entry.kind == inputs.ROUND_CLOSED:
            last_round = entry.payload
    return seqs, last_round


class TableSpots:
    """Run with ``async with``; it registers itself as a listener of ``loop``."""

    def __init__(self, loop: TableLoop, journal: Journal, broker: str, table: str, count: int,
                 client_id: str | None = None) -> None:
        self.loop = loop
        self.spots = tuple(range(1, count + 1))
        self.link = MqttLink(broker, client_id or f"croupier-{table}-spots", backoff_max=1.0)
        self.session = SpotsSession(self.link, table, self.spots)
        seqs, last_round = last_presses(journal)
        for device, seq in seqs.items():
            self.session.tracker.restore(device, seq)
        self._results: dict[int, Lamp] = round_lamps(last_round) if last_round else {}
        self._shown: dict[int, Lamp] = {}
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        self.loop.listeners.append(self)
        self.loop.quiet_hooks.append(self._show)
        self._show()
        await self.link.start()
        self._task = asyncio.create_task(self._pump(), name="spots")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self in self.loop.listeners:
            self.loop.listeners.remove(self)
        if self._show in self.loop.quiet_hooks:
            self.loop.quiet_hooks.remove(self._show)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.link.close(drain_timeout=1.0)

    async def _pump(self) -> None:
        async for event in self.session.events():
            payload = event.model_dump(mode="json")
            spot = payload.get("spot")
            self.loop.submit(inputs.DEVICE, payload, f"spot:{spot}" if spot is not None else "spots")

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
                self.session.lamp(spot, lamp[0], lamp[1])  # type: ignore[arg-type]
