"""What the dashboard's web face needs of the process behind it (``PitServer``), as a protocol:
the web module depends on this, not on the server that builds it, so the two do not import
each other."""

from __future__ import annotations

from collections import deque
from typing import Protocol

from controller.auth import Accounts
from controller.floor.edges import Edges
from controller.pit.answers import CommandAnswers
from controller.pit.metrics import PitMetrics
from controller.pit.model import FloorModel, TableModel
from drivers.mqtt import MqttLink


class PitBackend(Protocol):
    accounts: Accounts
    #: what the pages show money in when a table's state names no currency
    currency: tuple[str, int]
    model: FloorModel
    link: MqttLink
    answers: CommandAnswers
    metrics: PitMetrics | None
    #: seconds from a message's ``ts`` to its being folded into the model
    lags: deque[float]

    async def floor_text(self, kind: str | None = None) -> str: ...

    async def edges(self, model: TableModel) -> Edges | None: ...

    def lag_percentiles(self) -> dict[str, float | int | None]: ...
