"""What the dashboard remembers of the gaming day (docs/pit.md, "After a restart").

With a floor store (the back office's), a started dashboard first folds in the day so far, its
rounds and alerts, so tables, statistics and shifts show the same day as before the restart;
while the store cannot answer it tries again every ``RETRY_S``. Without one it has what the
feed brings from its start (and the rounds the broker kept for its session): the page says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from controller.floor.store import MAX_ROUNDS, BadQuery, FloorStore, RoundsQuery, StoreUnavailable
from controller.pit.model import FloorModel

log = logging.getLogger(__name__)
#: seconds the start waits for the store, and between two tries while it does not answer
WAIT_S = 5.0
RETRY_S = 15.0


class DayMemory:
    def __init__(self, store: FloorStore | None, started: float) -> None:
        self.store = store
        self.started = datetime.fromtimestamp(started, UTC).isoformat(timespec="seconds")
        #: the gaming day restored from the store (None: not yet, or no store)
        self.day: str | None = None
        self.error: str | None = None
        self._retry: asyncio.Task[None] | None = None

    def view(self) -> dict[str, Any]:
        """What the page says of the day it shows: ``from`` is ``store`` (the whole day) or
        ``start`` (since this dashboard started, ``since``)."""
        return {"from": "store" if self.day is not None else "start", "since": self.started, "day": self.day,
                "error": self.error}

    async def restore(self, model: FloorModel) -> None:
        """Fold the day so far into ``model`` (waiting ``WAIT_S`` at most; else retried aside)."""
        if self.store is None or await self._once(model):
            return
        self._retry = asyncio.create_task(self._again(model), name="pit day memory")

    async def _once(self, model: FloorModel) -> bool:
        store = self.store
        assert store is not None

        def read() -> tuple[Any, Any]:
            day = store.today()
            return store.rounds(RoundsQuery(day, limit=MAX_ROUNDS)), store.alerts(day)

        try:
            rounds, alerts = await asyncio.wait_for(asyncio.to_thread(read), WAIT_S)
        except (StoreUnavailable, BadQuery, TimeoutError) as exc:
            self.error = str(exc) or "the back office did not answer"
            log.warning("pit: the gaming day so far is not restored yet: %s", self.error)
            return False
        model.restore(rounds.records, alerts.records, datetime.now(UTC).timestamp())
        self.day, self.error = rounds.day.isoformat(), None
        return True

    async def _again(self, model: FloorModel) -> None:
        while True:
            await asyncio.sleep(RETRY_S)
            if await self._once(model):
                return

    async def close(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._retry
