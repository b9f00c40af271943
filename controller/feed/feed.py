"""The pit feed: a consumer of the journal that streams it to the pit boss, store-and-forward.

The journal is the store. The feed keeps at most ``window`` entries in the link's outbox and
reads the rest from the journal when there is room, so an outage of any length costs memory
for ``window`` entries, not for the outage. Its cursor (``journal.cursor("feed")``) passes an
entry only once the broker acknowledged the entry's last message, so a restart resumes from
the cursor: at-least-once, every duplicate carrying the same ``seq``.

Retained snapshots (``state``, ``prompt``, ``ledger``) are coalesced: at most one of each waits
in the outbox, and the newest value goes out when it has been acknowledged, so an outage
queues the latest state, not every state in between.

The journal's head goes out on the retained ``head`` topic and the last run's retained head is
checked against the journal (``head.HeadWitness``); pit commands are admitted, parsed and handed
to the table once per id (``inbox.CommandInbox``); retained snapshots wait coalesced and are
encoded only when sent (``retained.Retained``). A corrected round's message carries the journal
rows that back it, after a retained head at its own row (``proof.correction_proof``), never
before the last run's retained head was compared.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from itertools import islice
from typing import Any

from controller.feed.acks import AckTracker, publish_entry, publish_live, publish_snapshots
from controller.feed.cursors import CursorSaver
from controller.feed.head import HEAD_CHECK_WAIT, HEAD_INTERVAL, HEAD_MISMATCH, HEAD_VERSION, HeadWitness
from controller.feed.inbox import PIT_SOURCE, REFUSAL_SOURCE, CommandHandler, CommandInbox
from controller.feed.ledger import Ledger
from controller.feed.messages import Topics, encode, entry_messages, snapshot_message
from controller.feed.proof import correction_proof
from controller.feed.retained import Retained
from controller.feed.stats import FeedStats
from controller.journal import Entry, Journal, JournalFull, utc_now
from controller.runtime.admission import Admission
from drivers.mqtt import MqttLink, Outgoing

log = logging.getLogger(__name__)

CURSOR = "feed"
LEDGER_CURSOR = "feed-ledger"  # the ledger's state, saved every LEDGER_SAVE_EVERY entries read
LEDGER_SAVE_EVERY = 1000
RECENT_COMMANDS = 10_000  # as many as RecentIds keeps
COMMAND_KIND = "pit_command"  # the kind the table journals a valid command under
COMMAND_QUEUE = 1000  # pit commands waiting to be read; beyond it a flood is dropped unread
PRESENT, PRESENT_NOT = b"1", b"0"  # the retained ``online`` topic (PROTOCOLS §4)
ROUND_KIND = "round_closed"
__all__ = ["CURSOR", "HEAD_CHECK_WAIT", "HEAD_INTERVAL", "HEAD_MISMATCH", "HEAD_VERSION", "LEDGER_CURSOR",
           "PIT_SOURCE", "REFUSAL_SOURCE", "CommandHandler", "Feed", "FeedStats"]


class Feed:
    """Run with ``async with feed:``; call ``notify()`` after each journal append."""

    def __init__(
        self,
        journal: Journal,
        link: MqttLink,
        table: str,
        on_command: CommandHandler | None = None,
        *,
        window: int = 200,
        ack_tick: float = 0.25,
        poll_interval: float = 5.0,
        cursor_interval: float = 0.5,
    ) -> None:
        """``link`` must be this feed's alone (its own client id), not yet started: the feed
        subscribes to the command topic on it and counts acknowledgements from its outbox.
        ``poll_interval`` is a safety net for an append nobody notified, not the normal path."""
        self.journal = journal
        self.link = link
        self.topics = Topics(table)
        self.table = table
        self._window = window
        self._ack_tick = ack_tick
        self._poll_interval = poll_interval
        self.stats = FeedStats()
        self._heads = link.subscribe(self.topics.head, qos=1, limit=10)
        self._head = HeadWitness(journal, table, self.topics.head)
        self._inbox = CommandInbox(journal, table, link.subscribe(self.topics.command, qos=1, limit=COMMAND_QUEUE),
                                   self.stats, on_command, self.notify, lambda: self._round)
        self._acks = AckTracker()
        self._ledger = Ledger()
        self._wake = asyncio.Event()
        self._sending = asyncio.Event()  # messages handed to the link since it last drained
        self._snapshots = Retained(table)  # retained topic -> newest unsent value
        self._round: str | None = None  # the newest round in the journal, for snapshots without one
        self._round_seq = 0
        self._read_seq = 0  # the newest entry handed to the link
        self._saved_cursor = 0
        self._ledger_saved = 0  # the read position the ledger state was last saved at
        self._cursors = CursorSaver(journal, cursor_interval)
        self._tasks: list[asyncio.Task[None]] = []
        self._inbox.on_outcome = self.put_outcome  # a command refused here is answered on outcome too

    @property
    def admission(self) -> Admission | None:
        """The table's rate limit and refusal counter (controller/runtime/admission.py); when set,
        pit commands over the limit are dropped unparsed and refusals are journaled aggregated."""
        return self._inbox.admission

    @admission.setter
    def admission(self, admission: Admission | None) -> None:
        self._inbox.admission = admission

    @property
    def head_problem(self) -> str | None:
        """What the broker's retained head (the last run's) said against the journal, if anything."""
        return self._head.problem

    @classmethod
    def connect(cls, url: str, journal: Journal, table: str, on_command: CommandHandler | None = None,
                **options: Any) -> Feed:
        """A feed on its own link, client id ``croupier-<table>-feed`` (kept across restarts so
        the broker holds commands sent while the controller was away). The link announces the
        table's presence: a retained ``online`` of ``1`` on every connection and ``0`` as its
        last will, so a controller killed outright shows offline within the keepalive."""
        link_options = {k: options.pop(k) for k in ("backoff_min", "backoff_max", "keepalive") if k in options}
        online = Topics(table).online
        link = MqttLink(url, f"croupier-{table}-feed", will=Outgoing(online, PRESENT_NOT, 1, True),
                        birth=Outgoing(online, PRESENT, 1, True), **link_options)
        return cls(journal, link, table, on_command, **options)

    # -- the table's side --------------------------------------------------------------------------
    def notify(self) -> None:
        """New journal entries are waiting."""
        self._wake.set()

    def set_state(self, state: dict[str, Any] | Callable[[], dict[str, Any]]) -> None:
        """The retained ``state``, stamped with the journal's head (seq and chain hash): a witness
        outside the table against which a rewritten journal no longer verifies. Given how to
        build it (the table hands one on every change of its prompt, and most are replaced
        before they are sent), it is built and stamped only when sent."""
        if callable(state):
            build = state
            self.put_retained(self.topics.state, lambda: self._stamped(build()))
        else:
            self.put_retained(self.topics.state, self._stamped(state))

    def _stamped(self, state: dict[str, Any]) -> dict[str, Any]:
        seq, digest = self.journal.head()
        return {**state, "journal": {"seq": seq, "hash": digest}}

    def put_outcome(self, outcome: dict[str, Any]) -> None:
        """What became of an input (one the table applied, a pit command refused here), on
        ``outcome`` (QoS 1): live only, never replayed after a restart (the journal keeps the
        input and any refusal's alert)."""
        message = snapshot_message(self.table, self._round, utc_now(), outcome)
        publish_live(self.link, self._acks, self.topics.outcome, encode(message), self.stats)

    def set_prompt(self, prompt: dict[str, Any]) -> None:
        self.put_retained(self.topics.prompt, prompt)

    def put_retained(self, topic: str, body: dict[str, Any] | Callable[[], dict[str, Any]]) -> None:
        """A retained snapshot of the table on ``topic`` (``state``, ``prompt``, ``betting``), coalesced."""
        self._snapshots.put(topic, body, self._round, utc_now())
        self._wake.set()

    @property
    def caught_up(self) -> bool:
        """Every journal entry so far, and the newest state, prompt and ledger, acknowledged (and
        no cursor waiting to be saved)."""
        return (
            not self._snapshots
            and len(self._acks) == 0
            and not self._cursors.waiting()
            and self._acks.acked_seq_or(self._saved_cursor) >= self.journal.last_seq()
        )

    async def wait_caught_up(self, poll: float = 0.05) -> None:
        while not self.caught_up:
            await asyncio.sleep(poll)

    # -- lifecycle ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild from the journal (in a thread, on its own connection: a long journal must not
        stall the table's devices), then connect and run."""
        if self.journal.path == ":memory:":
            self._rebuild(self.journal)
        else:
            await asyncio.to_thread(self._rebuild_from_file)
        await self.link.start()
        self._tasks = [
            asyncio.create_task(self._pump(), name=f"feed {self.table}"),
            asyncio.create_task(self._inbox.listen(), name=f"feed commands {self.table}"),
            asyncio.create_task(self._check_retained_head(), name=f"feed head {self.table}"),
            asyncio.create_task(self._watch_drained(), name=f"feed acks {self.table}"),
        ]

    async def close(self, drain_timeout: float = 2.0) -> None:
        """Give the backlog ``drain_timeout`` to go out, save the cursor, close the link."""
        self._queue_head(force=True)
        if drain_timeout > 0:
            try:
                await asyncio.wait_for(self.wait_caught_up(), drain_timeout)
            except TimeoutError:
                behind = self.journal.last_seq() - self.stats.cursor
                log.warning("feed %s: closing %d entries behind", self.table, behind)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._tasks = []
        if self.link.connected:  # a clean DISCONNECT does not fire the will: say it ourselves
            self.link.publish(self.topics.online, PRESENT_NOT, retain=True)
        # Drained first, so the link is not cancelled in the middle of a publish: on Python 3.11
        # asyncio.wait_for can swallow a cancellation that meets a PUBACK, and the link then hangs.
        await self.link.close(drain_timeout=max(drain_timeout, 0.1))
        self._settle(force_save=True)  # the outbox outlives the link task: its count is still true

    async def __aenter__(self) -> Feed:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _rebuild_from_file(self) -> None:
        with Journal(self.journal.path) as reader:
            self._rebuild(reader)

    def _rebuild(self, journal: Journal) -> None:
        """Ledger and command ids from the journal up to the cursor; the pump continues from there.
        The ledger starts from the state saved beside the cursor (``LEDGER_CURSOR``), so a start
        reads the entries since that save, not the journal (folding a round again is harmless:
        the ledger counts a round's latest record once)."""
        cursor = journal.cursor(CURSOR)
        saved, state = journal.cursor_state(LEDGER_CURSOR)
        start = 0
        if state is not None:
            self._ledger = Ledger.from_state(state)
            start = self._ledger_saved = min(saved, cursor)
        for entry in journal.entries(after=start):
            if entry.seq <= cursor:
                self._fold(entry)
            else:
                self._note_round(entry)
        # Commands journaled after the cursor must not run twice either: the newest ones, oldest first.
        recent = [e.payload["id"] for e in islice(journal.latest(COMMAND_KIND), RECENT_COMMANDS)
                  if isinstance(e.payload.get("id"), str)]
        for ident in reversed(recent):
            self._inbox.seen.add(ident)
        self._read_seq = self._saved_cursor = self.stats.cursor = cursor
        self._queue_ledger()

    def _fold(self, entry: Entry) -> bool:
        self._note_round(entry)
        return self._ledger.apply(entry)

    def _note_round(self, entry: Entry) -> None:
        if entry.round_id is not None and entry.seq > self._round_seq:
            self._round, self._round_seq = entry.round_id, entry.seq

    def _queue_head(self, force: bool = False) -> None:
        """The journal's head as the retained ``head`` (coalesced like ``state``), if it moved."""
        self._head.queue(self._snapshots, force)

    async def _check_retained_head(self) -> None:
        """The last run's retained head against the journal; then this run's heads may go out."""
        try:
            await self._head.check(self.link.wait_connected, self._heads, lambda: self._round)
        finally:
            self.notify()

    def _queue_ledger(self) -> None:
        message = self._ledger.totals.message(self.table, utc_now())
        self._snapshots.put_payload(self.topics.ledger, encode(message))

    # -- the pump: journal -> outbox ---------------------------------------------------------------
    async def _pump(self) -> None:
        while True:
            self._wake.clear()  # before reading: an append during the wait below sets it again
            try:
                self._settle()
                self._fill()
            except JournalFull as exc:  # the table holds on it too; the cursor is saved once space returns
                log.warning("feed %s: %s; retrying", self.table, exc)
                await asyncio.sleep(1.0)
                continue
            except Exception:  # e.g. a locked journal: the entries stay there, try again shortly
                log.exception("feed %s: pump failed; retrying", self.table)
                await asyncio.sleep(1.0)
                continue
            await self._wait()

    def _settle(self, force_save: bool = False) -> None:
        """Account for acknowledgements; save the cursors (``cursors.CursorSaver``)."""
        self._acks.settle(self.link.pending)
        acked = self._acks.acked_seq_or(self._saved_cursor)
        self.stats.cursor = acked
        self.stats.lag = max(0, self.journal.last_seq() - acked)
        if acked > self._saved_cursor and (force_save or self._cursors.due_in() <= 0):
            self._cursors.save(CURSOR, acked, now=force_save, timed=True)
            self._saved_cursor = acked
        unsaved = self._read_seq - self._ledger_saved
        if (force_save and unsaved > 0) or unsaved >= LEDGER_SAVE_EVERY:
            self._cursors.save(LEDGER_CURSOR, self._read_seq, self._ledger.state(), now=force_save)
            self._ledger_saved = self._read_seq
        self._cursors.flush(force_save)

    def _fill(self) -> None:
        room = self._window - self._acks.entries_in_flight
        ledger_changed = False
        if room > 0:
            for entry in list(islice(self.journal.entries(after=self._read_seq), room)):
                proof = correction_proof(self.journal, entry) if entry.kind == ROUND_KIND else None
                if proof is not None and not self._head.checked:
                    break  # its retained head must not go out before the last run's was compared
                messages = entry_messages(self.topics, entry, proof)
                if not publish_entry(self.link, self._acks, messages, entry.seq):
                    break
                self._read_seq = entry.seq
                self.stats.entries_sent += 1
                ledger_changed |= self._fold(entry)
                if entry.kind == ROUND_KIND:
                    self._queue_head()
        if ledger_changed:
            self._queue_ledger()
        self._head.queue_due(self._snapshots)
        publish_snapshots(self.link, self._acks, self._snapshots, self.stats)

    async def _wait(self) -> None:
        """Until an append, the link drained, an acknowledgement round, a cursor save falling
        due, or the safety poll (one wait on one event: this runs once per journal entry)."""
        timeout = self._poll_interval
        if len(self._acks):
            self._sending.set()
            timeout = self._ack_tick
        if self.stats.cursor > self._saved_cursor:
            timeout = min(timeout, max(self._cursors.due_in(), 0.0))
        if self._cursors.waiting():
            timeout = min(timeout, max(self._cursors.ride_left(), 0.0))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._wake.wait()

    async def _watch_drained(self) -> None:
        """Wakes the pump each time the link's outbox drains after messages were handed to it
        (every acknowledgement in: the cursor may pass, a coalesced snapshot may go out)."""
        while True:
            await self._sending.wait()
            await self.link.drained()
            self._sending.clear()
            if self.link.pending:  # more went out meanwhile: watch those too
                self._sending.set()
            self._wake.set()
