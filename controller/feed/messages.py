"""Topic names and message shapes of the pit feed (PROTOCOLS §4). Pure: no I/O, no clock.

Every message carries ``v``, ``table``, ``round`` and ``ts``; every message derived from a
journal entry also carries that entry's ``seq``, so a consumer can drop the duplicates that
at-least-once delivery allows after a crash.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from controller.journal import Entry

VERSION = 1
ROUND_CLOSED = "round_closed"
REMOTE_SETTLED = "remote_settled"
ALERT = "alert"


@dataclass(frozen=True, slots=True)
class Topics:
    table: str

    def _topic(self, leaf: str) -> str:
        return f"croupier/{self.table}/{leaf}"

    @property
    def event(self) -> str:
        return self._topic("event")

    @property
    def round(self) -> str:
        return self._topic("round")

    @property
    def alert(self) -> str:
        return self._topic("alert")

    @property
    def ledger(self) -> str:
        return self._topic("ledger")

    @property
    def state(self) -> str:
        return self._topic("state")

    @property
    def prompt(self) -> str:
        return self._topic("prompt")

    @property
    def command(self) -> str:
        return self._topic("command")

    @property
    def betting(self) -> str:
        """The open round's betting status for the studio (retained, docs/studio.md)."""
        return self._topic("betting")

    @property
    def outcome(self) -> str:
        """What became of each input the table applied (QoS 1, never retained; docs/protocols.md)."""
        return self._topic("outcome")

    @property
    def studio(self) -> str:
        """The studio's seal and totals for a remote table (docs/studio.md)."""
        return self._topic("studio")

    @property
    def head(self) -> str:
        """The journal's head (retained): ``{"v":1,"table","seq","hash","ts"}`` (controller/feed/feed.py)."""
        return self._topic("head")

    @property
    def online(self) -> str:
        """Presence (retained): ``1`` while the controller is connected, ``0`` as its last will."""
        return self._topic("online")


@dataclass(frozen=True, slots=True)
class Message:
    """One MQTT publication (QoS 1)."""

    topic: str
    payload: bytes
    retain: bool = False


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def event_message(table: str, entry: Entry) -> dict[str, Any]:
    return {
        "v": VERSION,
        "table": table,
        "round": entry.round_id,
        "ts": entry.ts,
        "seq": entry.seq,
        "kind": entry.kind,
        "source": entry.source,
        "payload": entry.payload,
    }


def record_message(table: str, entry: Entry) -> dict[str, Any]:
    """A ``round`` or ``alert`` message: the entry's own fields, the envelope filled in where the
    payload leaves it out, and the entry's ``seq`` always (it is the dedupe key)."""
    envelope = {"v": VERSION, "table": table, "round": entry.round_id, "ts": entry.ts}
    return {**envelope, **entry.payload, "seq": entry.seq}


def entry_messages(topics: Topics, entry: Entry, proof: dict[str, Any] | None = None) -> list[Message]:
    """Everything one journal entry publishes, in order: its event, then its round or alert.

    A corrected round's ``proof`` (``proof.correction_proof``) rides in its message as
    ``journal``, after a retained ``head`` at the record's own row, so that a reader without
    the journal key has a head to hold the rows against (docs/protocols.md, "Corrections")."""
    out = [Message(topics.event, encode(event_message(topics.table, entry)))]
    if entry.kind == ROUND_CLOSED and proof is not None and entry.hash is not None:
        head = {"v": VERSION, "table": topics.table, "seq": entry.seq, "hash": entry.hash, "ts": entry.ts}
        out.append(Message(topics.head, encode(head), retain=True))
        out.append(Message(topics.round, encode({**record_message(topics.table, entry), "journal": proof})))
    elif entry.kind == ROUND_CLOSED:
        out.append(Message(topics.round, encode(record_message(topics.table, entry))))
    elif entry.kind == ALERT:
        out.append(Message(topics.alert, encode(record_message(topics.table, entry))))
    return out


def snapshot_message(table: str, round_id: str | None, ts: str, body: dict[str, Any]) -> dict[str, Any]:
    """A retained ``state`` or ``prompt``: the table's dict under the feed's envelope (the
    dict's own ``round`` wins, since the table knows its round better than the feed)."""
    return {**body, "v": VERSION, "table": table, "round": body.get("round", round_id), "ts": ts}
