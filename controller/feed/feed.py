"""The pit feed: a consumer of the journal that streams it to the pit boss, store-and-forward.

The journal is the store. The feed keeps at most ``window`` entries in the link's outbox and
reads the rest from the journal when there is room, so an outage of any length costs memory
for ``window`` entries, not for the outage. Its cursor (``journal.cursor("feed")``) passes an
entry only once the broker acknowledged the entry's last message, so a restart resumes from
the cursor: at-least-once, every duplicate carrying the same ``seq``.

Retained snapshots (``state``, ``prompt``, ``ledger``) are coalesced: at most one of each waits
in the outbox, and the newest value goes out when it has been acknowledged, so an outage
queues the latest state, not every state in between.

The journal's head goes out on the retained ``head`` topic (QoS 1) after every round record,
at least every ``HEAD_INTERVAL`` while the head moved, and on close: recorders off the table
(``croupier anchor``, the back office) keep every head they see, which later proves a rewrite
(``croupier verify-journal --against``). On connecting, the retained head the broker still
holds from the last run is compared with the journal: a journal cut short or rewritten since
is journaled as a ``journal.head_mismatch`` alert.

Refused pit commands are journaled here as ``alert`` entries (source ``pit-command``): a
refused input is a fact the pit must see even if the broker is away, and the journal is how
anything reaches the pit in order. Valid commands go to the table, which journals them.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from itertools import islice
from typing import Any

from controller.feed.acks import AckTracker
from controller.feed.commands import PitCommand, RecentIds, Refusal, parse_command
from controller.feed.ledger import Ledger
from controller.feed.messages import Message, Topics, encode, entry_messages, snapshot_message
from controller.journal import Entry, Journal, JournalFull, utc_now
from controller.runtime.admission import Admission
from controller.table.holds import ERROR, alert
from drivers.mqtt import MqttLink, OutboxFull, Outgoing, Received

log = logging.getLogger(__name__)

CURSOR = "feed"
LEDGER_CURSOR = "feed-ledger"  # the ledger's state, saved every LEDGER_SAVE_EVERY entries read
LEDGER_SAVE_EVERY = 1000
RECENT_COMMANDS = 10_000  # as many as RecentIds keeps
COMMAND_KIND = "pit_command"  # the kind the table journals a valid command under
REFUSAL_SOURCE = "pit-command"
COMMAND_QUEUE = 1000  # pit commands waiting to be read; beyond it a flood is dropped unread
PIT_SOURCE = "pit"  # the pit's rate-limit class: one bucket, whatever sender a command claims
PRESENT, PRESENT_NOT = b"1", b"0"  # the retained ``online`` topic (PROTOCOLS §4)
HEAD_INTERVAL = 60.0  # seconds: the head is published at least this often while it moves
HEAD_VERSION = 1
HEAD_MISMATCH = "journal.head_mismatch"
#: seconds after connecting the broker may take to deliver the last run's retained head; no
#: head of this run goes out before, so the check cannot be raced by this run's own head
HEAD_CHECK_WAIT = 2.0
ROUND_KIND = "round_closed"

CommandHandler = Callable[[PitCommand], Awaitable[None] | None]


@dataclass(slots=True)
class FeedStats:
    entries_sent: int = 0  # journal entries handed to the link (resends after a restart included)
    cursor: int = 0  # the newest entry the broker acknowledged
    lag: int = 0  # journal entries not yet acknowledged
    commands_delivered: int = 0
    commands_duplicate: int = 0
    commands_refused: int = 0
    handler_errors: int = 0


class Feed:
    """Run with ``async with feed:``; call ``notify()`` after each journal append."""

    #: the table's rate limit and refusal counter (controller/runtime/admission.py); when set, pit
    #: commands over the limit are dropped unparsed and refusals are journaled aggregated
    admission: Admission | None = None

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
        self._on_command = on_command
        self._window = window
        self._ack_tick = ack_tick
        self._poll_interval = poll_interval
        self._cursor_interval = cursor_interval
        self._commands = link.subscribe(self.topics.command, qos=1, limit=COMMAND_QUEUE)
        self._heads = link.subscribe(self.topics.head, qos=1, limit=10)
        self._head_sent = 0  # the seq of the newest head queued
        self._head_at = float("-inf")
        self.head_problem: str | None = None  # what the retained head said against the journal
        self._head_checked = False  # the last run's retained head was compared (or never came)
        self._acks = AckTracker()
        self._ledger = Ledger()
        self._seen = RecentIds()
        self._wake = asyncio.Event()
        self._sending = asyncio.Event()  # messages handed to the link since it last drained
        self._snapshots: dict[str, Message] = {}  # retained topic -> newest unsent value
        self._round: str | None = None  # the newest round in the journal, for snapshots without one
        self._round_seq = 0
        self._read_seq = 0  # the newest entry handed to the link
        self._saved_cursor = 0
        self._ledger_saved = 0  # the read position the ledger state was last saved at
        self._saved_at = float("-inf")  # the first save may happen at once
        self._tasks: list[asyncio.Task[None]] = []
        self.stats = FeedStats()

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

    def set_state(self, state: dict[str, Any]) -> None:
        """The retained ``state``, stamped with the journal's head (seq and chain hash): a witness
        outside the table against which a rewritten journal no longer verifies."""
        seq, digest = self.journal.head()
        self._snapshot(self.topics.state, {**state, "journal": {"seq": seq, "hash": digest}})

    def set_prompt(self, prompt: dict[str, Any]) -> None:
        self._snapshot(self.topics.prompt, prompt)

    def _snapshot(self, topic: str, body: dict[str, Any]) -> None:
        payload = encode(snapshot_message(self.table, self._round, utc_now(), body))  # raises here, in the caller
        self._snapshots[topic] = Message(topic, payload, retain=True)
        self._wake.set()

    @property
    def caught_up(self) -> bool:
        """Every journal entry so far, and the newest state, prompt and ledger, acknowledged."""
        return (
            not self._snapshots
            and len(self._acks) == 0
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
            asyncio.create_task(self._listen(), name=f"feed commands {self.table}"),
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
            self._seen.add(ident)
        self._read_seq = self._saved_cursor = self.stats.cursor = cursor
        self._queue_ledger()

    def _fold(self, entry: Entry) -> bool:
        self._note_round(entry)
        return self._ledger.apply(entry)

    def _note_round(self, entry: Entry) -> None:
        if entry.round_id is not None and entry.seq > self._round_seq:
            self._round, self._round_seq = entry.round_id, entry.seq

    def _queue_head(self, force: bool = False) -> None:
        """The journal's head as the retained ``head`` (coalesced like ``state``), if it moved;
        nothing until the retained head of the last run was compared."""
        if not self._head_checked:
            return
        seq, digest = self.journal.head()
        if digest is None or seq == self._head_sent or (not force and seq < self._head_sent):
            return
        body = {"v": HEAD_VERSION, "table": self.table, "seq": seq, "hash": digest, "ts": utc_now()}
        self._snapshots[self.topics.head] = Message(self.topics.head, encode(body), retain=True)
        self._head_sent, self._head_at = seq, time.monotonic()

    def _head_due(self) -> None:
        if time.monotonic() - self._head_at >= HEAD_INTERVAL:
            self._queue_head()

    async def _check_retained_head(self) -> None:
        """The retained head the broker delivers on subscribing (the last run's) against the
        journal; then this run's heads may go out."""
        try:
            await self.link.wait_connected()
            await asyncio.wait_for(self._compare_retained_head(), HEAD_CHECK_WAIT)
        except TimeoutError:
            pass  # no retained head (a new table, or a broker without persistence)
        finally:
            self._head_checked = True
            self.notify()

    async def _compare_retained_head(self) -> None:
        from controller.verify import parse_head

        async for item in self._heads:
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
            self.head_problem = problem
            log.error("feed %s: %s", self.table, problem)
            self.journal.append("alert", alert(ERROR, HEAD_MISMATCH, problem, 0), source="feed", round_id=self._round)
            self.notify()
            return

    def _queue_ledger(self) -> None:
        message = self._ledger.totals.message(self.table, utc_now())
        self._snapshots[self.topics.ledger] = Message(self.topics.ledger, encode(message), retain=True)

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
        """Account for acknowledgements; save the cursor at most every ``cursor_interval``
        (each save is a durable SQLite commit on the table's own journal)."""
        self._acks.settle(self.link.pending)
        acked = self._acks.acked_seq_or(self._saved_cursor)
        self.stats.cursor = acked
        self.stats.lag = max(0, self.journal.last_seq() - acked)
        if acked > self._saved_cursor and (force_save or self._save_due() <= 0):
            self.journal.set_cursor(CURSOR, acked)
            self._saved_cursor, self._saved_at = acked, time.monotonic()
        unsaved = self._read_seq - self._ledger_saved
        if (force_save and unsaved > 0) or unsaved >= LEDGER_SAVE_EVERY:
            self.journal.set_cursor(LEDGER_CURSOR, self._read_seq, self._ledger.state())
            self._ledger_saved = self._read_seq

    def _save_due(self) -> float:
        """Seconds until the cursor may be saved again."""
        return self._saved_at + self._cursor_interval - time.monotonic()

    def _fill(self) -> None:
        room = self._window - self._acks.entries_in_flight
        ledger_changed = False
        if room > 0:
            for entry in list(islice(self.journal.entries(after=self._read_seq), room)):
                messages = entry_messages(self.topics, entry)
                if not self._put_all(messages, entry.seq):
                    break
                self._read_seq = entry.seq
                self.stats.entries_sent += 1
                ledger_changed |= self._fold(entry)
                if entry.kind == ROUND_KIND:
                    self._queue_head()
        if ledger_changed:
            self._queue_ledger()
        self._head_due()
        for topic in list(self._snapshots):
            if topic not in self._acks.retained_in_flight:
                message = self._snapshots[topic]
                try:
                    self.link.publish(message.topic, message.payload, retain=True)
                except OutboxFull:
                    return
                self._acks.sent(retained=topic)
                del self._snapshots[topic]

    def _put_all(self, messages: list[Message], seq: int) -> bool:
        """All of an entry's messages or none (a bounded outbox could refuse midway)."""
        for i, message in enumerate(messages):
            last = i == len(messages) - 1
            try:
                self.link.publish(message.topic, message.payload, retain=message.retain)
            except OutboxFull:
                if i == 0:
                    return False
                raise  # half an entry queued: give the link an outbox limit above the window
            self._acks.sent(seq=seq if last else None)
        return True

    async def _wait(self) -> None:
        """Until an append, the link drained, an acknowledgement round, a cursor save falling
        due, or the safety poll (one wait on one event: this runs once per journal entry)."""
        timeout = self._poll_interval
        if len(self._acks):
            self._sending.set()
            timeout = self._ack_tick
        if self.stats.cursor > self._saved_cursor:
            timeout = min(timeout, max(self._save_due(), 0.0))
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

    # -- commands: pit -> table --------------------------------------------------------------------
    async def _listen(self) -> None:
        async for item in self._commands:
            if isinstance(item, Received):
                try:
                    await self._command(item)
                except Exception:
                    log.exception("feed %s: command on %s not handled", self.table, item.topic)

    async def _command(self, message: Received) -> None:
        if not message.payload:
            return  # how MQTT deletes a retained message, not a command
        if self.admission is not None and not self.admission.admit(PIT_SOURCE):
            self.stats.commands_refused += 1
            return
        parsed = parse_command(message.payload, retained=message.retain)
        if isinstance(parsed, Refusal):
            self._refuse(parsed)
            return
        if parsed.id in self._seen:
            self.stats.commands_duplicate += 1
            log.info("feed %s: command %s already handed on", self.table, parsed.id)
            return
        self._seen.add(parsed.id)
        self.stats.commands_delivered += 1
        if self._on_command is None:
            log.warning("feed %s: no handler for command %s", self.table, parsed.id)
            return
        try:
            result = self._on_command(parsed)
            if inspect.isawaitable(result):
                await result
        except Exception:
            self.stats.handler_errors += 1
            log.exception("feed %s: command handler failed on %s", self.table, parsed.id)

    def _refuse(self, refusal: Refusal) -> None:
        self.stats.commands_refused += 1
        if self.admission is not None:  # counted with the pit's other refusals, one alert a window
            self.admission.refused(PIT_SOURCE, "pit.command_refused", refusal.reason)
            return
        log.warning("feed %s: %s", self.table, refusal.reason)
        self.journal.append("alert", refusal.alert_payload(), source=REFUSAL_SOURCE, round_id=self._round)
        self.notify()
