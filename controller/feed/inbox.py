"""Pit commands as the feed receives them: admitted, parsed, deduplicated, handed to the table.

Refused pit commands are journaled as ``alert`` entries (source ``pit-command``): a refused
input is a fact the pit must see even if the broker is away, and the journal is how anything
reaches the pit in order. Valid commands go to the table, which journals them; each id is
handed on at most once (``RecentIds``, rebuilt from the journal on a start).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from controller.feed.commands import PitCommand, RecentIds, Refusal, parse_command
from controller.feed.stats import FeedStats
from controller.journal import Journal
from controller.runtime.admission import Admission
from drivers.mqtt import Received, Subscription

log = logging.getLogger(__name__)

REFUSAL_SOURCE = "pit-command"
PIT_SOURCE = "pit"  # the pit's rate-limit class: one bucket, whatever sender a command claims

CommandHandler = Callable[[PitCommand], Awaitable[None] | None]


class CommandInbox:
    """Reads the command subscription until cancelled (``listen``)."""

    def __init__(self, journal: Journal, table: str, commands: Subscription, stats: FeedStats,
                 on_command: CommandHandler | None, notify: Callable[[], None],
                 round_id: Callable[[], str | None]) -> None:
        self.journal = journal
        self.table = table
        self.commands = commands
        self.stats = stats
        self.on_command = on_command
        self.notify = notify  # a refusal was journaled: the pump has an entry to send
        self.round_id = round_id
        self.seen = RecentIds()
        #: the table's rate limit and refusal counter (controller/runtime/admission.py); when set,
        #: pit commands over the limit are dropped unparsed and refusals are journaled aggregated
        self.admission: Admission | None = None
        #: told the outcome of a command refused here (the feed's ``outcome`` topic)
        self.on_outcome: Callable[[dict[str, Any]], None] | None = None

    async def listen(self) -> None:
        async for item in self.commands:
            if isinstance(item, Received):
                try:
                    await self.command(item)
                except Exception:
                    log.exception("feed %s: command on %s not handled", self.table, item.topic)

    async def command(self, message: Received) -> None:
        if not message.payload:
            return  # how MQTT deletes a retained message, not a command
        if self.admission is not None and not self.admission.admit(PIT_SOURCE):
            self.stats.commands_refused += 1
            return
        parsed = parse_command(message.payload, retained=message.retain)
        if isinstance(parsed, Refusal):
            self.refuse(parsed)
            return
        if parsed.id in self.seen:
            self.stats.commands_duplicate += 1
            log.info("feed %s: command %s already handed on", self.table, parsed.id)
            return
        self.seen.add(parsed.id)
        self.stats.commands_delivered += 1
        if self.on_command is None:
            log.warning("feed %s: no handler for command %s", self.table, parsed.id)
            return
        try:
            result = self.on_command(parsed)
            if inspect.isawaitable(result):
                await result
        except Exception:
            self.stats.handler_errors += 1
            log.exception("feed %s: command handler failed on %s", self.table, parsed.id)

    def refuse(self, refusal: Refusal) -> None:
        self.stats.commands_refused += 1
        if self.on_outcome is not None:
            self.on_outcome(refusal.outcome())
        if self.admission is not None:  # counted with the pit's other refusals, one alert a window
            self.admission.refused(PIT_SOURCE, "pit.command_refused", refusal.reason)
            return
        log.warning("feed %s: %s", self.table, refusal.reason)
        self.journal.append("alert", refusal.alert_payload(), source=REFUSAL_SOURCE, round_id=self.round_id())
        self.notify()
