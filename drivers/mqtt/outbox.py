"""The link's outbound queue: a message leaves it only once the broker acknowledged it, so
whatever was published while the broker was away goes out after reconnect, in order."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass

from drivers.errors import DeviceUnavailable


@dataclass(frozen=True)
class Outgoing:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


class OutboxFull(DeviceUnavailable):
    """The outbox is at its limit (the broker has been away that long): the caller decides (the
    feed, for one, catches up from its journal)."""


class Outbox:
    def __init__(self, limit: int | None = None) -> None:
        self._items: deque[Outgoing] = deque()
        self._limit = limit
        self._nonempty = asyncio.Event()
        self._empty = asyncio.Event()
        self._empty.set()

    def __len__(self) -> int:
        return len(self._items)

    def put(self, message: Outgoing) -> None:
        if self._limit is not None and len(self._items) >= self._limit:
            raise OutboxFull(f"{len(self._items)} messages waiting for the broker")
        self._items.append(message)
        self._nonempty.set()
        self._empty.clear()

    async def head(self) -> Outgoing:
        """The oldest unacknowledged message, left in place until ``ack``."""
        while not self._items:
            self._nonempty.clear()
            await self._nonempty.wait()
        return self._items[0]

    def ack(self, message: Outgoing) -> None:
        if self._items and self._items[0] is message:
            self._items.popleft()
        if not self._items:
            self._nonempty.clear()
            self._empty.set()

    async def drained(self) -> None:
        await self._empty.wait()
