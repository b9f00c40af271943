"""The retained snapshots waiting to go out (``state``, ``prompt``, ``ledger``, ``head``), coalesced.

At most one value per topic waits; a newer one replaces it. The table hands the feed a new
``state`` and ``prompt`` on every change of its prompt (every card), while the feed has at most
one of each in flight, so most are replaced before they are sent: they are kept as given (a
body, or how to build it) and built and encoded only when sent. A body that cannot be built or
encoded is logged, counted and dropped there; the values after it and the journal's entries
still go out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.feed.messages import encode, snapshot_message

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    body: dict[str, Any] | Callable[[], dict[str, Any]]
    round_id: str | None
    ts: str


class Retained:
    """Topic -> the newest unsent value: a snapshot body (encoded when taken) or a payload."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._waiting: dict[str, _Snapshot | bytes] = {}

    def put(self, topic: str, body: dict[str, Any] | Callable[[], dict[str, Any]], round_id: str | None,
            ts: str) -> None:
        """A table's snapshot under the feed's envelope (``snapshot_message``), stamped ``ts``;
        ``body`` may be how to build it, called only if it is still the newest when sent."""
        self._waiting[topic] = _Snapshot(body, round_id, ts)

    def put_payload(self, topic: str, payload: bytes) -> None:
        self._waiting[topic] = payload

    def __len__(self) -> int:
        return len(self._waiting)

    def topics(self) -> list[str]:
        return list(self._waiting)

    def payload(self, topic: str) -> bytes | None:
        """The waiting value of ``topic`` encoded (None, and dropped, if its body is not JSON)."""
        value = self._waiting[topic]
        if isinstance(value, bytes):
            return value
        try:
            body = value.body() if callable(value.body) else value.body
            payload = encode(snapshot_message(self.table, value.round_id, value.ts, body))
        except Exception as exc:  # noqa: BLE001 - a bad snapshot must not stop the feed's entries
            log.error("feed %s: the %s snapshot could not be built as JSON, dropped: %r", self.table, topic, exc)
            del self._waiting[topic]
            return None
        self._waiting[topic] = payload  # sent or not, it is not encoded twice
        return payload

    def sent(self, topic: str) -> None:
        del self._waiting[topic]
