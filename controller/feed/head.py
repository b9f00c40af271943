"""The journal's head as the feed's retained ``head`` topic, and the check of the last run's.

The head goes out (QoS 1, retained) after every round record, at least every ``HEAD_INTERVAL``
while it moved, and on close: recorders off the table (``croupier anchor``, the back office)
keep every head they see, which later proves a rewrite (``croupier verify-journal --against``).
On connecting, the retained head the broker still holds from the last run is compared with the
journal: a journal cut short or rewritten since is journaled as a ``journal.head_mismatch``
alert. No head of this run goes out before that comparison, so it cannot be raced by this
run's own head.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from controller.feed.messages import Message, encode
from controller.feed.retained import Retained
from controller.journal import Journal, utc_now
from controller.table.holds import ERROR, alert
from drivers.mqtt import LinkItem, Received

log = logging.getLogger(__name__)

HEAD_INTERVAL = 60.0  # seconds: the head is published at least this often while it moves
HEAD_VERSION = 1
HEAD_MISMATCH = "journal.head_mismatch"
#: seconds after connecting the broker may take to deliver the last run's retained head
HEAD_CHECK_WAIT = 2.0


class HeadWitness:
    """What the feed publishes of the journal's head, and what the broker held of the last one."""

    def __init__(self, journal: Journal, table: str, topic: str) -> None:
        self.journal = journal
        self.table = table
        self.topic = topic
        self._sent = 0  # the seq of the newest head queued
        self._at = float("-inf")
        self.problem: str | None = None  # what the retained head said against the journal
        self.checked = False  # the last run's retained head was compared (or never came)

    def message(self, force: bool = False) -> Message | None:
        """The journal's head as the retained message to queue, if it moved (None until the
        last run's retained head was compared)."""
        if not self.checked:
            return None
        seq, digest = self.journal.head()
        if digest is None or seq == self._sent or (not force and seq < self._sent):
            return None
        body = {"v": HEAD_VERSION, "table": self.table, "seq": seq, "hash": digest, "ts": utc_now()}
        self._sent, self._at = seq, time.monotonic()
        return Message(self.topic, encode(body), retain=True)

    def due(self) -> Message | None:
        """The head, if ``HEAD_INTERVAL`` passed since the last one went out and it moved."""
        return self.message() if time.monotonic() - self._at >= HEAD_INTERVAL else None

    def queue(self, retained: Retained, force: bool = False) -> None:
        """The head into ``retained`` (coalesced like ``state``), if it moved."""
        message = self.message(force)
        if message is not None:
            retained.put_payload(message.topic, message.payload)

    def queue_due(self, retained: Retained) -> None:
        message = self.due()
        if message is not None:
            retained.put_payload(message.topic, message.payload)

    async def check(self, connected: Callable[[], Awaitable[None]], heads: AsyncIterator[LinkItem],
                    round_id: Callable[[], str | None]) -> None:
        """The retained head the broker delivers on subscribing (the last run's) against the
        journal (``connected`` is awaited first); then this run's heads may go out."""
        try:
            await connected()
            await asyncio.wait_for(self._compare(heads, round_id), HEAD_CHECK_WAIT)
        except TimeoutError:
            pass  # no retained head (a new table, or a broker without persistence)
        finally:
            self.checked = True

    async def _compare(self, heads: AsyncIterator[LinkItem], round_id: Callable[[], str | None]) -> None:
        from controller.verify import parse_head

        async for item in heads:
            if not isinstance(item, Received) or not item.retain or not item.payload:
                continue
            try:
                head = parse_head(json.loads(item.payload))
            except ValueError:
                head = None
            if head is None or head.table != self.table:
                continue
            found, digest = self.journal.hash_at(head.seq)
            if not found:
                problem = (f"the broker's retained journal head is seq {head.seq} ({head.ts}) but the journal ends at "
                           f"seq {self.journal.last_seq()}: rows were cut off (or this is another table's journal)")
            elif digest != head.hash:
                problem = (f"row {head.seq} of the journal is not the one published as the head at {head.ts}: "
                           "the journal was rewritten or replaced")
            else:
                return  # it matches: the journal holds what was published
            self.problem = problem
            log.error("feed %s: %s", self.table, problem)
            self.journal.append("alert", alert(ERROR, HEAD_MISMATCH, problem, 0), source="feed", round_id=round_id())
            return
