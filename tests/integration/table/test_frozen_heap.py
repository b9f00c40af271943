"""A running table keeps what its start made out of the collector's full passes (a full
collection over it stalled the event loop for 45-75 ms, a card then waiting as long), and a
stopped one gives it back (controller/heap.py)."""

from __future__ import annotations

import gc
import io
from pathlib import Path

from controller.config import load
from tests.integration.table.conftest import running_table, write_config


async def test_a_running_table_has_its_start_frozen_and_a_stopped_one_not(tmp_path: Path) -> None:
    config = load(write_config(tmp_path, stacked=None))
    assert gc.get_freeze_count() == 0
    async with running_table(config, io.StringIO()):
        assert gc.get_freeze_count() > 10_000  # the modules, the config, the table, its devices
    assert gc.get_freeze_count() == 0
