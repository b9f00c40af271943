"""The feed's side of the studio (docs/studio.md): the retained ``betting`` leaf the studio reads,
and the ``studio`` topic a remote table reads the studio's seal and totals from.

A studio message is bounded (4 KiB, depth 3) and read into its model (controller/commands/
studio.py) before the table sees it; a refused one is counted with the table's refusals (one
alert per window, source ``studio``), never journaled as an input; each id is handed on once
(a redelivery after a reconnect is not journaled twice), and the table journals what it is
handed before acting on it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from itertools import islice
from typing import Any

from controller.commands.studio import STUDIO, StudioInput, read_studio
from controller.feed.commands import RecentIds
from controller.feed.feed import Feed
from controller.journal import Journal
from controller.jsonbound import InputRefused
from controller.runtime.admission import Admission
from controller.table import inputs, view
from controller.table.core import TableCore
from drivers.mqtt import Received

log = logging.getLogger(__name__)
#: studio messages waiting to be read; beyond it a flood is dropped unread (and counted by the link)
STUDIO_QUEUE = 100
RECENT = 10_000

StudioHandler = Callable[[StudioInput], Any]


class BettingLeaf:
    """Publishes the retained ``betting`` leaf when the open round's betting status changes."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self._last: tuple[Any, ...] | None = None
        self._seats = -1

    def seats_moved(self, core: TableCore) -> None:
        """After each step: a seat taken or left changes no prompt at an idle table, and the studio
        reads the seats in the leaf (what it sent and does not see there, it sends again)."""
        if core.seats.serial != self._seats:
            self.update(core)

    def update(self, core: TableCore) -> None:
        desk = core.betting
        seats = core.seats  # with remote players seated, every card and decision: a page draws the hands
        self._seats = seats.serial
        key = (desk.round_id, desk.status, desk.seq, desk.deadline, desk.time, seats.serial,
               core.serial if seats.seats else 0)
        if key != self._last:
            self._last = key
            self.feed.put_retained(self.feed.topics.betting, view.betting(core))


class StudioInbox:
    """Reads the studio topic until closed (``async with``); create it before the feed starts."""

    def __init__(self, feed: Feed, journal: Journal, on_message: StudioHandler, admission: Admission) -> None:
        self.table = feed.table
        self.subscription = feed.link.subscribe(feed.topics.studio, qos=1, limit=STUDIO_QUEUE)
        self.on_message = on_message
        self.admission = admission
        self.seen = RecentIds(RECENT)
        ids = [e.payload.get("id") for e in islice(journal.latest(inputs.STUDIO), RECENT)]
        for ident in reversed(ids):
            if isinstance(ident, str):
                self.seen.add(ident)
        self.handed = self.refused = 0
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> StudioInbox:
        self._task = asyncio.create_task(self.listen(), name=f"studio inbox {self.table}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def listen(self) -> None:
        async for item in self.subscription:
            if isinstance(item, Received):
                try:
                    self.receive(item.payload, retained=item.retain)
                except Exception:
                    log.exception("studio inbox %s: message on %s not handled", self.table, item.topic)

    def receive(self, payload: bytes, *, retained: bool = False) -> None:
        """One message off the wire: refused (counted, one alert a window), a duplicate, or handed on."""
        if not payload:
            return  # how MQTT deletes a retained message
        if not self.admission.admit(STUDIO):
            self.refused += 1
            return
        try:
            if retained:  # it would be taken again on every resubscription
                raise InputRefused("input.retained", "retained studio message (publish without the retain flag)")
            message = read_studio(payload)
        except InputRefused as refused:
            self.refused += 1
            self.admission.refused(STUDIO, "studio.message_refused", refused.message)
            return
        if message.id in self.seen:
            return
        self.seen.add(message.id)
        self.handed += 1
        self.on_message(message)
