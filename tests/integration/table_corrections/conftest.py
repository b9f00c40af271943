"""The blackjack table harness (tests/integration/table) with ``[table] burn_on_new_shoe`` set:
config file, journal on disk, the stacked simulated shoe on its pty behind the CSP/1 driver."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import load
from tests.integration.table.conftest import Harness, write_config


@pytest.fixture
async def burn_table(tmp_path: Path) -> AsyncIterator[Any]:
    made: list[Harness] = []

    async def make(*, burn: int = 0, **kwargs: Any) -> Harness:
        path = write_config(tmp_path, table={"burn_on_new_shoe": burn}, **kwargs)
        h = Harness(load(path))
        await h.start()
        made.append(h)
        return h

    yield make
    for h in made:
        await h.stop()
