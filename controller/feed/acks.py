"""Which journal entries the broker has acknowledged, from the link's public counters only.

MqttLink's outbox sends in order and drops a message only on its PUBACK, and the feed is the
only publisher on its link, so after ``sent`` messages with ``pending`` still queued, exactly
the first ``sent - pending`` have been acknowledged. An entry counts as delivered when the last
of its messages (its event, then its round or alert) is acknowledged: only then may the journal
cursor pass it.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

from controller.feed.messages import Message
from controller.feed.retained import Retained
from controller.feed.stats import FeedStats
from drivers.mqtt import MqttLink, OutboxFull


@dataclass(frozen=True, slots=True)
class _Sent:
    ordinal: int
    seq: int | None  # set on the last message of a journal entry
    retained: str | None  # set on a retained snapshot (state, prompt, ledger)


class AckTracker:
    def __init__(self) -> None:
        self._sent: deque[_Sent] = deque()
        self._count = 0
        self.acked_seq: int | None = None  # the newest journal entry fully acknowledged
        self.retained_in_flight: set[str] = set()
        #: counted as they are sent and settled (the feed asks per fill: no walk of the outbox)
        self._entries = 0
        self._retained: Counter[str] = Counter()

    def __len__(self) -> int:
        """Messages handed to the link and not yet acknowledged."""
        return len(self._sent)

    @property
    def entries_in_flight(self) -> int:
        return self._entries

    def acked_seq_or(self, default: int) -> int:
        return default if self.acked_seq is None else self.acked_seq

    def sent(self, *, seq: int | None = None, retained: str | None = None) -> None:
        self._count += 1
        self._sent.append(_Sent(self._count, seq, retained))
        if seq is not None:
            self._entries += 1
        if retained is not None:
            self._retained[retained] += 1
            self.retained_in_flight.add(retained)

    def settle(self, pending: int) -> bool:
        """Account for the link's ``pending`` count; True when ``acked_seq`` moved."""
        acknowledged = self._count - pending
        moved = False
        while self._sent and self._sent[0].ordinal <= acknowledged:
            done = self._sent.popleft()
            if done.seq is not None:
                self._entries -= 1
                self.acked_seq = done.seq
                moved = True
            if done.retained is not None:
                self._retained[done.retained] -= 1
                if not self._retained[done.retained]:
                    del self._retained[done.retained]
                    self.retained_in_flight.discard(done.retained)
        return moved


def publish_entry(link: MqttLink, acks: AckTracker, messages: list[Message], seq: int) -> bool:
    """All of one journal entry's messages to the link, counted, or none (False: the outbox is
    full); the last one carries the entry's ``seq``."""
    for i, message in enumerate(messages):
        last = i == len(messages) - 1
        try:
            link.publish(message.topic, message.payload, retain=message.retain)
        except OutboxFull:
            if i == 0:
                return False
            raise  # half an entry queued: give the link an outbox limit above the window
        acks.sent(seq=seq if last else None)
    return True


def publish_snapshots(link: MqttLink, acks: AckTracker, snapshots: Retained, stats: FeedStats) -> None:
    """Each coalesced retained snapshot not already in flight to the link, counted (until the
    outbox is full: the rest wait for the next round, newer by then)."""
    for topic in snapshots.topics():
        if topic in acks.retained_in_flight:
            continue
        payload = snapshots.payload(topic)
        if payload is None:
            stats.snapshots_unencodable += 1
            continue
        try:
            link.publish(topic, payload, retain=True)
        except OutboxFull:
            return
        acks.sent(retained=topic)
        snapshots.sent(topic)


def publish_live(link: MqttLink, acks: AckTracker, topic: str, payload: bytes, stats: FeedStats) -> None:
    """A live message (never retained, never replayed: an input's ``outcome``), counted; one the
    outbox cannot take now is dropped and counted in ``stats.outcomes_dropped``."""
    try:
        link.publish(topic, payload, retain=False)
    except OutboxFull:
        stats.outcomes_dropped += 1
        return
    acks.sent()
