"""A real table on the floor: its loop's pit feed on the broker, its pit commands journaled as
the table app journals them (controller/process.py)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from controller.feed import Feed
from controller.process import FeedListener
from controller.table import inputs
from tests.fixtures.mosquitto import MosquittoBroker


@contextlib.asynccontextmanager
async def on_the_floor(harness: Any, broker: MosquittoBroker, table: str) -> AsyncIterator[Feed]:
    def on_command(command: Any) -> None:
        harness.loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    async with Feed.connect(broker.tcp_url(), harness.journal, table, on_command, backoff_max=0.5) as feed:
        harness.loop.listeners.append(FeedListener(feed))
        yield feed
